"""Seasons through SimCord (real discord.py, real SQLite; docs/RATING.md): `/tienlen settings
season:`, `/tienlen admin end-season`, and the rollover check with the store's clock moved past a
month's end: the season ends once, is announced on the server's table channel without pings,
and `/tienlen rank` shows the softly reset rating."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import discord

from cogs.ranked import seasons
from data import Seat, SeatResult, Store

from .forge import reply_text
from .tablekit import bot_messages

JAN = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
FEB = datetime(2026, 2, 3, 8, 0, tzinfo=UTC)


def admin(world: Any) -> Any:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


def member(world: Any, name: str) -> Any:
    return world.guild.add_member(world.env.create_user(name))


def private(result: Any) -> str:
    assert result.acknowledged and result.ephemeral, result
    return reply_text(result)


async def ranked(store: Store, guild: int, *order: int) -> None:
    seats = [Seat(f"u{u}", user_id=u) for u in order]
    game = await store.start_game(guild, 10, order[0], "{}", 0, seats, "{}")
    await store.settle_game(game.id, [], [SeatResult(i, i + 1) for i in range(len(order))])


async def test_month_end_rolls_over_once_and_is_announced(world: Any) -> None:
    boss, a, b = admin(world), member(world, "a"), member(world, "b")
    store = world.store
    store._clock = lambda: JAN  # the store's injected clock
    text = private(await boss.slash(world.channel, "tienlen settings",
                                    channels=f"<#{world.channel.id}>"))
    assert "Seasons: **monthly** (season 1 ends <t:1769878800:f>)" in text, text  # 1 Feb, 0:00 ICT
    await ranked(store, world.guild.id, a.id, b.id)
    assert await seasons.roll_due(world.bot) == []  # January is not over
    before = await store.get_rating(world.guild.id, a.id)
    assert before is not None
    store._clock = lambda: FEB  # the bot (re)starts after the month's end
    posts = len(bot_messages(world))
    [end] = await seasons.roll_due(world.bot)
    assert await seasons.roll_due(world.bot) == []  # once
    await world.env.settle()
    assert (end.ended.number, end.started.number) == (1, 2)
    new = bot_messages(world)[posts:]
    assert len(new) == 1
    post = new[0].content
    assert post.startswith("**Season 1 has ended.**") and "`/leaderboard season: 1`" in post
    assert "**Season 2** has begun" in post and "<t:1772298000:f>" in post  # 1 March, 0:00 ICT
    rank = private(await a.slash(world.channel, "tienlen rank"))
    after = await store.get_rating(world.guild.id, a.id)
    assert after is not None and after.display < before.display
    assert f"Best rating this season: {after.display:,}" in rank, rank
    board = await a.slash(world.channel, "leaderboard", season=1)
    assert f"<@{a.id}> — {before.display:,}" in (board.response.embeds[0].description or "")


async def test_settings_off_and_admin_end_season(world: Any) -> None:
    boss, a, b = admin(world), member(world, "a"), member(world, "b")
    store = world.store
    text = private(await boss.slash(world.channel, "tienlen settings", season="off"))
    assert "Seasons: **off** (season 1 runs until an admin ends it)." in text, text
    assert str(await store.get_season_period(world.guild.id)) == "off"
    refused = private(await a.slash(world.channel, "tienlen settings", season="monthly"))
    assert "Manage Server" in refused
    assert str(await store.get_season_period(world.guild.id)) == "off"
    await ranked(store, world.guild.id, a.id, b.id)
    # not an admin; then an admin without confirm: nothing changes
    assert "Manage Server" in private(await a.slash(world.channel, "tienlen admin end-season",
                                                    confirm=True))
    unsure = private(await boss.slash(world.channel, "tienlen admin end-season", confirm=False))
    assert "Nothing was changed" in unsure and "season 1" in unsure
    assert (await store.current_season(world.guild.id)).number == 1
    posts = len(bot_messages(world))
    done = private(await boss.slash(world.channel, "tienlen admin end-season", confirm=True))
    assert done == ("Season 1 has ended and season 2 has begun. Its final standings: "
                    "`/leaderboard season: 1`.")
    assert (await store.current_season(world.guild.id)).number == 2
    assert len(bot_messages(world)) == posts  # no table channel set: nothing announced
    board = await a.slash(world.channel, "leaderboard", season=1)
    assert not board.ephemeral and board.response.embeds[0].title == "Season 1: final standings"


def test_the_check_wakes_just_after_each_month_end() -> None:
    from cogs.ranked._seasons import CHECK_SECONDS, next_look

    # 10 s before midnight of 1 February in Vietnam: look again a second after it.
    assert next_look(datetime(2026, 1, 31, 16, 59, 50, tzinfo=UTC)) == 11.0
    assert next_look(JAN) == CHECK_SECONDS  # weeks away: at least hourly
    assert next_look(datetime(2026, 1, 31, 17, 0, 0, tzinfo=UTC)) == CHECK_SECONDS
