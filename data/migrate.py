"""Copy a whole store into an empty database: ``python -m data.migrate --from URL --to URL``.

The usual move is from the embedded SQLite file to a PostgreSQL server that several bot
processes share::

    python -m data.migrate --from sqlite:///tienlen.sqlite3 \\
        --to postgresql://tienlen:secret@db.example:5432/tienlen

Everything is copied, row for row and id for id: players, the chip ledger, tables, games,
results, stats, places, admin changes, server settings, the bot's own notes, ratings, seasons
and the live hands (their interaction tokens are copied as they are and never printed). The
source is first brought to this program's schema version (as the bot does when it starts); the
target must be empty (its schema is created) and is written in one transaction, so a failed copy
leaves it empty. The copy ends with the same checks as ``python -m data.check`` on the target.
Stop the bot while copying.

Exit status: 0 copied and sound, 1 copied but the check found faults, 2 nothing copied.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from data.audit import Report, audit
from data.db import Conn, Database, DatabaseURL, open_database
from data.errors import StoreError

#: every table of the store, parents before children, with the columns that order its rows
TABLES: tuple[tuple[str, str], ...] = (
    ("players", "guild_id, user_id"),
    ("tables", "id"),
    ("games", "id"),
    ("admin_actions", "id"),
    ("live_hands", "table_id, user_id"),
    ("chip_ledger", "id"),
    ("results", "game_id, seat"),
    ("player_stats", "guild_id, user_id"),
    ("player_places", "guild_id, user_id, place"),
    ("guild_settings", "guild_id"),
    ("bot_meta", "key"),
    ("ratings", "guild_id, user_id"),
    ("rating_changes", "game_id, guild_id, user_id"),
    ("seasons", "guild_id, number"),
    ("season_standings", "guild_id, season, user_id"),
    ("player_prefs", "user_id"),
)
#: tables whose ids come from a sequence that must continue after the copied ids
IDENTITY_TABLES = ("tables", "games", "admin_actions", "chip_ledger")
BATCH = 2000


class MigrateError(StoreError):
    """The copy cannot start or did not finish; nothing was written into the target."""


@dataclass(frozen=True)
class Copied:
    counts: dict[str, int]
    report: Report


async def _count(conn: Conn, table: str) -> int:
    return int((await conn.one(f"SELECT COUNT(*) FROM {table}"))[0])


async def _copy_table(
    source: Database, target: Conn, table: str, order: str, *, defer: str | None = None
) -> int:
    """Copy every row of `table`; `defer` names a column written as NULL (set afterwards)."""
    copied = 0
    while True:
        async with source.read() as src:
            rows = await src.fetchall(
                f"SELECT * FROM {table} ORDER BY {order} LIMIT ? OFFSET ?", (BATCH, copied)
            )
        if not rows:
            return copied
        columns = list(rows[0].keys())
        marks = ", ".join("?" for _ in columns)
        values = [tuple(None if c == defer else row[c] for c in columns) for row in rows]
        await target.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", values
        )
        copied += len(rows)


async def copy_store(source_url: str | DatabaseURL, target_url: str | DatabaseURL) -> Copied:
    """Copy the store at `source_url` into the empty database at `target_url`."""
    source_parsed = DatabaseURL.parse(source_url)
    target_parsed = DatabaseURL.parse(target_url)
    if source_parsed == target_parsed:
        raise MigrateError("The source and the target are the same database.")
    if source_parsed.dialect == "sqlite" and not os.path.isfile(source_parsed.target):  # noqa: ASYNC240
        raise MigrateError(f"No database at {source_parsed.target}.")
    source = await open_database(source_parsed, pool_size=2)
    try:
        target = await open_database(target_parsed, pool_size=2, migrate=False)
        try:
            return await _copy_into(source, target)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy_into(source: Database, target: Database) -> Copied:
    if await target.schema_version() > 0:
        async with target.read() as conn:
            held = {t: await _count(conn, t) for t, _ in TABLES}
        filled = {t: n for t, n in held.items() if n}
        if filled:
            listed = ", ".join(f"{n} {t}" for t, n in filled.items())
            raise MigrateError(f"The target is not empty ({listed}): refusing to write into it.")
    await target.migrate()
    source_version, target_version = await source.schema_version(), await target.schema_version()
    if source_version != target_version:  # pragma: no cover - both were just migrated
        raise MigrateError(f"Schema versions differ: {source_version} and {target_version}.")
    counts: dict[str, int] = {}
    async with target.write() as conn:
        for table, order in TABLES:
            # tables and games point at each other: a table's current game is set afterwards
            defer = "current_game_id" if table == "tables" else None
            counts[table] = await _copy_table(source, conn, table, order, defer=defer)
        async with source.read() as src:
            current = await src.fetchall(
                "SELECT id, current_game_id FROM tables WHERE current_game_id IS NOT NULL"
            )
        await conn.executemany(
            "UPDATE tables SET current_game_id = ? WHERE id = ?",
            [(int(r[1]), int(r[0])) for r in current],
        )
        if conn.dialect == "postgresql":
            for table in IDENTITY_TABLES:
                await conn.fetchall(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE(MAX(id), 0) + 1, false) FROM {table}"
                )
        for table, _ in TABLES:
            written = await _count(conn, table)
            if written != counts[table]:  # pragma: no cover - a source changing under the copy
                raise MigrateError(
                    f"{table}: {counts[table]} rows read but {written} written; "
                    "is the bot still running on the source?"
                )
    async with target.read() as conn:
        report = await audit(conn)
    return Copied(counts, report)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data.migrate",
        description="Copy a whole store (SQLite or PostgreSQL) into an empty database.",
    )
    parser.add_argument(
        "--from",
        dest="source",
        required=True,
        metavar="URL",
        help="the store to copy: sqlite:///file.sqlite3 or postgresql://…",
    )
    parser.add_argument(
        "--to",
        dest="target",
        required=True,
        metavar="URL",
        help="an empty database: postgresql://user:password@host:port/db or …",
    )
    args = parser.parse_args(argv)
    try:
        source, target = DatabaseURL.parse(args.source), DatabaseURL.parse(args.target)
        copied = asyncio.run(copy_store(source, target))
    except (StoreError, OSError, sqlite3.Error, asyncpg.PostgresError) as exc:
        print(f"nothing copied: {exc}", file=sys.stderr)
        return 2
    for table, _ in TABLES:
        print(f"{table}: {copied.counts[table]} rows")
    print(f"copied {source} -> {target}")
    for fact in copied.report.facts:
        print(fact)
    for fault in copied.report.faults:
        print(f"FAULT: {fault}")
    if copied.report.ok:
        print("OK: no faults found")
        return 0
    print(f"{len(copied.report.faults)} fault(s) found")
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
