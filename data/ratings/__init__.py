"""Ratings in the store (docs/RATING.md): rated inside a game's settlement transaction.

:func:`rate_settled_game` runs in ``Store.settle_game``'s transaction, after the results rows, so
a game's ratings land with its chips or not at all, and only on the settlement's first call.
Every seated person has a server rating (``guild_id`` = the game's server) and a global one
(``guild_id`` 0, :data:`GLOBAL`); both rows are locked (``FOR UPDATE`` on PostgreSQL, in
(guild, user) order, after the players' rows) as they are read, so two processes settling games
of one person queue instead of losing an update.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from data.errors import InvalidInput
from data.models import RatingChange, Seat
from engine.level import Level
from engine.rating import DEFAULT_SKILL, PROVISIONAL_GAMES, Entrant, Skill, rate

if TYPE_CHECKING:
    from data.db import Conn

__all__ = [
    "GLOBAL",
    "LADDER_PAGE",
    "LadderEntry",
    "PlacedSeat",
    "PlayerRating",
    "RatingPage",
    "RatingsStore",
    "game_rating_changes",
    "rate_settled_game",
]

#: the guild_id of the global ratings (one per person across servers)
GLOBAL = 0


@dataclass(frozen=True, slots=True)
class PlacedSeat:
    seat: int
    place: int
    left: bool = False


def _anchor(seat: Seat) -> Level:
    try:
        return Level.parse(seat.bot or "")
    except ValueError:
        return Level.NORMAL


async def _skills(db: Conn, guild_id: int, users: Sequence[int],
                  stamp: str) -> dict[tuple[int, int], Skill]:
    """The people's server and global skills, (scope, user) -> skill, their rows created when
    new and locked: one statement, in (guild, user) order (the global rows, guild 0, first), so
    settlements sharing people queue instead of deadlocking."""
    ordered = sorted(set(users))
    scopes = sorted({guild_id, GLOBAL})
    await db.executemany(
        "INSERT INTO ratings (guild_id, user_id, mu, sigma, display, games, last_change, best, "
        "updated_at) VALUES (?, ?, ?, ?, ?, 0, 0, ?, ?) ON CONFLICT (guild_id, user_id) DO NOTHING",
        [
            (scope, u, DEFAULT_SKILL.mu, DEFAULT_SKILL.sigma, DEFAULT_SKILL.display,
             DEFAULT_SKILL.display, stamp)
            for scope in scopes for u in ordered
        ],
    )
    marks = ", ".join("?" for _ in ordered)
    rows = await db.fetchall(
        f"SELECT guild_id, user_id, mu, sigma FROM ratings WHERE guild_id IN ({GLOBAL}, ?) "
        f"AND user_id IN ({marks}) ORDER BY guild_id, user_id" + db.for_update,
        (guild_id, *ordered),
    )
    return {(int(r["guild_id"]), int(r["user_id"])): Skill(float(r["mu"]), float(r["sigma"]))
            for r in rows}


async def rate_settled_game(
    db: Conn,
    game_id: int,
    guild_id: int,
    seats: Sequence[Seat],
    places: Sequence[PlacedSeat],
    stamp: str,
) -> tuple[RatingChange, ...]:
    """Rate a finished ranked game in the caller's transaction; the server ratings' changes.

    Four statements whatever the number of seats: create the missing rows, read and lock the
    people's server and global rows, write them, log the changes."""
    users = [s.user_id for s in seats if s.user_id is not None]
    if not users:
        return ()
    skills = await _skills(db, guild_id, users, stamp)
    changes: list[RatingChange] = []
    rows = []
    logs = []
    for scope in (guild_id, GLOBAL):
        entrants = []
        for p in places:
            seat = seats[p.seat]
            if seat.user_id is not None:
                entrants.append(Entrant(p.place, skill=skills[(scope, seat.user_id)],
                                        left=p.left))
            else:
                entrants.append(Entrant(p.place, anchor=_anchor(seat), left=p.left))
        after = rate(entrants)
        for p, new in zip(places, after, strict=True):
            user = seats[p.seat].user_id
            if user is None:
                continue
            old = skills[(scope, user)]
            change = new.display - old.display
            rows.append((new.mu, new.sigma, new.display, change, new.display, new.display,
                         stamp, scope, user))
            logs.append((game_id, scope, user, p.seat, old.mu, old.sigma, new.mu, new.sigma,
                         old.display, new.display))
            if scope == guild_id:
                changes.append(RatingChange(p.seat, user, old.display, new.display))
    rows.sort(key=lambda r: (r[-2], r[-1]))
    await db.executemany(
        "UPDATE ratings SET mu = ?, sigma = ?, display = ?, games = games + 1, "
        "season_games = season_games + 1, "
        "last_change = ?, best = CASE WHEN best > ? THEN best ELSE ? END, updated_at = ? "
        "WHERE guild_id = ? AND user_id = ?",
        rows,
    )
    await db.executemany(
        "INSERT INTO rating_changes (game_id, guild_id, user_id, seat, mu_before, "
        "sigma_before, mu_after, sigma_after, display_before, display_after) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        logs,
    )
    return tuple(sorted(changes, key=lambda c: c.seat))


