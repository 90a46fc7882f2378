"""SQLite commits are grouped: writes that arrive while one commits share the next COMMIT (one
fsync), each still rolls back alone, and nothing leaves the store before it is durable."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from data.db import SqliteDatabase, open_database


async def _open(path: Path) -> SqliteDatabase:
    db = await open_database(f"sqlite:///{path}", migrate=False)
    assert isinstance(db, SqliteDatabase)
    async with db.write() as conn:
        await conn.execute("CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT NOT NULL)")
    return db


def _durable(path: Path) -> list[tuple[int, str]]:
    """What another connection (another process) sees: only committed rows."""
    with sqlite3.connect(path) as other:
        return sorted(other.execute("SELECT k, v FROM t").fetchall())


async def test_concurrent_writes_share_commits_and_are_all_durable(db_path: Path) -> None:
    db = await _open(db_path)
    try:
        commits_before = db.commits

        async def put(k: int) -> None:
            async with db.write() as conn:
                await conn.execute("INSERT INTO t (k, v) VALUES (?, ?)", (k, f"v{k}"))
            # when write() returns, the row is committed: another connection sees it
            assert (k, f"v{k}") in _durable(db_path)

        await asyncio.gather(*(put(k) for k in range(60)))
        assert _durable(db_path) == [(k, f"v{k}") for k in range(60)]
        assert 1 <= db.commits - commits_before < 60  # grouped: fewer COMMITs than writes
    finally:
        await db.close()


async def test_a_failing_write_rolls_back_alone(db_path: Path) -> None:
    db = await _open(db_path)
    try:
        async def good(k: int) -> None:
            async with db.write() as conn:
                await conn.execute("INSERT INTO t (k, v) VALUES (?, ?)", (k, "ok"))

        async def bad() -> None:
            async with db.write() as conn:
                await conn.execute("INSERT INTO t (k, v) VALUES (?, ?)", (100, "half"))
                raise ValueError("refused")

        results = await asyncio.gather(good(1), bad(), good(2), return_exceptions=True)
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], ValueError)
        assert _durable(db_path) == [(1, "ok"), (2, "ok")]
    finally:
        await db.close()


async def test_a_read_returns_only_once_what_it_saw_is_durable(db_path: Path) -> None:
    db = await _open(db_path)
    try:
        seen: list[list[tuple[int, str]]] = []

        async def put() -> None:
            async with db.write() as conn:
                await conn.execute("INSERT INTO t (k, v) VALUES (1, 'new')")

        async def look() -> None:
            async with db.read() as conn:
                rows = [(r[0], r[1]) for r in await conn.fetchall("SELECT k, v FROM t")]
            seen.append(rows)
            if rows:  # it saw the write: by now the write is committed
                assert _durable(db_path) == rows

        await asyncio.gather(put(), look(), look())
        assert [(1, "new")] in seen
    finally:
        await db.close()


async def test_close_commits_what_is_pending(db_path: Path) -> None:
    db = await _open(db_path)
    task = asyncio.create_task(_put_one(db))
    await asyncio.sleep(0)  # the write has begun its batch
    await asyncio.gather(task, db.close())
    assert _durable(db_path) == [(7, "x")]


async def _put_one(db: SqliteDatabase) -> None:
    async with db.write() as conn:
        await conn.execute("INSERT INTO t (k, v) VALUES (7, 'x')")


@pytest.mark.parametrize("writers", [1, 8])
async def test_every_write_commits_even_one_alone(db_path: Path, writers: int) -> None:
    db = await _open(db_path)
    try:
        for _ in range(3):  # batches one after another
            await asyncio.gather(*(_put_next(db) for _ in range(writers)))
        assert len(_durable(db_path)) == 3 * writers
    finally:
        await db.close()


async def _put_next(db: SqliteDatabase) -> None:
    async with db.write() as conn:
        await conn.execute("INSERT INTO t (v) VALUES ('n')")
