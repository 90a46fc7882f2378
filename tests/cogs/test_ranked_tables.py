"""Ranked and casual tables through SimCord (issue #25): `/tienlen start ranked:` and the
server's default from `/tienlen settings ranked:`; the board says which; a casual game changes
no rating and a ranked one does; the choice is saved with the table."""

from __future__ import annotations

import json
from typing import Any

import discord

from cogs.tables import LiveTable, TablePhase

from .tablekit import add_computers, board, board_text, said, take_turn


def people(world: Any, n: int) -> list[Any]:
    return [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n)]


def admin(world: Any) -> Any:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


async def play_through(world: Any, live: LiveTable, host: Any) -> None:
    await add_computers(world, host, "easy", 1)
    await host.click(board(world), label="Start")
    for step in range(400):
        if live.phase is not TablePhase.PLAYING:
            break
        await take_turn(world, live, {host.id: host}, shed=True, prefer_pass=step % 6 == 1)
    await world.env.settle()
    assert live.phase is TablePhase.FINISHED


def game_over_text(world: Any) -> str:
    posts = [m for m in world.channel.history() if m.author.bot and m.embeds
             and (m.embeds[0].title or "").startswith("Game over")]
    assert len(posts) == 1, posts
    return posts[0].embeds[0].description or ""


async def test_a_casual_game_changes_no_rating(world: Any) -> None:
    host = people(world, 1)[0]
    r = await host.slash(world.channel, "tienlen start", ranked="off")
    assert r.ephemeral, r
    live = next(iter(world.bot.table_service.tables.values()))
    assert not live.ranked
    await world.env.settle()
    assert "Casual" in board_text(world) and "Ranked" not in board_text(world)
    await play_through(world, live, host)
    assert "Casual" in board_text(world)
    assert await world.bot.store.get_rating(world.guild.id, host.id) is None
    record = await world.bot.store.get_game(live.game_id)
    assert record.ranked is False
    assert "Rating:" not in game_over_text(world)


async def test_a_ranked_game_moves_the_rating(world: Any) -> None:
    host = people(world, 1)[0]
    await host.slash(world.channel, "tienlen start")  # the bot's default: ranked
    live = next(iter(world.bot.table_service.tables.values()))
    assert live.ranked
    await world.env.settle()
    assert "Ranked" in board_text(world)
    await play_through(world, live, host)
    rating = await world.bot.store.get_rating(world.guild.id, host.id)
    assert rating is not None and rating.games == 1
    assert rating.last_change != 0
    record = await world.bot.store.get_game(live.game_id)
    assert record.ranked is True
    # the game-over post shows the change the store booked
    text = game_over_text(world)
    sign = "+" if rating.last_change > 0 else "-"
    assert "**Rating:**" in text, text
    assert (f"<@{host.id}>: 1,000 → {rating.display:,} ({sign}{abs(rating.last_change):,})"
            in text), text
    # and the saved results keep it (a restart shows the same post)
    saved = json.loads(live.extras_json())["results"]
    mine = next(p for p in saved["places"] if p["player"]["user_id"] == host.id)
    assert mine["rating"] == [1000, rating.display]


async def test_the_server_default_and_the_option_that_wins(world: Any) -> None:
    manager = admin(world)
    r = await manager.slash(world.channel, "tienlen settings", ranked="off")
    assert "New tables: **Casual**" in said(r.response), said(r.response)
    assert await world.bot.store.get_ranked_default(world.guild.id) is False
    host = people(world, 1)[0]
    await host.slash(world.channel, "tienlen start")
    (live,) = world.bot.table_service.tables.values()
    assert not live.ranked
    await host.slash(world.channel, "tienlen stop")
    await host.slash(world.channel, "tienlen start", ranked="on")  # the option wins
    (live,) = [t for t in world.bot.table_service.tables.values() if t.table.status == "open"]
    assert live.ranked
    # saved with the table: a restart reads it back
    assert json.loads(live.extras_json())["ranked"] is True
    record = await world.bot.store.get_table(live.id)
    assert world.bot.table_service._live_from_record(record).ranked is True


async def test_only_a_manager_changes_the_default(world: Any) -> None:
    host = people(world, 1)[0]
    r = await host.slash(world.channel, "tienlen settings", ranked="off")
    assert r.ephemeral and "Manage Server" in said(r.response), said(r.response)
    assert await world.bot.store.get_ranked_default(world.guild.id) is None
