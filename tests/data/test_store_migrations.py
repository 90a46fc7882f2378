from __future__ import annotations

import asyncio

import pytest

from data import MigrationError, Store
from data.db import DIALECTS, DatabaseURL, latest_version, to_postgres
from data.store import migrations
from tests.data.store_helpers import sql


def has_relation(url: str, name: str) -> bool:
    if DatabaseURL.parse(url).dialect == "sqlite":
        return bool(sql(url, "SELECT name FROM sqlite_master WHERE name = ?", (name,)))
    return sql(url, "SELECT to_regclass(?) IS NOT NULL", (name,)) == [(True,)]


def test_migrations_are_numbered_in_order_once_each() -> None:
    found = migrations()
    numbers = [v for v, _, _ in found]
    assert numbers == sorted(set(numbers)) and numbers[0] == 1
    assert len(found) >= 2
    assert latest_version() == numbers[-1]


def test_both_dialects_have_the_same_migrations() -> None:
    names = {d: [(v, n) for v, n, _ in migrations(d)] for d in DIALECTS}
    assert names["sqlite"] == names["postgresql"]


async def test_fresh_database_is_at_latest_version(db_url: str) -> None:
    store = await Store.open(db_url)
    try:
        assert await store.schema_version() == latest_version()
    finally:
        await store.close()
    if DatabaseURL.parse(db_url).dialect == "sqlite":
        assert sql(db_url, "PRAGMA journal_mode") == [("wal",)]


async def test_version_1_database_upgrades_in_place(db_url: str) -> None:
    old = await Store.open(db_url, migrate_to=1)
    assert await old.schema_version() == 1
    await old.ensure_player(1, 42)
    await old.claim_daily(1, 42)
    await old.close()
    assert not has_relation(db_url, "chip_ledger_player")

    new = await Store.open(db_url)
    try:
        assert await new.schema_version() == latest_version()
        assert await new.get_chips(1, 42) == 1200
    finally:
        await new.close()
    assert has_relation(db_url, "chip_ledger_player")


async def test_reopening_is_idempotent(db_url: str) -> None:
    for _ in range(3):
        s = await Store.open(db_url)
        await s.ensure_player(1, 7)
        await s.close()
    s = await Store.open(db_url)
    assert await s.get_chips(1, 7) == 1000
    await s.close()


async def test_processes_starting_at_once_migrate_once(db_url: str) -> None:
    stores = await asyncio.gather(*(Store.open(db_url) for _ in range(4)))
    try:
        assert {await s.schema_version() for s in stores} == {latest_version()}
    finally:
        for s in stores:
            await s.close()


async def test_newer_database_is_refused(db_url: str) -> None:
    if DatabaseURL.parse(db_url).dialect == "sqlite":
        sql(db_url, "PRAGMA user_version = 999")
    else:
        await (await Store.open(db_url)).close()
        sql(db_url, "INSERT INTO schema_migrations (version, name) VALUES (999, 'future')")
    with pytest.raises(MigrationError, match="newer"):
        await Store.open(db_url)


async def test_failed_migration_leaves_old_version(db_url: str) -> None:
    sql(db_url, "CREATE TABLE players (x INTEGER)")  # clashes with migration 1
    with pytest.raises(MigrationError, match="0001"):
        await Store.open(db_url)
    if DatabaseURL.parse(db_url).dialect == "sqlite":
        assert sql(db_url, "PRAGMA user_version") == [(0,)]
    else:
        assert sql(db_url, "SELECT COUNT(*) FROM schema_migrations") == [(0,)]
    assert not has_relation(db_url, "games")


def test_database_urls() -> None:
    assert DatabaseURL.parse("sqlite:///bot.sqlite3") == DatabaseURL("sqlite", "bot.sqlite3")
    assert DatabaseURL.parse("sqlite:////srv/bot.sqlite3").target == "/srv/bot.sqlite3"
    assert DatabaseURL.parse("plain/file.sqlite3") == DatabaseURL("sqlite", "plain/file.sqlite3")
    pg = DatabaseURL.parse("postgres://bot:s3cret@db.example:5433/tienlen")
    assert pg.dialect == "postgresql"
    assert pg.target == "postgresql://bot:s3cret@db.example:5433/tienlen"
    assert str(pg) == "postgresql://bot:***@db.example:5433/tienlen"
    assert "s3cret" not in repr(pg.redacted())
    for bad in ("mysql://x/y", "sqlite://relative", "", "sqlite:///"):
        with pytest.raises(ValueError, match="URL"):
            DatabaseURL.parse(bad)


def test_placeholders_for_postgresql() -> None:
    assert to_postgres("SELECT 1") == "SELECT 1"
    assert to_postgres("a = ? AND b IN (?, ?)") == "a = $1 AND b IN ($2, $3)"
