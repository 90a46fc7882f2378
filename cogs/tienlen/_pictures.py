"""The pictures on Discord: the board image in the board's embed, the hand image above the hand's
buttons, and the server's on/off setting. Drawing happens in `cogs.pictures`, off the event loop;
when a picture cannot be drawn (or a server turned pictures off) the messages are text only."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

import discord

from cogs import glossary, pictures, words
from cogs.i18n import Words
from cogs.pictures import BoardView, BoardWords, HandView
from cogs.tables import GameResults, LiveTable, Player, TablePhase
from data import HandPrefs
from data.prefs import DEFAULT_PREFS

from . import _render as render
from . import selection as sel

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
# An interaction must be answered within 3 s: a picture for an answer gets this long, else the
# answer goes out as text (the picture is still drawn and cached for the next time).
ANSWER_BUDGET = 1.0


async def _within(budget: float | None, drawing: Awaitable[bytes | None]) -> bytes | None:
    if budget is None:
        return await drawing
    try:
        return await asyncio.wait_for(drawing, budget)
    except TimeoutError:
        log.info("card pictures: a picture took over %.1f s; answering with text", budget)
        return None


class ImageSetting:
    """Whether each server wants pictures (default on), read from the store once per server."""

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self._known: dict[int, bool] = {}

    async def enabled(self, guild_id: int) -> bool:
        if not self.bot.settings.CARD_PICTURES:
            return False
        known = self._known.get(guild_id)
        if known is None:
            settings = await self.bot.store.get_guild_settings(guild_id)
            known = self._known[guild_id] = settings.images is not False
        return known

    def remember(self, guild_id: int, images: bool | None) -> None:
        self._known[guild_id] = images is not False


def board_view(live: LiveTable) -> BoardView | None:
    """What the board picture shows, or ``None`` when there is no game to show."""
    game = live.game
    if live.table.status != "open" or live.phase is TablePhase.LOBBY or game is None:
        return None
    chips: list[int] | None = None
    if live.phase is TablePhase.FINISHED and isinstance(live.results, GameResults):
        by_player = {p.player: p.chips for p in live.results.places}
        chips = [by_player.get(Player.of(seat), 0) for seat in live.seats]
    w = render.table_words(live)
    names, keeps = seat_names(w, live)
    return pictures.board_view(game, names, table=live.id, stake=live.table.stake,
                               away=live.auto, chips=chips, words=board_words(w), keeps=keeps)


def revealed_view(live: LiveTable, results: GameResults) -> BoardView | None:
    """The game-over picture of ``results``: the final table with every card still held face
    up (lật bài), or ``None`` when that game is no longer at hand (the seats changed)."""
    game = live.game
    if (game is None or not game.is_over or results.game_id != live.game_id
            or len(live.seats) != game.seat_count):
        return None
    by_player = {p.player: p.chips for p in results.places}
    chips = [by_player.get(Player.of(seat), 0) for seat in live.seats]
    w = render.table_words(live)
    names, keeps = seat_names(w, live)
    return pictures.board_view(game, names, table=live.id, stake=live.table.stake, chips=chips,
                               reveal=True, words=board_words(w), keeps=keeps)


def seat_names(w: Words, live: LiveTable) -> tuple[list[str], list[str]]:
    """The names drawn on a board in ``w``'s language and, by seat, the end of each name kept
    whole when it is cut: a computer is "Máy 2 (khó)", whose "(khó)" stays."""
    names, keeps = [], []
    for seat in live.seats:
        level = words.computer_level(seat.name) if seat.user_id is None else None
        if level is None:
            names.append(seat.name)
            keeps.append("")
            continue
        names.append(words.player(w, Player.of(seat)))
        keeps.append(glossary.level(w, level))
    return names, keeps


def board_words(w: Words) -> BoardWords:
    """The words drawn on a board picture, in the table's language."""
    return BoardWords(
        header=w._("Table #{table} · stake {stake}", table="{table}", stake="{stake}"),
        to_beat=w._("To beat"),
        played_by=w._("by {name}", name="{name}"),
        new_lead=w._("New lead"),
        game_over=w._("Game over"),
        exchange=w._("Card exchange"),
        passed=w._("PASSED"),
        away=w._("AWAY"),
        out=w._("OUT"),
        last_card=w._("1 CARD!"),
        two_cards=w._("2 CARDS!"),
        won_trick=w._("{name} won the trick", name="{name}"),
        places=tuple(glossary.place(w, n) for n in range(1, 9)),
        group="".join(c for c in w.num(1000) if not c.isdigit()) or ",",
    )


