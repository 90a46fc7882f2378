"""The two database backends behind the store: SQLite (aiosqlite) and PostgreSQL (asyncpg).

The store writes its SQL once, with ``?`` placeholders, in the SQL both dialects share; a
`Conn` runs it on either backend (placeholders become ``$1, $2 …`` for PostgreSQL) and reports
the rows a statement changed. A `Database` hands out connections for reading (`read`) and for
one transaction (`write`, rolled back on any exception, cancellation included), and brings the
schema up to date with the migrations of its dialect (``data/migrations/<dialect>/NNNN_*.sql``,
numbered and named the same for both).

SQLite: one connection per process, in WAL mode with ``synchronous=FULL``; every operation runs
under one ``asyncio.Lock`` (coroutines share the connection) and writes run inside ``BEGIN
IMMEDIATE``, so writers, even in other processes, take turns. Commits are grouped: each write
runs in a savepoint of the current batch (rolled back alone on an exception) and returns only
once the batch is committed; the batch commits as soon as the writers already queued have
joined it. One fsync (≈ 4 ms on the development machine) then serves every write that arrived
meanwhile, instead of one each, which had capped the bot at ≈ 270 writes a second. A read that
ran while a batch was open returns only once that batch is committed (and fails if it fails),
so nothing that is not yet durable leaves the store. The schema version is
``PRAGMA user_version``.

PostgreSQL: a pool of connections (``pool_size``), transactions at READ COMMITTED; the store
takes row locks (``SELECT … FOR UPDATE``, see `Conn.for_update`) where a transaction reads
what it is about to change. The schema version is the largest row of ``schema_migrations``;
migrations run under an advisory lock, so processes starting at once migrate once.
"""

from __future__ import annotations

import asyncio
import itertools
import re
import sqlite3
import time
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Protocol
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import asyncpg
from asyncpg.pool import PoolConnectionProxy

from data.errors import DatabaseUnavailable, InvalidInput, MigrationError

Dialect = Literal["sqlite", "postgresql"]
DIALECTS: tuple[Dialect, ...] = ("sqlite", "postgresql")
_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")
#: the advisory lock key PostgreSQL migrations hold (any constant; "tienlen" in ASCII, shortened)
_MIGRATION_LOCK = 0x7469656E6C656E


class Row(Protocol):
    """A result row: by position or by column name (aiosqlite.Row and asyncpg.Record both are)."""

    def __getitem__(self, key: int | str, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...
    def keys(self) -> Iterable[str]: ...


@dataclass(frozen=True, slots=True)
class DatabaseURL:
    """Where a store lives: ``sqlite:///relative.sqlite3``, ``sqlite:////abs/path.sqlite3``,
    a bare file path (SQLite), or ``postgresql://user:password@host:port/database``."""

    dialect: Dialect
    #: the file path (SQLite) or the connection string (PostgreSQL)
    target: str

    @classmethod
    def parse(cls, value: str | Path | DatabaseURL) -> DatabaseURL:
        if isinstance(value, DatabaseURL):
            return value
        if isinstance(value, Path):
            return cls("sqlite", str(value))
        if not isinstance(value, str) or not value.strip():
            raise InvalidInput("A database URL must be non-empty text.")
        text = value.strip()
        scheme, sep, rest = text.partition("://")
        if not sep:
            return cls("sqlite", text)  # a plain file path
        scheme = scheme.lower()
        if scheme == "sqlite":
            # sqlite:///name.sqlite3 is relative, sqlite:////srv/name.sqlite3 absolute
            if not rest.startswith("/") or rest == "/":
                raise InvalidInput(
                    "A SQLite URL is sqlite:///relative/path or sqlite:////absolute/path."
                )
            return cls("sqlite", rest[1:])
        if scheme in ("postgresql", "postgres"):
            return cls("postgresql", "postgresql://" + rest)
        raise InvalidInput(
            f"Unknown database URL scheme {scheme!r}: use sqlite:///path or postgresql://…"
        )

    def redacted(self) -> str:
        """The URL with any password replaced by ``***`` (safe to print or log)."""
        if self.dialect == "sqlite":
            return f"sqlite:///{self.target}"
        parts = urlsplit(self.target)
        if parts.password is None:
            return self.target
        host = parts.hostname or ""
        if parts.port is not None:
            host = f"{host}:{parts.port}"
        netloc = f"{parts.username or ''}:***@{host}"
        return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))

    def __str__(self) -> str:
        return self.redacted()


