"""The board publisher: puts a table's board on screen (edits it in place, or posts a new one),
passes "the table changed" on to the live hands, and posts and removes turn reminders.

The bot builds it and hands it to the table service, which calls it (coalesced, after a slot of
the bot's REST budget) after changes. Every further request it makes (a repost, emptying an old
board, a turn reminder and its deletion, a direct message) waits for its own slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from cogs import words
from cogs.tables import BoardUnavailable, LiveTable

from . import _pictures as pictures
from . import _render as render

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.tienlen.board")

TOO_OLD_TO_EDIT = 30046  # Discord's error code for an edit of a message that is too old


def _unavailable(error: discord.HTTPException) -> BoardUnavailable:
    return BoardUnavailable(error.status, error.code)


@dataclass(frozen=True, slots=True)
class Reminder:
    """A standing turn reminder: a channel message that mentions the person on turn."""

    channel_id: int
    message_id: int
    version: int
    """The game version it was posted at: any later change removes it."""


class BoardPublisher:
    """The table service's publisher for a running bot."""

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self.reminders: dict[int, Reminder] = {}
        """At most one standing reminder per table."""
        self.reminders_sent = 0
        self._tasks: set[asyncio.Task[Any]] = set()

    def table_changed(self, live: LiveTable) -> None:
        self.bot.hands.table_changed(live)
        standing = self.reminders.get(live.id)
        game = live.game
        if standing is not None and (game is None or game.version != standing.version
                                     or not live.playing or live.table.status != "open"):
            del self.reminders[live.id]
            self._spawn(self._delete(standing))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _delete(self, reminder: Reminder) -> None:
        channel = self.bot.get_partial_messageable(reminder.channel_id)
        await self.bot.table_service.rest.acquire(reminder.channel_id)
        try:
            await channel.get_partial_message(reminder.message_id).delete()
        except discord.NotFound:
            pass
        except discord.HTTPException as error:
            log.warning("a turn reminder could not be deleted (%s)", error.status)

    async def remind_turn(self, live: LiveTable, seat: int, seconds_left: int) -> None:
        """Post a new channel message that mentions (and so notifies) only the person on turn;
        Discord notifies nobody for a mention added by an edit, so the board cannot do this."""
        user_id = live.seats[seat].user_id
        game = live.game
        if user_id is None or game is None:
            return
        version = game.version
        old = self.reminders.pop(live.id, None)
        if old is not None:
            await self._delete(old)
        channel = self.bot.get_partial_messageable(live.table.channel_id)
        await self.bot.table_service.rest.acquire(channel.id, urgent=True)
        message = await channel.send(
            words.turn_reminder(render.table_words(live), user_id, seconds_left),
            allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)]),
        )
        self.reminders_sent += 1
        game = live.game
        if game is None or game.version != version or not live.playing:
            await self._delete(Reminder(channel.id, message.id, version))  # acted meanwhile
            return
        self.reminders[live.id] = Reminder(channel.id, message.id, version)

    async def publish_board(self, live: LiveTable) -> None:
        bot = self.bot
        service = bot.table_service
        channel_id = live.table.channel_id
        budget = service.rest
        channel = bot.get_channel(channel_id)
        if channel is None:
            await budget.acquire(None)
            try:
                channel = await bot.fetch_channel(channel_id)
            except (discord.Forbidden, discord.NotFound) as error:
                raise _unavailable(error) from None
        assert isinstance(channel, discord.abc.Messageable)
        picture = await pictures.board_picture(bot, live)
        payload = pictures.with_board_image(
            render.board(live, pictured=picture.png is not None), picture)
        old = live.table.board_message_id
        if old is not None and not service.board_needs_repost(live):
            try:
                await channel.get_partial_message(old).edit(**payload,
                                                            attachments=picture.files())
                return
            except discord.NotFound:
                pass  # the board was deleted: post a new one
            except discord.Forbidden as error:
                raise _unavailable(error) from None
            except discord.HTTPException as error:
                if error.code != TOO_OLD_TO_EDIT:  # too old to edit: post a fresh one
                    raise
            await budget.acquire(channel_id, urgent=True)
            # the state may have moved while waiting
            picture = await pictures.board_picture(bot, live)
            payload = pictures.with_board_image(
                render.board(live, pictured=picture.png is not None), picture)
        if picture.png is not None:
            payload["files"] = picture.files()
        try:
            message = await channel.send(**{k: v for k, v in payload.items() if v is not None})
        except (discord.Forbidden, discord.NotFound) as error:
            raise _unavailable(error) from None
        await service.set_board_message(live, message.id)
        if old is not None:
            await budget.acquire(channel_id)
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(
                    content=render.table_words(live).marked(words.BOARD_MOVED), embed=None,
                    view=None, attachments=[])

    async def board_lost(self, live: LiveTable, error: BoardUnavailable) -> None:
        """Tell the host, by direct message, that the table closed: its board cannot be shown."""
        bot = self.bot
        budget = bot.table_service.rest
        host_id = live.table.host_id
        user = bot.get_user(host_id)
        if user is None:
            await budget.acquire(None)
            user = await bot.fetch_user(host_id)
        await budget.acquire(None)  # opening the direct-message channel
        dm = await user.create_dm()
        await budget.acquire(dm.id)
        await dm.send(words.board_lost_message(render.table_words(live), live.id,
                                                live.table.channel_id))
