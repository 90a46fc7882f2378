"""A player's past games and a finished game's results, read for `/tienlen history` and the
replay viewer. Read-only queries over the tables the store already keeps (games, results): no
new table, so nothing here for `data.check` or `data.migrate` to copy or verify.

:class:`HistoryQueries` is a mixin of :class:`data.store.Store` (it uses the store's read
transaction); the queries are written once for SQLite and PostgreSQL.
"""

from __future__ import annotations

import math
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from data.db import Conn
from data.models import ResultRow

__all__ = ["HISTORY_PAGE_SIZE", "HistoryEntry", "HistoryPage", "HistoryQueries"]

HISTORY_PAGE_SIZE = 10


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished game as one player saw it."""

    game_id: int
    table_id: int | None
    channel_id: int
    finished_at: datetime | None
    rules_json: str
    seat: int
    place: int
    seats: int
    chip_change: int
    #: RANKED: the player's rating change in this game. The ratings (branch `ranked`) are not
    #: stored yet; when they are, fill this from them and the history shows it (None: not shown).
    rating_change: float | None = None


@dataclass(frozen=True, slots=True)
class HistoryPage:
    user_id: int
    page: int
    pages: int
    total: int
    entries: tuple[HistoryEntry, ...]


class _Reads(Protocol):
    def _read(self) -> AbstractAsyncContextManager[Conn]: ...


def _time(text: Any) -> datetime | None:
    return None if text is None else datetime.fromisoformat(str(text))


class HistoryQueries:
    """The store's history queries (mixed into :class:`data.store.Store`)."""

    async def game_history(self: _Reads, guild_id: int, user_id: int,
                           page: int = 1) -> HistoryPage:
        """``user_id``'s finished games in ``guild_id``, newest first, 10 a page. A page past
        the last is empty (``pages`` says how many there are)."""
        if type(page) is not int or page < 1:
            raise ValueError("page must be a whole number from 1")
        where = ("FROM results r JOIN games g ON g.id = r.game_id "
                 "WHERE r.user_id = ? AND g.guild_id = ? AND g.status = 'finished'")
        offset = (page - 1) * HISTORY_PAGE_SIZE
        async with self._read() as db:
            total = int((await db.one(f"SELECT COUNT(*) {where}", (user_id, guild_id)))[0])
            rows = await db.fetchall(
                "SELECT g.id, g.table_id, g.channel_id, g.finished_at, g.rules_json, r.seat, "
                "r.place, r.chip_change, (SELECT COUNT(*) FROM results s "
                "WHERE s.game_id = g.id) "
                f"{where} ORDER BY g.finished_at DESC, g.id DESC LIMIT ? OFFSET ?",
                (user_id, guild_id, HISTORY_PAGE_SIZE, offset),
            )
        entries = tuple(
            HistoryEntry(
                game_id=int(r[0]), table_id=None if r[1] is None else int(r[1]),
                channel_id=int(r[2]), finished_at=_time(r[3]), rules_json=str(r[4]),
                seat=int(r[5]), place=int(r[6]), chip_change=int(r[7]), seats=int(r[8]),
            )
            for r in rows
        )
        pages = max(1, math.ceil(total / HISTORY_PAGE_SIZE))
        return HistoryPage(user_id, page, pages, total, entries)

    async def game_results(self: _Reads, game_id: int) -> tuple[ResultRow, ...]:
        """A settled game's results by seat (empty for a game that did not settle)."""
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT seat, user_id, place, chip_change FROM results WHERE game_id = ? "
                "ORDER BY seat",
                (game_id,),
            )
        return tuple(
            ResultRow(int(r[0]), None if r[1] is None else int(r[1]), int(r[2]), int(r[3]))
            for r in rows
        )