def migrations(dialect: Dialect = "sqlite") -> list[tuple[int, str, str]]:
    """A dialect's packaged migrations as (version, file name, SQL), in ascending order.

    Numbers only grow and are never used twice; a gap is allowed (numbers are handed out to
    pieces of work that land in any order), and the schema version is the number of the last
    migration applied."""
    found: list[tuple[int, str, str]] = []
    folder = resources.files("data").joinpath("migrations").joinpath(dialect)
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match:
            found.append((int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort()
    for (before, first, _), (version, name, _) in itertools.pairwise(found):
        if version == before:
            raise MigrationError(
                f"Migrations {dialect}/{first} and {dialect}/{name} share the number {version}."
            )
    if found and found[0][0] < 1:
        raise MigrationError(f"Migration {dialect}/{found[0][1]} is numbered below 1.")
    return found


def latest_version(dialect: Dialect = "sqlite") -> int:
    """The schema version this program brings a database to: its last migration's number."""
    found = migrations(dialect)
    return found[-1][0] if found else 0


# ---------------------------------------------------------------------- connections


class Conn(ABC):
    """One connection in use, reading or inside a transaction."""

    dialect: Dialect

    @property
    @abstractmethod
    def for_update(self) -> str:
        """Appended to a SELECT that reads rows this transaction will change (row locks)."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    @abstractmethod
    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...

    @abstractmethod
    async def script(self, sql: str) -> None:
        """Run several statements, without parameters (migrations, repair scripts)."""

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def one(self, sql: str, params: Sequence[Any] = ()) -> Row:
        row = await self.fetchone(sql, params)
        assert row is not None, sql
        return row


class SqliteConn(Conn):
    dialect: Dialect = "sqlite"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    @property
    def for_update(self) -> str:
        return ""  # BEGIN IMMEDIATE already holds the one write lock

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        cur = await self.db.execute(sql, params)
        return cur.rowcount

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.db.execute_fetchall(sql, params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.db.executemany(sql, rows)

    async def script(self, sql: str) -> None:
        await self.db.executescript(sql)


@lru_cache(maxsize=512)
def to_postgres(sql: str) -> str:
    """``?`` placeholders to ``$1, $2 …`` (the store's SQL has no ``?`` inside literals)."""
    counter = iter(range(1, sql.count("?") + 1))
    return re.sub(r"\?", lambda _: f"${next(counter)}", sql)


class PostgresConn(Conn):
    dialect: Dialect = "postgresql"

    def __init__(self, con: asyncpg.Connection[Any] | PoolConnectionProxy[Any]) -> None:
        self.con = con

    @property
    def for_update(self) -> str:
        return " FOR UPDATE"

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        status = await self.con.execute(to_postgres(sql), *params)
        # "UPDATE 3", "INSERT 0 1", "DELETE 0" …: the last word counts the rows
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        return list(await self.con.fetch(to_postgres(sql), *params))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        batch = list(rows)
        if batch:
            await self.con.executemany(to_postgres(sql), batch)

    async def script(self, sql: str) -> None:
        await self.con.execute(sql)


# ---------------------------------------------------------------------- databases


class Database(ABC):
    """A store's database: connections to read with, transactions to write in, its schema."""

    url: DatabaseURL

    @property
    def dialect(self) -> Dialect:
        return self.url.dialect

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Conn]:
        """A connection for reads (and single statements, which commit on their own)."""

    @abstractmethod
    def write(self) -> AbstractAsyncContextManager[Conn]:
        """A connection inside one transaction: committed at the end, rolled back on error."""

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def migrate(self, target: int | None = None) -> None:
        """Apply this dialect's migrations up to `target` (default: the latest), each atomically."""

    def _target(self, target: int | None) -> tuple[list[tuple[int, str, str]], int]:
        available = migrations(self.dialect)
        latest = available[-1][0] if available else 0
        target = latest if target is None else target
        if not 0 <= target <= latest:
            raise MigrationError(f"There is no schema version {target} (latest is {latest}).")
        return available, target

    @staticmethod
    def _refuse_newer(current: int, latest: int) -> None:
        if current > latest:
            raise MigrationError(
                f"The database is at schema version {current}, newer than this program's {latest}."
            )


class _Batch:
    """Writes waiting for one COMMIT."""

    def __init__(self) -> None:
        self.committed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.writes = 0


class SqliteDatabase(Database):
    def __init__(self, url: DatabaseURL, db: aiosqlite.Connection) -> None:
        self.url = url
        self._db = db
        self._lock = asyncio.Lock()
        self._batch: _Batch | None = None  # the open transaction, not yet committed
        self.commits = 0  # figures: COMMITs issued and writes they carried
        self.writes = 0

    @classmethod
    async def connect(cls, url: DatabaseURL, *, busy_timeout_ms: int = 10_000) -> SqliteDatabase:
        db = await aiosqlite.connect(url.target, isolation_level=None)
        db.row_factory = aiosqlite.Row
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            await cls._wal(db, busy_timeout_ms)
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
        except BaseException:
            await db.close()
            raise
        return cls(url, db)

    @staticmethod
    async def _wal(db: aiosqlite.Connection, busy_timeout_ms: int) -> None:
        """Switch the file to WAL. SQLite answers "database is locked" at once, without waiting
        for its busy timeout, when another connection opens the file at the same moment (four
        processes starting at once did, in CI): try again for up to the busy timeout."""
        deadline = time.monotonic() + busy_timeout_ms / 1000
        while True:
            try:
                await db.execute("PRAGMA journal_mode = WAL")
                return
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
            await asyncio.sleep(0.02)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Conn]:
        async with self._lock:
            batch = self._batch
            yield SqliteConn(self._db)
        if batch is not None:  # what was read includes writes not yet durable: wait for them
            await asyncio.shield(batch.committed)

    async def _settled(self) -> None:
        """Wait until no batch is open (its writes are not durable yet)."""
        while (batch := self._batch) is not None:
            await asyncio.shield(batch.committed)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Conn]:
        async with self._lock:
            batch = self._batch
            if batch is None:
                await self._db.execute("BEGIN IMMEDIATE")
                batch = self._batch = _Batch()
                asyncio.get_running_loop().create_task(self._commit(batch), name="sqlite-commit")
            await self._db.execute("SAVEPOINT write")
            try:
                yield SqliteConn(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK TO write")
                await self._db.execute("RELEASE write")
                raise
            await self._db.execute("RELEASE write")
            batch.writes += 1
        # Durable once the batch is committed (a failed COMMIT raises here, in every writer).
        await asyncio.shield(batch.committed)

    async def _commit(self, batch: _Batch) -> None:
        """Commit the batch once the writers queued on the lock before this task have joined it
        (the lock serves waiters in order)."""
        async with self._lock:
            await self._end(batch)

    async def _end(self, batch: _Batch) -> None:
        if self._batch is not batch:
            return
        self._batch = None
        try:
            await self._db.execute("COMMIT")
        except asyncio.CancelledError:
            batch.committed.cancel()
            raise
        except Exception as error:
            if self._db.in_transaction:
                await self._db.execute("ROLLBACK")
            batch.committed.set_exception(error)
            batch.committed.exception()  # retrieved: a batch without waiters is not an error
        else:
            self.commits += 1
            self.writes += batch.writes
            batch.committed.set_result(None)

    async def close(self) -> None:
        async with self._lock:
            if self._batch is not None:
                await self._end(self._batch)
            await self._db.close()

    async def schema_version(self) -> int:
        async with self.read() as conn:
            return int((await conn.one("PRAGMA user_version"))[0])

    async def migrate(self, target: int | None = None) -> None:
        available, target = self._target(target)
        await self._settled()
        current = await self.schema_version()
        self._refuse_newer(current, available[-1][0] if available else 0)
        for version, name, sql in available:
            if version <= current or version > target:
                continue
            async with self._lock:
                try:
                    await self._db.executescript(
                        f"BEGIN IMMEDIATE;\n{sql}\nPRAGMA user_version = {version};\nCOMMIT;"
                    )
                except Exception as exc:
                    if self._db.in_transaction:
                        await self._db.execute("ROLLBACK")
                    # Another process starting at the same time may have applied it first.
                    done = int((await SqliteConn(self._db).one("PRAGMA user_version"))[0])
                    if done >= version:
                        continue
                    raise MigrationError(f"Migration {name} failed: {exc}") from exc


class PostgresDatabase(Database):
    def __init__(self, url: DatabaseURL, pool: asyncpg.Pool[Any]) -> None:
        self.url = url
        self._pool = pool

    @classmethod
    async def connect(cls, url: DatabaseURL, *, pool_size: int = 10) -> PostgresDatabase:
        if not isinstance(pool_size, int) or isinstance(pool_size, bool) or pool_size < 1:
            raise InvalidInput(
                f"pool_size must be a whole number of at least 1, not {pool_size!r}."
            )
        try:
            pool = await asyncpg.create_pool(
                url.target, min_size=min(2, pool_size), max_size=pool_size
            )
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise DatabaseUnavailable(f"Cannot connect to {url.redacted()}: {exc}") from exc
        return cls(url, pool)

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Conn]:
        with _unavailable(self.url):
            async with self._pool.acquire() as con:
                yield PostgresConn(con)

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Conn]:
        with _unavailable(self.url):
            async with self._pool.acquire() as con, con.transaction():
                yield PostgresConn(con)

    async def close(self) -> None:
        await self._pool.close()

    async def schema_version(self) -> int:
        async with self.read() as conn:
            return await _pg_version(conn)

    async def migrate(self, target: int | None = None) -> None:
        available, target = self._target(target)
        async with self.write() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock(?)", (_MIGRATION_LOCK,))
            await conn.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations "
                "(version INTEGER PRIMARY KEY, name TEXT NOT NULL)"
            )
        for version, name, sql in available:
            if version > target:
                break
            async with self._pool.acquire() as con:
                try:
                    async with con.transaction():
                        await con.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                        current = await _pg_version(PostgresConn(con))
                        self._refuse_newer(current, available[-1][0] if available else 0)
                        if version <= current:
                            continue
                        await con.execute(sql)  # a script: no parameters
                        await con.execute(
                            "INSERT INTO schema_migrations (version, name) VALUES ($1, $2)",
                            version,
                            name,
                        )
                except asyncpg.PostgresError as exc:
                    raise MigrationError(f"Migration {name} failed: {exc}") from exc
        current = await self.schema_version()
        self._refuse_newer(current, available[-1][0] if available else 0)


