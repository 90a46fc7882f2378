"""The bot's store: chips, the ledger, tables, games, results, stats, settings.

One API over two backends (see `data.db`): SQLite, the embedded default for one bot process,
and PostgreSQL, which several bot processes share. The SQL below is written once, in what both
dialects understand; the rare difference (row locks) comes from the connection.

Durability: SQLite runs in WAL mode with ``synchronous=FULL``, every commit fsynced before it
returns, so a settlement that was reported is never lost, even to a power cut; PostgreSQL's
commits are durable by default. Every write runs in one transaction that rolls back on any
exception (cancellation included), so nothing half-written remains.

Money moves in single conditional statements (``UPDATE players SET chips = chips + ? WHERE …
AND chips + ? >= 0``, and ``CHECK (chips >= 0)`` behind them), each with its ledger row in the
same transaction; ``players.chips`` always equals the sum of the player's ``chip_ledger`` rows (a
new player's starting chips are a ``grant`` row), and the database refuses to change or delete a
ledger row. A game settles once: its row is locked, ``status`` moves from ``playing`` to
``finished`` in the settling transaction, and a second call, even from another process, returns
what the first booked. Tables and games carry versions: a write names the version it read and
loses (StaleVersion) if someone saved a newer one first.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

from data.admin import AdminTools
from data.db import Conn, Database, DatabaseURL, Dialect, Row, open_database
from data.db import migrations as _dialect_migrations
from data.errors import (
    AlreadyClaimed,
    InsufficientChips,
    InvalidInput,
    NotOwned,
    StaleVersion,
    TableExists,
    UnknownGame,
    UnknownTable,
    WrongStatus,
)
from data.hands import LiveHandsMixin
from data.history import HistoryQueries
from data.models import (
    DailyClaim,
    GameRecord,
    GameStatus,
    GuildSettings,
    LeaderboardEntry,
    LeaderboardKey,
    LeaderboardPage,
    LeaderboardScope,
    PlayerStats,
    RatingChange,
    ResultRow,
    Seat,
    SeatLike,
    SeatResult,
    Settled,
    Shards,
    TableRecord,
    TableStatus,
    TransferLike,
)
from data.prefs import PrefsStore
from data.ratings import PlacedSeat, RatingsStore, game_rating_changes, rate_settled_game
from data.seasons import SeasonsStore
from data.table_life import TableLifeStore
from data.threads import ThreadDefaults
from engine import Rules

DAILY_INTERVAL = timedelta(hours=24)
PAGE_SIZE = 10
WINRATE_MIN_GAMES = 10
LEADERBOARD_KEYS: tuple[LeaderboardKey, ...] = ("chips", "wins", "winrate")

Clock = Callable[[], datetime]
#: seat -> chips held, None for a computer player (who holds no chips)
Balances = dict[int, int | None]
TransfersArg = Sequence[TransferLike] | Callable[[Balances], Sequence[TransferLike]]

_TABLE_FIELDS = frozenset(
    {
        "host_id",
        "rules_json",
        "stake",
        "turn_seconds",
        "seats",
        "board_message_id",
        "board_posted_at",
        "current_game_id",
        "state_json",
    }
)


def _utcnow() -> datetime:
    return datetime.now(UTC)


def _iso(moment: datetime) -> str:
    """Fixed-width UTC text, so that string order is time order."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _parse_time(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _require_time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _check_int(name: str, value: object, *, minimum: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(f"{name} must be a whole number, not {value!r}.")
    if minimum is not None and value < minimum:
        raise InvalidInput(f"{name} must be at least {minimum}, not {value}.")
    return value


def _check_json(name: str, value: object) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be JSON text, not {type(value).__name__}.")
    try:
        json.loads(value)
    except ValueError as exc:
        raise InvalidInput(f"{name} is not valid JSON: {exc}.") from exc
    return value


def _seats_json(seats: Iterable[SeatLike]) -> tuple[tuple[Seat, ...], str]:
    coerced = tuple(Seat.coerce(s) for s in seats)
    return coerced, json.dumps([s.to_json() for s in coerced])


def _seats_from_json(text: str) -> tuple[Seat, ...]:
    return tuple(Seat.coerce(s) for s in json.loads(text))


def migrations(dialect: Dialect = "sqlite") -> list[tuple[int, str, str]]:
    """The packaged migrations of a dialect as (version, file name, SQL), numbered 1, 2, 3 …"""
    return _dialect_migrations(dialect)


