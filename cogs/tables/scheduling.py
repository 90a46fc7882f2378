"""Scheduling for live tables: the turn clock, computer turns and chops, board refreshes.

A mixin of :class:`cogs.tables.service.TableService`: everything here runs as background tasks
that take the table's lock, act through the engine and save through the service's `_commit`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from data import Store
from engine import (
    Card,
    Event,
    Exchanged,
    Game,
    Level,
    Passed,
    Phase,
    Played,
    ai,
    parse_cards,
)
from engine.clock import timed_out

from .budget import RestBudget, Staleness
from .live import CloseReason, LiveTable, TableClosedResults, TablePhase

log = logging.getLogger("cogs.tables")

__all__ = ["BOARD_MAX_AGE", "MAX_TIMEOUTS", "BoardUnavailable", "Publisher", "acted"]

BOARD_MAX_AGE = timedelta(minutes=50)
MAX_TIMEOUTS = 2


BOARD_RETRY_FIRST = 2.0  # seconds before the first retry of a board that failed to show
BOARD_RETRY_MAX = 30.0  # … doubling up to this


class BoardUnavailable(Exception):
    """Raised by a publisher when the board cannot be shown in its channel at all (Discord
    answered 403 or 404 for the channel: permission removed, channel deleted). The table is closed
    without charging anyone and its host is told."""

    def __init__(self, status: int, code: int) -> None:
        super().__init__(f"board unavailable: HTTP {status}, code {code}")
        self.status = status
        self.code = code


class Publisher(Protocol):
    """What the Discord side provides: put the board of a table on screen, refresh the people's
    hands, remind a person that it is their turn, and tell a table's host privately that the
    table closed because its board cannot be shown."""

    async def publish_board(self, live: LiveTable) -> None: ...

    def table_changed(self, live: LiveTable) -> None:
        """Something at the table changed (called after every change, under the table's lock:
        schedule the work, do not wait for it)."""

    async def remind_turn(self, live: LiveTable, seat: int, seconds_left: int) -> None:
        """The person in ``seat`` has been on turn for the table's ``turn_reminder`` seconds."""

    async def board_lost(self, live: LiveTable, error: BoardUnavailable) -> None: ...


def acted(event: Event, seat: int) -> bool:
    """Whether ``event`` is an action of ``seat`` (a play, a pass, cards given back)."""
    match event:
        case Played(seat=who) | Passed(seat=who):
            return who == seat
        case Exchanged(giver=giver, returned=True):
            return giver == seat
        case _:
            return False


def _log_task(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)


def _level(live: LiveTable, seat: int) -> Level:
    """The level of a computer seat; a person's seat held by the computer plays `normal`."""
    name = live.seats[seat].bot
    return Level(name) if name in set(Level) else Level.NORMAL


def _levels(live: LiveTable, n: int) -> tuple[str | None, ...]:
    """Per seat of the game, the level of a computer seat (public: the table shows it), None
    for a person's (even one the computer holds now: their earlier plays were their own)."""
    seats = live.seats
    return tuple(name if s < len(seats) and (name := seats[s].bot) in set(Level) else None
                 for s in range(n))


