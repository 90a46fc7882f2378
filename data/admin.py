"""Server admins' tools in the store: chip grants, takes and sets, leaderboard resets, the admin
log, and the channels a server's tables may open in.

Every admin change is one ``admin_actions`` row naming the admin and the reason (append-only,
like the ledger), and every chip it moves is a ``chip_ledger`` row (reason ``admin_grant`` or
``admin_take``, the admin as counterparty) pointing at that row, in the same transaction; so
``players.chips`` still equals its ledger sum and ``data.check`` can explain every chip. A
change reads the balance under a row lock (PostgreSQL; SQLite's writes are serialised anyway),
so two admins changing one member at once both land, one after the other.

A member seated in a game that is being played keeps at least that game's stake: the table
layer lets nobody play with less (it refuses a join or a deal below the stake), and the
settlement charges from what the seated hold. A take or set below that is refused
(:class:`HeldAtTable`); so is a reset while any game of the server is being played
(:class:`GamesRunning`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, Protocol

from data.db import Conn, Row
from data.errors import InsufficientChips, InvalidInput, StoreError

AdminAction = Literal["grant", "take", "set"]
ADMIN_ACTIONS: tuple[AdminAction, ...] = ("grant", "take", "set")
StatsChoice = Literal["keep", "clear"]
#: the most chips one admin change names, and the most a member may hold after one: Discord's
#: integer options stop at 2^53 (and so do the numbers JavaScript clients show exactly)
AMOUNT_MAX = 2**53 - 1  # the largest integer Discord takes in an integer option
REASON_MAX = 200
LOG_PAGE_SIZE = 10
#: the most channels a server may keep its tables to
MAX_TABLE_CHANNELS = 25
LEDGER_GRANT = "admin_grant"
LEDGER_TAKE = "admin_take"


class _StoreParts(Protocol):
    """What the admin tools use of the store (see `data.store.Store`)."""

    starting_chips: int

    def _write(self) -> AbstractAsyncContextManager[Conn]: ...

    def _read(self) -> AbstractAsyncContextManager[Conn]: ...

    def _now(self, now: datetime | None) -> str: ...

    async def _ensure_player(self, db: Conn, guild_id: int, user_id: int, now: str) -> int: ...


@dataclass(frozen=True)
class AdminChange:
    """One admin change as the log keeps it. ``user_id`` is None for a leaderboard reset, whose
    ``amount`` is the starting chips, ``players`` the balances it changed and ``stats`` whether
    the statistics were kept; ``delta`` is the net chips the change moved."""

    id: int
    guild_id: int
    admin_id: int
    user_id: int | None
    action: str
    amount: int | None
    delta: int
    chips_after: int | None
    players: int
    stats: str | None
    reason: str
    created_at: datetime


@dataclass(frozen=True)
class AdminLogPage:
    entries: tuple[AdminChange, ...]
    page: int
    pages: int
    total: int


class HeldAtTable(StoreError):
    """A take (or set) would leave a member seated in a running game with less than its stake."""

    def __init__(self, user_id: int, table_id: int | None, stake: int, chips: int) -> None:
        super().__init__(
            f"<@{user_id}> is playing at table {table_id} (stake {stake}): they must keep at "
            f"least {stake} chips until the game ends; at most {max(0, chips - stake)} can be "
            "taken now."
        )
        self.user_id = user_id
        self.table_id = table_id
        self.stake = stake
        self.chips = chips

    @property
    def most(self) -> int:
        """The most chips that may be taken now."""
        return max(0, self.chips - self.stake)


class GamesRunning(StoreError):
    """A leaderboard reset while games of the server are being played."""

    def __init__(self, table_ids: Sequence[int]) -> None:
        listed = ", ".join(str(t) for t in table_ids)
        super().__init__(f"Games are being played at tables {listed}: reset after they end.")
        self.table_ids = tuple(table_ids)


class TooRich(StoreError):
    """A grant would leave a member with more than AMOUNT_MAX chips."""

    def __init__(self, user_id: int, chips: int) -> None:
        super().__init__(f"<@{user_id}> holds {chips} chips; a member holds at most {AMOUNT_MAX}.")
        self.user_id = user_id
        self.chips = chips


def check_amount(action: str, amount: object) -> int:
    """The amount of an admin change: a whole number, 1..2^53 (a set may name 0)."""
    if action not in ADMIN_ACTIONS:
        raise InvalidInput(f"action must be one of {', '.join(ADMIN_ACTIONS)}.")
    if not isinstance(amount, int) or isinstance(amount, bool):
        raise InvalidInput(f"The amount must be a whole number, not {amount!r}.")
    low = 0 if action == "set" else 1
    if not low <= amount <= AMOUNT_MAX:
        raise InvalidInput(f"The amount must be from {low} to {AMOUNT_MAX}, not {amount}.")
    return amount


def check_reason(reason: object) -> str:
    """An admin change's reason: 1 to 200 characters of text (spaces around it dropped)."""
    if not isinstance(reason, str) or not reason.strip():
        raise InvalidInput("An admin change needs a reason.")
    text = reason.strip()
    if len(text) > REASON_MAX:
        raise InvalidInput(f"A reason is at most {REASON_MAX} characters, not {len(text)}.")
    return text


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"An id must be a whole number, not {value!r}.")
    return value


