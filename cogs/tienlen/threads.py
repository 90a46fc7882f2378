"""A table in its own thread: `/tienlen start thread:on` opens a new public thread of the
channel, named after the table ("Tiến Lên #12"), whose first message is the board; the thread is
archived once the table closes. A table started inside a thread stays in that thread.

Discord: creating a public thread needs Create Public Threads in the channel, speaking in it Send
Messages in Threads; a thread is its own channel for the per-channel rate limit. Archiving the
bot's own thread needs nothing more.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord

from cogs.i18n import NP_
from cogs.tables import LiveTable

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.tienlen.threads")

THREAD_PERMISSIONS = (
    ("create_public_threads", NP_("Discord permission", "Create Public Threads")),
    ("send_messages_in_threads", NP_("Discord permission", "Send Messages in Threads")),
)
ARCHIVE_AFTER: Literal[1440] = 1440  # idle minutes before Discord archives it (a day)
NAME_LIMIT = 100  # Discord's limit of a channel name


def thread_name(table_id: int) -> str:
    return f"Tiến Lên #{table_id}"[:NAME_LIMIT]


def can_hold_threads(interaction: discord.Interaction[Any]) -> bool:
    """Whether a table started here may open a thread (a text channel; inside a thread the
    table stays in that thread)."""
    return isinstance(interaction.channel, discord.TextChannel)


async def wanted(bot: TienLenBot, interaction: discord.Interaction[Any],
                 option: str | None) -> bool:
    """Whether `/tienlen start` opens a thread: its ``thread`` option, else the server's
    default (`/tienlen settings threads:`), off by default; never from inside a thread."""
    if not can_hold_threads(interaction):
        return False
    if option is not None:
        return option == "on"
    assert interaction.guild_id is not None
    return await bot.store.get_threads_default(interaction.guild_id) is True


def missing(interaction: discord.Interaction[Any]) -> list[tuple[str, str]]:
    """The thread permissions the bot lacks in the interaction's channel."""
    perms = interaction.app_permissions
    return [name for flag, name in THREAD_PERMISSIONS if not getattr(perms, flag)]


async def open_thread(bot: TienLenBot, interaction: discord.Interaction[Any],
                      name: str) -> discord.Thread:
    """A new public thread of the interaction's channel (no starter message)."""
    channel = interaction.channel
    assert isinstance(channel, discord.TextChannel)
    await bot.table_service.rest.acquire(channel.id, urgent=True)
    return await channel.create_thread(name=name, type=discord.ChannelType.public_thread,
                                       auto_archive_duration=ARCHIVE_AFTER)


async def rename(bot: TienLenBot, thread: discord.Thread, name: str) -> None:
    await bot.table_service.rest.acquire(thread.id, urgent=True)
    await thread.edit(name=name)


async def archive(bot: TienLenBot, channel_id: int) -> None:
    """Archive a table's thread (its board already says the table closed)."""
    await bot.table_service.rest.acquire(channel_id)
    try:
        await bot.http.edit_channel(channel_id, archived=True)
    except discord.HTTPException as error:
        log.warning("a table's thread could not be archived (HTTP %s)", error.status)


async def archive_when_shown(bot: TienLenBot, live: LiveTable, wait: float = 10.0) -> None:
    """Archive the closed table's thread once its board shows the close (at most ``wait``
    seconds later: an archived thread is not where a last board edit should go)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + wait
    while live.board_rendered != live.changes and loop.time() < until:
        task = live.board_task
        if task is None or task.done():
            await asyncio.sleep(0.05)
        else:
            await asyncio.wait([task], timeout=max(0.0, until - loop.time()))
    await archive(bot, live.table.channel_id)