class Scheduling:
    """Timers and computer players of the live tables (see the module docstring)."""

    store: Store
    publisher: Publisher
    rest: RestBudget
    staleness: Staleness
    board_retry_first: float = BOARD_RETRY_FIRST
    ai_delay: float
    expert_budget_ms: int | None
    board_interval: float
    executor: Executor | None
    wall_clock: Callable[[], float]
    tables: dict[int, LiveTable]
    _rng: random.Random

    async def _commit(self, live: LiveTable) -> None:
        raise NotImplementedError

    async def shutdown(self) -> None:
        """Cancel every timer, computer turn and pending board edit (state is in the store)."""
        tasks = []
        for live in self.tables.values():
            for task in (live.clock_task, live.ai_task, live.chop_task, live.board_task,
                         live.remind_task, live.idle_task, live.ready_task):
                if task is not None and not task.done():
                    task.cancel()
                    tasks.append(task)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
        self.rest.close()

    def _cancel_tasks(self, live: LiveTable) -> None:
        for name in ("clock_task", "ai_task", "chop_task", "remind_task"):
            task: asyncio.Task[None] | None = getattr(live, name)
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()
            setattr(live, name, None)

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        task.add_done_callback(_log_task)
        return task

    def _arm_deadline(self, live: LiveTable) -> None:
        """Set the turn deadline of the seat to act, once per game state (called before saving,
        so a restart re-arms the same deadline; pressing My hand does not extend anyone's turn)."""
        game = live.game
        if live.phase is not TablePhase.PLAYING or game is None or game.is_over:
            live.deadline = None
            return
        actor = game.actor
        if actor is None or live.controlled_by_computer(actor):
            live.deadline = None
            return
        if live.deadline is None or live.deadline_version != game.version:
            live.deadline = self.wall_clock() + live.table.turn_seconds
            live.deadline_version = game.version

    def _after_change(self, live: LiveTable) -> None:
        live.changes += 1
        self.request_board(live)
        self.publisher.table_changed(live)
        game = live.game
        if live.phase is not TablePhase.PLAYING or game is None or game.is_over:
            self._cancel_tasks(live)
            return
        self._offer_chops(live)
        actor = game.actor
        if actor is None:
            return
        if live.controlled_by_computer(actor):
            if live.ai_task is None or live.ai_task.done():
                live.ai_task = self._spawn(self._computer_turn(live), f"ai-{live.id}")
            if live.clock_task is not None:
                live.clock_task.cancel()
                live.clock_task = None
            return
        self._arm_deadline(live)
        assert live.deadline is not None
        if live.clock_task is not None and not live.clock_task.done():
            live.clock_task.cancel()
        remaining = max(0.0, live.deadline - self.wall_clock())
        live.clock_task = self._spawn(
            self._clock(live, game.version, remaining), f"clock-{live.id}"
        )
        self._arm_reminder(live, actor)

    def _arm_reminder(self, live: LiveTable, seat: int) -> None:
        """Remind the person on turn after the table's ``turn_reminder`` seconds (0: never; by
        default half the turn), once per turn; the Discord side edits the reminder to a
        past-tense line when the table changes (a posted reminder is never deleted)."""
        game = live.game
        assert game is not None and live.deadline is not None
        if live.remind_task is not None and not live.remind_task.done():
            live.remind_task.cancel()
        live.remind_task = None
        every = live.reminder_after
        if every <= 0 or every >= live.table.turn_seconds:
            return
        started = live.deadline - live.table.turn_seconds
        wait = max(0.0, started + every - self.wall_clock())
        live.remind_task = self._spawn(
            self._remind(live, seat, game.version, wait), f"remind-{live.id}"
        )

    async def _remind(self, live: LiveTable, seat: int, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        game = live.game
        if (game is None or game.version != version or not live.playing or game.actor != seat
                or live.controlled_by_computer(seat) or live.deadline is None):
            return
        standing = live.reminder
        if standing is not None and standing.version == version:
            return  # reminded already (before a restart)
        live.remind_task = None
        left = max(0, round(live.deadline - self.wall_clock()))
        await self.publisher.remind_turn(live, seat, left)

    def _offer_chops(self, live: LiveTable) -> None:
        """Computer seats may chop out of turn when the rules allow it right now."""
        game = live.game
        assert game is not None
        if live.chop_task is not None and not live.chop_task.done():
            live.chop_task.cancel()
        live.chop_task = None
        if game.phase is not Phase.PLAY or not any(
            seat != game.current and live.controlled_by_computer(seat)
            for seat in game.has_out_of_turn_chop()
        ):
            return
        live.chop_task = self._spawn(self._computer_chop(live, game.version), f"chop-{live.id}")

    async def _computer_chop(self, live: LiveTable, version: int) -> None:
        await asyncio.sleep(self.ai_delay)
        async with live.lock:
            game = live.game
            if game is None or game.version != version or live.phase is not TablePhase.PLAYING:
                return
            for seat in game.has_out_of_turn_chop():
                if seat == game.current or not live.controlled_by_computer(seat):
                    continue
                level = _level(live, seat)
                # A quick decision (no search) under the lock; the chop window is short anyway.
                cards = self._decide_now(game, seat, Level.HARD if level is Level.EXPERT else level)
                if cards:
                    game.play(seat, cards)
                    live.chop_task = None
                    log.info("table %s: seat %d chopped out of turn", live.id, seat,
                             extra=live.log_extra)
                    await self._commit(live)
                    return

    async def _clock(self, live: LiveTable, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with live.lock:
            game = live.game
            if game is None or game.version != version or game.is_over or not live.playing:
                return
            seat = game.actor
            if seat is None:
                return
            live.clock_task = None
            live.afk[seat] += 1
            before = len(game.events)
            if game.phase is Phase.EXCHANGE:
                game.return_cards(seat, ai.choose_returns(game, seat, Level.NORMAL))
            else:
                timed_out(game, seat)
            live.clock_events.extend(  # the clock's action, not the person's: said so
                i for i in range(before, len(game.events)) if acted(game.events[i], seat))
            if live.afk[seat] >= MAX_TIMEOUTS:
                live.auto[seat] = True
            log.info("table %s: turn clock expired for seat %d", live.id, seat,
                     extra=live.log_extra)
            await self._commit(live)

    async def _computer_turn(self, live: LiveTable) -> None:
        while True:
            await asyncio.sleep(self.ai_delay)
            async with live.lock:
                game = live.game
                if game is None or game.is_over or live.phase is not TablePhase.PLAYING:
                    return
                seat = game.actor
                if seat is None or not live.controlled_by_computer(seat):
                    return
                level = _level(live, seat)
                version = game.version
                snapshot = game.to_json() if self._searches(level) else None
                levels = _levels(live, game.seat_count)
                cards = None if snapshot else self._decide_now(game, seat, level, levels)
            if snapshot is not None:  # a search: off the event loop and outside the lock
                cards = await self._decide_far(snapshot, seat, level, levels)
            async with live.lock:
                game = live.game
                if (game is None or game.version != version or game.is_over
                        or not live.playing or not live.controlled_by_computer(seat)):
                    continue
                if game.phase is Phase.EXCHANGE:
                    game.return_cards(seat, ai.choose_returns(game, seat, level))
                elif cards is None:
                    game.pass_turn(seat)
                else:
                    game.play(seat, cards)
                live.ai_task = None
                await self._commit(live)
                return

    def _searches(self, level: Level) -> bool:
        return level is Level.EXPERT and self.executor is not None

    def _decide_now(self, game: Game, seat: int, level: Level,
                    levels: tuple[str | None, ...] | None = None) -> list[Card] | None:
        if game.phase is Phase.EXCHANGE:
            return None
        return ai.decide(game, seat, level, seed=self._rng.randrange(2**31),
                         budget_ms=self.expert_budget_ms, levels=levels)

    async def _decide_far(self, snapshot: str, seat: int, level: Level,
                          levels: tuple[str | None, ...] | None = None) -> list[Card] | None:
        if Game.from_json(snapshot).phase is Phase.EXCHANGE:
            return None
        loop = asyncio.get_running_loop()
        tokens = await loop.run_in_executor(
            self.executor, ai.decide_json, snapshot, seat, level, self._rng.randrange(2**31),
            self.expert_budget_ms, levels,
        )
        return None if tokens is None else parse_cards(" ".join(tokens))

    # ----------------------------------------------------------------- board
    def request_board(self, live: LiveTable) -> None:
        """Ask for a board refresh; edits are coalesced to at most one per `board_interval` and
        wait for a slot of the bot's REST budget."""
        if live.board_pending_since is None:
            live.board_pending_since = asyncio.get_running_loop().time()
        if live.board_task is None or live.board_task.done():
            live.board_task = self._spawn(self._board_later(live), f"board-{live.id}")

    def board_urgent(self, live: LiveTable) -> bool:
        """A person is waiting for this board: in the lobby, after a game, or on their turn."""
        game = live.game
        if live.phase is not TablePhase.PLAYING or game is None or game.is_over:
            return live.table.status == "open"
        actor = game.actor
        return actor is not None and not live.controlled_by_computer(actor)

    async def _board_later(self, live: LiveTable) -> None:
        loop = asyncio.get_running_loop()
        failures = 0
        # Loop: changes made while an edit waits or is in flight are not lost, and a failed
        # edit is retried (with growing pauses) until the board shows the latest change.
        while True:
            wait = live.last_board_edit + self.board_interval - loop.time()
            if wait > 0 and self.board_interval > 0:
                await asyncio.sleep(wait)
            if live.board_rendered == live.changes:
                return
            await self.rest.acquire(live.table.channel_id, urgent=self.board_urgent(live))
            if live.board_rendered == live.changes:  # an interaction answer showed it meanwhile
                return
            live.last_board_edit = rendered_at = loop.time()
            live.board_rendered = drawn = live.changes
            try:
                await self.publisher.publish_board(live)
            except BoardUnavailable as error:
                await self._board_lost(live, error)
                return
            except Exception as error:  # the game itself is safe in the store: try again
                failures += 1
                live.board_rendered = -1
                pause = min(BOARD_RETRY_MAX, self.board_retry_first * 2.0 ** (failures - 1))
                log.warning("table %s: board update failed (%s); retrying in %.0f s",
                            live.id, type(error).__name__, pause, extra=live.log_extra)
                await asyncio.sleep(pause)
            else:
                failures = 0
                live.reactions_upto = max(live.reactions_upto, drawn)
                self._board_shown(live, rendered_at)

    async def _board_lost(self, live: LiveTable, error: BoardUnavailable) -> None:
        """The board cannot be shown: close the table (an unfinished game moves no chips), free
        the channel, tell the host."""
        async with live.lock:
            self._cancel_tasks(live)
            if live.table.status == "open":
                live.table = await self.store.close_table(live.id)
                live.results = TableClosedResults(CloseReason.BOARD_LOST)
                live.changes += 1
            self.tables.pop(live.id, None)
            live.board_rendered = live.changes  # nothing more to show there
        log.warning("table %s closed: its board cannot be shown (HTTP %s, code %s)",
                    live.id, error.status, error.code, extra=live.log_extra)
        try:
            await self.publisher.board_lost(live, error)
        except Exception as failure:
            log.warning("table %s: telling the host failed (%s)", live.id,
                        type(failure).__name__, extra=live.log_extra)

    def mark_board_shown(self, live: LiveTable, changes: int | None = None) -> None:
        """The board was just shown by an interaction response (type 7), drawn when the table's
        change counter was ``changes`` (default: now). A change made while that answer was drawn
        or sent (a computer's move) is not on it: the board is refreshed again for it."""
        shown = live.changes if changes is None else changes
        live.board_rendered = shown
        live.reactions_upto = shown
        now = asyncio.get_running_loop().time()
        live.last_board_edit = now
        self._board_shown(live, now)
        if shown != live.changes:
            self.request_board(live)

    def _board_shown(self, live: LiveTable, rendered_at: float) -> None:
        """Count how long the board lagged; changes made after it was drawn are still pending
        (counted from the moment it was drawn)."""
        now = asyncio.get_running_loop().time()
        self.staleness.add(now - (live.board_pending_since or now))
        live.board_pending_since = None if live.board_rendered == live.changes else rendered_at

    def board_needs_repost(self, live: LiveTable) -> bool:
        posted = live.table.board_posted_at
        if live.table.board_message_id is None or posted is None:
            return True
        now = datetime.fromtimestamp(self.wall_clock(), UTC)
        return now - posted > BOARD_MAX_AGE
