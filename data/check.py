"""Verify a store's database: ``python -m data.check PATH``.

Checks that every balance equals the sum of its ledger rows, no balance is negative, every
finished game was settled exactly once (results for each seat, ledger rows matching them, transfers
summing to zero), unfinished and cancelled games moved no chips, every player got one starting
grant, daily claims are 24 hours apart, and SQLite's own integrity and foreign-key checks.
Prints what it finds; exits 0 when the database is sound, 1 on any fault, 2 when it cannot be read.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sqlite3
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path


@dataclass
class Report:
    faults: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.faults

    def fault(self, message: str) -> None:
        self.faults.append(message)


def check_connection(db: sqlite3.Connection) -> Report:
    report = Report()
    q = db.execute

    integrity = [r[0] for r in q("PRAGMA integrity_check")]
    if integrity != ["ok"]:
        report.fault(f"SQLite integrity check: {'; '.join(integrity[:5])}")
    for row in q("PRAGMA foreign_key_check"):
        report.fault(f"Foreign key broken: table {row[0]} rowid {row[1]} -> {row[2]}")

    players, ledger_rows, chips_total = q(
        "SELECT (SELECT COUNT(*) FROM players), (SELECT COUNT(*) FROM chip_ledger), "
        "(SELECT COALESCE(SUM(chips), 0) FROM players)"
    ).fetchone()
    report.facts.append(
        f"{players} players holding {chips_total} chips; {ledger_rows} ledger rows; "
        f"schema version {q('PRAGMA user_version').fetchone()[0]}"
    )

    # Balances equal their ledger sums; nothing negative.
    for guild, user, chips, summed in q(
        "SELECT p.guild_id, p.user_id, p.chips, COALESCE(SUM(l.delta), 0) FROM players p "
        "LEFT JOIN chip_ledger l ON l.guild_id = p.guild_id AND l.user_id = p.user_id "
        "GROUP BY p.guild_id, p.user_id HAVING p.chips <> COALESCE(SUM(l.delta), 0)"
    ):
        report.fault(f"Guild {guild} user {user}: holds {chips} chips but the ledger sums {summed}")
    for guild, user, chips in q("SELECT guild_id, user_id, chips FROM players WHERE chips < 0"):
        report.fault(f"Guild {guild} user {user}: negative balance {chips}")
    for guild, user in q(
        "SELECT l.guild_id, l.user_id FROM chip_ledger l LEFT JOIN players p "
        "ON p.guild_id = l.guild_id AND p.user_id = l.user_id WHERE p.user_id IS NULL "
        "GROUP BY l.guild_id, l.user_id"
    ):
        report.fault(f"Guild {guild} user {user}: ledger rows for someone who is not a player")

    # A running balance never dipped below zero.
    for guild, user, low in q(
        "SELECT guild_id, user_id, MIN(running) FROM (SELECT guild_id, user_id, "
        "SUM(delta) OVER (PARTITION BY guild_id, user_id ORDER BY id) AS running "
        "FROM chip_ledger) GROUP BY guild_id, user_id HAVING MIN(running) < 0"
    ):
        report.fault(f"Guild {guild} user {user}: the ledger went down to {low} chips")

    # Starting grants: at most one per player, and the first row.
    for guild, user, n in q(
        "SELECT guild_id, user_id, COUNT(*) FROM chip_ledger WHERE reason = 'grant' "
        "GROUP BY guild_id, user_id HAVING COUNT(*) > 1"
    ):
        report.fault(f"Guild {guild} user {user}: {n} starting grants")

    # Daily claims at least 24 hours apart.
    claims: dict[tuple[int, int], list[str]] = {}
    for guild, user, at in q(
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
    games = q("SELECT id, guild_id, status, seats_json FROM games ORDER BY id").fetchall()
    statuses: dict[str, int] = {}
    for game_id, guild, status, seats_json in games:
        statuses[status] = statuses.get(status, 0) + 1
        seats = json.loads(seats_json)
        ledger = q(
            "SELECT user_id, SUM(delta), COUNT(*) FROM chip_ledger WHERE game_id = ? "
            "GROUP BY user_id",
            (game_id,),
        ).fetchall()
        results = q(
            "SELECT seat, user_id, place, chip_change FROM results WHERE game_id = ? ORDER BY seat",
            (game_id,),
        ).fetchall()
        if status != "finished":
            if ledger:
                report.fault(f"Game {game_id} is {status} but moved chips")
            if results:
                report.fault(f"Game {game_id} is {status} but has results")
            continue
        _check_finished(report, game_id, guild, seats, ledger, results, q)
    report.facts.append(
        f"{len(games)} games: "
        + (", ".join(f"{n} {s}" for s, n in sorted(statuses.items())) or "none")
    )
    for (game_id,) in q(
        "SELECT DISTINCT l.game_id FROM chip_ledger l LEFT JOIN games g ON g.id = l.game_id "
        "WHERE l.game_id IS NOT NULL AND g.id IS NULL"
    ):
        report.fault(f"Ledger rows name game {game_id}, which does not exist")

    # Tables: one open table per channel.
    for channel, n in q(
        "SELECT channel_id, COUNT(*) FROM tables WHERE status = 'open' "
        "GROUP BY channel_id HAVING COUNT(*) > 1"
    ):
        report.fault(f"Channel {channel} has {n} open tables")
    return report


def _check_finished(
    report: Report,
    game_id: int,
    guild: int,
    seats: list[dict[str, object]],
    ledger: Sequence[tuple[int, int, int]],
    results: Sequence[tuple[int, int | None, int, int]],
    q: Callable[..., sqlite3.Cursor],
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
    wrong_guild = q(
        "SELECT COUNT(*) FROM chip_ledger WHERE game_id = ? AND guild_id <> ?", (game_id, guild)
    ).fetchone()[0]
    if wrong_guild:
        report.fault(f"Game {game_id}: {wrong_guild} ledger rows in another guild")
    booked = {int(user): int(delta) for user, delta, _ in ledger}
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


def check_path(path: str | Path) -> Report:
    target = Path(path)
    if not target.is_file():
        raise FileNotFoundError(f"No database at {target}")
    # Read-write mode (nothing is written) so that SQLite can recover the WAL of a killed writer.
    db = sqlite3.connect(target)
    try:
        db.execute("PRAGMA busy_timeout = 10000")
        return check_connection(db)
    finally:
        db.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data.check",
        description="Verify a store's SQLite database: balances against the ledger, settlements, "
        "starting grants, daily claims, SQLite's integrity and foreign keys; writes nothing. "
        "Exits 0 when the database is sound, 1 on any fault, 2 when it cannot be read.",
    )
    parser.add_argument("path", metavar="PATH",
                        help="the database file, e.g. tienlen.sqlite3 (the DATABASE_PATH setting)")
    args = parser.parse_args(argv)
    path: str = args.path
    try:
        report = check_path(path)
    except (OSError, sqlite3.Error) as exc:
        print(f"cannot check {path}: {exc}", file=sys.stderr)
        return 2
    for fact in report.facts:
        print(fact)
    for fault in report.faults:
        print(f"FAULT: {fault}")
    print("OK: no faults found" if report.ok else f"{len(report.faults)} fault(s) found")
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
