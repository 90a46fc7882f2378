"""Seasons of ranked play in the store (docs/RATING.md); a mixin of :class:`data.store.Store`.

A server's seasons are numbered from 1; the current one is its ``seasons`` row with ``ended_at``
NULL, ``ends_at`` its planned end (None while the server's seasons are off). Ending a season is one
transaction guarded by that row: the current season's row is locked and marked ended only if it
still is the current one, its ladder is frozen into ``season_standings``, every rating of the
server is softly reset (:func:`engine.rating.soft_reset`) and the next season starts. A second
call, another process's or one after a restart, finds the new season and ends nothing, so a
boundary is crossed exactly once. The global ratings (guild 0) have no seasons.
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from data.errors import InvalidInput
from engine.rating import PROVISIONAL_GAMES, Skill, soft_reset
from engine.season import DEFAULT_PERIOD, Period, next_end

if TYPE_CHECKING:
    from data.db import Conn
    from data.models import Shards

__all__ = ["Season", "SeasonEnd", "SeasonsStore"]


@dataclass(frozen=True, slots=True)
class Season:
    guild_id: int
    number: int
    started_at: datetime
    #: the planned end; None while the server's seasons are off
    ends_at: datetime | None
    #: when it ended; None for the current season
    ended_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class SeasonEnd:
    """What ending a season did: the season frozen (`ended`), how many people its standings
    hold, its best three (user ids, best first, ranked players only) and the season begun."""

    ended: Season
    standings: int
    top: tuple[int, ...]
    started: Season


def _time(text: Any) -> datetime | None:
    return None if text is None else datetime.fromisoformat(str(text))


def _season(guild_id: int, row: Any) -> Season:
    started = _time(row["started_at"])
    assert started is not None
    return Season(guild_id, int(row["number"]), started, _time(row["ends_at"]),
                  _time(row["ended_at"]))


def _period(value: object) -> Period:
    try:
        return Period(str(value))
    except ValueError:
        raise InvalidInput(f"season must be one of {', '.join(Period)}, not {value!r}.") from None


class SeasonsStore:
    """A server's season setting, its current season, and ending seasons exactly once."""

    if TYPE_CHECKING:
        shards: Shards | None

        def _read(self) -> AbstractAsyncContextManager[Conn]: ...
        def _write(self) -> AbstractAsyncContextManager[Conn]: ...
        def _now(self, now: datetime | None) -> str: ...

    async def get_season_period(self, guild_id: int) -> Period:
        """The server's seasons: monthly (also when never chosen) or off."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT season FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return DEFAULT_PERIOD if row is None or row[0] is None else Period(str(row[0]))

    async def set_season_period(self, guild_id: int, period: str, *,
                                now: datetime | None = None) -> Season:
        """Choose the server's seasons; the current season's planned end follows (monthly: the
        end of this month in Vietnam; off: none). The current season (started when needed)."""
        chosen = _period(period)
        stamp = self._now(now)
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, season) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET season = excluded.season",
                (guild_id, chosen.value))
            season = await self._current(db, guild_id, stamp, chosen)
            ends = next_end(datetime.fromisoformat(stamp), chosen)
            await db.execute(
                "UPDATE seasons SET ends_at = ? WHERE guild_id = ? AND number = ?",
                (None if ends is None else self._now(ends), guild_id, season.number))
            row = await db.one(
                "SELECT number, started_at, ends_at, ended_at FROM seasons "
                "WHERE guild_id = ? AND number = ?", (guild_id, season.number))
        return _season(guild_id, row)

    async def current_season(self, guild_id: int, *, now: datetime | None = None) -> Season:
        """The server's current season (season 1 begins the first time it is asked for)."""
        stamp = self._now(now)
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT number, started_at, ends_at, ended_at FROM seasons "
                "WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
        if row is not None:
            return _season(guild_id, row)
        async with self._write() as db:
            return await self._current(db, guild_id, stamp, None)

    async def get_season(self, guild_id: int, number: int) -> Season | None:
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT number, started_at, ends_at, ended_at FROM seasons "
                "WHERE guild_id = ? AND number = ?", (guild_id, number))
        return None if row is None else _season(guild_id, row)

    async def _current(self, db: Conn, guild_id: int, stamp: str,
                       period: Period | None) -> Season:
        """The current season, locked; begun (number 1, or after the last) when there is none."""
        row = await db.fetchone(
            "SELECT number, started_at, ends_at, ended_at FROM seasons "
            "WHERE guild_id = ? AND ended_at IS NULL" + db.for_update, (guild_id,))
        if row is not None:
            return _season(guild_id, row)
        if period is None:
            period = await self._period_in(db, guild_id)
        last = await db.one(
            "SELECT COALESCE(MAX(number), 0) FROM seasons WHERE guild_id = ?", (guild_id,))
        ends = next_end(datetime.fromisoformat(stamp), period)
        # Two first calls at once: the primary key and the one-current index let one insert.
        await db.execute(
            "INSERT INTO seasons (guild_id, number, started_at, ends_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            (guild_id, int(last[0]) + 1, stamp, None if ends is None else self._now(ends)))
        row = await db.one(
            "SELECT number, started_at, ends_at, ended_at FROM seasons "
            "WHERE guild_id = ? AND ended_at IS NULL" + db.for_update, (guild_id,))
        return _season(guild_id, row)

    async def due_seasons(self, *, now: datetime | None = None) -> list[int]:
        """The servers (of this process's shards) whose current season's end has come, and the
        servers with ratings but no season yet (their season 1 begins here)."""
        stamp = self._now(now)
        async with self._read() as db:
            due = await db.fetchall(
                "SELECT guild_id FROM seasons WHERE ended_at IS NULL AND ends_at IS NOT NULL "
                "AND ends_at <= ? ORDER BY guild_id", (stamp,))
            fresh = await db.fetchall(
                "SELECT DISTINCT r.guild_id FROM ratings r WHERE r.guild_id <> 0 AND NOT EXISTS "
                "(SELECT 1 FROM seasons s WHERE s.guild_id = r.guild_id) ORDER BY r.guild_id")
        for row in fresh:
            guild = int(row[0])
            if self.shards is None or self.shards.owns(guild):
                await self.current_season(guild, now=now)
        return [int(r[0]) for r in due
                if self.shards is None or self.shards.owns(int(r[0]))]

    async def end_season(self, guild_id: int, *, now: datetime | None = None,
                         early: bool = False) -> SeasonEnd | None:
        """End the server's current season if its end has come (or at once, `early`: an admin's
        choice): freeze its ladder, softly reset every rating of the server, begin the next.

        None when there is nothing to end: the season's end has not come (or it has already
        been ended, by another process or before a restart)."""
        stamp = self._now(now)
        moment = datetime.fromisoformat(stamp)
        async with self._write() as db:
            season = await self._current(db, guild_id, stamp, None)
            if not early and (season.ends_at is None or season.ends_at > moment):
                return None
            # An end that was due ends at its planned moment (also when noticed late, e.g. after
            # a restart); an early end ends now. The next season runs to the period's end after
            # both, so a restart that missed several boundaries still rolls over once.
            ended_at = season.ends_at if not early and season.ends_at is not None else moment
            changed = await db.execute(
                "UPDATE seasons SET ended_at = ? WHERE guild_id = ? AND number = ? "
                "AND ended_at IS NULL", (self._now(ended_at), guild_id, season.number))
            if changed != 1:  # pragma: no cover - the row lock (or SQLite's write lock) holds
                return None
            rows = await db.fetchall(
                "SELECT user_id, mu, sigma, display, games, season_games, best FROM ratings "
                "WHERE guild_id = ? ORDER BY user_id" + db.for_update, (guild_id,))
            played = sorted((r for r in rows if int(r["season_games"]) > 0),
                            key=lambda r: (int(r["games"]) < PROVISIONAL_GAMES,
                                           -int(r["display"]), int(r["user_id"])))
            standings = []
            for r in played:
                rank = None
                if int(r["games"]) >= PROVISIONAL_GAMES:
                    rank = 1 + sum(1 for o in played if int(o["games"]) >= PROVISIONAL_GAMES
                                   and int(o["display"]) > int(r["display"]))
                standings.append((guild_id, season.number, int(r["user_id"]), rank,
                                  int(r["display"]), float(r["mu"]), float(r["sigma"]),
                                  int(r["season_games"]), int(r["best"])))
            await db.executemany(
                "INSERT INTO season_standings (guild_id, season, user_id, rank, display, mu, "
                "sigma, games, best) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", standings)
            resets = []
            for r in rows:
                skill = soft_reset(Skill(float(r["mu"]), float(r["sigma"])))
                resets.append((skill.sigma, skill.display, skill.display, stamp, guild_id,
                               int(r["user_id"])))
            await db.executemany(
                "UPDATE ratings SET sigma = ?, display = ?, best = ?, season_games = 0, "
                "updated_at = ? WHERE guild_id = ? AND user_id = ?", resets)
            period = await self._period_in(db, guild_id)
            ends = next_end(max(moment, ended_at), period)
            await db.execute(
                "INSERT INTO seasons (guild_id, number, started_at, ends_at) VALUES (?, ?, ?, ?)",
                (guild_id, season.number + 1, self._now(ended_at),
                 None if ends is None else self._now(ends)))
        done = Season(guild_id, season.number, season.started_at, season.ends_at, ended_at)
        started = Season(guild_id, season.number + 1, ended_at, ends)
        top = tuple(s[2] for s in standings if s[3] is not None)[:3]
        return SeasonEnd(done, len(standings), top, started)

    async def _period_in(self, db: Conn, guild_id: int) -> Period:
        row = await db.fetchone("SELECT season FROM guild_settings WHERE guild_id = ?",
                                (guild_id,))
        return DEFAULT_PERIOD if row is None or row[0] is None else Period(str(row[0]))