class Store(
    AdminTools, LiveHandsMixin, TableLifeStore, ThreadDefaults, HistoryQueries, RatingsStore,
    SeasonsStore,
    PrefsStore,
):
    """Async access to the database. Create with ``await Store.open(url_or_path)``."""

    def __init__(
        self,
        db: Database,
        *,
        starting_chips: int,
        daily_chips: int,
        clock: Clock,
        shards: Shards | None = None,
    ) -> None:
        self._db = db
        #: the shards this process runs; None: all (one process)
        self.shards = shards
        self.starting_chips = starting_chips
        self.daily_chips = daily_chips
        self._clock = clock
        #: test hook called at named points inside write transactions (crash-safety tests)
        self.fault_hook: Callable[[str], None] | None = None

    # ------------------------------------------------------------------ life cycle

    @classmethod
    async def open(
        cls,
        url: str | Path | DatabaseURL,
        *,
        starting_chips: int = 1000,
        daily_chips: int = 200,
        clock: Clock = _utcnow,
        migrate_to: int | None = None,
        busy_timeout_ms: int = 10_000,
        pool_size: int = 10,
        shards: Shards | None = None,
    ) -> Store:
        """Open the database at `url` and bring its schema up to date.

        `url` is ``sqlite:///path`` or a plain file path (created if needed), or
        ``postgresql://user:password@host:port/database`` (an existing database; its tables
        are created). `pool_size` caps PostgreSQL's connections; `busy_timeout_ms` is how long
        SQLite waits for another process's write. `migrate_to` stops at an older schema
        version; only tests use it. `shards` (the shards this process runs) makes the store
        refuse to change the tables and games of servers on other shards (NotOwned): several
        processes share one database, and each acts only on its own servers.
        """
        _check_int("starting_chips", starting_chips, minimum=0)
        _check_int("daily_chips", daily_chips, minimum=0)
        db = await open_database(
            url, pool_size=pool_size, busy_timeout_ms=busy_timeout_ms, migrate_to=migrate_to
        )
        return cls(
            db, starting_chips=starting_chips, daily_chips=daily_chips, clock=clock, shards=shards
        )

    @property
    def url(self) -> DatabaseURL:
        return self._db.url

    @property
    def dialect(self) -> Dialect:
        return self._db.dialect

    @property
    def database(self) -> Database:
        """The backend (for tools such as ``data.migrate``; the bot uses the methods below)."""
        return self._db

    async def close(self) -> None:
        await self._db.close()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    # ------------------------------------------------------------------ transactions

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Conn]:
        async with self._db.read() as conn:
            yield conn

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Conn]:
        async with self._db.write() as conn:
            yield conn

    def _fault(self, point: str) -> None:
        if self.fault_hook is not None:
            self.fault_hook(point)

    def _own(self, guild_id: int, what: str) -> None:
        if self.shards is not None and not self.shards.owns(guild_id):
            raise NotOwned(what, guild_id, self.shards)

    def _now(self, now: datetime | None) -> str:
        return _iso(now if now is not None else self._clock())

    # ------------------------------------------------------------------ players and chips

    async def _ensure_player(self, db: Conn, guild_id: int, user_id: int, now: str) -> int:
        _check_int("guild_id", guild_id)
        _check_int("user_id", user_id)
        changed = await db.execute(
            "INSERT INTO players (guild_id, user_id, chips, created_at) VALUES (?, ?, 0, ?) "
            "ON CONFLICT DO NOTHING",
            (guild_id, user_id, now),
        )
        if changed == 1 and self.starting_chips > 0:
            await self._move(db, guild_id, user_id, self.starting_chips, "grant", None, None, now)
        row = await db.one(
            "SELECT chips FROM players WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return int(row[0])

    async def _move(
        self,
        db: Conn,
        guild_id: int,
        user_id: int,
        delta: int,
        reason: str,
        game_id: int | None,
        counterparty: int | None,
        now: str,
    ) -> None:
        """Add `delta` chips to a balance (never below zero) and write its ledger row."""
        if delta == 0:
            return
        changed = await db.execute(
            "UPDATE players SET chips = chips + ? WHERE guild_id = ? AND user_id = ? "
            "AND chips + ? >= 0",
            (delta, guild_id, user_id, delta),
        )
        if changed != 1:
            row = await db.fetchone(
                "SELECT chips FROM players WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            raise InsufficientChips(user_id, int(row[0]) if row else 0, -delta)
        await db.execute(
            "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, game_id, counterparty, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (guild_id, user_id, delta, reason, game_id, counterparty, now),
        )

    async def ensure_player(
        self, guild_id: int, user_id: int, *, now: datetime | None = None
    ) -> int:
        """Create the player with the starting chips if new; return their chips."""
        async with self._write() as db:
            return await self._ensure_player(db, guild_id, user_id, self._now(now))

    async def get_chips(self, guild_id: int, user_id: int) -> int | None:
        """The player's chips, or None for someone who never played here (nothing is written)."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT chips FROM players WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
        return None if row is None else int(row[0])

    async def claim_daily(
        self, guild_id: int, user_id: int, *, now: datetime | None = None
    ) -> DailyClaim:
        """Grant the daily chips, at most once per 24 hours; AlreadyClaimed says when it is due."""
        moment = now if now is not None else self._clock()
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        stamp = _iso(moment)
        cutoff = _iso(moment - DAILY_INTERVAL)
        async with self._write() as db:
            await self._ensure_player(db, guild_id, user_id, stamp)
            changed = await db.execute(
                "UPDATE players SET last_daily_at = ? WHERE guild_id = ? AND user_id = ? "
                "AND (last_daily_at IS NULL OR last_daily_at <= ?)",
                (stamp, guild_id, user_id, cutoff),
            )
            if changed != 1:
                row = await db.one(
                    "SELECT last_daily_at FROM players WHERE guild_id = ? AND user_id = ?",
                    (guild_id, user_id),
                )
                raise AlreadyClaimed(_require_time(row[0]) + DAILY_INTERVAL)
            await self._move(db, guild_id, user_id, self.daily_chips, "daily", None, None, stamp)
            chips = await db.one(
                "SELECT chips FROM players WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
        return DailyClaim(
            granted=self.daily_chips, chips=int(chips[0]), next_at=moment + DAILY_INTERVAL
        )

    async def adjust_chips(
        self, guild_id: int, user_id: int, delta: int, reason: str, *, now: datetime | None = None
    ) -> int:
        """An admin grant (positive) or removal (negative, never below zero); returns the chips."""
        _check_int("delta", delta)
        if not reason or not isinstance(reason, str):
            raise InvalidInput("A chip adjustment needs a reason.")
        stamp = self._now(now)
        async with self._write() as db:
            await self._ensure_player(db, guild_id, user_id, stamp)
            await self._move(db, guild_id, user_id, delta, reason, None, None, stamp)
            row = await db.one(
                "SELECT chips FROM players WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
        return int(row[0])

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules_json: str,
        stake: int,
        turn_seconds: int,
        seats: Sequence[SeatLike],
        *,
        now: datetime | None = None,
    ) -> int:
        """Open a table in a channel; TableExists (with its id) if the channel has one open."""
        _check_int("guild_id", guild_id)
        _check_int("channel_id", channel_id)
        _check_int("host_id", host_id)
        _check_json("rules_json", rules_json)
        _check_int("stake", stake, minimum=0)
        _check_int("turn_seconds", turn_seconds, minimum=1)
        _, seats_text = _seats_json(seats)
        self._own(guild_id, "A table")
        stamp = self._now(now)
        async with self._write() as db:
            # The partial unique index (one open table per channel) decides a race between
            # two processes: the loser inserts nothing and reports the winner's table.
            row = await db.fetchone(
                "INSERT INTO tables (guild_id, channel_id, host_id, rules_json, stake, "
                "turn_seconds, seats_json, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (channel_id) WHERE status = 'open' DO NOTHING RETURNING id",
                (
                    guild_id,
                    channel_id,
                    host_id,
                    rules_json,
                    stake,
                    turn_seconds,
                    seats_text,
                    stamp,
                    stamp,
                ),
            )
            if row is None:
                existing = await db.one(
                    "SELECT id FROM tables WHERE channel_id = ? AND status = 'open'",
                    (channel_id,),
                )
                raise TableExists(channel_id, int(existing[0]))
            return int(row[0])

    async def get_table(self, table_id: int) -> TableRecord:
        async with self._read() as db:
            row = await db.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
        if row is None:
            raise UnknownTable(table_id)
        return _table(row)

    async def get_open_table_for_channel(self, channel_id: int) -> TableRecord | None:
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT * FROM tables WHERE channel_id = ? AND status = 'open'", (channel_id,)
            )
        return None if row is None else _table(row)

    async def list_open_tables(self, shards: Shards | None = None) -> list[TableRecord]:
        """Open tables, oldest first; only those of servers on `shards` (default: the store's
        own shards, if it was opened with some)."""
        where, params = _shard_filter(shards or self.shards)
        async with self._read() as db:
            rows = await db.fetchall(
                f"SELECT * FROM tables WHERE status = 'open'{where} ORDER BY id", params
            )
        return [_table(r) for r in rows]

    async def update_table(
        self,
        table_id: int,
        expected_version: int,
        *,
        now: datetime | None = None,
        **fields: Any,
    ) -> int:
        """Change fields of an open table if it is still at `expected_version`; returns the new one.

        Fields: host_id, rules_json, stake, turn_seconds, seats, board_message_id,
        board_posted_at (datetime), current_game_id, state_json. A stale version raises
        StaleVersion and writes nothing.
        """
        return (await self.update_table_record(table_id, expected_version, now=now,
                                               **fields)).version

    async def update_table_record(
        self,
        table_id: int,
        expected_version: int,
        *,
        now: datetime | None = None,
        **fields: Any,
    ) -> TableRecord:
        """`update_table`, returning the table as the change left it: one round trip to the
        store where an update followed by `get_table` takes two."""
        unknown = set(fields) - _TABLE_FIELDS
        if unknown:
            raise InvalidInput(f"A table has no field named {', '.join(sorted(unknown))}.")
        columns: list[str] = []
        values: list[Any] = []
        for name, value in fields.items():
            if name == "seats":
                columns.append("seats_json")
                values.append(_seats_json(value)[1])
                continue
            if name == "rules_json":
                _check_json(name, value)
            elif name == "stake":
                _check_int(name, value, minimum=0)
            elif name == "turn_seconds":
                _check_int(name, value, minimum=1)
            elif name in ("host_id",) or (
                name in ("board_message_id", "current_game_id") and value is not None
            ):
                _check_int(name, value)
            elif name == "board_posted_at" and value is not None:
                if not isinstance(value, datetime):
                    raise InvalidInput("board_posted_at must be a datetime.")
                value = _iso(value)
            elif name == "state_json" and value is not None and not isinstance(value, str):
                raise InvalidInput("state_json must be text.")
            columns.append(name)
            values.append(value)
        stamp = self._now(now)
        assignments = "".join(f"{c} = ?, " for c in columns)
        owned, owned_params = _shard_filter(self.shards)
        async with self._write() as db:
            updated = await db.fetchone(
                f"UPDATE tables SET {assignments}version = version + 1, updated_at = ? "
                f"WHERE id = ? AND version = ? AND status = 'open'{owned} RETURNING *",
                (*values, stamp, table_id, expected_version, *owned_params),
            )
            if updated is None:
                row = await db.fetchone(
                    "SELECT version, status, guild_id FROM tables WHERE id = ?", (table_id,)
                )
                if row is None:
                    raise UnknownTable(table_id)
                self._own(int(row[2]), f"Table {table_id}")
                if row[1] != "open":
                    raise WrongStatus(f"Table {table_id} is closed.")
                raise StaleVersion("Table", table_id, expected_version, int(row[0]))
        return _table(updated)

    async def close_table(
        self, table_id: int, *, cancel_game: bool = True, now: datetime | None = None
    ) -> TableRecord:
        """Close a table (idempotent). Its unfinished current game is cancelled: no chips move."""
        stamp = self._now(now)
        async with self._write() as db:
            found = await db.fetchone(
                "SELECT guild_id FROM tables WHERE id = ?" + db.for_update, (table_id,)
            )
            if found is None:
                raise UnknownTable(table_id)
            self._own(int(found[0]), f"Table {table_id}")
            closed = await db.execute(
                "UPDATE tables SET status = 'closed', version = version + 1, updated_at = ? "
                "WHERE id = ? AND status = 'open'",
                (stamp, table_id),
            )
            if closed == 1:  # its hands' tokens go with it (data.hands)
                await db.execute("DELETE FROM live_hands WHERE table_id = ?", (table_id,))
            if closed == 1 and cancel_game:
                await db.execute(
                    "UPDATE games SET status = 'cancelled', updated_at = ?, finished_at = ? "
                    "WHERE table_id = ? AND status IN ('lobby', 'playing')",
                    (stamp, stamp, table_id),
                )
            row = await db.fetchone("SELECT * FROM tables WHERE id = ?", (table_id,))
            if row is None:
                raise UnknownTable(table_id)
        return _table(row)

    # ------------------------------------------------------------------ games

    async def start_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        rules_json: str,
        stake: int,
        seats: Sequence[SeatLike],
        state_json: str | None,
        *,
        table_id: int | None = None,
        ranked: bool = True,
        now: datetime | None = None,
    ) -> GameRecord:
        """Record a game in play (version 1) after checking every person holds at least `stake`.

        New players are created with their starting chips first. A `ranked` game's settlement
        also rates its people (data/ratings/); a casual one (`ranked=False`) changes no rating.
        """
        _check_int("guild_id", guild_id)
        _check_int("channel_id", channel_id)
        _check_int("host_id", host_id)
        _check_json("rules_json", rules_json)
        _check_int("stake", stake, minimum=0)
        if state_json is not None and not isinstance(state_json, str):
            raise InvalidInput("state_json must be text.")
        coerced, seats_text = _seats_json(seats)
        if len(coerced) < 2:
            raise InvalidInput("A game needs at least two seats.")
        if any(s.is_empty for s in coerced):
            raise InvalidInput("Every seat of a game must hold a person or a computer player.")
        humans = [s.user_id for s in coerced if s.user_id is not None]
        if len(set(humans)) != len(humans):
            raise InvalidInput("A person cannot take two seats in one game.")
        self._own(guild_id, "A game")
        stamp = self._now(now)
        async with self._write() as db:
            if table_id is not None:
                # locked until commit, so that the table cannot close under the new game
                table = await db.fetchone(
                    "SELECT status FROM tables WHERE id = ?" + db.for_update, (table_id,)
                )
                if table is None:
                    raise UnknownTable(table_id)
                if table[0] != "open":
                    raise WrongStatus(f"Table {table_id} is closed.")
            for user_id in sorted(humans):  # one order everywhere: no deadlocks
                chips = await self._ensure_player(db, guild_id, user_id, stamp)
                if chips < stake:
                    raise InsufficientChips(user_id, chips, stake)
            row = await db.one(
                "INSERT INTO games (guild_id, channel_id, table_id, host_id, rules_json, stake, "
                "status, seats_json, state_json, version, created_at, updated_at, ranked) "
                "VALUES (?, ?, ?, ?, ?, ?, 'playing', ?, ?, 1, ?, ?, ?) RETURNING *",
                (
                    guild_id,
                    channel_id,
                    table_id,
                    host_id,
                    rules_json,
                    stake,
                    seats_text,
                    state_json,
                    stamp,
                    stamp,
                    int(ranked),
                ),
            )
        return _game(row)

    async def get_game(self, game_id: int) -> GameRecord:
        async with self._read() as db:
            row = await db.fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        if row is None:
            raise UnknownGame(game_id)
        return _game(row)

    async def save_game(
        self, game_id: int, state_json: str, expected_version: int, *, now: datetime | None = None
    ) -> int:
        """Save a game's state if it is still at `expected_version`; returns the new version."""
        if not isinstance(state_json, str):
            raise InvalidInput("state_json must be text.")
        stamp = self._now(now)
        # A write like the others, so that SQLite groups the saves of many tables in one COMMIT.
        owned, owned_params = _shard_filter(self.shards)
        async with self._write() as db:
            changed = await db.execute(
                "UPDATE games SET state_json = ?, version = version + 1, updated_at = ? "
                f"WHERE id = ? AND version = ? AND status = 'playing'{owned}",
                (state_json, stamp, game_id, expected_version, *owned_params),
            )
            if changed != 1:
                row = await db.fetchone(
                    "SELECT version, status, guild_id FROM games WHERE id = ?", (game_id,)
                )
                if row is None:
                    raise UnknownGame(game_id)
                self._own(int(row[2]), f"Game {game_id}")
                if row[1] != "playing":
                    raise WrongStatus(
                        f"Game {game_id} is {row[1]}; its state can no longer change."
                    )
                raise StaleVersion("Game", game_id, expected_version, int(row[0]))
        return expected_version + 1

    async def load_unfinished_games(self, shards: Shards | None = None) -> list[GameRecord]:
        """Every game still in play (for restart), oldest first; only those of servers on
        `shards` (default: the store's own shards, if any): a process resumes only its own."""
        where, params = _shard_filter(shards or self.shards)
        async with self._read() as db:
            rows = await db.fetchall(
                f"SELECT * FROM games WHERE status IN ('lobby', 'playing'){where} ORDER BY id",
                params,
            )
        return [_game(r) for r in rows]

    async def cancel_game(self, game_id: int, *, now: datetime | None = None) -> GameRecord:
        """End an unfinished game without moving chips (idempotent for cancelled games)."""
        stamp = self._now(now)
        async with self._write() as db:
            row = await db.fetchone(
                "SELECT status, guild_id FROM games WHERE id = ?" + db.for_update, (game_id,)
            )
            if row is None:
                raise UnknownGame(game_id)
            self._own(int(row[1]), f"Game {game_id}")
            if row[0] == "finished":
                raise WrongStatus(f"Game {game_id} is already settled; it cannot be cancelled.")
            if row[0] != "cancelled":
                await db.execute(
                    "UPDATE games SET status = 'cancelled', updated_at = ?, finished_at = ? "
                    "WHERE id = ?",
                    (stamp, stamp, game_id),
                )
            row = await db.one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row)

    async def settle_game(
        self,
        game_id: int,
        transfers: TransfersArg,
        results: Sequence[SeatResult],
        *,
        now: datetime | None = None,
    ) -> Settled:
        """Book a finished game in one transaction: ledger rows, balances, results, stats.

        `transfers` are seat-to-seat chip movements (anything with payer, payee, paid, reason,
        such as `engine.Transfer`), or a function that computes them from the seats' balances
        read inside this transaction (seat -> chips, None for a computer player), which is
        how a caller avoids settling against stale balances. Computer seats hold no chips:
        a transfer that moves chips to or from one is refused. `results` gives every seat's
        place (1 = winner) and bombs played.

        Exactly once per game: a second call (even a concurrent one) books nothing and
        returns what the first booked, with `first_call` False.
        """
        stamp = self._now(now)
        async with self._write() as db:
            # The game's row stays locked until commit: a concurrent settlement (another
            # process's, too) waits here, then finds the game finished.
            grow = await db.fetchone("SELECT * FROM games WHERE id = ?" + db.for_update, (game_id,))
            if grow is None:
                raise UnknownGame(game_id)
            game = _game(grow)
            self._own(game.guild_id, f"Game {game_id}")
            if game.status == "finished":
                return Settled(
                    game_id,
                    await _result_rows(db, game_id),
                    first_call=False,
                    ratings=await game_rating_changes(db, game_id),
                )
            if game.status != "playing":
                raise WrongStatus(f"Game {game_id} is {game.status}; only a game in play settles.")
            seats = game.seats
            checked_results = _check_results(results, len(seats))
            users = [s.user_id for s in seats if s.user_id is not None]
            # Lock the players' rows (in user order, so that settlements sharing players
            # queue instead of deadlocking): the balances read here stay true until commit.
            held = await _balances(db, game.guild_id, users, lock=True)
            if callable(transfers):
                balances: Balances = {
                    i: None if s.user_id is None else held.get(s.user_id, 0)
                    for i, s in enumerate(seats)
                }
                transfers = transfers(balances)
            net = _check_transfers(transfers, seats)
            moves = [(seats[i].user_id, delta) for i, delta in net.items() if delta]
            if moves:
                # Every balance in one conditional statement: a row that would go below zero
                # is not updated, the count falls short, and the transaction rolls back.
                values = ", ".join("(CAST(? AS BIGINT), CAST(? AS BIGINT))" for _ in moves)
                changed = await db.execute(
                    "UPDATE players SET chips = players.chips + d.column2 "
                    f"FROM (VALUES {values}) AS d WHERE players.guild_id = ? "
                    "AND players.user_id = d.column1 AND players.chips + d.column2 >= 0",
                    (*(v for move in moves for v in move), game.guild_id),
                )
                if changed != len(moves):
                    held = await _balances(db, game.guild_id, users)
                    for user_id, delta in moves:
                        assert user_id is not None
                        if held.get(user_id, 0) + delta < 0:
                            raise InsufficientChips(user_id, held.get(user_id, 0), -delta)
                    raise WrongStatus(f"Game {game_id}: a seated player has no chip account.")
            self._fault("settle:after_balances")
            ledger: list[tuple[Any, ...]] = []
            for t in transfers:
                if t.paid == 0:
                    continue
                payer, payee = seats[t.payer].user_id, seats[t.payee].user_id
                ledger.append((game.guild_id, payer, -t.paid, t.reason, game_id, payee, stamp))
                ledger.append((game.guild_id, payee, t.paid, t.reason, game_id, payer, stamp))
            await db.executemany(
                "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, game_id, "
                "counterparty, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                ledger,
            )
            self._fault("settle:after_ledger")
            rows = tuple(
                sorted(
                    (
                        ResultRow(r.seat, seats[r.seat].user_id, r.place, net[r.seat])
                        for r in checked_results
                    ),
                    key=lambda row: row.seat,
                )
            )
            await db.executemany(
                "INSERT INTO results (game_id, seat, user_id, place, chip_change) "
                "VALUES (?, ?, ?, ?, ?)",
                [(game_id, r.seat, r.user_id, r.place, r.chip_change) for r in rows],
            )
            bombs = {r.seat: r.bombs_played for r in checked_results}
            human_rows = sorted(
                (r for r in rows if r.user_id is not None), key=lambda r: r.user_id or 0
            )
            await db.executemany(
                "INSERT INTO player_stats (guild_id, user_id, games, wins, chips_won, "
                "chips_lost, bombs_played) VALUES (?, ?, 1, ?, ?, ?, ?) "
                "ON CONFLICT (guild_id, user_id) DO UPDATE SET games = player_stats.games + 1, "
                "wins = player_stats.wins + excluded.wins, "
                "chips_won = player_stats.chips_won + excluded.chips_won, "
                "chips_lost = player_stats.chips_lost + excluded.chips_lost, "
                "bombs_played = player_stats.bombs_played + excluded.bombs_played",
                [
                    (
                        game.guild_id,
                        r.user_id,
                        int(r.place == 1),
                        max(r.chip_change, 0),
                        max(-r.chip_change, 0),
                        bombs[r.seat],
                    )
                    for r in human_rows
                ],
            )
            await db.executemany(
                "INSERT INTO player_places (guild_id, user_id, place, count) "
                "VALUES (?, ?, ?, 1) "
                "ON CONFLICT (guild_id, user_id, place) "
                "DO UPDATE SET count = player_places.count + 1",
                [(game.guild_id, r.user_id, r.place) for r in human_rows],
            )
            ratings: tuple[RatingChange, ...] = ()
            if int(grow["ranked"]):
                placed = [
                    PlacedSeat(r.seat, r.place, left=r.left)
                    for r in checked_results
                ]
                ratings = await rate_settled_game(
                    db, game_id, game.guild_id, seats, placed, stamp
                )
            self._fault("settle:after_results")
            changed = await db.execute(
                "UPDATE games SET status = 'finished', updated_at = ?, finished_at = ? "
                "WHERE id = ? AND status = 'playing'",
                (stamp, stamp, game_id),
            )
            if changed != 1:  # pragma: no cover - the lock makes this unreachable
                raise WrongStatus(f"Game {game_id} was settled meanwhile.")
            self._fault("settle:before_commit")
        return Settled(game_id, rows, first_call=True, ratings=ratings)

    # ------------------------------------------------------------------ stats and leaderboards

    async def stats(self, guild_id: int, user_id: int) -> PlayerStats:
        """A player's record here (for someone who never played: zeros, and the starting chips
        they get at their first game)."""
        async with self._read() as db:
            chips = await db.fetchone(
                "SELECT chips FROM players WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            row = await db.fetchone(
                "SELECT games, wins, chips_won, chips_lost, bombs_played FROM player_stats "
                "WHERE guild_id = ? AND user_id = ?",
                (guild_id, user_id),
            )
            places = await db.fetchall(
                "SELECT place, count FROM player_places WHERE guild_id = ? AND user_id = ? "
                "ORDER BY place",
                (guild_id, user_id),
            )
        games, wins, won, lost, bombs = (int(v) for v in row) if row else (0, 0, 0, 0, 0)
        return PlayerStats(
            guild_id=guild_id,
            user_id=user_id,
            chips=int(chips[0]) if chips else self.starting_chips,
            games=games,
            wins=wins,
            places={int(p): int(c) for p, c in places},
            chips_won=won,
            chips_lost=lost,
            bombs_played=bombs,
        )

    async def leaderboard(self, guild_id: int, by: str = "chips", page: int = 1) -> LeaderboardPage:
        """Players of a guild by chips, wins or win rate (only players with 10+ games), 10 a page.

        Ties keep a stable order: by user id.
        """
        key = _leaderboard_key(by)
        _check_int("page", page, minimum=1)
        base = (
            "FROM players p LEFT JOIN player_stats s "
            "ON s.guild_id = p.guild_id AND s.user_id = p.user_id WHERE p.guild_id = ?"
        )
        if key == "chips":
            where, order = "", "p.chips DESC, p.user_id ASC"
        elif key == "wins":
            where, order = " AND s.games > 0", "s.wins DESC, p.user_id ASC"
        else:
            where = f" AND s.games >= {WINRATE_MIN_GAMES}"
            order = "s.wins * 1.0 / s.games DESC, s.wins DESC, p.user_id ASC"
        offset = (page - 1) * PAGE_SIZE
        async with self._read() as db:
            total = int((await db.one(f"SELECT COUNT(*) {base}{where}", (guild_id,)))[0])
            rows = await db.fetchall(
                "SELECT p.user_id, p.chips, COALESCE(s.games, 0), COALESCE(s.wins, 0), "
                "COALESCE(s.chips_won - s.chips_lost, 0) "
                f"{base}{where} ORDER BY {order} LIMIT ? OFFSET ?",
                (guild_id, PAGE_SIZE, offset),
            )
        return _leaderboard_page(key, "server", page, total, offset, rows)

    async def global_leaderboard(self, by: str = "chips", page: int = 1) -> LeaderboardPage:
        """Players of every server, ranked by the database, 10 a page.

        Chips belong to a server, so "chips" ranks the net chips won in games (won minus lost,
        summed over the servers); "wins" ranks wins; "winrate" wins per game for players with
        10+ games. Only players who finished a game are listed. Ties: by user id.
        """
        key = _leaderboard_key(by)
        _check_int("page", page, minimum=1)
        if key == "chips":
            where, order = "games > 0", "net DESC, user_id ASC"
        elif key == "wins":
            where, order = "games > 0", "wins DESC, user_id ASC"
        else:
            where = f"games >= {WINRATE_MIN_GAMES}"
            order = "wins * 1.0 / games DESC, wins DESC, user_id ASC"
        ranked = (
            "WITH totals AS (SELECT user_id, SUM(games) AS games, SUM(wins) AS wins, "
            "SUM(chips_won) - SUM(chips_lost) AS net FROM player_stats GROUP BY user_id), "
            "held AS (SELECT user_id, SUM(chips) AS chips FROM players GROUP BY user_id) "
        )
        offset = (page - 1) * PAGE_SIZE
        async with self._read() as db:
            total = int((await db.one(f"{ranked}SELECT COUNT(*) FROM totals WHERE {where}", ()))[0])
            rows = await db.fetchall(
                f"{ranked}SELECT t.user_id, COALESCE(h.chips, 0) AS chips, t.games, t.wins, "
                "t.net FROM (SELECT * FROM totals WHERE "
                f"{where}) AS t LEFT JOIN held h ON h.user_id = t.user_id "
                f"ORDER BY {order.replace('user_id', 't.user_id')} LIMIT ? OFFSET ?",
                (PAGE_SIZE, offset),
            )
        return _leaderboard_page(key, "global", page, total, offset, rows)

    # ------------------------------------------------------------------ bot meta

    async def get_meta(self, key: str) -> str | None:
        """A fact the bot keeps about itself (e.g. a synced command hash), or None."""
        async with self._read() as db:
            row = await db.fetchone("SELECT value FROM bot_meta WHERE key = ?", (key,))
        return None if row is None else str(row[0])

    async def set_meta(self, key: str, value: str) -> None:
        if not isinstance(key, str) or not key or not isinstance(value, str):
            raise InvalidInput("meta key and value must be non-empty text.")
        async with self._write() as db:
            await db.execute(
                "INSERT INTO bot_meta (key, value) VALUES (?, ?) "
                "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # ------------------------------------------------------------------ guild settings

    async def get_guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._read() as db:
            row = await db.fetchone(
                _GUILD_SETTINGS_SELECT,
                (guild_id,),
            )
        if row is None:
            return GuildSettings(guild_id)
        return _guild_settings(guild_id, row)

    async def set_guild_settings(
        self,
        guild_id: int,
        *,
        preset: str | None = None,
        stake: int | None = None,
        turn_seconds: int | None = None,
        language: str | None = None,
        turn_reminder: int | None = None,
        images: bool | None = None,
    ) -> GuildSettings:
        """Change the given defaults (None leaves a field as it is)."""
        _check_int("guild_id", guild_id)
        if stake is not None:
            _check_int("stake", stake, minimum=0)
        if turn_seconds is not None:
            _check_int("turn_seconds", turn_seconds, minimum=1)
        if preset is not None and preset not in Rules.preset_names():
            raise InvalidInput(f"preset must be one of {', '.join(Rules.preset_names())}.")
        if language is not None and language not in LANGUAGES:
            raise InvalidInput(f"language must be one of {', '.join(LANGUAGES)}.")
        if turn_reminder is not None:
            _check_int("turn_reminder", turn_reminder, minimum=0)
        if images is not None and not isinstance(images, bool):
            raise InvalidInput("images must be true or false.")
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings "
                "(guild_id, preset, stake, turn_seconds, language, turn_reminder, images) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET "
                "preset = COALESCE(excluded.preset, guild_settings.preset), "
                "stake = COALESCE(excluded.stake, guild_settings.stake), "
                "turn_seconds = COALESCE(excluded.turn_seconds, guild_settings.turn_seconds), "
                "language = COALESCE(excluded.language, guild_settings.language), "
                "turn_reminder = COALESCE(excluded.turn_reminder, guild_settings.turn_reminder), "
                "images = COALESCE(excluded.images, guild_settings.images)",
                (
                    guild_id,
                    preset,
                    stake,
                    turn_seconds,
                    language,
                    turn_reminder,
                    None if images is None else int(images),
                ),
            )
            row = await db.one(
                _GUILD_SETTINGS_SELECT,
                (guild_id,),
            )
        return _guild_settings(guild_id, row)


# ---------------------------------------------------------------------- helpers

_GUILD_SETTINGS_SELECT = (
    "SELECT preset, stake, turn_seconds, language, turn_reminder, images "
    "FROM guild_settings WHERE guild_id = ?"
)
LANGUAGES = ("auto", "en", "vi")


def _guild_settings(guild_id: int, row: Any) -> GuildSettings:
    images = None if row[5] is None else bool(row[5])
    return GuildSettings(guild_id, row[0], row[1], row[2], row[3], row[4], images)


def _shard_filter(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    """SQL (and its parameters) keeping rows whose guild is on one of `shards`."""
    if shards is None:
        return "", ()
    ids = sorted(shards.ids)
    marks = ", ".join("?" for _ in ids)
    # Discord's rule: a guild's shard is (guild_id >> 22) % shard_count
    return f" AND ((guild_id / {1 << 22}) % ?) IN ({marks})", (shards.count, *ids)


def _leaderboard_key(by: str) -> LeaderboardKey:
    if by not in LEADERBOARD_KEYS:
        raise InvalidInput(
            f"Unknown leaderboard {by!r}: choose one of {', '.join(LEADERBOARD_KEYS)}."
        )
    return by


def _leaderboard_page(
    by: LeaderboardKey,
    scope: LeaderboardScope,
    page: int,
    total: int,
    offset: int,
    rows: Sequence[Row],
) -> LeaderboardPage:
    entries = tuple(
        LeaderboardEntry(
            rank=offset + i + 1,
            user_id=int(r[0]),
            chips=int(r[1]),
            games=int(r[2]),
            wins=int(r[3]),
            net_chips=int(r[4]),
        )
        for i, r in enumerate(rows)
    )
    pages = max(1, math.ceil(total / PAGE_SIZE))
    return LeaderboardPage(by=by, page=page, pages=pages, total=total, entries=entries, scope=scope)


def _check_results(results: Sequence[SeatResult], seat_count: int) -> list[SeatResult]:
    seen: set[int] = set()
    places: set[int] = set()
    checked = list(results)
    for r in checked:
        _check_int("seat", r.seat, minimum=0)
        _check_int("place", r.place, minimum=1)
        _check_int("bombs_played", r.bombs_played, minimum=0)
        if r.seat >= seat_count:
            raise InvalidInput(f"Seat {r.seat} is not seated in this {seat_count}-seat game.")
        if r.seat in seen:
            raise InvalidInput(f"Seat {r.seat} has two results.")
        if r.place > seat_count or r.place in places:
            raise InvalidInput(f"Place {r.place} is out of range or given twice.")
        seen.add(r.seat)
        places.add(r.place)
    if len(seen) != seat_count:
        missing = sorted(set(range(seat_count)) - seen)
        raise InvalidInput(f"Every seat needs a result; missing seats {missing}.")
    return checked


def _check_transfers(transfers: Sequence[TransferLike], seats: Sequence[Seat]) -> dict[int, int]:
    net: dict[int, int] = defaultdict(int)
    for index in range(len(seats)):
        net[index] = 0
    for t in transfers:
        for role, seat in (("payer", t.payer), ("payee", t.payee)):
            _check_int(role, seat, minimum=0)
            if seat >= len(seats):
                raise InvalidInput(f"Seat {seat} ({role}) is not seated in this game.")
        _check_int("paid", t.paid, minimum=0)
        if t.payer == t.payee:
            raise InvalidInput(f"Seat {t.payer} cannot pay itself.")
        if not isinstance(t.reason, str) or not t.reason:
            raise InvalidInput("Every transfer needs a reason.")
        if t.paid and (seats[t.payer].user_id is None or seats[t.payee].user_id is None):
            raise InvalidInput("Computer players hold no chips: they can neither pay nor be paid.")
        net[t.payer] -= t.paid
        net[t.payee] += t.paid
    return dict(net)


async def _balances(
    db: Conn, guild_id: int, users: Sequence[int], *, lock: bool = False
) -> dict[int, int]:
    if not users:
        return {}
    marks = ", ".join("?" for _ in users)
    rows = await db.fetchall(
        f"SELECT user_id, chips FROM players WHERE guild_id = ? AND user_id IN ({marks}) "
        "ORDER BY user_id" + (db.for_update if lock else ""),
        (guild_id, *users),
    )
    return {int(r[0]): int(r[1]) for r in rows}


async def _result_rows(db: Conn, game_id: int) -> tuple[ResultRow, ...]:
    rows = await db.fetchall(
        "SELECT seat, user_id, place, chip_change FROM results WHERE game_id = ? ORDER BY seat",
        (game_id,),
    )
    return tuple(
        ResultRow(int(r[0]), None if r[1] is None else int(r[1]), int(r[2]), int(r[3]))
        for r in rows
    )


def _table(row: Row) -> TableRecord:
    return TableRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        host_id=int(row["host_id"]),
        status=cast(TableStatus, row["status"]),
        rules_json=row["rules_json"],
        stake=int(row["stake"]),
        turn_seconds=int(row["turn_seconds"]),
        seats=_seats_from_json(row["seats_json"]),
        board_message_id=row["board_message_id"],
        board_posted_at=_parse_time(row["board_posted_at"]),
        current_game_id=row["current_game_id"],
        state_json=row["state_json"],
        version=int(row["version"]),
        created_at=_require_time(row["created_at"]),
        updated_at=_require_time(row["updated_at"]),
    )


def _game(row: Row) -> GameRecord:
    return GameRecord(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        channel_id=int(row["channel_id"]),
        table_id=row["table_id"],
        host_id=int(row["host_id"]),
        rules_json=row["rules_json"],
        stake=int(row["stake"]),
        status=cast(GameStatus, row["status"]),
        seats=_seats_from_json(row["seats_json"]),
        state_json=row["state_json"],
        version=int(row["version"]),
        created_at=_require_time(row["created_at"]),
        updated_at=_require_time(row["updated_at"]),
        finished_at=_parse_time(row["finished_at"]),
        ranked=bool(row["ranked"]),
    )
