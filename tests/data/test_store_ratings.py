"""Ratings booked by settle_game (data/ratings/): once per ranked game, none for casual ones,
computer seats as fixed anchors, leavers rated last; on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio

from data import Seat, SeatResult, Store
from data.ratings import GLOBAL
from engine.rating import DEFAULT_SKILL
from tests.data.store_helpers import CHANNEL, GUILD, humans, sql, start

NEW = DEFAULT_SKILL.display


def _places(*order: int) -> list[SeatResult]:
    """Results from seats in finishing order."""
    return [SeatResult(seat, place + 1) for place, seat in enumerate(order)]


async def test_ranked_game_rates_once(store: Store, db_url: str) -> None:
    game = await start(store, (101, 102, 103, 104))
    assert game.ranked
    assert await store.get_rating(GUILD, 101) is None
    first = await store.settle_game(game.id, [], _places(0, 1, 2, 3))
    assert [c.user_id for c in first.ratings] == [101, 102, 103, 104]
    deltas = [c.delta for c in first.ratings]
    assert deltas[0] > deltas[1] > deltas[2] > deltas[3]
    assert all(c.before == NEW for c in first.ratings)
    # A second settlement books nothing and reports what the first rated.
    again = await store.settle_game(game.id, [], _places(3, 2, 1, 0))
    assert not again.first_call and again.ratings == first.ratings
    winner = await store.get_rating(GUILD, 101)
    assert winner is not None
    # one game each: provisional, so not numbered among the ranked players (there are none)
    assert (winner.games, winner.display, winner.rank, winner.of) == (
        1, first.ratings[0].after, None, 0)
    assert winner.last_change == deltas[0]
    last = await store.get_rating(GUILD, 104)
    assert last is not None and last.rank is None and last.games == 1
    # The global rating moved the same way; each game logged once per scope.
    assert sql(db_url, "SELECT COUNT(*) FROM rating_changes") == [(8,)]
    glob = await store.get_rating(GLOBAL, 101)
    assert glob is not None and glob.display == winner.display
    ladder = await store.rating_ladder(GUILD)
    assert [r.user_id for r in ladder] == [101, 102, 103, 104]


async def test_casual_game_changes_no_rating(store: Store, db_url: str) -> None:
    game = await store.start_game(
        GUILD, CHANNEL, 101, '{"preset": "southern"}', 10, humans(101, 102), "{}", ranked=False)
    assert not game.ranked and not (await store.get_game(game.id)).ranked
    settled = await store.settle_game(game.id, [], _places(0, 1))
    assert settled.ratings == ()
    assert await store.get_rating(GUILD, 101) is None
    assert sql(db_url, "SELECT COUNT(*) FROM ratings") == [(0,)]


async def test_computers_are_anchors_and_leavers_last(store: Store, db_url: str) -> None:
    seats = [*humans(101, 102), Seat(name="bot", bot="hard"), Seat(name="bot2", bot="easy")]
    game = await store.start_game(GUILD, CHANNEL, 101, "{}", 10, seats, "{}")
    # 101 left the game: it is rated as the last whatever place the table gave it.
    results = [SeatResult(0, 4, left=True), SeatResult(1, 1), SeatResult(2, 2), SeatResult(3, 3)]
    settled = await store.settle_game(game.id, [], results)
    assert [c.user_id for c in settled.ratings] == [101, 102]
    by_user = {c.user_id: c for c in settled.ratings}
    assert by_user[101].delta < 0 < by_user[102].delta
    stored = {r[0] for r in sql(db_url, "SELECT user_id FROM ratings")}
    assert stored == {101, 102}  # no row for a computer seat


async def test_concurrent_settlements_rate_once(store: Store, db_url: str) -> None:
    game = await start(store, (101, 102, 103))
    outs = await asyncio.gather(
        *(store.settle_game(game.id, [], _places(0, 1, 2)) for _ in range(3)))
    assert sum(o.first_call for o in outs) == 1
    assert len({o.ratings for o in outs}) == 1
    rating = await store.get_rating(GUILD, 101)
    assert rating is not None and rating.games == 1
    assert sql(db_url, "SELECT COUNT(*) FROM rating_changes WHERE guild_id = ?", (GUILD,)) == [
        (3,)]


async def test_ranked_default_setting(store: Store) -> None:
    assert await store.get_ranked_default(GUILD) is None
    assert await store.set_ranked_default(GUILD, False) is False
    assert await store.get_ranked_default(GUILD) is False
    await store.set_idle_minutes(GUILD, 30)
    assert await store.get_ranked_default(GUILD) is False
    assert await store.set_ranked_default(GUILD, True) is True
    assert await store.get_ranked_default(GUILD) is True
