"""Engine settlement booked by the store: random games, balances read inside the transaction."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from data import Seat, SeatResult, Store
from data.check import check_path
from engine import Game
from engine.settle import Transfer, settle
from tests.engine.test_settle_property import random_game

GUILD = 1


async def test_random_games_settle_through_the_store(tmp_path: Path) -> None:
    path = tmp_path / "bot.sqlite3"
    store = await Store.open(path, starting_chips=300)
    rng = random.Random(5)
    users = list(range(1, 7))
    try:
        for seed in range(120):
            game = random_game(seed)
            n = game.seat_count
            seated = rng.sample(users, min(n, rng.randint(1, len(users))))
            seats = [Seat(f"u{u}", user_id=u) for u in seated]
            seats += [Seat(f"bot{i}", bot="easy") for i in range(n - len(seats))]
            rng.shuffle(seats)
            stake = rng.choice([0, 1, 10, 50])
            chips = [await store.ensure_player(GUILD, s.user_id) for s in seats if s.user_id]
            stake = min([stake, *chips])
            record = await store.start_game(GUILD, 10, 1, "{}", stake, seats, game.to_json())
            settlement = settle(game.outcome, game.events, stake, [None] * n)  # bombs, places
            results = [
                SeatResult(seat, settlement.places.index(seat) + 1, settlement.bombs_played[seat])
                for seat in range(n)
            ]

            def compute(
                balances: dict[int, int | None], g: Game = game, st: int = stake
            ) -> Sequence[Transfer]:
                return settle(g.outcome, g.events, st, balances).transfers

            booked = await store.settle_game(record.id, compute, results)
            assert sum(booked.chip_changes.values()) == 0
    finally:
        await store.close()
    report = check_path(path)
    assert report.ok, report.faults
