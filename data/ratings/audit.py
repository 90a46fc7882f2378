"""`data.check`'s view of the ratings (docs/RATING.md): every rated game counted once in each
rating it moved, and only finished ranked games rated."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from data.audit import Report
    from data.db import Conn


async def _has_ratings(conn: Conn) -> bool:
    if conn.dialect == "sqlite":
        rows = await conn.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'rating_changes'")
        return bool(rows)
    row = await conn.one("SELECT to_regclass('rating_changes') IS NOT NULL")
    return bool(row[0])


async def audit_ratings(conn: Conn, report: Report) -> None:
    """One fact (ratings, people, changes logged) and a fault for each rating whose game count
    is not the number of games logged for it, and each logged game that is not a finished
    ranked one. A store older than ranked play has nothing to check."""
    if not await _has_ratings(conn):
        return
    rows, people, changes = await conn.one(
        "SELECT (SELECT COUNT(*) FROM ratings), (SELECT COUNT(DISTINCT user_id) FROM ratings), "
        "(SELECT COUNT(*) FROM rating_changes)")
    report.facts.append(f"{rows} ratings of {people} people; {changes} rating changes logged")
    for guild_id, user_id, games, logged in await conn.fetchall(
        "SELECT r.guild_id, r.user_id, r.games, COUNT(c.game_id) FROM ratings r "
        "LEFT JOIN rating_changes c ON c.guild_id = r.guild_id AND c.user_id = r.user_id "
        "GROUP BY r.guild_id, r.user_id, r.games HAVING r.games <> COUNT(c.game_id) "
        "ORDER BY r.guild_id, r.user_id"):
        report.fault(f"The rating of user {user_id} in guild {guild_id} counts {games} games "
                     f"but {logged} rating changes are logged for it")
    for game_id, status, ranked in await conn.fetchall(
        "SELECT DISTINCT g.id, g.status, g.ranked FROM rating_changes c "
        "JOIN games g ON g.id = c.game_id WHERE g.status <> 'finished' OR g.ranked = 0 "
        "ORDER BY g.id"):
        what = "casual" if not ranked else str(status)
        report.fault(f"Game {game_id} is {what} but moved ratings")
