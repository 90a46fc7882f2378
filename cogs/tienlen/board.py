"""The board publisher: puts a table's board on screen (edits it in place, or posts a new one).

The bot builds it and hands it to the table service, which calls it (coalesced) after changes.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

import discord

from cogs import words
from cogs.tables import LiveTable

from . import _pictures as pictures
from . import _render as render

if TYPE_CHECKING:
    from bot.app import TienLenBot

TOO_OLD_TO_EDIT = 30046  # Discord's error code for an edit of a message that is too old


class BoardPublisher:
    """The table service's publisher for a running bot."""

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot

    async def publish_board(self, live: LiveTable) -> None:
        bot = self.bot
        service = bot.table_service
        channel = bot.get_channel(live.table.channel_id)
        if channel is None:
            channel = await bot.fetch_channel(live.table.channel_id)
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
                pass
            except discord.HTTPException as error:
                if error.code != TOO_OLD_TO_EDIT:  # too old to edit: post a fresh one
                    raise
        if picture.png is not None:
            payload["files"] = picture.files()
        message = await channel.send(**{k: v for k, v in payload.items() if v is not None})
        await service.set_board_message(live, message.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).edit(
                    content=words.BOARD_MOVED, embed=None, view=None, attachments=[])