async def game_rating_changes(db: Conn, game_id: int) -> tuple[RatingChange, ...]:
    """The server rating changes a settled game booked (none for a casual game)."""
    rows = await db.fetchall(
        "SELECT rc.seat, rc.user_id, rc.display_before, rc.display_after FROM rating_changes rc "
        "JOIN games g ON g.id = rc.game_id AND g.guild_id = rc.guild_id "
        "WHERE rc.game_id = ? ORDER BY rc.seat",
        (game_id,),
    )
    return tuple(
        RatingChange(int(r["seat"]), int(r["user_id"]), int(r["display_before"]),
                     int(r["display_after"]))
        for r in rows
    )


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """One person's rating on a server's ladder (docs/RATING.md).

    `rank`: the place among the server's ranked players (those past
    :data:`engine.rating.PROVISIONAL_GAMES` ranked games), 1 for the best display rating (ties
    share a rank), as `/leaderboard by: rating` numbers them; None while the person is still
    provisional (listed apart there). `of`: how many ranked players the server has;
    `last_change`: what the person's last ranked game did; `best`: the season's best."""

    guild_id: int
    user_id: int
    mu: float
    sigma: float
    display: int
    games: int
    last_change: int
    best: int
    rank: int | None
    of: int


#: players on one page of a rating ladder
LADDER_PAGE = 10

LadderScope = Literal["server", "global", "season"]


@dataclass(frozen=True, slots=True)
class LadderEntry:
    """One line of a rating ladder. `rank` is None for a provisional player (fewer than
    :data:`engine.rating.PROVISIONAL_GAMES` ranked games), listed apart after the ranked ones."""

    user_id: int
    display: int
    games: int
    rank: int | None

    @property
    def provisional(self) -> bool:
        return self.rank is None


@dataclass(frozen=True, slots=True)
class RatingPage:
    """One page of a rating ladder: a server's (`server`), the global one (`global`, the guild 0
    ratings) or a finished season's frozen standings (`season`, with its number).

    The ranked players come first, best first (equal ratings share a rank); the provisional
    ones follow, best first. `ranked` counts the ranked players of the whole ladder."""

    scope: LadderScope
    page: int
    pages: int
    total: int
    ranked: int
    entries: tuple[LadderEntry, ...]
    season: int | None = None

    @property
    def past_end(self) -> bool:
        """A page after the last one (page 1 of an empty ladder is not past the end)."""
        return self.page > self.pages


#: a person's rating row with their rank among the ranked players (NULL while provisional) and
#: how many ranked players the server has
_RATING_SELECT = (
    "SELECT r.user_id, r.mu, r.sigma, r.display, r.games, r.last_change, r.best, "
    "CASE WHEN r.games >= ? THEN (SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id "
    "AND o.games >= ? AND o.display > r.display) + 1 END AS rank, "
    "(SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id AND o.games >= ?) AS ranked "
    "FROM ratings r "
)
_RATING_PARAMS = (PROVISIONAL_GAMES, PROVISIONAL_GAMES, PROVISIONAL_GAMES)


def _player_rating(guild_id: int, row: Any) -> PlayerRating:
    return PlayerRating(
        guild_id, int(row["user_id"]), float(row["mu"]), float(row["sigma"]),
        int(row["display"]), int(row["games"]), int(row["last_change"]), int(row["best"]),
        None if row["rank"] is None else int(row["rank"]), int(row["ranked"]),
    )


