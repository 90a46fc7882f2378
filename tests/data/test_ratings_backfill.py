"""`python -m data.ratings --backfill URL` (data/ratings/backfill.py) on SQLite and PostgreSQL:
the finished ranked games are replayed into ratings once, in the order they finished, with the
season ends between them; the result is what live settlement booked, and a second run gives
identical rows."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from pathlib import Path

from data import Seat, SeatResult, Store
from data.ratings.backfill import main
from tests.data.store_helpers import GUILD, sql

RATING_TABLES = ("ratings", "rating_changes")
OTHER = 2


class Ticking:
    """A clock that moves a minute at every reading: each settlement has its own moment."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 3, 10, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(minutes=1)
        return self.now


def rows(url: str) -> dict[str, list[tuple[object, ...]]]:
    return {t: sorted(sql(url, f"SELECT * FROM {t}"), key=repr) for t in RATING_TABLES}


async def backfill(url: str) -> int:
    return await asyncio.to_thread(main, ["--backfill", url])


async def history(url: str) -> None:
    """Ranked games on two servers, a casual and a cancelled one, a season ended between games,
    and games with a computer seat."""
    clock = Ticking()
    store = await Store.open(url, clock=clock)
    try:
        async def game(guild: int, users: tuple[int, ...], order: tuple[int, ...], *,
                       ranked: bool = True, bot: bool = False) -> None:
            seats = [Seat(f"u{u}", user_id=u) for u in users]
            if bot:
                seats.append(Seat("cpu", bot="expert"))
            started = await store.start_game(guild, 10, users[0], "{}", 0, seats, "{}",
                                             ranked=ranked)
            await store.settle_game(started.id, [],
                                    [SeatResult(s, i + 1) for i, s in enumerate(order)])

        await game(GUILD, (1, 2, 3, 4), (0, 1, 2, 3))
        await game(OTHER, (1, 5), (1, 0))
        await game(GUILD, (2, 3, 4), (2, 0, 1, 3), bot=True)
        await game(GUILD, (1, 2), (0, 1), ranked=False)  # casual: no rating
        cancelled = await store.start_game(GUILD, 10, 1, "{}", 0,
                                           [Seat("a", user_id=1), Seat("b", user_id=3)], "{}")
        await store.cancel_game(cancelled.id)
        assert await store.end_season(GUILD, early=True) is not None
        await game(GUILD, (1, 3), (1, 0))
        await game(OTHER, (5, 1, 6), (2, 1, 0))
    finally:
        await store.close()


async def test_backfill_replays_what_settlement_booked_and_is_idempotent(db_url: str) -> None:
    await history(db_url)
    live = rows(db_url)
    assert len(live["rating_changes"]) == 2 * (4 + 2 + 3 + 2 + 3)  # server and global rows
    assert await backfill(db_url) == 0
    assert rows(db_url) == live  # in order, once: the same ratings as when the games ended
    assert await backfill(db_url) == 0
    assert rows(db_url) == live


async def test_backfill_rates_games_played_before_ratings(db_url: str,
                                                          capsys: object) -> None:
    await history(db_url)
    live = rows(db_url)
    # Games finished before ranked play existed have no rating rows at all.
    sql(db_url, "DELETE FROM rating_changes")
    sql(db_url, "DELETE FROM ratings")
    assert await backfill(db_url) == 0
    assert rows(db_url) == live
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "rated 5 finished ranked games in order (1 season ends replayed)" in out
    assert "6 people on 2 servers" in out


async def test_backfill_of_no_database_changes_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "none.sqlite3"
    assert await backfill(f"sqlite:///{missing}") == 2
    assert not missing.exists()
