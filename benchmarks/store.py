"""Throughput of the store on a file database: ``python -m benchmarks.store``.

Prints game saves per second (one optimistic-version UPDATE, one durable commit each) and
settlements per second (a four-seat game: ledger rows, balances, results, stats, one commit).
Runs sequentially and with many coroutines at once, in a fresh temporary directory.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import tempfile
import time
from pathlib import Path

from data.check import check_path
from data.models import Seat, SeatResult, Transfer
from data.store import Store

GUILD = 1
STATE = json.dumps({"hands": [[i, i + 13, i + 26] for i in range(13)], "turn": 0})


def _baseline(directory: Path, count: int = 2000) -> float:
    """Durable single-row commits per second with plain sqlite3 (WAL, FULL) on the same disk."""
    db = sqlite3.connect(directory / "baseline.sqlite3", isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v INTEGER)")
        db.execute("INSERT INTO t VALUES (1, 0)")
        start = time.perf_counter()
        for i in range(count):
            db.execute("UPDATE t SET v = ? WHERE id = 1", (i,))
        return count / (time.perf_counter() - start)
    finally:
        db.close()


async def _bench(directory: Path, games: int, saves: int) -> list[str]:
    path = directory / "bench.sqlite3"
    store = await Store.open(path, starting_chips=10**9)
    lines = [
        f"database: {path} (WAL, synchronous=FULL)",
        f"baseline, plain sqlite3 single-row commits: {_baseline(directory):7.0f}/s",
    ]
    try:
        users = [1, 2, 3, 4]
        seats = [Seat(f"u{u}", user_id=u) for u in users]
        ids = []
        start = time.perf_counter()
        for n in range(games):
            game = await store.start_game(GUILD, 100 + n, 1, "{}", 1, seats, STATE)
            ids.append(game.id)
        elapsed = time.perf_counter() - start
        lines.append(f"game starts:            {games / elapsed:8.0f}/s")

        start = time.perf_counter()
        version = 1
        for _ in range(saves):
            version = await store.save_game(ids[0], STATE, version)
        elapsed = time.perf_counter() - start
        lines.append(f"game saves (sequential): {saves / elapsed:7.0f}/s")

        async def save_many(game_id: int, count: int) -> None:
            v = 1
            for _ in range(count):
                v = await store.save_game(game_id, STATE, v)

        per_game = max(1, saves // 50)
        start = time.perf_counter()
        await asyncio.gather(*(save_many(g, per_game) for g in ids[1:51]))
        elapsed = time.perf_counter() - start
        lines.append(f"game saves (50 tables):  {per_game * 50 / elapsed:7.0f}/s")

        transfers = [Transfer(3, 0, 2, "place"), Transfer(2, 1, 1, "place")]
        results = [SeatResult(i, i + 1) for i in range(4)]
        half = len(ids) // 2
        start = time.perf_counter()
        for game_id in ids[:half]:
            await store.settle_game(game_id, transfers, results)
        elapsed = time.perf_counter() - start
        lines.append(f"settlements (sequential): {half / elapsed:6.0f}/s")

        rest = ids[half:]
        start = time.perf_counter()
        await asyncio.gather(*(store.settle_game(g, transfers, results) for g in rest))
        elapsed = time.perf_counter() - start
        lines.append(f"settlements (concurrent): {len(rest) / elapsed:6.0f}/s")
    finally:
        await store.close()
    report = check_path(path)
    lines.append("data.check: " + ("OK" if report.ok else f"{len(report.faults)} faults"))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.store",
        description="Time the SQLite store in a fresh temporary directory: game saves and "
        "settlements per second, one at a time and many coroutines at once.",
    )
    parser.add_argument("--games", type=int, default=2000,
                        help="games to start and settle (at least 60; default 2000)")
    parser.add_argument("--saves", type=int, default=5000, help="game saves to time (default 5000)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="tienlen-bench-") as tmp:
        for line in asyncio.run(_bench(Path(tmp), max(args.games, 60), args.saves)):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
