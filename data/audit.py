"""Verify a store's database, SQLite or PostgreSQL (the checks behind ``python -m data.check``).

Checks that every balance equals the sum of its ledger rows, no balance is negative (nor ever
was, row by row), every finished game was settled exactly once (results for each seat, ledger
rows matching them, transfers summing to zero), unfinished and cancelled games moved no chips,
every player got at most one starting grant, daily claims are 24 hours apart, one open table per
channel, the ledger's append-only triggers are in place, the chips held are explained by the
ledger (starting grants, dailies, admin grants and takes, game transfers) and every admin change
moved exactly the ledger rows it records, and, on SQLite, its own integrity and
foreign-key checks (PostgreSQL enforces foreign keys at every write).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import threading
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, TypeVar

from data.admin_audit import audit_admin
from data.db import Conn, DatabaseURL, Row, open_database
from data.ratings.audit import audit_ratings

T = TypeVar("T")
LEDGER_TRIGGERS = frozenset({"chip_ledger_no_update", "chip_ledger_no_delete"})


@dataclass
class Report:
    faults: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.faults

    def fault(self, message: str) -> None:
        self.faults.append(message)


async def audit(conn: Conn) -> Report:
    """Every check, on one connection of either backend."""
    report = Report()
    q = conn.fetchall

    if conn.dialect == "sqlite":
        integrity = [r[0] for r in await q("PRAGMA integrity_check")]
        if integrity != ["ok"]:
            report.fault(f"SQLite integrity check: {'; '.join(integrity[:5])}")
        for row in await q("PRAGMA foreign_key_check"):
            report.fault(f"Foreign key broken: table {row[0]} rowid {row[1]} -> {row[2]}")
        version = int((await conn.one("PRAGMA user_version"))[0])
        triggers = {
            r[0]
            for r in await q(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'chip_ledger'"
            )
        }
    else:
        row = await conn.one("SELECT COALESCE(MAX(version), 0) FROM schema_migrations")
        version = int(row[0])
        triggers = {
            r[0]
            for r in await q(
                "SELECT tgname FROM pg_trigger "
                "WHERE tgrelid = 'chip_ledger'::regclass AND NOT tgisinternal"
            )
        }
    for missing in sorted(LEDGER_TRIGGERS - triggers):
        report.fault(f"The ledger is not append-only: trigger {missing} is missing")

    players, ledger_rows, chips_total = await conn.one(
        "SELECT (SELECT COUNT(*) FROM players), (SELECT COUNT(*) FROM chip_ledger), "
        "(SELECT COALESCE(SUM(chips), 0) FROM players)"
    )
    report.facts.append(
        f"{players} players holding {int(chips_total)} chips; {ledger_rows} ledger rows; "
        f"schema version {version}"
    )

    # Balances equal their ledger sums; nothing negative.
    for guild, user, chips, summed in await q(
        "SELECT p.guild_id, p.user_id, p.chips, COALESCE(SUM(l.delta), 0) FROM players p "
        "LEFT JOIN chip_ledger l ON l.guild_id = p.guild_id AND l.user_id = p.user_id "
        "GROUP BY p.guild_id, p.user_id HAVING p.chips <> COALESCE(SUM(l.delta), 0)"
    ):
        report.fault(f"Guild {guild} user {user}: holds {chips} chips but the ledger sums {summed}")
    for guild, user, chips in await q(
        "SELECT guild_id, user_id, chips FROM players WHERE chips < 0"
    ):
        report.fault(f"Guild {guild} user {user}: negative balance {chips}")
    for guild, user in await q(
        "SELECT l.guild_id, l.user_id FROM chip_ledger l LEFT JOIN players p "
        "ON p.guild_id = l.guild_id AND p.user_id = l.user_id WHERE p.user_id IS NULL "
        "GROUP BY l.guild_id, l.user_id"
    ):
        report.fault(f"Guild {guild} user {user}: ledger rows for someone who is not a player")

    # A running balance never dipped below zero.
    for guild, user, low in await q(
        "SELECT guild_id, user_id, MIN(running) FROM (SELECT guild_id, user_id, "
        "SUM(delta) OVER (PARTITION BY guild_id, user_id ORDER BY id) AS running "
        "FROM chip_ledger) AS r GROUP BY guild_id, user_id HAVING MIN(running) < 0"
    ):
        report.fault(f"Guild {guild} user {user}: the ledger went down to {low} chips")

    # Starting grants: at most one per player.
    for guild, user, n in await q(
        "SELECT guild_id, user_id, COUNT(*) FROM chip_ledger WHERE reason = 'grant' "
        "GROUP BY guild_id, user_id HAVING COUNT(*) > 1"
    ):
        report.fault(f"Guild {guild} user {user}: {n} starting grants")

    # Daily claims at least 24 hours apart.
    claims: dict[tuple[int, int], list[str]] = {}
    for guild, user, at in await q(
        "SELECT guild_id, user_id, created_at FROM chip_ledger WHERE reason = 'daily' "
        "ORDER BY guild_id, user_id, created_at"
    ):
        claims.setdefault((guild, user), []).append(at)
    for (guild, user), times in claims.items():
        moments = [datetime.fromisoformat(t) for t in times]
        for earlier, later in itertools.pairwise(moments):
            if later - earlier < timedelta(hours=24):
                report.fault(
                    f"Guild {guild} user {user}: daily claims at {earlier} and {later}, "
                    "less than 24 hours apart"
                )

    # Games: finished ones settled exactly once, the others moved nothing.
    games = await q("SELECT id, guild_id, status, seats_json FROM games ORDER BY id")
    ledger_by_game: dict[int, list[Row]] = {}
    for row in await q(
        "SELECT game_id, user_id, SUM(delta), COUNT(*), "
        "SUM(CASE WHEN guild_id <> g.guild THEN 1 ELSE 0 END) FROM chip_ledger "
        "JOIN (SELECT id, guild_id AS guild FROM games) AS g ON g.id = chip_ledger.game_id "
        "GROUP BY game_id, user_id ORDER BY game_id, user_id"
    ):
        ledger_by_game.setdefault(int(row[0]), []).append(row)
    results_by_game: dict[int, list[Row]] = {}
    for row in await q(
        "SELECT game_id, seat, user_id, place, chip_change FROM results ORDER BY game_id, seat"
    ):
        results_by_game.setdefault(int(row[0]), []).append(row)
    statuses: dict[str, int] = {}
    for game_id, _guild, status, seats_json in games:
        statuses[status] = statuses.get(status, 0) + 1
        seats = json.loads(seats_json)
        ledger = [(r[1], r[2], r[3], r[4]) for r in ledger_by_game.get(game_id, [])]
        results = [(r[1], r[2], r[3], r[4]) for r in results_by_game.get(game_id, [])]
        if status != "finished":
            if ledger:
                report.fault(f"Game {game_id} is {status} but moved chips")
            if results:
                report.fault(f"Game {game_id} is {status} but has results")
            continue
        _check_finished(report, game_id, seats, ledger, results)
    report.facts.append(
        f"{len(games)} games: "
        + (", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "none")
    )
    for (game_id,) in await q(
        "SELECT DISTINCT l.game_id FROM chip_ledger l LEFT JOIN games g ON g.id = l.game_id "
        "WHERE l.game_id IS NOT NULL AND g.id IS NULL"
    ):
        report.fault(f"Ledger rows name game {game_id}, which does not exist")

    # Tables: one open table per channel.
    for channel, n in await q(
        "SELECT channel_id, COUNT(*) FROM tables WHERE status = 'open' "
        "GROUP BY channel_id HAVING COUNT(*) > 1"
    ):
        report.fault(f"Channel {channel} has {n} open tables")

    # Where the chips came from, and the admin changes (data.admin_audit).
    await audit_admin(conn, report)
    # Live hands (data.hands): only open tables keep them. Their tokens are never read here.
    kept, stray = await conn.one(
        "SELECT (SELECT COUNT(*) FROM live_hands), (SELECT COUNT(*) FROM live_hands h "
        "LEFT JOIN tables t ON t.id = h.table_id WHERE t.id IS NULL OR t.status <> 'open')"
    )
    report.facts.append(f"{kept} live hands kept")
    if stray:
        report.fault(f"{stray} live hands belong to closed or missing tables")
    # Ratings (data.ratings.audit): each game counted once in each rating it moved.
    await audit_ratings(conn, report)
    return report


def _check_finished(
    report: Report,
    game_id: int,
    seats: list[dict[str, object]],
    ledger: Sequence[tuple[int, int, int, int]],
    results: Sequence[tuple[int, int | None, int, int]],
) -> None:
    if len(results) != len(seats):
        report.fault(
            f"Game {game_id} is finished with {len(results)} results for {len(seats)} seats"
        )
    places = sorted(r[2] for r in results)
    if places != list(range(1, len(results) + 1)):
        report.fault(f"Game {game_id}: places {places} are not 1..{len(results)}")
    total = sum(int(r[1]) for r in ledger)
    if total != 0:
        report.fault(f"Game {game_id}: transfers sum to {total}, not zero")
    wrong_guild = sum(int(r[3]) for r in ledger)
    if wrong_guild:
        report.fault(f"Game {game_id}: {wrong_guild} ledger rows in another guild")
    booked = {int(user): int(delta) for user, delta, _, _ in ledger}
    expected: dict[int, int] = {}
    for seat, user, _, change in results:
        if seat < len(seats) and seats[seat].get("user_id") != user:
            report.fault(f"Game {game_id}: result for seat {seat} names user {user}")
        if user is None:
            if change:
                report.fault(f"Game {game_id}: computer seat {seat} changed by {change} chips")
            continue
        expected[int(user)] = expected.get(int(user), 0) + int(change)
    for user in sorted(set(booked) | set(expected)):
        if booked.get(user, 0) != expected.get(user, 0):
            report.fault(
                f"Game {game_id} user {user}: the ledger moved {booked.get(user, 0)} chips, "
                f"the result says {expected.get(user, 0)} (settled twice or half-written?)"
            )


async def check_url_async(url: str | Path | DatabaseURL) -> Report:
    """Check the database at `url` (a SQLite file must exist; nothing is written)."""
    parsed = DatabaseURL.parse(url)
    if parsed.dialect == "sqlite" and not os.path.isfile(parsed.target):  # noqa: ASYNC240
        raise FileNotFoundError(f"No database at {parsed.target}")
    db = await open_database(parsed, pool_size=1, migrate=False)
    try:
        async with db.read() as conn:
            return await audit(conn)
    finally:
        await db.close()


def _in_thread(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine on its own event loop in another thread (callable inside a loop, too)."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(factory())
        except BaseException as exc:  # re-raised in the caller
            box["error"] = exc

    thread = threading.Thread(target=target, name="data-check")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    return box["value"]  # type: ignore[no-any-return]


def check_url(url: str | Path | DatabaseURL) -> Report:
    """`check_url_async` for synchronous callers (the command line, tests)."""
    return _in_thread(lambda: check_url_async(url))


def check_path(path: str | Path) -> Report:
    """Check a SQLite file."""
    return check_url(Path(path))
