"""Many coroutines on one store: settlements (each requested twice), daily claims, saves."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine
from datetime import timedelta
from typing import Any

from data import AlreadyClaimed, ChipTransfer, SeatResult, Settled, Store
from tests.data.store_helpers import GUILD, T0, check, sql, start

PLAYERS = (1, 2, 3, 4, 5)


def capped(owed: list[tuple[int, int, int]]):  # type: ignore[no-untyped-def]
    def compute(balances: dict[int, int | None]) -> list[ChipTransfer]:
        left = dict(balances)
        out = []
        for payer, payee, amount in owed:
            held = left[payer]
            assert held is not None
            paid = min(amount, held)
            left[payer] = held - paid
            out.append(ChipTransfer(payer, payee, paid, "place"))
        return out

    return compute


async def test_200_concurrent_settlements_and_claims(store: Store, db_url: str) -> None:
    rng = random.Random(7)
    games = []
    for _ in range(200):
        users = tuple(rng.sample(PLAYERS, 4))
        games.append(await start(store, users, stake=10))

    async def settle(game_id: int) -> Settled:
        order = rng.sample(range(4), 4)
        owed = [(order[3], order[0], 300), (order[2], order[1], 150)]
        results = [SeatResult(seat, place + 1) for place, seat in enumerate(order)]
        return await store.settle_game(game_id, capped(owed), results)

    async def claim(user: int, hours: int) -> int:
        try:
            return (await store.claim_daily(GUILD, user, now=T0 + timedelta(hours=hours))).granted
        except AlreadyClaimed:
            return 0

    async def save(game_id: int, version: int) -> None:
        await store.save_game(game_id, '{"x": 1}', version)

    jobs: list[Coroutine[Any, Any, object]] = [settle(g.id) for g in games]
    jobs += [settle(g.id) for g in games]
    jobs += [claim(u, h) for u in PLAYERS for h in (0, 1, 5, 23, 24, 30, 47, 48, 48, 48)]
    jobs += [save(g.id, 1) for g in games[:50]]
    rng.shuffle(jobs)
    outcomes = await asyncio.gather(*jobs, return_exceptions=True)

    errors = [o for o in outcomes if isinstance(o, BaseException)]
    # a save may lose to the settlement (game finished first): that is a WrongStatus, nothing else
    assert all(type(e).__name__ == "WrongStatus" for e in errors), errors
    settled = [o for o in outcomes if isinstance(o, Settled)]
    assert len(settled) == 400
    assert sum(s.first_call for s in settled) == 200
    by_game: dict[int, list[Settled]] = {}
    for s in settled:
        by_game.setdefault(s.game_id, []).append(s)
    assert all(a == b for a, b in by_game.values())
    granted = sum(o for o in outcomes if type(o) is int)
    # claims run in random order with their own clocks: at least one each, at most three each
    # (check below verifies they are 24 hours apart)
    assert 200 * len(PLAYERS) <= granted <= 200 * 3 * len(PLAYERS)

    total = sum([await store.get_chips(GUILD, u) or 0 for u in PLAYERS])
    assert total == 1000 * len(PLAYERS) + granted
    report = check(db_url)
    assert report.ok, report.faults
    assert sql(db_url, "SELECT COUNT(DISTINCT game_id) FROM results") == [(200,)]
    assert sql(db_url, "SELECT COUNT(*) FROM results") == [(800,)]
    games_played = sum([(await store.stats(GUILD, u)).games for u in PLAYERS])
    assert games_played == 800


async def test_two_stores_on_one_file_settle_once(db_url: str) -> None:
    """Two processes' worth of connections (SQLite: BEGIN IMMEDIATE serialises them;
    PostgreSQL: the game's row lock): still once."""
    a = await Store.open(db_url)
    b = await Store.open(db_url)
    try:
        game = await start(a, (1, 2))
        results = [SeatResult(0, 1), SeatResult(1, 2)]
        transfers = [ChipTransfer(1, 0, 10, "place")]
        outs = await asyncio.gather(
            *(s.settle_game(game.id, transfers, results) for s in (a, b, a, b))
        )
        assert sum(o.first_call for o in outs) == 1
        assert await a.get_chips(GUILD, 1) == 1010
    finally:
        await a.close()
        await b.close()
    assert check(db_url).ok
