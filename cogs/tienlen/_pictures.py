"""The pictures on Discord: the board image in the board's embed, the hand image above the hand's
buttons, and the server's on/off setting. Drawing happens in `cogs.pictures`, off the event loop;
when a picture cannot be drawn (or a server turned pictures off) the messages are text only.

No picture twice: :class:`PictureMemory` remembers, for each message (the board of a table, the
hand of a person), the picture it shows (its key and Discord's attachment); :func:`plan` decides
what an edit carries: the attachment kept by its id when the picture did not change, a new file
when a new picture is ready, the old attachment kept while the new one is drawn (the drawing's
``ready`` brings it in the next edit), nothing (text) when there is no picture."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import discord

from cogs import glossary, pictures, words
from cogs.i18n import N_, Words
from cogs.i18n import words as words_of
from cogs.pictures import BoardView, BoardWords, HandView
from cogs.pictures.service import Wanted
from cogs.tables import GameResults, LiveTable, Player, TablePhase
from data import HandPrefs
from data.prefs import DEFAULT_PREFS
from engine import Card

from . import _render as render

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
HAND_FILE = "hand.png"
PICTURE_WAIT = 0.5
"""Seconds a refresh that answers no one (the board publisher, a live hand's edit) waits for a
picture being drawn before it goes with the picture the message already shows."""


SETTLE_WAIT = 1.0
"""Seconds an edit waits at most for another edit of the same message that is in flight (an
HTTP request, not a drawing) before it uploads its picture instead of keeping one by id."""


@dataclass(frozen=True, slots=True)
class Shown:
    """The picture a message shows: its key and Discord's attachment."""

    message_id: int
    key: str
    attachment: discord.Attachment


class PictureMemory:
    """The picture each message shows, by slot (("board", table), ("hand", table, person));
    bounded (the oldest slots are forgotten: their next edit uploads again)."""

    def __init__(self, limit: int = 20_000) -> None:
        self.limit = limit
        self._shown: OrderedDict[Hashable, Shown] = OrderedDict()
        self._sending: dict[Hashable, int] = {}
        self._settling: dict[Hashable, list[asyncio.Future[None]]] = {}
        self.uploads = 0
        self.kept = 0

    def get(self, slot: Hashable, message_id: int | None,
            current: Sequence[discord.Attachment] | None = None) -> Shown | None:
        """What the message ``message_id`` shows for ``slot``; ``current``: the message's
        attachments as Discord just gave them (an attachment no longer there is not kept)."""
        shown = self._shown.get(slot)
        if (shown is None or message_id is None or shown.message_id != message_id
                or self._sending.get(slot)):  # an edit in flight may replace that attachment
            return None
        if current is not None and all(a.id != shown.attachment.id for a in current):
            return None
        return shown

    @contextlib.contextmanager
    def sending(self, slot: Hashable) -> Iterator[None]:
        """An edit of the message ``slot`` is in flight: another edit planned meanwhile keeps
        nothing by id (this one may drop it; see `settled`)."""
        self._sending[slot] = self._sending.get(slot, 0) + 1
        try:
            yield
        finally:
            left = self._sending[slot] - 1
            if left:
                self._sending[slot] = left
            else:
                del self._sending[slot]
                for waiter in self._settling.pop(slot, []):
                    if not waiter.done():
                        waiter.set_result(None)

    async def settled(self, slot: Hashable, seconds: float = SETTLE_WAIT) -> None:
        """Wait (at most ``seconds``) until no edit of ``slot`` is in flight, so that the next
        edit knows which attachment the message holds (and keeps it instead of uploading the
        same picture again)."""
        if not self._sending.get(slot):
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._settling.setdefault(slot, []).append(waiter)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(waiter, seconds)

    def in_flight(self, slot: Hashable) -> bool:
        return bool(self._sending.get(slot))

    def set(self, slot: Hashable, shown: Shown | None) -> None:
        self._shown.pop(slot, None)
        if shown is not None:
            self._shown[slot] = shown
            while len(self._shown) > self.limit:
                self._shown.popitem(last=False)

    def key_of(self, slot: Hashable) -> str | None:
        shown = self._shown.get(slot)
        return None if shown is None else shown.key

    def __len__(self) -> int:
        return len(self._shown)


@dataclass(frozen=True, slots=True)
class Plan:
    """What an edit carries for its picture: ``attachments`` (files to upload or attachments
    kept by id; empty: none), ``pictured`` (the message shows a picture: the text is short),
    ``key`` (the picture it will show), ``fresh`` (a new file is uploaded)."""

    slot: Hashable
    attachments: list[discord.File | discord.Attachment]
    pictured: bool
    key: str | None
    filename: str
    wanted: Wanted | None = None
    """The picture wanted (it may still be being drawn)."""

    @property
    def fresh(self) -> bool:
        return any(isinstance(a, discord.File) for a in self.attachments)

    @property
    def waiting(self) -> bool:
        """The message will not show the wanted picture yet (it is being drawn)."""
        return (self.wanted is not None and not self.wanted.failed
                and self.key != self.wanted.key)


def plan(slot: Hashable, shown: Shown | None, wanted: Wanted | None, filename: str,
         description: str | Callable[[], str]) -> Plan:
    """The picture part of an edit, given what the message shows and the picture wanted
    (``None``: no picture, e.g. pictures are off); ``description``: the picture's alt text, or
    what writes it (only for a new file: a picture kept by its id keeps its own)."""
    if wanted is None or wanted.failed:
        return Plan(slot, [], False, None, filename, wanted)
    if shown is not None and shown.key == wanted.key:  # unchanged: keep it
        return Plan(slot, [shown.attachment], True, shown.key, filename, wanted)
    if wanted.png is not None:
        if callable(description):
            description = description()
        file = discord.File(io.BytesIO(wanted.png), filename=filename, description=description)
        return Plan(slot, [file], True, wanted.key, filename, wanted)
    if shown is not None:  # being drawn: the old picture stays until the next edit brings it
        return Plan(slot, [shown.attachment], True, shown.key, filename, wanted)
    return Plan(slot, [], False, None, filename, wanted)


def sent(bot: TienLenBot, picture: Plan, message: Any) -> None:
    """The edit or message carrying ``picture`` reached Discord as ``message`` (a
    discord.Message, or None when Discord's answer did not include it): remember what it
    shows."""
    memory = bot.picture_memory
    if picture.key is None:
        memory.set(picture.slot, None)
        bot.pictures.shown(picture.slot, None)
        return
    if picture.fresh:
        memory.uploads += 1
    else:
        memory.kept += 1
    attachment = shown_attachment(message, picture.filename)
    if (attachment is None or not isinstance(getattr(message, "id", None), int)
            or memory.in_flight(picture.slot)):  # another edit may land after this one
        memory.set(picture.slot, None)  # unknown: the next edit uploads it again
        return
    memory.set(picture.slot, Shown(message.id, picture.key, attachment))
    bot.pictures.shown(picture.slot, picture.key)


def shown_attachment(message: Any, filename: str) -> discord.Attachment | None:
    """The attachment ``filename`` that ``message`` shows, to keep it by id in a later edit.
    Discord leaves the attachments a message's components (or embeds) show out of its
    ``attachments``: a V2 message's picture is found through its media item's
    ``attachment_id``."""
    for attachment in getattr(message, "attachments", None) or []:
        if attachment.filename == filename:
            return attachment  # type: ignore[no-any-return]
    state = getattr(message, "_state", None)
    # in the layout's order (the picture comes right after the first text, the buttons last)
    stack = list(reversed(getattr(message, "components", None) or []))
    while stack and state is not None:
        component = stack.pop()
        stack.extend(reversed(getattr(component, "children", None) or ()))
        media = [getattr(item, "media", None) for item in getattr(component, "items", None) or ()]
        media.append(getattr(component, "media", None))  # a thumbnail
        for item in media:
            aid = getattr(item, "attachment_id", None)
            url = str(getattr(item, "url", "") or "")
            if aid and url.split("?", 1)[0].endswith("/" + filename):
                return discord.Attachment(state=state, data={
                    "id": aid, "filename": filename, "size": 0, "url": url,
                    "proxy_url": str(getattr(item, "proxy_url", None) or url)})
    return None


def board_slot(live: LiveTable) -> tuple[str, int]:
    return ("board", live.id)


def hand_slot(table_id: int, user_id: int) -> tuple[str, int, int]:
    return ("hand", table_id, user_id)


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
                               away=live.auto, chips=chips, words=board_words(w, len(live.seats)),
                               keeps=keeps)


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
                               reveal=True, words=board_words(w, len(live.seats)), keeps=keeps)