async def _playing_stake(db: Conn, guild_id: int, user_id: int) -> tuple[int | None, int]:
    """The table and stake of the dearest game being played that seats the member (0: none)."""
    rows = await db.fetchall(
        "SELECT table_id, stake, seats_json FROM games WHERE guild_id = ? AND status = 'playing' "
        "ORDER BY id",
        (guild_id,),
    )
    table, stake = None, 0
    for table_id, game_stake, seats_json in rows:
        seated = any(isinstance(s, dict) and s.get("user_id") == user_id
                     for s in json.loads(seats_json))
        if seated and int(game_stake) > stake:
            table, stake = (None if table_id is None else int(table_id)), int(game_stake)
    return table, stake


def _change(row: Row) -> AdminChange:
    return AdminChange(
        id=int(row["id"]),
        guild_id=int(row["guild_id"]),
        admin_id=int(row["admin_id"]),
        user_id=None if row["user_id"] is None else int(row["user_id"]),
        action=str(row["action"]),
        amount=None if row["amount"] is None else int(row["amount"]),
        delta=int(row["delta"]),
        chips_after=None if row["chips_after"] is None else int(row["chips_after"]),
        players=int(row["players"]),
        stats=None if row["stats"] is None else str(row["stats"]),
        reason=str(row["reason"]),
        created_at=datetime.fromisoformat(str(row["created_at"])),
    )


_INSERT_ACTION = (
    "INSERT INTO admin_actions (guild_id, admin_id, user_id, action, amount, delta, "
    "chips_after, players, stats, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "RETURNING *"
)
_INSERT_LEDGER = (
    "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, game_id, counterparty, "
    "created_at, admin_action_id) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)"
)


