"""The game-over post: a NEW channel message when a game ends, which notifies the seated people
(and only them) and stays in the channel's history: places, each chip change and its reasons,
each person's new balance and every card still held (lật bài), with pictures on a picture of the
final table with the hands turned face up.

Sent exactly once per game: the table service records it in the store once Discord has it
(`TableService.game_over_posted`), and the message goes with a nonce (discord.py asks Discord to
enforce it), so a restart between the send and that record gets the first message back instead
of a second one.

Its buttons are built in one place, :func:`game_over_view`: **Replay**, answered by
cogs.history.
"""

from __future__ import annotations

import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs import words
from cogs.history._views import replay_button
from cogs.i18n import Words
from cogs.tables import GameResults, LiveTable

from . import _pictures as pictures
from . import _render as render
from ._views import SentView

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.tienlen.gameover")

GAME_OVER_FILE = "game-over.png"
EMBED_LIMIT = 4096  # Discord's limit of an embed's description


def nonce(game_id: int) -> str:
    """The post's nonce (at most 25 characters): one per game, so Discord keeps one message."""
    return f"tl-over-{game_id}"


def game_over_view(live: LiveTable, results: GameResults) -> discord.ui.View | None:
    """The buttons under the game-over post (None: no buttons): **Replay** of the game just
    finished (its viewer is private; cogs.history answers it)."""
    view = SentView()
    if results.game_id is not None:
        view.add_item(replay_button(results.game_id, render.table_words(live)))
    return view if view.children else None


def mentioned(results: GameResults) -> discord.AllowedMentions:
    """The post notifies the seated people of the game, and nobody else."""
    users = [discord.Object(p.player.user_id) for p in results.places
             if p.player.user_id is not None]
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


def _mention(user_id: int) -> str:
    return f"<@{user_id}>"


def rating_lines(w: Words, results: GameResults) -> list[str]:
    """Each rated person's rating change (a ranked game; nothing for a casual one)."""
    changes = [
        w._("{player}: {before} → {after} ({change})", player=_mention(p.player.user_id),
            before=w.num(p.rating[0]), after=w.num(p.rating[1]),
            change=w.signed(p.rating[1] - p.rating[0]))
        for p in results.places if p.rating is not None and p.player.user_id is not None
    ]
    return ["", w._("**Rating:**"), *changes] if changes else []


def game_over_message(live: LiveTable, results: GameResults, *,
                      pictured: bool = False) -> dict[str, Any]:
    """kwargs of the post (content with the mentions, the embed, allowed mentions, view)."""
    w = render.table_words(live)
    assert results.game_id is not None
    description = "\n".join([*words.game_over_lines(w, results), *rating_lines(w, results)])
    embed = discord.Embed(title=w._("Game over — table #{table}", table=live.id),
                          description=description[:EMBED_LIMIT], colour=render.GOLD)
    if pictured:
        embed.set_image(url=f"attachment://{GAME_OVER_FILE}")
    return {
        "content": words.game_over_call(w, live.id, results),
        "embed": embed,
        "allowed_mentions": mentioned(results),
        "view": game_over_view(live, results),
    }


async def game_over_picture(bot: TienLenBot, live: LiveTable,
                            results: GameResults) -> list[discord.File]:
    """The final table with every hand face up, as a file (empty: text only)."""
    view = pictures.revealed_view(live, results)
    if view is None or not await bot.image_setting.enabled(live.table.guild_id):
        return []
    png = await bot.pictures.board(view)
    if png is None:
        return []
    alt = pictures.alt_text(render.table_words(live), view)
    return [discord.File(io.BytesIO(png), filename=GAME_OVER_FILE, description=alt)]


async def post_game_over(bot: TienLenBot, live: LiveTable, results: GameResults) -> None:
    """Post the game-over message of ``results`` and record it (once per game)."""
    service = bot.table_service
    game_id = results.game_id
    assert game_id is not None
    files = await game_over_picture(bot, live, results)
    payload = game_over_message(live, results, pictured=bool(files))
    channel_id = live.table.channel_id
    channel = bot.get_partial_messageable(channel_id)
    await service.rest.acquire(channel_id, urgent=True)
    try:
        # discord.py sends a nonce with enforce_nonce: Discord answers a second send of the
        # same nonce (a restart before the record below) with the first message
        message = await channel.send(**{k: v for k, v in payload.items() if v is not None},
                                     files=files, nonce=nonce(game_id))
    except (discord.Forbidden, discord.NotFound) as error:
        # The channel is gone or closed to the bot: the board's own failure closes the table.
        log.warning("table %s: the game-over post could not be sent (HTTP %s)", live.id,
                    error.status, extra=live.log_extra)
        return
    await service.game_over_posted(live, game_id)
    log.info("table %s: game %s announced (message %s)", live.id, game_id, message.id,
             extra=live.log_extra)
