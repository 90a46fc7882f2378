"""Throughput of the store: ``python -m benchmarks.store [--database URL]``.

Prints game saves per second (one optimistic-version UPDATE, one durable commit each) and
settlements per second (a four-seat game: ledger rows, balances, results, stats, one commit),
one at a time and with many coroutines at once, for casual games (settle alone) beside ranked
ones (settle with rating: the rating rows written in the same transaction), next to a baseline:
plain single-row durable commits on the same database; and the rating maths alone (µs a game).
Without ``--database`` it uses a fresh SQLite file in a temporary directory; with a
``postgresql://`` URL it uses that database, which must be empty (the run writes test games into
it). Ends with the store checks on what it wrote.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import asyncpg

from data.audit import check_url_async
from data.db import DatabaseURL, SqliteDatabase
from data.errors import StoreError
from data.models import ChipTransfer, Seat, SeatResult
from data.store import Store
from engine.rating import DEFAULT_SKILL, Entrant, rate

GUILD = 1
STATE = json.dumps({"hands": [[i, i + 13, i + 26] for i in range(13)], "turn": 0})


def _sqlite_baseline(directory: Path, count: int = 2000) -> float:
    """Durable single-row commits per second with plain sqlite3 (WAL, FULL) on the same disk."""
    path = directory / "tienlen-bench-baseline.sqlite3"
    for leftover in directory.glob(path.name + "*"):
        leftover.unlink()
    db = sqlite3.connect(path, isolation_level=None)
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
        for leftover in directory.glob(path.name + "*"):
            leftover.unlink()


async def _postgres_baseline(url: DatabaseURL, count: int = 2000) -> float:
    """Durable single-row commits per second with plain asyncpg on the same server (a real
    table, since a temporary one skips the write-ahead log; dropped afterwards)."""
    con = await asyncpg.connect(url.target)
    try:
        await con.execute("CREATE TABLE bench_baseline (id INTEGER PRIMARY KEY, v INTEGER)")
        try:
            await con.execute("INSERT INTO bench_baseline VALUES (1, 0)")
            start = time.perf_counter()
            for i in range(count):
                await con.execute("UPDATE bench_baseline SET v = $1 WHERE id = 1", i)
            return count / (time.perf_counter() - start)
        finally:
            await con.execute("DROP TABLE bench_baseline")
    finally:
        await con.close()


def _rating_maths(count: int = 20_000) -> float:
    """Microseconds to rate one four-person game (engine.rating.rate, no I/O)."""
    entrants = [Entrant(place, skill=DEFAULT_SKILL) for place in (1, 2, 3, 4)]
    start = time.perf_counter()
    for _ in range(count):
        rate(entrants)
    return (time.perf_counter() - start) / count * 1e6


async def _is_empty(store: Store) -> bool:
    async with store.database.read() as conn:
        row = await conn.one("SELECT (SELECT COUNT(*) FROM players) + (SELECT COUNT(*) FROM games)")
    return int(row[0]) == 0


async def _bench(url: DatabaseURL, games: int, saves: int, here: Path | None) -> list[str]:
    """`here`: a directory on the SQLite file's disk, for the baseline."""
    store = await Store.open(url, starting_chips=10**9)
    lines = [f"database: {url}"]
    try:
        if not await _is_empty(store):
            raise StoreError("The benchmark writes test games: give it an empty database.")
        if store.dialect == "sqlite":
            lines[0] += " (WAL, synchronous=FULL)"
            assert here is not None
            base = _sqlite_baseline(here)
            lines.append(f"baseline, plain sqlite3 single-row commits: {base:7.0f}/s")
        else:
            base = await _postgres_baseline(url)
            lines.append(f"baseline, plain asyncpg single-row commits: {base:7.0f}/s")
        users = [1, 2, 3, 4]
        seats = [Seat(f"u{u}", user_id=u) for u in users]
        ids, casual = [], []
        start = time.perf_counter()
        for n in range(games):
            game = await store.start_game(GUILD, 100 + n, 1, "{}", 1, seats, STATE)
            ids.append(game.id)
        elapsed = time.perf_counter() - start
        for n in range(games):
            game = await store.start_game(GUILD, 100 + n, 1, "{}", 1, seats, STATE, ranked=False)
            casual.append(game.id)
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
        db = store.database
        commits = db.commits if isinstance(db, SqliteDatabase) else None
        start = time.perf_counter()
        await asyncio.gather(*(save_many(g, per_game) for g in ids[1:51]))
        elapsed = time.perf_counter() - start
        line = f"game saves (50 tables):  {per_game * 50 / elapsed:7.0f}/s"
        if isinstance(db, SqliteDatabase) and commits is not None:  # grouped commits
            line += f" ({per_game * 50} saves in {db.commits - commits} COMMITs)"
        lines.append(line)

        transfers = [ChipTransfer(3, 0, 2, "place"), ChipTransfer(2, 1, 1, "place")]
        results = [SeatResult(i, i + 1) for i in range(4)]
        half = len(ids) // 2
        for kind, games_of in (("casual, settle alone", casual), ("ranked, with rating", ids)):
            start = time.perf_counter()
            for game_id in games_of[:half]:
                await store.settle_game(game_id, transfers, results)
            elapsed = time.perf_counter() - start
            lines.append(f"settlements (sequential, {kind}): {half / elapsed:6.0f}/s")
        for kind, games_of in (("casual, settle alone", casual), ("ranked, with rating", ids)):
            rest = games_of[half:]
            start = time.perf_counter()
            await asyncio.gather(*(store.settle_game(g, transfers, results) for g in rest))
            elapsed = time.perf_counter() - start
            lines.append(f"settlements (concurrent, {kind}): {len(rest) / elapsed:6.0f}/s")
        lines.append(f"rating one four-person game (maths alone): {_rating_maths():7.1f} µs")
    finally:
        await store.close()
    report = await check_url_async(url)
    lines.append("data.check: " + ("OK" if report.ok else f"{len(report.faults)} faults"))
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.store",
        description="Time the store on SQLite or PostgreSQL: game saves and settlements per "
        "second, one at a time and many coroutines at once, next to plain single-row commits "
        "on the same database.",
    )
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="an empty store to write into: sqlite:///file.sqlite3 or "
        "postgresql://user:password@host:port/database (default: a fresh SQLite file in a "
        "temporary directory)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=2000,
        help="games to start and settle (at least 60; default 2000)",
    )
    parser.add_argument("--saves", type=int, default=5000, help="game saves to time (default 5000)")
    args = parser.parse_args(argv)
    games = max(args.games, 60)
    try:
        if args.database is None:
            with tempfile.TemporaryDirectory(prefix="tienlen-bench-") as tmp:
                url = DatabaseURL.parse(Path(tmp) / "bench.sqlite3")
                lines = asyncio.run(_bench(url, games, args.saves, Path(tmp)))
        else:
            url = DatabaseURL.parse(args.database)
            here = Path(url.target).resolve().parent if url.dialect == "sqlite" else None
            lines = asyncio.run(_bench(url, games, args.saves, here))
    except (StoreError, OSError, asyncpg.PostgresError) as exc:
        print(f"benchmark not run: {exc}", file=sys.stderr)
        return 2
    for line in lines:
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
