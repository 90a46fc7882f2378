"""Where a server's tables may open: `/tienlen settings channels:` and the check of
`/tienlen start`. A server lists channels (or `all`); a table opens in a listed channel or in a
thread of one (a thread's parent is listed), and is refused elsewhere, naming the channels."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from cogs import guard
from cogs.i18n import Words
from data import Store
from data.admin import MAX_TABLE_CHANNELS

#: the option's text: channel mentions (Discord's client turns a typed #name into <#id>), ids,
#: or `all`
ChannelList = app_commands.Range[str, 1, 1000]
EVERY = ("all", "any", "*")
_TOKEN = re.compile(r"<#(\d{1,20})>|(\d{1,20})")


def parse(w: Words, guild: discord.Guild, text: str) -> tuple[int, ...] | None:
    """`#a #b` → their ids; `all` → None (every channel). Refused (guard.Refused) when a word
    is not a channel of this server, or when there are too many."""
    words = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    if not words or (len(words) == 1 and words[0].lower() in EVERY):
        return None
    ids: list[int] = []
    for word in words:
        match = _TOKEN.fullmatch(word)
        channel = None
        if match is not None:
            channel = guild.get_channel_or_thread(int(match.group(1) or match.group(2)))
        if channel is None or isinstance(channel, discord.CategoryChannel):
            raise guard.Refused(w._(
                "**{word}** is not a channel of this server: name channels as #channel, or "
                "write `all`.", word=guard.clip(word)))
        if channel.id not in ids:
            ids.append(channel.id)
    if len(ids) > MAX_TABLE_CHANNELS:
        raise guard.Refused(w._("At most {most} channels.", most=w.num(MAX_TABLE_CHANNELS)))
    return tuple(ids)


async def apply(store: Store, interaction: discord.Interaction[Any],
                text: str | None) -> tuple[int, ...] | None:
    """Store the server's channels when `text` names them; the channels in force after."""
    assert interaction.guild_id is not None
    if text is None or interaction.guild is None:
        return await store.get_table_channels(interaction.guild_id)
    w = guard.reader(interaction)
    return await store.set_table_channels(interaction.guild_id,
                                          parse(w, interaction.guild, text))


def mentions(ids: tuple[int, ...]) -> str:
    return ", ".join(f"<#{c}>" for c in ids)


def describe(w: Words, ids: tuple[int, ...] | None) -> str:
    if ids is None:
        return w._("Tables may open in every channel.")
    return w._("Tables may open in {channels} and their threads.", channels=mentions(ids))


def allowed(ids: tuple[int, ...] | None, channel_id: int, parent_id: int | None) -> bool:
    """Whether a table may open in this channel (or thread, with its parent's id)."""
    return ids is None or channel_id in ids or (parent_id is not None and parent_id in ids)


async def check_start(store: Store, interaction: discord.Interaction[Any]) -> None:
    """Refuse `/tienlen start` outside the server's table channels, naming them."""
    assert interaction.guild_id is not None and interaction.channel_id is not None
    ids = await store.get_table_channels(interaction.guild_id)
    channel = interaction.channel
    parent = channel.parent_id if isinstance(channel, discord.Thread) else None
    if not allowed(ids, interaction.channel_id, parent):
        assert ids is not None
        w = guard.reader(interaction)
        raise guard.Refused(w._(
            "Tables open only in {channels} (or their threads) on this server.",
            channels=mentions(ids)))
