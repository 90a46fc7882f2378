"""`Store.game_history` and `Store.game_results` on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from data import ChipTransfer, SeatResult, Store
from tests.data.store_helpers import GUILD, start


async def _settled(store: Store, when: datetime, users: tuple[int, ...] = (101, 102)) -> int:
    game = await start(store, users)
    places = [SeatResult(i, i + 1) for i in range(len(users))]
    await store.settle_game(game.id, [ChipTransfer(1, 0, 10, "place")], places, now=when)
    return game.id


async def test_history_lists_finished_games_newest_first_in_pages(store: Store) -> None:
    base = datetime(2026, 11, 1, tzinfo=UTC)
    ids = [await _settled(store, base + timedelta(minutes=i)) for i in range(12)]
    running = await start(store)  # a game in play is never listed
    cancelled = await start(store)
    await store.cancel_game(cancelled.id)
    first = await store.game_history(GUILD, 102)
    assert (first.page, first.pages, first.total) == (1, 2, 12)
    assert [e.game_id for e in first.entries] == ids[::-1][:10]
    entry = first.entries[0]
    assert (entry.seat, entry.place, entry.chip_change, entry.seats) == (1, 2, -10, 2)
    assert entry.finished_at == base + timedelta(minutes=11)
    assert entry.rating_change is None
    second = await store.game_history(GUILD, 102, 2)
    assert [e.game_id for e in second.entries] == ids[1::-1]
    assert (await store.game_history(GUILD, 102, 3)).entries == ()
    assert running.id not in [e.game_id for e in first.entries + second.entries]
    assert (await store.game_history(GUILD + 1, 102)).total == 0  # another server
    assert (await store.game_history(GUILD, 999)).total == 0
    rows = await store.game_results(ids[0])
    assert [(r.seat, r.user_id, r.place, r.chip_change) for r in rows] == [
        (0, 101, 1, 10), (1, 102, 2, -10)]
    assert await store.game_results(running.id) == ()
    with pytest.raises(ValueError):
        await store.game_history(GUILD, 102, 0)
