"""`/leaderboard by: rating` (a server's and `scope: global`) and `/leaderboard season: N`
through SimCord (real discord.py, real SQLite; docs/RATING.md): ranked players by rating,
provisional ones listed apart, 10 a page with ◀ ▶ buttons; a page past the end and a season
that does not exist are short private answers that change nothing."""

from __future__ import annotations

from typing import Any

import discord

from data import Seat, SeatResult, Store
from engine.rating import PROVISIONAL_GAMES

from .tablekit import bot_messages, labels


async def ranked(store: Store, guild: int, *order: int) -> None:
    """A finished ranked game in `guild` whose people finish in the given order."""
    seats = [Seat(f"u{u}", user_id=u) for u in order]
    game = await store.start_game(guild, 10, order[0], "{}", 0, seats, "{}")
    await store.settle_game(game.id, [], [SeatResult(i, i + 1) for i in range(len(order))])


def member(world: Any, name: str) -> Any:
    return world.guild.add_member(world.env.create_user(name))


def newest_ladder(world: Any) -> discord.Message:
    for message in reversed(bot_messages(world)):
        if message.embeds and "rating" in (message.embeds[0].title or ""):
            return message
    raise AssertionError("no rating ladder in the channel")


def public_embed(result: Any) -> discord.Embed:
    assert result.acknowledged and not result.ephemeral, result
    [embed] = result.response.embeds
    return embed


async def test_server_ladder_ranks_by_rating_and_lists_provisional_apart(world: Any) -> None:
    a, b, c, d = (member(world, n) for n in "abcd")
    for _ in range(PROVISIONAL_GAMES):
        await ranked(world.store, world.guild.id, a.id, b.id, c.id)
    await ranked(world.store, world.guild.id, d.id, a.id)  # d: provisional, 1 game
    await ranked(world.store, 999, c.id, a.id)  # another server: not on this ladder
    embed = public_embed(await b.slash(world.channel, "leaderboard", by="rating"))
    assert embed.title == "Leaderboard by rating"
    lines = (embed.description or "").splitlines()
    ratings = {p.id: await world.store.get_rating(world.guild.id, p.id) for p in (a, b, c, d)}
    assert [line.split(" — ")[0] for line in lines] == [
        f"**1.** <@{a.id}>", f"**2.** <@{b.id}>", f"**3.** <@{c.id}>",
        "*Provisional (fewer than 10 ranked games):*", f"<@{d.id}>"]
    rating_a = ratings[a.id]
    assert rating_a is not None
    assert f"{rating_a.display:,} (" in lines[0] and "11 ranked games" in lines[0]
    assert lines[4].endswith("· 1 ranked game")
    assert embed.footer.text == "Page 1 of 1 · 4 players"
    assert labels(newest_ladder(world)) == []
    # the global ladder: one rating per person across servers (c and a also played in 999)
    glob = public_embed(await b.slash(world.channel, "leaderboard", by="rating", scope="global"))
    assert glob.title == "Every server: leaderboard by rating"
    assert "12 ranked games" in (glob.description or "")  # a's games in both servers


async def test_pages_of_ten_and_a_page_past_the_end(world: Any) -> None:
    viewer = member(world, "viewer")
    for first in range(5000, 5024, 4):  # 24 people, each one game
        await ranked(world.store, world.guild.id, first, first + 1, first + 2, first + 3)
    await viewer.slash(world.channel, "leaderboard", by="rating")
    message = newest_ladder(world)
    assert message.embeds[0].footer.text == "Page 1 of 3 · 24 players"
    assert labels(message) == ["◀ Previous", "Next ▶"]
    await viewer.click(message, label="Next ▶")
    message = newest_ladder(world)
    assert message.embeds[0].footer.text == "Page 2 of 3 · 24 players"
    page_two = (message.embeds[0].description or "").splitlines()
    assert page_two[0] == "*Provisional (fewer than 10 ranked games):*"  # all are provisional
    assert len(page_two) == 11
    before = len(bot_messages(world))
    far = await viewer.slash(world.channel, "leaderboard", by="rating", page=4)
    assert far.ephemeral and far.response.content == "There is no page 4: this ladder has 3."
    assert len(bot_messages(world)) == before


async def test_season_standings_and_unknown_seasons(world: Any) -> None:
    a, b = member(world, "a"), member(world, "b")
    store = world.store
    missing = await a.slash(world.channel, "leaderboard", season=1)
    assert missing.ephemeral
    assert missing.response.content == "This server has no finished season 1."
    await ranked(store, world.guild.id, a.id, b.id)
    before = {p.id: await store.get_rating(world.guild.id, p.id) for p in (a, b)}
    end = await store.end_season(world.guild.id, early=True)
    assert end is not None and end.ended.number == 1
    embed = public_embed(await b.slash(world.channel, "leaderboard", season=1))
    assert embed.title == "Season 1: final standings"
    text = embed.description or ""
    old_a = before[a.id]
    assert old_a is not None and f"<@{a.id}> — {old_a.display:,}" in text
    assert text.index(f"<@{a.id}>") < text.index(f"<@{b.id}>")
    # season 2 is running, not finished
    running = await a.slash(world.channel, "leaderboard", season=2)
    assert running.ephemeral and "no finished season 2" in running.response.content
    glob = await a.slash(world.channel, "leaderboard", season=1, scope="global")
    assert glob.ephemeral and "scope: global" in glob.response.content
