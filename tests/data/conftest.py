"""Store fixtures: every store test runs on SQLite and on PostgreSQL (`db_url`, `store`).

PostgreSQL tests share one throwaway server per test session (per xdist worker), started from
the installed binaries on first use, and get a fresh database each; where PostgreSQL is not
installed they are skipped with one line saying so.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from data import Store
from tests.data.pg_server import NOT_INSTALLED, TempPostgres, find_bindir


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[TempPostgres]:
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(NOT_INSTALLED)
    server = TempPostgres(bindir)
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """A SQLite file (for the tests about SQLite itself)."""
    return tmp_path / "bot.sqlite3"


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, db_path: Path) -> Iterator[str]:
    """A fresh, empty store location on each backend."""
    if request.param == "sqlite":
        yield f"sqlite:///{db_path}"  # db_path is absolute: sqlite:////tmp/…
        return
    server: TempPostgres = request.getfixturevalue("postgres_server")
    url = server.create_database()
    try:
        yield url
    finally:
        server.drop_database(url)


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    s = await Store.open(db_url)
    try:
        yield s
    finally:
        await s.close()
