"""`/tienlen settings channels:` through SimCord: a table is refused outside the server's table
channels (the refusal names them), accepted in one and in a thread of one; `all` lifts it."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from .forge import reply_text
from .tablekit import only_table


def admin(world: Any) -> Any:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


def thread_of(world: Any, parent: Any, owner: Any) -> Any:
    channel = world.env.backend.create_thread(parent.id, "a table", owner.id)
    return simcord.builders.ChannelHandle(world.env, world.guild, channel)


def private(result: Any) -> str:
    assert result.acknowledged and result.ephemeral, result
    return reply_text(result)


async def test_tables_open_only_in_the_listed_channels_and_their_threads(world: Any) -> None:
    boss = admin(world)
    alice = world.guild.add_member(world.env.create_user("alice"))
    games = world.guild.create_text_channel("games")
    text = private(await boss.slash(world.channel, "tienlen settings",
                                    channels=f"{games.mention}"))
    assert f"Tables may open in <#{games.id}> and their threads." in text

    refused = private(await alice.slash(world.channel, "tienlen start"))
    assert refused == f"Tables open only in <#{games.id}> (or their threads) on this server."
    assert world.bot.table_service.tables == {}

    thread = thread_of(world, games, alice)
    opened = private(await alice.slash(thread, "tienlen start"))
    assert "is open" in opened
    assert only_table(world).table.channel_id == thread.id
    assert "is open" in private(await alice.slash(games, "tienlen start"))

    elsewhere = thread_of(world, world.channel, alice)  # a thread of a channel not listed
    assert "Tables open only in" in private(await alice.slash(elsewhere, "tienlen start"))

    text = private(await boss.slash(world.channel, "tienlen settings", channels="all"))
    assert "Tables may open in every channel." in text
    assert "is open" in private(await alice.slash(world.channel, "tienlen start"))
    assert len(world.bot.table_service.tables) == 3


async def test_bad_channel_lists_change_nothing(world: Any) -> None:
    boss = admin(world)
    alice = world.guild.add_member(world.env.create_user("alice"))
    games = world.guild.create_text_channel("games")
    await boss.slash(world.channel, "tienlen settings", channels=f"{games.mention} {games.id}")
    assert await world.store.get_table_channels(world.guild.id) == (games.id,)
    for bad in ("#nowhere", "<#123>", f"{games.mention} lobby", "all games"):
        text = private(await boss.slash(world.channel, "tienlen settings", channels=bad))
        assert "is not a channel of this server" in text, text
        assert await world.store.get_table_channels(world.guild.id) == (games.id,)
    text = private(await alice.slash(world.channel, "tienlen settings", channels="all"))
    assert "Manage Server" in text
    assert await world.store.get_table_channels(world.guild.id) == (games.id,)
