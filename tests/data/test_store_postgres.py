"""What only PostgreSQL has: a server that can go away, a pool of connections."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from data import DatabaseUnavailable, Store
from tests.data.pg_server import TempPostgres
from tests.data.store_helpers import GUILD, sql


@pytest.fixture
def pg_url(postgres_server: TempPostgres) -> Iterator[str]:
    url = postgres_server.create_database()
    try:
        yield url
    finally:
        postgres_server.drop_database(url)


async def test_lost_connections_are_a_store_error_then_replaced(pg_url: str) -> None:
    store = await Store.open(pg_url, pool_size=2)
    try:
        await store.ensure_player(GUILD, 1)
        # the server drops every connection of this database (a restart, a failover)
        sql(
            pg_url.rsplit("/", 1)[0] + "/postgres",
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = ? AND pid <> pg_backend_pid()",
            (pg_url.rsplit("/", 1)[1],),
        )
        outcomes = await asyncio.gather(
            *(store.get_chips(GUILD, 1) for _ in range(2)), return_exceptions=True
        )
        assert all(o == 1000 or isinstance(o, DatabaseUnavailable) for o in outcomes), outcomes
        # the pool reconnects: the next calls work, nothing was lost
        assert await store.get_chips(GUILD, 1) == 1000
        assert await store.adjust_chips(GUILD, 1, 5, "admin") == 1005
    finally:
        await store.close()


async def test_unreachable_server(postgres_server: TempPostgres) -> None:
    url = f"postgresql://nobody:hunter2@127.0.0.1:{postgres_server.port}/no_such_database"
    with pytest.raises(DatabaseUnavailable) as info:
        await Store.open(url)
    assert "hunter2" not in str(info.value)
    assert "no_such_database" in str(info.value)


async def test_pool_size_caps_connections(pg_url: str) -> None:
    store = await Store.open(pg_url, pool_size=3)
    try:
        await asyncio.gather(*(store.ensure_player(GUILD, u) for u in range(40)))
        [(opened,)] = sql(
            pg_url,
            "SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()",
        )
        assert 1 <= opened <= 3
    finally:
        await store.close()