def seat_names(w: Words, live: LiveTable) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The names drawn on a board in ``w``'s language and, by seat, the end of each name kept
    whole when it is cut: a computer is "Máy 2 (khó)", whose "(khó)" stays."""
    return _seat_names(w.lang, tuple((seat.name, seat.user_id is None) for seat in live.seats))


@lru_cache(maxsize=1024)
def _seat_names(lang: str, seats: tuple[tuple[str, bool], ...]
                ) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """`seat_names` by the seats' names (and whether a computer holds each): made once per
    table and language, not on every board (a computer's name is translated, 70 µs a board)."""
    w = words_of(lang)
    names, keeps = [], []
    for name, computer in seats:
        level = words.computer_level(name) if computer else None
        if level is None:
            names.append(name)
            keeps.append("")
            continue
        names.append(words.player(w, Player(name, None)))
        keeps.append(glossary.level(w, level))
    return tuple(names), tuple(keeps)


def board_words(w: Words, seats: int | None = None) -> BoardWords:
    """The words drawn on a board picture, in the table's language (made once per language
    and number of seats: every board of a table asks for them)."""
    return _board_words(w.lang, seats)


@lru_cache(maxsize=32)
def _board_words(lang: str, seats: int | None) -> BoardWords:
    w = words_of(lang)
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
        places=tuple(glossary.place(w, n, of=seats) for n in range(1, 9)),  # the last: bét
        group="".join(c for c in w.num(1000) if not c.isdigit()) or ",",
    )