class AdminTools:
    """The store's admin methods (mixed into `data.store.Store`)."""

    async def admin_change(
        self: _StoreParts,
        guild_id: int,
        user_id: int,
        admin_id: int,
        action: AdminAction,
        amount: int,
        reason: str,
        *,
        now: datetime | None = None,
    ) -> AdminChange:
        """Grant, take or set a member's chips, as `admin_id` for `reason`; a new member first
        gets the starting chips. Refused, changing nothing: a bad amount or reason
        (InvalidInput), a take of more than they hold (InsufficientChips), a grant past 2^53
        (TooRich), a take or set below the stake of a game they are playing (HeldAtTable)."""
        for value in (guild_id, user_id, admin_id):
            _int(value)
        amount = check_amount(action, amount)
        text = check_reason(reason)
        stamp = self._now(now)
        async with self._write() as db:
            await self._ensure_player(db, guild_id, user_id, stamp)
            row = await db.one(
                "SELECT chips FROM players WHERE guild_id = ? AND user_id = ?" + db.for_update,
                (guild_id, user_id),
            )
            chips = int(row[0])
            if action == "grant":
                delta = amount
            elif action == "take":
                if amount > chips:
                    raise InsufficientChips(user_id, chips, amount)
                delta = -amount
            else:
                delta = amount - chips
            if chips + delta > AMOUNT_MAX:
                raise TooRich(user_id, chips)
            if delta < 0:
                table, stake = await _playing_stake(db, guild_id, user_id)
                if chips + delta < stake:
                    raise HeldAtTable(user_id, table, stake, chips)
            if delta:
                changed = await db.execute(
                    "UPDATE players SET chips = chips + ? WHERE guild_id = ? AND user_id = ? "
                    "AND chips + ? >= 0",
                    (delta, guild_id, user_id, delta),
                )
                if changed != 1:  # pragma: no cover - the row is locked above
                    raise InsufficientChips(user_id, chips, -delta)
            record = await db.one(
                _INSERT_ACTION,
                (guild_id, admin_id, user_id, action, amount, delta, chips + delta, 0, None,
                 text, stamp),
            )
            if delta:
                await db.execute(
                    _INSERT_LEDGER,
                    (guild_id, user_id, delta, LEDGER_GRANT if delta > 0 else LEDGER_TAKE,
                     admin_id, stamp, int(record["id"])),
                )
        return _change(record)

    async def reset_leaderboard(
        self: _StoreParts,
        guild_id: int,
        admin_id: int,
        stats: StatsChoice,
        reason: str,
        *,
        now: datetime | None = None,
    ) -> AdminChange:
        """Every player of the server back to the starting chips (one ledger row per changed
        balance); with ``stats="clear"`` their statistics and places are cleared too (the games
        and their results stay). Refused while a game of the server is being played
        (GamesRunning)."""
        _int(guild_id)
        _int(admin_id)
        if stats not in ("keep", "clear"):
            raise InvalidInput("stats must be keep or clear.")
        text = check_reason(reason)
        stamp = self._now(now)
        start = self.starting_chips
        async with self._write() as db:
            playing = await db.fetchall(
                "SELECT DISTINCT table_id FROM games WHERE guild_id = ? AND status = 'playing' "
                "ORDER BY table_id",
                (guild_id,),
            )
            if playing:
                raise GamesRunning([int(r[0]) for r in playing if r[0] is not None])
            players = await db.fetchall(
                "SELECT user_id, chips FROM players WHERE guild_id = ? ORDER BY user_id"
                + db.for_update,
                (guild_id,),
            )
            moves = [(int(u), start - int(c)) for u, c in players if int(c) != start]
            record = await db.one(
                _INSERT_ACTION,
                (guild_id, admin_id, None, "reset", start, sum(d for _, d in moves), None,
                 len(moves), stats, text, stamp),
            )
            if moves:
                await db.execute(
                    "UPDATE players SET chips = ? WHERE guild_id = ? AND chips <> ?",
                    (start, guild_id, start),
                )
                await db.executemany(
                    _INSERT_LEDGER,
                    [(guild_id, user, delta, LEDGER_GRANT if delta > 0 else LEDGER_TAKE,
                      admin_id, stamp, int(record["id"])) for user, delta in moves],
                )
            if stats == "clear":
                await db.execute("DELETE FROM player_places WHERE guild_id = ?", (guild_id,))
                await db.execute("DELETE FROM player_stats WHERE guild_id = ?", (guild_id,))
        return _change(record)

    async def admin_log(
        self: _StoreParts, guild_id: int, user_id: int | None = None, page: int = 1
    ) -> AdminLogPage:
        """The server's admin changes, newest first, 10 a page; with `user_id`, those that
        named that member (their grants, takes and sets)."""
        _int(guild_id)
        if isinstance(page, bool) or not isinstance(page, int) or page < 1:
            raise InvalidInput(f"page must be a whole number from 1, not {page!r}.")
        where, params = "guild_id = ?", [guild_id]
        if user_id is not None:
            where, params = where + " AND user_id = ?", [guild_id, _int(user_id)]
        async with self._read() as db:
            total = int((await db.one(f"SELECT COUNT(*) FROM admin_actions WHERE {where}",
                                      params))[0])
            rows = await db.fetchall(
                f"SELECT * FROM admin_actions WHERE {where} ORDER BY id DESC LIMIT ? OFFSET ?",
                (*params, LOG_PAGE_SIZE, (page - 1) * LOG_PAGE_SIZE),
            )
        pages = math.ceil(total / LOG_PAGE_SIZE)
        return AdminLogPage(tuple(_change(r) for r in rows), page, pages, total)

    # ------------------------------------------------------------------ where tables open

    async def get_table_channels(self: _StoreParts, guild_id: int) -> tuple[int, ...] | None:
        """The channels this server's tables may open in (and their threads); None: any."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT table_channels FROM guild_settings WHERE guild_id = ?", (guild_id,)
            )
        if row is None or row[0] is None:
            return None
        return tuple(int(c) for c in json.loads(row[0]))

    async def set_table_channels(
        self: _StoreParts, guild_id: int, channel_ids: Sequence[int] | None
    ) -> tuple[int, ...] | None:
        """Keep the server's tables to these channels (None or empty: every channel)."""
        _int(guild_id)
        ids: tuple[int, ...] | None = None
        if channel_ids:
            ids = tuple(dict.fromkeys(_int(c) for c in channel_ids))
            if len(ids) > MAX_TABLE_CHANNELS:
                raise InvalidInput(f"At most {MAX_TABLE_CHANNELS} channels, not {len(ids)}.")
        text = None if ids is None else json.dumps(list(ids))
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, table_channels) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET table_channels = excluded.table_channels",
                (guild_id, text),
            )
        return ids

    # ------------------------------------------------------------------ bot meta by prefix

    async def meta_with_prefix(self: _StoreParts, prefix: str) -> dict[str, str]:
        """Every fact the bot keeps about itself whose key starts with `prefix`."""
        async with self._read() as db:
            rows = await db.fetchall("SELECT key, value FROM bot_meta ORDER BY key")
        return {str(k): str(v) for k, v in rows if str(k).startswith(prefix)}
