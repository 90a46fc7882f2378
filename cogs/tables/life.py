"""A table's life between games: the ready check of `Play again`, tables that close themselves
when nobody presses anything, and who hosts when the host goes.

A mixin of :class:`cogs.tables.service.TableService` (like :mod:`cogs.tables.scheduling`): its
timers are armed after every save of a table (:meth:`TableLife._arm_life`) from what the table
record holds (``last_press``, ``ready_deadline``), so a restart re-arms the same deadlines.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from data.models import Seat

from .errors import TableError, TooFewSeats
from .live import CloseReason, LiveTable, TablePhase

log = logging.getLogger("cogs.tables")

__all__ = ["MIN_SEATS", "TableLife", "next_host"]

MIN_SEATS = 2


def next_host(host_id: int, seats: Sequence[Seat]) -> int | None:
    """Who hosts once the seats are ``seats``: the host if still seated, else the person seated
    longest (seats are kept in the order people sat down); None when no person is seated."""
    people = [s.user_id for s in seats if s.user_id is not None]
    if host_id in people:
        return host_id
    return people[0] if people else None


class TableLife:
    """The ready check and the idle timer of the live tables (see the module docstring)."""

    tables: dict[int, LiveTable]
    wall_clock: Callable[[], float]
    ready_seconds: int

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        raise NotImplementedError

    async def _close(self, live: LiveTable, why: CloseReason) -> None:
        raise NotImplementedError

    async def _save_seats(self, live: LiveTable, seats: list[Seat], **fields: Any) -> None:
        raise NotImplementedError

    async def _save_table(self, live: LiveTable, **fields: Any) -> None:
        raise NotImplementedError

    async def _deal(self, live: LiveTable) -> None:
        raise NotImplementedError

    async def _check_chips(self, live: LiveTable, seats: Sequence[Seat]) -> None:
        raise NotImplementedError

    def request_board(self, live: LiveTable) -> None:
        raise NotImplementedError

    # ----------------------------------------------------------------- presses
    def touch(self, live: LiveTable) -> None:
        """Someone pressed a button of the table: its idle time starts again (saved with the
        table's next change; until then a restart counts from the last saved press)."""
        live.last_press = self.wall_clock()
        self._arm_life(live)

    # ----------------------------------------------------------------- timers
    @staticmethod
    def _stop(live: LiveTable, name: str) -> None:
        task: asyncio.Task[None] | None = getattr(live, name)
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()
        setattr(live, name, None)

    def _stop_life(self, live: LiveTable) -> None:
        self._stop(live, "idle_task")
        self._stop(live, "ready_task")

    def _arm_life(self, live: LiveTable) -> None:
        """(Re)arm the idle timer and the ready check's timer of a lobby or finished table; a
        running game or a closed table has neither."""
        self._stop_life(live)
        if live.table.status != "open" or live.phase is TablePhase.PLAYING:
            return
        now = self.wall_clock()
        if live.idle_seconds > 0:
            since = live.last_press
            wait = max(0.0, since + live.idle_seconds - now)
            live.idle_task = self._spawn(self._idle(live, since, wait), f"idle-{live.id}")
        if live.ready_deadline is not None:
            deadline = live.ready_deadline
            live.ready_task = self._spawn(
                self._ready_timeout(live, deadline, max(0.0, deadline - now)), f"ready-{live.id}")

    async def _idle(self, live: LiveTable, since: float, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with live.lock:
            if (live.table.status != "open" or live.phase is TablePhase.PLAYING
                    or live.last_press != since):
                return
            live.idle_task = None
            log.info("table %s: no press for %s s", live.id, live.idle_seconds,
                     extra=live.log_extra)
            await self._close(live, CloseReason.IDLE)

    async def _ready_timeout(self, live: LiveTable, deadline: float, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with live.lock:
            if (live.table.status != "open" or live.phase is TablePhase.PLAYING
                    or live.ready_deadline != deadline):
                return
            live.ready_task = None
            try:
                if len(self._ready_seats(live)) < MIN_SEATS:
                    raise TooFewSeats(MIN_SEATS)
                await self._deal_ready(live)
            except TableError as error:
                log.info("table %s: the ready check ended without a deal (%s)", live.id,
                         type(error).__name__, extra=live.log_extra)
                live.ready, live.ready_deadline = [], None
                await self._save_table(live)
                self.request_board(live)

    # ----------------------------------------------------------------- the ready check
    @staticmethod
    def _ready_seats(live: LiveTable, also: int | None = None) -> list[Seat]:
        """The seats that play the next deal: computers, people marked ready (and ``also``)."""
        ready = {*live.ready, *(() if also is None else (also,))}
        return [s for s in live.seats if s.user_id is None or s.user_id in ready]

    @staticmethod
    def _all_ready(live: LiveTable) -> bool:
        people = [s.user_id for s in live.seats if s.user_id is not None]
        return bool(people) and all(p in live.ready for p in people)

    async def _deal_ready(self, live: LiveTable, also: int | None = None) -> None:
        """Unseat the people not ready (nothing charged), then deal to the others. Nothing
        changes when the deal would be refused (too few seats, someone short of chips)."""
        keep = self._ready_seats(live, also)
        if len(keep) < MIN_SEATS:
            raise TooFewSeats(MIN_SEATS)
        await self._check_chips(live, keep)
        if len(keep) != len(live.seats):
            host = next_host(live.table.host_id, keep)
            gone = [s.user_id for s in live.seats if s not in keep]
            log.info("table %s: %d not ready, unseated", live.id, len(gone), extra=live.log_extra)
            await self._save_seats(live, keep, host_id=host)
        await self._deal(live)