def alt_text(w: Words, view: BoardView) -> str:
    """The board picture described in words (its alt text, read by screen readers)."""
    parts = []
    for i, seat in enumerate(view.seats):
        marks = [w._(mark) for mark, on in ((N_("to play"), seat.turn),
                                            (N_("passed"), seat.passed),
                                            (N_("away"), seat.away)) if on]
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


def hand_view(live: LiveTable, seat: int, prefs: HandPrefs = DEFAULT_PREFS) -> HandView:
    """The hand picture of ``seat``: the cards it holds in its owner's order (``prefs``: by rank
    or by suit, and the four-colour deck). The selection is not drawn: the card buttons (blue)
    and the status line show it at once, so the picture changes only when the cards held do
    (a card press keeps the picture on screen by its id: nothing drawn, nothing uploaded, no
    second edit to bring a raised card a moment after the button turned blue)."""
    game = live.game
    assert game is not None
    return held_view(live, game.hand(seat), prefs)


def held_view(live: LiveTable, held: Sequence[Card], prefs: HandPrefs) -> HandView:
    """The hand picture of the cards ``held`` at ``live``, in their owner's order."""
    cards = prefs.arrange(held, live.rules.suit_order)
    return HandView(tuple(cards), four_colour=prefs.four_colour)


async def board_picture(bot: TienLenBot, live: LiveTable, *, wait: float = 0.0,
                        current: Sequence[discord.Attachment] | None = None,
                        ready: Callable[[str], None] | None = None, new: bool = False) -> Plan:
    """The picture part of the board's next edit (no picture: text only). ``wait``: seconds
    to wait for a picture being drawn (0 for an interaction's answer: it never waits);
    ``current``: the board message's attachments as Discord just gave them; ``ready``: called
    once a picture being drawn is done (its next edit brings it); ``new``: for a new board
    message (nothing to keep)."""
    slot = board_slot(live)
    view = board_view(live)
    if view is None or not await bot.image_setting.enabled(live.table.guild_id):
        return plan(slot, None, None, BOARD_FILE, "")
    wanted = bot.pictures.want("board", view, slot)
    if not wanted.ready and wait > 0:
        wanted = await bot.pictures.wait(wanted, wait)
    if not wanted.ready and ready is not None:
        bot.pictures.on_ready(wanted, ready)
    if not new:
        await bot.picture_memory.settled(slot)
    shown = None if new else bot.picture_memory.get(slot, live.table.board_message_id, current)
    return plan(slot, shown, wanted, BOARD_FILE,
                lambda: alt_text(render.table_words(live), view))


