"""Seasons and rating ladders in the store (data/seasons.py, data/ratings/), on SQLite and
PostgreSQL, with an injected clock: a season ends exactly once, however often (and from however
many stores) its end is asked for, across a restart too."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from data import SeatResult, Store
from data.errors import InvalidInput
from data.ratings import GLOBAL
from engine.rating import PROVISIONAL_GAMES, Skill, soft_reset
from tests.data.store_helpers import GUILD, sql, start

JAN = datetime(2026, 1, 10, 12, 0, tzinfo=UTC)
#: midnight of 1 February in Vietnam
JAN_END = datetime(2026, 1, 31, 17, 0, tzinfo=UTC)
MARCH = datetime(2026, 3, 5, 9, 0, tzinfo=UTC)
MARCH_END = datetime(2026, 3, 31, 17, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


async def play(store: Store, users: tuple[int, ...],
               order: tuple[int, ...] | None = None) -> None:
    """One ranked game of `users` finishing in seat `order` (default: seat order)."""
    game = await start(store, users)
    seats = order if order is not None else tuple(range(len(users)))
    await store.settle_game(game.id, [], [SeatResult(s, i + 1) for i, s in enumerate(seats)])


async def test_season_ends_once_across_a_restart(db_url: str) -> None:
    clock = Clock(JAN)
    store = await Store.open(db_url, clock=clock)
    try:
        await play(store, (101, 102, 103))
        assert await store.due_seasons() == []  # season 1 begins now, ends with January
        season = await store.current_season(GUILD)
        assert (season.number, season.ends_at) == (1, JAN_END)
        before = {r.user_id: r for r in await store.rating_ladder(GUILD)}
    finally:
        await store.close()
    # The bot is down across two month ends and restarts in March.
    clock = Clock(MARCH)
    again = await Store.open(db_url, clock=clock)
    other = await Store.open(db_url, clock=clock)  # another process on the same database
    try:
        assert await again.due_seasons() == [GUILD]
        ends = await asyncio.gather(again.end_season(GUILD), other.end_season(GUILD),
                                    again.end_season(GUILD))
        done = [e for e in ends if e is not None]
        assert len(done) == 1
        [end] = done
        assert (end.ended.number, end.ended.ended_at) == (1, JAN_END)
        assert (end.started.number, end.started.started_at, end.started.ends_at) == (
            2, JAN_END, MARCH_END)
        assert end.standings == 3 and end.top == ()  # nobody has played 10 games yet
        assert await again.due_seasons() == [] and await again.end_season(GUILD) is None
        # Every rating softly reset once: the mean kept, the uncertainty widened.
        for r in await again.rating_ladder(GUILD):
            old = before[r.user_id]
            want = soft_reset(Skill(old.mu, old.sigma))
            assert r.mu == pytest.approx(old.mu) and r.sigma == pytest.approx(want.sigma)
            assert r.display == want.display == r.best < old.display
            assert r.games == 1  # provisional counts every ranked game
        # The global ratings have no seasons.
        glob = await again.get_rating(GLOBAL, 101)
        assert glob is not None and glob.display == before[101].display
        # The frozen ladder of season 1, and no season 2 standings yet.
        page = await again.rating_page(GUILD, season=1)
        assert page is not None
        assert [e.user_id for e in page.entries] == [101, 102, 103]
        assert [e.display for e in page.entries] == [before[u].display for u in (101, 102, 103)]
        assert all(e.provisional and e.games == 1 for e in page.entries)
        assert await again.rating_page(GUILD, season=2) is None  # not finished
        assert await again.rating_page(GUILD, season=9) is None
        assert sql(db_url, "SELECT COUNT(*) FROM season_standings") == [(3,)]
        assert sql(db_url, "SELECT number FROM seasons ORDER BY number") == [(1,), (2,)]
    finally:
        await again.close()
        await other.close()


async def test_early_end_off_and_monthly(store: Store) -> None:
    assert str(await store.get_season_period(GUILD)) == "monthly"
    with pytest.raises(InvalidInput):
        await store.set_season_period(GUILD, "weekly")
    off = await store.set_season_period(GUILD, "off", now=JAN)
    assert off.number == 1 and off.ends_at is None
    assert await store.end_season(GUILD, now=MARCH) is None  # off: never due on its own
    assert await store.due_seasons(now=MARCH) == []
    await play(store, (101, 102))
    end = await store.end_season(GUILD, now=MARCH, early=True)  # an admin ends it
    assert end is not None and end.ended.ended_at == MARCH and end.started.ends_at is None
    assert end.started.number == 2
    # Back to monthly: the current season ends with this month.
    monthly = await store.set_season_period(GUILD, "monthly", now=MARCH)
    assert (monthly.number, monthly.ends_at) == (2, MARCH_END)
    assert await store.due_seasons(now=MARCH_END) == [GUILD]
    # A season nobody played in freezes an empty ladder.
    end = await store.end_season(GUILD, now=MARCH_END)
    assert end is not None and end.standings == 0
    empty = await store.rating_page(GUILD, season=2)
    assert empty is not None and empty.total == 0 and not empty.past_end


async def test_ladder_lists_provisional_apart(store: Store) -> None:
    ranked_players = (201, 202, 203)
    for i in range(PROVISIONAL_GAMES):  # 201 wins most, 203 loses most
        await play(store, ranked_players, (0, 1, 2) if i % 3 else (1, 0, 2))
    await play(store, (301, 302), (1, 0))  # two provisional players
    page = await store.rating_page(GUILD)
    assert page is not None and page.scope == "server"
    assert (page.total, page.ranked, page.pages) == (5, 3, 1)
    assert [e.user_id for e in page.entries] == [201, 202, 203, 302, 301]
    assert [e.rank for e in page.entries] == [1, 2, 3, None, None]
    # a provisional player may be rated above a ranked one: still listed after them
    ladder = {r.user_id: r.display for r in await store.rating_ladder(GUILD)}
    assert ladder[302] > ladder[203]
    past = await store.rating_page(GUILD, 2)
    assert past is not None and past.past_end and past.entries == ()
    glob = await store.rating_page(GLOBAL)
    assert glob is not None and glob.scope == "global" and glob.total == 5
    with pytest.raises(InvalidInput):
        await store.rating_page(GUILD, 0)


async def test_ladder_pages_of_ten(store: Store) -> None:
    for first in range(1000, 1024, 4):  # 24 players, one game each
        await play(store, (first, first + 1, first + 2, first + 3))
    one, three = await store.rating_page(GUILD, 1), await store.rating_page(GUILD, 3)
    assert one is not None and three is not None
    assert (one.pages, len(one.entries), len(three.entries)) == (3, 10, 4)
    pages = [await store.rating_page(GUILD, p) for p in (1, 2, 3)]
    entries = [e for p in pages if p is not None for e in p.entries]
    assert sorted(e.user_id for e in entries) == list(range(1000, 1024))
    displays = [e.display for e in entries]
    assert displays == sorted(displays, reverse=True)