def alt_text(w: Words, view: BoardView) -> str:
    """The board picture described in words (its alt text, read by screen readers)."""
    parts = []
    for i, seat in enumerate(view.seats):
        marks = [m for m, on in ((w._("to play"), seat.turn), (w._("passed"), seat.passed),
                                 (w._("away"), seat.away)) if on]
        if seat.place is not None:
            marks.append(view.words.place(seat.place))
        cards = w.ngettext("{n} card", "{n} cards", seat.cards)
        if marks:
            parts.append(w._("{number}. {player}: {cards} ({marks})", number=i + 1,
                             player=seat.name, cards=cards, marks=", ".join(marks)))
        else:
            parts.append(w._("{number}. {player}: {cards}", number=i + 1, player=seat.name,
                             cards=cards))
    return w._("Table #{table}: {seats}", table=view.table,
               seats="; ".join(parts))[:1024]  # Discord's limit


def hand_view(live: LiveTable, seat: int, mask: int, prefs: HandPrefs = DEFAULT_PREFS
              ) -> HandView:
    """The hand picture of ``seat``: its cards in its owner's order (``prefs``: by rank or by
    suit, and the four-colour deck), the selected ones raised."""
    game = live.game
    assert game is not None
    cards = prefs.arrange(game.hand(seat), live.rules.suit_order)
    codes = sel.hand_codes(cards)
    mask = sel.clean_mask(cards, mask)
    return HandView(tuple(cards), tuple(bool(mask >> code & 1) for code in codes),
                    prefs.four_colour)


class BoardPicture:
    """A drawn board picture; :meth:`files` makes fresh file objects for each request (discord.py
    closes a file once it has been sent)."""

    def __init__(self, png: bytes | None, alt: str) -> None:
        self.png, self.alt = png, alt

    def files(self) -> list[discord.File]:
        if self.png is None:
            return []
        return [discord.File(io.BytesIO(self.png), filename=BOARD_FILE, description=self.alt)]


async def board_picture(bot: TienLenBot, live: LiveTable, budget: float | None = None
                        ) -> BoardPicture:
    """The board picture of ``live`` (no picture: text only); ``budget``: at most this many
    seconds (for an interaction's answer)."""
    view = board_view(live)
    if view is None or not await bot.image_setting.enabled(live.table.guild_id):
        return BoardPicture(None, "")
    return BoardPicture(await _within(budget, bot.pictures.board(view)),
                        alt_text(render.table_words(live), view))


async def hand_files(bot: TienLenBot, live: LiveTable, seat: int, mask: int, w: Words,
                     budget: float | None = ANSWER_BUDGET) -> list[discord.File]:
    """The hand picture as a file to attach (empty: text only, when the server or its owner
    turned pictures off), described in ``w``."""
    prefs = await bot.hands.load_prefs(live.seats[seat].user_id)
    if not prefs.pictures or not await bot.image_setting.enabled(live.table.guild_id):
        return []
    png = await _within(budget, bot.pictures.hand(hand_view(live, seat, mask, prefs)))
    if png is None:
        return []
    return [discord.File(io.BytesIO(png), filename=HAND_FILE, description=w._("Your hand"))]


def with_board_image(payload: dict[str, Any], picture: BoardPicture) -> dict[str, Any]:
    """Point the board's embed at its picture (when there is one)."""
    embed = payload.get("embed")
    if picture.png is not None and isinstance(embed, discord.Embed):
        embed.set_image(url=f"attachment://{BOARD_FILE}")
    return payload