@contextmanager
def _unavailable(url: DatabaseURL) -> Iterator[None]:
    """A lost or refused connection becomes DatabaseUnavailable (a StoreError, which callers
    report as a short message); the pool replaces the broken connection for the next call."""
    try:
        yield
    except (
        OSError,
        asyncpg.PostgresConnectionError,
        asyncpg.CannotConnectNowError,
        asyncpg.ConnectionDoesNotExistError,
        asyncpg.AdminShutdownError,
    ) as exc:
        raise DatabaseUnavailable(
            f"The database at {url.redacted()} is unavailable ({type(exc).__name__}); "
            "try again in a moment."
        ) from exc


async def _pg_version(conn: Conn) -> int:
    exists = await conn.one("SELECT to_regclass('schema_migrations') IS NOT NULL")
    if not exists[0]:
        return 0
    return int((await conn.one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))[0])


async def open_database(
    url: str | Path | DatabaseURL,
    *,
    pool_size: int = 10,
    busy_timeout_ms: int = 10_000,
    migrate_to: int | None = None,
    migrate: bool = True,
) -> Database:
    """Connect to `url` and (unless `migrate` is False) bring its schema up to date."""
    parsed = DatabaseURL.parse(url)
    db: Database
    if parsed.dialect == "sqlite":
        db = await SqliteDatabase.connect(parsed, busy_timeout_ms=busy_timeout_ms)
    else:
        db = await PostgresDatabase.connect(parsed, pool_size=pool_size)
    if migrate:
        try:
            await db.migrate(migrate_to)
        except BaseException:
            await db.close()
            raise
    return db
