"""The board publisher: puts a table's board on screen (edits it in place, or posts a new one).

The bot builds it and hands it to the table service, which calls it (coalesced, after a slot of
the bot's REST budget) after changes. Every further request it makes waits for its own slot.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING

import discord

from cogs import words
from cogs.tables import BoardUnavailable, LiveTable

from . import _render as render

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.tienlen")

TOO_OLD_TO_EDIT = 30046  # Discord's error code for an edit of a message that is too old


def _unavailable(error: discord.HTTPException) -> BoardUnavailable:
    return BoardUnavailable(error.status, error.code)


class BoardPublisher:
    """The table service's publisher for a running bot."""

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot

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
        payload = render.board(live)
        old = live.table.board_message_id
        if old is not None and not service.board_needs_repost(live):
            try:
                await channel.get_partial_message(old).edit(**payload)
                return
            except discord.NotFound:
                pass  # the board was deleted: post a new one
            except discord.Forbidden as error:
                raise _unavailable(error) from None
            except discord.HTTPException as error:
                if error.code != TOO_OLD_TO_EDIT:  # too old to edit: post a fresh one
                    raise
            await budget.acquire(channel_id, urgent=True)
            payload = render.board(live)  # the state may have moved while waiting
        try:
            message = await channel.send(**{k: v for k, v in payload.items() if v is not None})
        except (discord.Forbidden, discord.NotFound) as error:
            raise _unavailable(error) from None
        await service.set_board_message(live, message.id)
        if old is not None:
            await budget.acquire(channel_id)
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(
                    content=words.BOARD_MOVED, embed=None, view=None)

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
        await dm.send(words.board_lost_message(live.id, live.table.channel_id))
