"""Replaying finished ranked games into ratings: ``python -m data.ratings --backfill URL``
(docs/RATING.md, "Backfill")."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import asyncpg

from data.db import DatabaseURL, open_database
from data.errors import InvalidInput, StoreError
from data.models import Seat
from data.ratings import PlacedSeat, rate_settled_game
from engine.rating import Skill, soft_reset

if TYPE_CHECKING:
    from data.db import Conn

__all__ = ["Replayed", "backfill", "main", "replay_all"]

@dataclass(frozen=True, slots=True)
class Replayed:
    """What a backfill rated: finished ranked games, season ends replayed, people rated (on any
    server, the global ladder not counted twice) and servers."""

    games: int
    season_ends: int
    people: int
    servers: int


async def replay_all(db: Conn) -> Replayed:
    """Rebuild every rating from the finished ranked games, in the order they finished, in the
    caller's transaction (``python -m data.ratings --backfill``, docs/RATING.md).

    The ratings and their log are emptied and every finished ranked game is rated again, in
    order of its end (then its id), with the places its results hold; each season end already
    recorded (``seasons.ended_at``) softly resets its server's ratings again at its moment. A
    game is rated exactly once whatever was rated before, and the result does not depend on it:
    run twice, the rows are the same. Rows are stamped with the game's (or season's) end time.
    Seats that left a running game are rated by the place their results hold (the last ones):
    the results do not record who left, so several leavers no longer tie for last. The frozen
    standings of past seasons are kept as they were frozen."""
    if db.dialect == "postgresql":
        # Settlements wait (for their rating rows) until the rebuild commits.
        await db.execute("LOCK TABLE ratings, rating_changes IN EXCLUSIVE MODE")
    await db.execute("DELETE FROM rating_changes")
    await db.execute("DELETE FROM ratings")
    games = await db.fetchall(
        "SELECT id, guild_id, seats_json, COALESCE(finished_at, updated_at) AS finished_at "
        "FROM games WHERE status = 'finished' AND ranked = 1")
    ends = await db.fetchall(
        "SELECT guild_id, ended_at FROM seasons WHERE ended_at IS NOT NULL "
        "ORDER BY ended_at, guild_id, number")
    events: list[tuple[str, int, int, Sequence[object]]] = [
        (str(r["ended_at"]), 0, int(r["guild_id"]), ()) for r in ends]
    events += [(str(r["finished_at"]), 1, int(r["id"]), (int(r["guild_id"]), r["seats_json"]))
               for r in games]
    events.sort(key=lambda e: (e[0], e[1], e[2]))  # a season ending at a game's end comes first
    rated = 0
    for stamp, kind, key, extra in events:
        if kind == 0:
            await _reset_season(db, key, stamp)
            continue
        guild_id, seats_json = extra
        assert isinstance(guild_id, int) and isinstance(seats_json, str)
        seats = [Seat.coerce(s) for s in json.loads(seats_json)]
        results = await db.fetchall(
            "SELECT seat, place FROM results WHERE game_id = ? ORDER BY seat", (key,))
        placed = [PlacedSeat(int(r["seat"]), int(r["place"])) for r in results]
        if placed and len(placed) == len(seats):
            await rate_settled_game(db, key, guild_id, seats, placed, stamp)
            rated += 1
    counts = await db.one(
        "SELECT COUNT(DISTINCT user_id), COUNT(DISTINCT CASE WHEN guild_id <> 0 THEN guild_id "
        "END) FROM ratings")
    return Replayed(rated, len(ends), int(counts[0]), int(counts[1]))


async def _reset_season(db: Conn, guild_id: int, stamp: str) -> None:
    rows = await db.fetchall(
        "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? ORDER BY user_id", (guild_id,))
    resets = []
    for r in rows:
        skill = soft_reset(Skill(float(r["mu"]), float(r["sigma"])))
        resets.append((skill.sigma, skill.display, skill.display, stamp, guild_id,
                       int(r["user_id"])))
    await db.executemany(
        "UPDATE ratings SET sigma = ?, display = ?, best = ?, season_games = 0, updated_at = ? "
        "WHERE guild_id = ? AND user_id = ?", resets)


async def backfill(url: str | DatabaseURL) -> Replayed:
    """Rebuild the ratings of the store at `url` (brought to the latest schema first) in one
    transaction: a failure leaves the ratings as they were."""
    parsed = DatabaseURL.parse(url)
    if parsed.dialect == "sqlite" and not os.path.isfile(parsed.target):  # noqa: ASYNC240
        raise InvalidInput(f"No database at {parsed.target}.")
    database = await open_database(parsed, pool_size=1)
    try:
        async with database.write() as db:
            return await replay_all(db)
    finally:
        await database.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data.ratings",
        description="Replay the finished ranked games into ratings, in the order they finished "
                    "(idempotent: the ratings are rebuilt, so a second run gives the same rows).")
    parser.add_argument("--backfill", required=True, metavar="URL",
                        help="the store: sqlite:///file.sqlite3 or postgresql://…")
    args = parser.parse_args(argv)
    try:
        url = DatabaseURL.parse(args.backfill)
        done = asyncio.run(backfill(url))
    except (StoreError, OSError, sqlite3.Error, asyncpg.PostgresError) as exc:
        print(f"nothing changed: {exc}", file=sys.stderr)
        return 2
    print(f"rated {done.games} finished ranked games in order ({done.season_ends} season ends "
          f"replayed): {done.people} people on {done.servers} servers, in {url}")
    return 0

