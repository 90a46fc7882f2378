"""Tables in their own thread through SimCord (which models public threads and their
permissions): the thread is created and named after the table, the board is its first message,
a game plays through in it, and the thread is archived when the table closes; a missing
permission is named before anything opens."""

from __future__ import annotations

import dataclasses
from typing import Any

import discord

from cogs.tables import TablePhase
from tests.support import layout

from .tablekit import add_computers, board, said, take_turn


def people(world: Any, n: int) -> list[Any]:
    return [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n)]


def admin(world: Any) -> Any:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


async def test_a_table_in_its_own_thread_plays_through_and_is_archived(world: Any) -> None:
    host = people(world, 1)[0]
    r = await host.slash(world.channel, "tienlen start", thread="on")
    assert r.ephemeral and "is open in its thread" in said(r.response), said(r.response)
    (thread,) = world.channel.threads
    live = next(iter(world.bot.table_service.tables.values()))
    assert live.table.channel_id == thread.id and live.in_thread
    assert thread.name == f"Tiến Lên #{live.id}"
    await world.env.settle()
    in_thread = dataclasses.replace(world, channel=thread)
    first = thread.history()[0]
    assert first.id == board(in_thread).id == live.table.board_message_id  # its first message
    assert not [m for m in world.channel.history() if m.author.bot and m.embeds]  # not here
    await add_computers(in_thread, host, "easy", 1)
    await host.click(board(in_thread), label="Start")
    for step in range(400):
        if live.phase is not TablePhase.PLAYING:
            break
        await take_turn(in_thread, live, {host.id: host}, shed=True, prefer_pass=step % 6 == 1)
    await world.env.settle()
    assert live.phase is TablePhase.FINISHED
    assert any((m.embeds and (m.embeds[0].title or "").startswith("Game over"))
               for m in thread.history())  # the game-over post went to the thread
    fetched = await world.bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and not fetched.archived
    r = await host.slash(thread, "tienlen stop")
    await world.env.settle()
    fetched = await world.bot.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived  # archived at close
    assert "closed" in layout.text(board(in_thread)).lower()


async def test_the_server_default_opens_threads(world: Any) -> None:
    manager = admin(world)
    r = await manager.slash(world.channel, "tienlen settings", threads="on")
    assert "Tables in threads: **on**" in said(r.response), said(r.response)
    host = people(world, 1)[0]
    r = await host.slash(world.channel, "tienlen start")
    assert "is open in its thread" in said(r.response), said(r.response)
    assert len(world.channel.threads) == 1
    r = await host.slash(world.channel, "tienlen start", thread="off")  # the option wins
    assert "is open:" in said(r.response), said(r.response)
    assert len(world.bot.table_service.tables) == 2


async def test_a_missing_thread_permission_is_named_and_nothing_opens(world: Any) -> None:
    no_threads = discord.PermissionOverwrite(create_public_threads=False)
    channel = world.guild.create_text_channel("nothreads",
                                              overwrites={world.bot.user: no_threads})
    host = people(world, 1)[0]
    r = await host.slash(channel, "tienlen start", thread="on")
    text = said(r.response)
    assert r.ephemeral and "Create Public Threads" in text, text
    assert "Send Messages in Threads" not in text
    assert not world.bot.table_service.tables and channel.threads == []
    quiet = discord.PermissionOverwrite(send_messages_in_threads=False)
    other = world.guild.create_text_channel("quiet", overwrites={world.bot.user: quiet})
    r = await host.slash(other, "tienlen start", thread="on")
    assert "Send Messages in Threads" in said(r.response), said(r.response)
    assert not world.bot.table_service.tables


async def test_the_list_of_tables_links_each_and_pages_by_ten(world: Any) -> None:
    hosts = people(world, 12)
    r = await hosts[0].slash(world.channel, "tienlen tables")
    assert r.ephemeral and "No table is open" in r.response.embeds[0].description
    await hosts[0].slash(world.channel, "tienlen start", thread="on", stake=7, rules="pagat")
    await hosts[1].slash(world.channel, "tienlen start", seats=3)
    for i, host in enumerate(hosts[2:]):
        channel = world.guild.create_text_channel(f"room{i}")
        await host.slash(channel, "tienlen start")
    tables = sorted(world.bot.table_service.tables.values(), key=lambda t: t.id)
    assert len(tables) == 12
    r = await hosts[0].slash(world.channel, "tienlen tables")
    embed = r.response.embeds[0]
    assert r.ephemeral and "12 open tables in this server (page 1/2)" in embed.title
    lines = embed.description.splitlines()
    assert len(lines) == 10
    (thread,) = world.channel.threads
    assert lines[0].startswith(f"**#{tables[0].id}** <#{thread.id}> · waiting for players · "
                               "3 seats free · stake 7 · "), lines[0]
    assert lines[1].startswith(f"**#{tables[1].id}** <#{world.channel.id}> · waiting for "
                               "players · 2 seats free · stake 10"), lines[1]
    r = await hosts[0].click(r.response, label="Next ▶")
    page2 = r.response.embeds[0]
    assert "(page 2/2)" in page2.title and len(page2.description.splitlines()) == 2
    assert f"**#{tables[-1].id}**" in page2.description