async def hand_picture(bot: TienLenBot, live: LiveTable, seat: int, w: Words,
                       user_id: int, message_id: int | None, *, wait: float = 0.0,
                       current: Sequence[discord.Attachment] | None = None,
                       ready: Callable[[str], None] | None = None) -> Plan:
    """The picture part of a hand's next drawing, described in ``w`` (see `board_picture`);
    ``message_id``: the hand message it edits (None: a new message)."""
    slot = hand_slot(live.id, user_id)
    prefs = await bot.hands.load_prefs(user_id)  # the owner's deck, order and pictures
    if not prefs.pictures or not await bot.image_setting.enabled(live.table.guild_id):
        return plan(slot, None, None, HAND_FILE, "")
    wanted = bot.pictures.want("hand", hand_view(live, seat, prefs), slot, extra=w.lang)
    if not wanted.ready and wait > 0:
        wanted = await bot.pictures.wait(wanted, wait)
    if not wanted.ready and ready is not None:
        bot.pictures.on_ready(wanted, ready)
    if message_id is not None:
        await bot.picture_memory.settled(slot)
    shown = bot.picture_memory.get(slot, message_id, current)
    return plan(slot, shown, wanted, HAND_FILE, w._("Your hand"))


async def hand_ahead(bot: TienLenBot, live: LiveTable, w: Words, user_id: int,
                     held: Sequence[Card]) -> None:
    """Draw now the picture of the cards ``held`` (the hand once the selection is played):
    the answer to Play then finds it drawn and carries it, instead of going with the picture
    before the play and a second edit bringing the new one (an answer never waits for a
    drawing). Its own slot, so that it never takes a message's place in the pool's queue."""
    if bot.pictures.pool is None:  # drawn in the event loop's thread: only when needed
        return
    prefs = await bot.hands.load_prefs(user_id)
    if not prefs.pictures or not await bot.image_setting.enabled(live.table.guild_id):
        return
    bot.pictures.want("hand", held_view(live, held, prefs), ("ahead", live.id, user_id),
                      extra=w.lang)


def board_ready(bot: TienLenBot, live: LiveTable) -> Callable[[str], None]:
    """What to do once a board picture being drawn is done: edit the board again, unless it
    shows that picture already."""

    def ready(key: str) -> None:
        if live.table.status != "open" or bot.picture_memory.key_of(board_slot(live)) == key:
            return
        live.board_rendered = -1  # the picture is news to the board: edit it again
        bot.table_service.request_board(live)

    return ready


class HandPictures:
    """The live hands' pictures (`cogs.tienlen.hands.LiveHands.picture`)."""

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot

    async def plan(self, live: LiveTable, hand: Any, seat: int, *, wait: float = 0.0,
                   message_id: int | None = None, new: bool = False) -> Plan:
        """The picture part of ``hand``'s next drawing; a picture being drawn comes with the
        hand's next refresh."""
        hands = self.bot.hands

        def ready(key: str) -> None:
            hands.picture_ready(live, hand, key)

        return await hand_picture(self.bot, live, seat, words_of(hand.lang),
                                  hand.user_id,
                                  None if new else (message_id or hand.message_id), wait=wait,
                                  ready=ready)

    async def ahead(self, live: LiveTable, hand: Any, held: Sequence[Card]) -> None:
        """Draw the picture ``hand`` will show once it holds only ``held`` (see
        `hand_ahead`)."""
        await hand_ahead(self.bot, live, words_of(hand.lang), hand.user_id, held)

    def sending(self, picture: Plan) -> contextlib.AbstractContextManager[None]:
        return self.bot.picture_memory.sending(picture.slot)

    def sent(self, picture: Plan, message: Any) -> None:
        sent(self.bot, picture, message)

    def behind(self, picture: Plan) -> bool:
        """The message went without the wanted picture, which is ready by now."""
        return (picture.waiting and picture.wanted is not None
                and self.bot.pictures.known(picture.wanted).ready)

    def shows(self, table_id: int, user_id: int, key: str) -> bool:
        return self.bot.picture_memory.key_of(hand_slot(table_id, user_id)) == key
