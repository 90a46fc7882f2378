from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from data import MigrationError, Store
from data.store import migrations


def test_migrations_are_numbered_without_gaps() -> None:
    found = migrations()
    assert [v for v, _, _ in found] == list(range(1, len(found) + 1))
    assert len(found) >= 2


async def test_fresh_database_is_at_latest_version(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        assert await store.schema_version() == len(migrations())
    finally:
        await store.close()
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    db.close()


async def test_version_1_database_upgrades_in_place(db_path: Path) -> None:
    old = await Store.open(db_path, migrate_to=1)
    assert await old.schema_version() == 1
    await old.ensure_player(1, 42)
    await old.claim_daily(1, 42)
    await old.close()
    db = sqlite3.connect(db_path)
    assert not db.execute(
        "SELECT name FROM sqlite_master WHERE name = 'chip_ledger_player'"
    ).fetchall()
    db.close()

    new = await Store.open(db_path)
    try:
        assert await new.schema_version() == len(migrations())
        assert await new.get_chips(1, 42) == 1200
    finally:
        await new.close()
    db = sqlite3.connect(db_path)
    assert db.execute("SELECT name FROM sqlite_master WHERE name = 'chip_ledger_player'").fetchall()
    db.close()


async def test_reopening_is_idempotent(db_path: Path) -> None:
    for _ in range(3):
        s = await Store.open(db_path)
        await s.ensure_player(1, 7)
        await s.close()
    s = await Store.open(db_path)
    assert await s.get_chips(1, 7) == 1000
    await s.close()


async def test_newer_database_is_refused(db_path: Path) -> None:
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA user_version = 999")
    db.close()
    with pytest.raises(MigrationError, match="newer"):
        await Store.open(db_path)


async def test_failed_migration_leaves_old_version(db_path: Path) -> None:
    db = sqlite3.connect(db_path)
    db.execute("CREATE TABLE players (x INTEGER)")  # clashes with migration 1
    db.close()
    with pytest.raises(MigrationError, match="0001"):
        await Store.open(db_path)
    db = sqlite3.connect(db_path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 0
    assert not db.execute("SELECT name FROM sqlite_master WHERE name = 'games'").fetchall()
    db.close()