def _pages(total: int) -> int:
    return max(1, -(-total // LADDER_PAGE))


class RatingsStore:
    """Reading ratings, and a server's default for new tables (`/tienlen settings ranked:`)."""

    if TYPE_CHECKING:
        def _read(self) -> AbstractAsyncContextManager[Conn]: ...
        def _write(self) -> AbstractAsyncContextManager[Conn]: ...

    async def get_rating(self, guild_id: int, user_id: int) -> PlayerRating | None:
        """The person's rating on the server, None before their first ranked game there."""
        async with self._read() as db:
            row = await db.fetchone(
                _RATING_SELECT + "WHERE r.guild_id = ? AND r.user_id = ?",
                (*_RATING_PARAMS, guild_id, user_id),
            )
        return None if row is None else _player_rating(guild_id, row)

    async def rating_ladder(
        self, guild_id: int, *, limit: int = 10, offset: int = 0
    ) -> list[PlayerRating]:
        """The server's ratings, best display rating first (ties by user id), provisional
        players among the others (`rating_page` lists them apart)."""
        async with self._read() as db:
            rows = await db.fetchall(
                _RATING_SELECT + "WHERE r.guild_id = ? "
                "ORDER BY r.display DESC, r.user_id LIMIT ? OFFSET ?",
                (*_RATING_PARAMS, guild_id, limit, offset),
            )
        return [_player_rating(guild_id, r) for r in rows]

    async def rating_page(self, guild_id: int, page: int = 1, *,
                          season: int | None = None) -> RatingPage | None:
        """One page of a rating ladder: the server's current ratings (`guild_id` = the server),
        the global ratings (`guild_id` = :data:`GLOBAL`), or with `season` that server's season
        frozen when it ended (None when the server has no such finished season)."""
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise InvalidInput(f"page must be a whole number from 1, not {page!r}.")
        offset = (page - 1) * LADDER_PAGE
        async with self._read() as db:
            if season is not None:
                found = await db.fetchone(
                    "SELECT 1 FROM seasons WHERE guild_id = ? AND number = ? "
                    "AND ended_at IS NOT NULL", (guild_id, season))
                if found is None:
                    return None
                counts = await db.one(
                    "SELECT COUNT(*), COUNT(rank) FROM season_standings "
                    "WHERE guild_id = ? AND season = ?", (guild_id, season))
                rows = await db.fetchall(
                    "SELECT user_id, display, games, rank FROM season_standings "
                    "WHERE guild_id = ? AND season = ? ORDER BY CASE WHEN rank IS NULL THEN 1 "
                    "ELSE 0 END, display DESC, user_id LIMIT ? OFFSET ?",
                    (guild_id, season, LADDER_PAGE, offset))
            else:
                counts = await db.one(
                    "SELECT COUNT(*), COALESCE(SUM(CASE WHEN games >= ? THEN 1 ELSE 0 END), 0) "
                    "FROM ratings WHERE guild_id = ?", (PROVISIONAL_GAMES, guild_id))
                rows = await db.fetchall(
                    "SELECT r.user_id, r.display, r.games, CASE WHEN r.games >= ? THEN "
                    "(SELECT COUNT(*) FROM ratings o WHERE o.guild_id = r.guild_id "
                    "AND o.games >= ? AND o.display > r.display) + 1 END AS rank "
                    "FROM ratings r WHERE r.guild_id = ? "
                    "ORDER BY CASE WHEN r.games >= ? THEN 0 ELSE 1 END, r.display DESC, r.user_id "
                    "LIMIT ? OFFSET ?",
                    (PROVISIONAL_GAMES, PROVISIONAL_GAMES, guild_id, PROVISIONAL_GAMES,
                     LADDER_PAGE, offset))
        total, ranked = int(counts[0]), int(counts[1])
        scope: LadderScope = ("season" if season is not None
                              else "global" if guild_id == GLOBAL else "server")
        entries = tuple(
            LadderEntry(int(r["user_id"]), int(r["display"]), int(r["games"]),
                        None if r["rank"] is None else int(r["rank"]))
            for r in rows)
        return RatingPage(scope, page, _pages(total), total, ranked, entries, season)

    async def get_ranked_default(self, guild_id: int) -> bool | None:
        """Whether the server's new tables are ranked unless told (None: the bot's default)."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT ranked FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None or row[0] is None else bool(row[0])

    async def set_ranked_default(self, guild_id: int, ranked: bool) -> bool:
        if not isinstance(ranked, bool):
            raise InvalidInput(f"ranked must be on or off, not {ranked!r}.")
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, ranked) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET ranked = excluded.ranked",
                (guild_id, int(ranked)))
        return ranked
