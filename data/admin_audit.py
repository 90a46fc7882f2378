"""`data.check`'s view of the admin tools: where every chip came from, and whether each admin
change's ledger rows are the ones it names (see `data.admin`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from data.admin import LEDGER_GRANT, LEDGER_TAKE
from data.db import Conn

if TYPE_CHECKING:
    from data.audit import Report

ACTION_TRIGGERS = frozenset({"admin_actions_no_update", "admin_actions_no_delete"})


async def _has_admin_actions(conn: Conn) -> bool:
    if conn.dialect == "sqlite":
        rows = await conn.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'admin_actions'"
        )
        return bool(rows)
    row = await conn.one("SELECT to_regclass('admin_actions') IS NOT NULL")
    return bool(row[0])


async def _triggers(conn: Conn) -> set[str]:
    if conn.dialect == "sqlite":
        sql = "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'admin_actions'"
    else:
        sql = ("SELECT tgname FROM pg_trigger WHERE tgrelid = 'admin_actions'::regclass "
               "AND NOT tgisinternal")
    return {str(r[0]) for r in await conn.fetchall(sql)}


async def explain_chips(conn: Conn, report: Report) -> None:
    """One fact that explains the chips held from the ledger's kinds of rows: starting grants +
    dailies + admin grants - admin takes + game transfers (+ any other adjustment)."""
    row = await conn.one(
        "SELECT "
        "COALESCE(SUM(CASE WHEN game_id IS NULL AND reason = 'grant' THEN delta END), 0), "
        "COALESCE(SUM(CASE WHEN game_id IS NULL AND reason = 'daily' THEN delta END), 0), "
        "COALESCE(SUM(CASE WHEN game_id IS NULL AND reason = ? THEN delta END), 0), "
        "COALESCE(SUM(CASE WHEN game_id IS NULL AND reason = ? THEN delta END), 0), "
        "COALESCE(SUM(CASE WHEN game_id IS NOT NULL THEN delta END), 0), "
        "COALESCE(SUM(CASE WHEN game_id IS NULL AND reason NOT IN "
        "('grant', 'daily', ?, ?) THEN delta END), 0), "
        "COUNT(CASE WHEN game_id IS NULL AND reason NOT IN ('grant', 'daily', ?, ?) "
        "THEN 1 END), "
        "(SELECT COALESCE(SUM(chips), 0) FROM players) FROM chip_ledger",
        (LEDGER_GRANT, LEDGER_TAKE, LEDGER_GRANT, LEDGER_TAKE, LEDGER_GRANT, LEDGER_TAKE),
    )
    starting, daily, granted, taken, games, other, others, held = (int(v) for v in row)
    line = (f"chips held {held} = starting grants {starting} + dailies {daily} + admin grants "
            f"{granted} - admin takes {-taken} + game transfers {games}")
    if others:
        line += f" + other adjustments {other} ({others} rows)"
    report.facts.append(line)
    if starting + daily + granted + taken + games + other != held:
        report.fault(f"The chips held ({held}) are not what the ledger explains "
                     f"({starting + daily + granted + taken + games + other})")


async def audit_admin(conn: Conn, report: Report) -> None:
    """The chip explanation, then the admin changes (schema 9 and later)."""
    await explain_chips(conn, report)
    if not await _has_admin_actions(conn):
        return
    q = conn.fetchall
    for missing in sorted(ACTION_TRIGGERS - await _triggers(conn)):
        report.fault(f"The admin log is not append-only: trigger {missing} is missing")
    for ledger_id, reason, delta in await q(
        "SELECT id, reason, delta FROM chip_ledger WHERE (reason IN (?, ?) "
        "AND admin_action_id IS NULL) OR (admin_action_id IS NOT NULL AND reason NOT IN (?, ?)) "
        "OR (reason = ? AND delta < 0) OR (reason = ? AND delta > 0) ORDER BY id",
        (LEDGER_GRANT, LEDGER_TAKE, LEDGER_GRANT, LEDGER_TAKE, LEDGER_GRANT, LEDGER_TAKE),
    ):
        report.fault(f"Ledger row {ledger_id} ({reason}, {delta} chips) does not match an "
                     "admin change")
    for (ledger_id,) in await q(
        "SELECT l.id FROM chip_ledger l LEFT JOIN admin_actions a ON a.id = l.admin_action_id "
        "WHERE l.admin_action_id IS NOT NULL AND a.id IS NULL ORDER BY l.id"
    ):
        report.fault(f"Ledger row {ledger_id} names an admin change that does not exist")
    counts: dict[str, int] = {}
    for action_id, action, delta, players, rows, moved, strangers in await q(
        "SELECT a.id, a.action, a.delta, a.players, COUNT(l.id), COALESCE(SUM(l.delta), 0), "
        "COALESCE(SUM(CASE WHEN l.guild_id <> a.guild_id OR (a.user_id IS NOT NULL AND "
        "l.user_id <> a.user_id) THEN 1 ELSE 0 END), 0) "
        "FROM admin_actions a LEFT JOIN chip_ledger l ON l.admin_action_id = a.id "
        "GROUP BY a.id, a.action, a.delta, a.players ORDER BY a.id"
    ):
        counts[action] = counts.get(action, 0) + 1
        expected_rows = int(players) if action == "reset" else (1 if delta else 0)
        if int(rows) != expected_rows or int(moved) != int(delta):
            report.fault(f"Admin change {action_id} ({action}) moved {moved} chips in {rows} "
                         f"ledger rows; it records {delta} chips in {expected_rows}")
        if strangers:
            report.fault(f"Admin change {action_id}: {strangers} ledger rows of another member "
                         "or server")
    report.facts.append(
        f"{sum(counts.values())} admin changes: "
        + (", ".join(f"{n} {a}" for a, n in sorted(counts.items())) or "none")
    )
