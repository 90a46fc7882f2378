"""Helpers shared by the store tests (a uniquely named module, not conftest, to import)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from data import GameRecord, Seat, Store
from data.audit import Report, check_url
from data.db import open_database
from tests.data.pg_server import run_sync

GUILD = 1
CHANNEL = 10
T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)
TABLES = (
    "players",
    "chip_ledger",
    "tables",
    "games",
    "live_hands",
    "results",
    "player_stats",
    "player_places",
    "guild_settings",
    "bot_meta",
    "admin_actions",
    "ratings",
    "rating_changes",
    "seasons",
    "season_standings",
    "player_prefs",
)


def humans(*users: int) -> list[Seat]:
    return [Seat(name=f"user{u}", user_id=u) for u in users]


async def start(
    store: Store,
    users: tuple[int, ...] = (101, 102, 103, 104),
    *,
    stake: int = 10,
    bots: int = 0,
    channel: int = CHANNEL,
) -> GameRecord:
    seats = humans(*users) + [Seat(name=f"bot{i}", bot="easy") for i in range(bots)]
    return await store.start_game(
        GUILD, channel, users[0], '{"preset": "southern"}', stake, seats, "{}"
    )


def sql(url: str, statement: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
    """Run one statement (``?`` placeholders) outside the store, on either backend; its rows."""

    async def go() -> list[tuple[Any, ...]]:
        db = await open_database(url, pool_size=1, migrate=False)
        try:
            async with db.read() as conn:
                if statement.lstrip().upper().startswith(("SELECT", "PRAGMA", "WITH")):
                    return [tuple(r) for r in await conn.fetchall(statement, params)]
                await conn.execute(statement, params)
                return []
        finally:
            await db.close()

    return run_sync(go)


def script(url: str, text: str) -> None:
    """Run several statements (no parameters) outside the store, on either backend."""

    async def go() -> None:
        db = await open_database(url, pool_size=1, migrate=False)
        try:
            async with db.read() as conn:
                await conn.script(text)
        finally:
            await db.close()

    run_sync(go)


def snapshot(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every store table, in a stable order (to compare before and after)."""
    return {t: sorted(sql(url, f"SELECT * FROM {t}"), key=repr) for t in TABLES}


def check(url: str) -> Report:
    return check_url(url)
