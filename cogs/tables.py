"""Live tables: the application layer between Discord callbacks and the engine and store.

Not part of an extension, so reloading the cogs never duplicates its classes.

No Discord types here. Every action takes the table's lock, checks who acts, calls the engine,
saves to the store (optimistic versions), then schedules what follows: a board refresh (coalesced
to at most one edit per second), the turn clock, computer players, settlement.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import Executor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from cogs import selection as sel
from data import Store
from data.errors import StaleVersion, StoreError, TableExists
from data.models import GameRecord, Seat, SeatResult, TableRecord
from engine import Card, ComboKind, Game, Rules, TienLenError, classify
from engine.errors import NotYourTurn
from engine.settle import bombs_played, settle

log = logging.getLogger("cogs.tienlen")

AI_LEVELS = ("easy", "normal", "hard", "expert")
LOBBY_LEVELS = AI_LEVELS  # PRODUCT.md names easy, normal, hard; expert is the strongest extra
BOARD_MAX_AGE = timedelta(minutes=50)
MAX_TIMEOUTS = 2


class TableError(Exception):
    """A refusal a player can read; nothing changed."""


class ShortOfChips(TableError):
    """A game cannot start: these seated people hold less than one stake (user id -> chips)."""

    def __init__(self, message: str, short: dict[int, int], stake: int) -> None:
        super().__init__(message)
        self.short = short
        self.stake = stake


class Publisher(Protocol):
    """What the Discord side provides: put the board of a table on screen."""

    async def publish_board(self, live: Live) -> None: ...


@dataclass
class Live:
    """A table held in memory, mirrored in the store after every change."""

    table: TableRecord
    phase: str = "lobby"  # lobby | playing | finished
    max_seats: int = 4
    results: list[str] = field(default_factory=list)
    game: Game | None = None
    game_id: int | None = None
    game_version: int = 0
    previous_game_json: str | None = None
    previous_seats: list[dict[str, Any]] | None = None
    afk: list[int] = field(default_factory=list)
    auto: list[bool] = field(default_factory=list)
    deadline: float | None = None
    deadline_version: int = -1  # the game version the deadline was armed for
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changes: int = 0
    board_rendered: int = -1
    last_board_edit: float = 0.0
    clock_task: asyncio.Task[None] | None = None
    ai_task: asyncio.Task[None] | None = None
    chop_task: asyncio.Task[None] | None = None
    board_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> int:
        return self.table.id

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.table.seats

    @property
    def rules(self) -> Rules:
        return Rules.model_validate_json(self.table.rules_json)

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    def controlled_by_computer(self, seat: int) -> bool:
        if self.seats[seat].bot is not None:
            return True
        return bool(self.auto and self.auto[seat])

    def extras_json(self) -> str:
        return json.dumps(
            {
                "phase": self.phase,
                "max_seats": self.max_seats,
                "results": self.results,
                "previous_game_json": self.previous_game_json,
                "previous_seats": self.previous_seats,
            }
        )

    def game_state_json(self) -> str:
        assert self.game is not None
        return json.dumps(
            {
                "engine": self.game.to_json(),
                "afk": self.afk,
                "auto": self.auto,
                "deadline": self.deadline,
                "deadline_version": self.deadline_version,
            }
        )


def _seat_json(seat: Seat) -> dict[str, Any]:
    return seat.to_json()


def _log_task(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:
        log.error("background task %s failed", task.get_name(), exc_info=error)


AiDecider = Callable[[Game, int, str], Awaitable[list[Card] | None]]


class TableService:
    """Owns every live table of one bot process."""

    def __init__(
        self,
        store: Store,
        publisher: Publisher,
        *,
        default_turn_seconds: int = 60,
        ai_delay: float = 1.0,
        board_interval: float = 1.0,
        executor: Executor | None = None,
        wall_clock: Callable[[], float] = time.time,
        seed: int | None = None,
    ) -> None:
        self.store = store
        self.publisher = publisher
        self.default_turn_seconds = default_turn_seconds
        self.ai_delay = ai_delay
        self.board_interval = board_interval
        self.executor = executor
        self.wall_clock = wall_clock
        self.tables: dict[int, Live] = {}
        self._rng = random.Random(seed)  # deals and computer choices; tests inject a seed

    async def shutdown(self) -> None:
        """Cancel every timer, computer turn and pending board edit (state is in the store)."""
        tasks = []
        for live in self.tables.values():
            for task in (live.clock_task, live.ai_task, live.chop_task, live.board_task):
                if task is not None and not task.done():
                    task.cancel()
                    tasks.append(task)
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)

    # ----------------------------------------------------------------- loading
    def _live_from_record(self, record: TableRecord) -> Live:
        live = Live(table=record)
        if record.state_json:
            extras = json.loads(record.state_json)
            live.phase = extras.get("phase", "lobby")
            live.max_seats = int(extras.get("max_seats", 4))
            live.results = list(extras.get("results", []))
            live.previous_game_json = extras.get("previous_game_json")
            live.previous_seats = extras.get("previous_seats")
        return live

    def _attach_game(self, live: Live, record: GameRecord) -> None:
        live.game_id = record.id
        live.game_version = record.version
        state = json.loads(record.state_json or "{}")
        live.game = Game.from_json(state["engine"])
        n = len(live.seats)
        live.afk = list(state.get("afk") or [0] * n)
        live.auto = list(state.get("auto") or [False] * n)
        live.deadline = state.get("deadline")
        live.deadline_version = int(state.get("deadline_version", -1))

    async def load_all(self) -> int:
        """After a (re)start: load every open table and its game, re-arm clocks and computers."""
        for record in await self.store.list_open_tables():
            live = self._live_from_record(record)
            if record.current_game_id is not None:
                game = await self.store.get_game(record.current_game_id)
                if game.state_json and game.status in ("playing", "finished"):
                    self._attach_game(live, game)
                    assert live.game is not None
                    if live.game.is_over and live.phase != "finished":
                        # Stopped between the last move and the end of settlement: finish now
                        # (settling twice is a no-op that returns the first result).
                        await self._finish(live)
                    elif game.status == "playing":
                        live.phase = "playing"
            self.tables[live.id] = live
            live.changes += 1
            self._after_change(live)
        return len(self.tables)

    async def get(self, table_id: int) -> Live:
        live = self.tables.get(table_id)
        if live is None:
            try:
                record = await self.store.get_table(table_id)
            except StoreError:
                raise TableError("This table no longer exists.") from None
            if record.status != "open":
                raise TableError("This table is closed.")
            live = self._live_from_record(record)
            self.tables[table_id] = live
        if live.table.status != "open":
            raise TableError("This table is closed.")
        return live

    async def table_in_channel(self, channel_id: int) -> Live | None:
        record = await self.store.get_open_table_for_channel(channel_id)
        return None if record is None else await self.get(record.id)

    # ----------------------------------------------------------------- lobby
    async def open_table(
        self,
        *,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        rules: Rules,
        stake: int,
        seats: int,
        turn_seconds: int | None,
    ) -> Live:
        if stake < 1:
            raise TableError("The stake must be at least 1 chip.")
        if not 2 <= seats <= 8:
            raise TableError("A table has 2 to 8 seats.")
        turn = turn_seconds or self.default_turn_seconds
        chips = await self.store.ensure_player(guild_id, host_id)
        if chips < stake:
            raise TableError(
                f"You hold {chips} chips, less than the stake of {stake}. Try `/daily`."
            )
        try:
            table_id = await self.store.create_table(
                guild_id,
                channel_id,
                host_id,
                rules.model_dump_json(),
                stake,
                turn,
                [Seat(name=host_name, user_id=host_id)],
            )
        except TableExists as error:
            raise TableError(
                f"This channel already has a table (#{error.table_id}): use its buttons, "
                "or `/tienlen stop` it first."
            ) from None
        live = self._live_from_record(await self.store.get_table(table_id))
        live.max_seats = seats
        await self._save_table(live)
        self.tables[table_id] = live
        log.info("table %s opened in channel %s", table_id, channel_id)
        return live

    async def _save_seats(self, live: Live, seats: list[Seat], **fields: Any) -> None:
        live.phase = "lobby"  # a finished game's board belongs to its seats: back to the lobby
        await self._save_table(live, seats=[_seat_json(s) for s in seats], **fields)

    async def _save_table(self, live: Live, **fields: Any) -> None:
        fields.setdefault("state_json", live.extras_json())
        await self.store.update_table(live.id, live.table.version, **fields)
        live.table = await self.store.get_table(live.id)
        live.changes += 1

    def _require_lobby(self, live: Live) -> None:
        """Seats change only between games; after a finished game the table returns to its lobby
        (the last results stay on the board), since the finished board belongs to the old seats."""
        if live.phase == "playing":
            raise TableError("A game is in progress at this table.")

    async def join(self, live: Live, user_id: int, name: str) -> None:
        async with live.lock:
            self._require_lobby(live)
            if live.seat_of(user_id) is not None:
                raise TableError("You are already seated at this table.")
            if len(live.seats) >= live.max_seats:
                raise TableError("This table is full.")
            chips = await self.store.ensure_player(live.table.guild_id, user_id)
            if chips < live.table.stake:
                raise TableError(
                    f"You hold {chips} chips, less than the stake of {live.table.stake}. "
                    "Try `/daily`."
                )
            seats = [*live.seats, Seat(name=name, user_id=user_id)]
            await self._save_seats(live, seats)

    async def leave(self, live: Live, user_id: int) -> bool:
        """Leave the table; returns True when the table closed (nobody left)."""
        async with live.lock:
            self._require_lobby(live)
            seat = live.seat_of(user_id)
            if seat is None:
                raise TableError("You are not seated at this table.")
            seats = [s for i, s in enumerate(live.seats) if i != seat]
            if not any(s.is_human for s in seats):
                await self._close(live, "everyone left")
                return True
            host = live.table.host_id
            if host == user_id:
                host = next(s.user_id for s in seats if s.user_id is not None)
            await self._save_seats(live, seats, host_id=host)
            return False

    async def add_computer(self, live: Live, user_id: int, level: str) -> None:
        async with live.lock:
            self._require_lobby(live)
            if live.seat_of(user_id) is None:
                raise TableError("Only seated players can add computer players.")
            if level not in AI_LEVELS:
                raise TableError(f"Unknown level {level!r}: choose {', '.join(LOBBY_LEVELS)}.")
            if len(live.seats) >= live.max_seats:
                raise TableError("This table is full.")
            taken = {s.name for s in live.seats}
            number = 1
            while f"Computer {number} ({level})" in taken:
                number += 1
            seats = [*live.seats, Seat(name=f"Computer {number} ({level})", bot=level)]
            await self._save_seats(live, seats)

    async def cancel(self, live: Live, user_id: int, *, can_manage: bool = False) -> None:
        async with live.lock:
            if user_id != live.table.host_id and not can_manage:
                raise TableError("Only the host (or a member with Manage Server) can do that.")
            await self._close(live, "cancelled")

    stop = cancel

    async def _close(self, live: Live, why: str) -> None:
        self._cancel_tasks(live)
        await self.store.close_table(live.id)
        live.table = await self.store.get_table(live.id)
        live.results = [f"Table closed ({why}). No chips moved for an unfinished game."]
        live.changes += 1
        self.tables.pop(live.id, None)
        log.info("table %s closed (%s)", live.id, why)
        self.request_board(live)

    # ----------------------------------------------------------------- games
    async def start(self, live: Live, user_id: int) -> None:
        async with live.lock:
            if live.phase == "playing":
                raise TableError("A game is already in progress.")
            if user_id != live.table.host_id:
                raise TableError("Only the host can start the game.")
            await self._deal(live, again=False)

    async def play_again(self, live: Live, user_id: int) -> None:
        async with live.lock:
            if live.phase != "finished":
                raise TableError("The game is not over yet.")
            if live.seat_of(user_id) is None:
                raise TableError("You are not seated at this table.")
            await self._deal(live, again=True)

    async def leave_after_game(self, live: Live, user_id: int) -> bool:
        return await self.leave(live, user_id)

    async def _deal(self, live: Live, *, again: bool) -> None:
        seats = list(live.seats)
        if len(seats) < 2:
            raise TableError("At least two seats must be filled to start.")
        rules = live.rules
        stake = live.table.stake
        short: dict[int, int] = {}
        for seat in seats:
            if seat.user_id is None:
                continue
            chips = await self.store.ensure_player(live.table.guild_id, seat.user_id)
            if chips < stake:
                short[seat.user_id] = chips
        if short:
            names = ", ".join(f"<@{user}>" for user in short)
            raise ShortOfChips(
                f"The table waits: {names} {'holds' if len(short) == 1 else 'hold'} less than the "
                f"stake of {stake} chips (`/daily`, or leave the table).",
                short,
                stake,
            )
        seed = self._rng.randrange(2**63)
        ids = [str(s.user_id) if s.user_id is not None else f"cpu:{i}" for i, s in enumerate(seats)]
        same_players = again and live.previous_seats == [_seat_json(s) for s in seats]
        if same_players and live.previous_game_json is not None:
            previous = Game.from_json(live.previous_game_json)
            game = Game.next(previous, seed=seed)
        else:
            game = Game.new(rules, ids, seed=seed)
        saved = (live.game, live.game_id, live.game_version, live.afk, live.auto,
                 live.deadline, live.phase, live.results)
        live.game = game
        live.afk = [0] * len(seats)
        live.auto = [False] * len(seats)
        live.deadline = None
        live.phase = "playing"
        live.results = []
        self._arm_deadline(live)
        try:
            record = await self.store.start_game(
                live.table.guild_id,
                live.table.channel_id,
                live.table.host_id,
                rules.model_dump_json(),
                stake,
                [_seat_json(s) for s in seats],
                live.game_state_json(),
                table_id=live.id,
            )
        except StoreError as error:
            (live.game, live.game_id, live.game_version, live.afk, live.auto,
             live.deadline, live.phase, live.results) = saved
            raise TableError(str(error)) from None
        live.game_id = record.id
        live.game_version = record.version
        await self._save_table(live, current_game_id=record.id)
        log.info("table %s game %s started with %d seats", live.id, record.id, len(seats))
        if game.is_over:  # an instant win
            await self._finish_safely(live)
        self._after_change(live)

    def _seat_for_action(self, live: Live, user_id: int) -> int:
        seat = live.seat_of(user_id)
        if seat is None:
            raise TableError("You are not seated at this table.")
        if live.phase != "playing" or live.game is None:
            raise TableError("No game is in progress at this table.")
        return seat

    def _who(self, live: Live, seat: int | None) -> str:
        if seat is None:
            return "nobody"
        s = live.seats[seat]
        return f"<@{s.user_id}>" if s.user_id is not None else s.name

    def explain(self, live: Live, error: TienLenError) -> str:
        text = str(error)
        if isinstance(error, NotYourTurn) and live.game is not None:
            current = live.game.current
            text = f"It is not your turn — waiting for {self._who(live, current)}."
        return text

    async def act(
        self, live: Live, user_id: int, version: int, op: str, cards: list[Card] | None = None
    ) -> str:
        """Play (`op="play"`) or pass for a human seat; returns a line for the player."""
        async with live.lock:
            seat = self._seat_for_action(live, user_id)
            game = live.game
            assert game is not None
            if version != game.version:
                raise TableError("This hand is out of date — press My hand.")
            try:
                if op == "play":
                    assert cards is not None
                    if game.phase == "exchange":
                        game.return_cards(seat, cards)
                        line = "You gave back " + " ".join(map(str, cards)) + "."
                    else:
                        game.play(seat, cards)
                        line = "You played " + " ".join(map(str, cards)) + "."
                else:
                    game.pass_turn(seat)
                    line = "You passed."
            except TienLenError as error:
                raise TableError(self.explain(live, error)) from None
            live.afk[seat] = 0
            await self._commit(live)
            return line

    async def reclaim(self, live: Live, user_id: int) -> None:
        """`My hand`: a seat held by the computer after timeouts returns to its owner."""
        seat = live.seat_of(user_id)
        if seat is None or live.phase != "playing" or not live.auto or not live.auto[seat]:
            return
        async with live.lock:
            live.auto[seat] = False
            live.afk[seat] = 0
            await self._commit(live)

    async def _commit(self, live: Live) -> None:
        """Save the game after an action; on a stale or failed write, reload from the store."""
        assert live.game_id is not None
        assert live.game is not None
        self._arm_deadline(live)
        try:
            live.game_version = await self.store.save_game(
                live.game_id, live.game_state_json(), live.game_version
            )
        except (StaleVersion, StoreError):
            record = await self.store.get_game(live.game_id)
            self._attach_game(live, record)
            raise TableError("The table changed at the same moment; nothing was played.") from None
        if live.game.is_over:
            await self._finish_safely(live)
        self._after_change(live)

    async def _finish_safely(self, live: Live) -> None:
        """Settle; if that fails the game stays saved as over and is settled at the next start."""
        try:
            await self._finish(live)
        except Exception:
            log.exception("table %s: settling game %s failed; it is retried at start-up",
                          live.id, live.game_id)

    async def _finish(self, live: Live) -> None:
        game = live.game
        assert game is not None and live.game_id is not None
        stake = live.table.stake
        seats = live.seats
        bombs = bombs_played(game.events)
        outcome = game.outcome
        assert outcome is not None
        places = {seat: place + 1 for place, seat in enumerate(outcome.places)}
        results = [SeatResult(seat=i, place=places[i], bombs_played=bombs[i]) for i in places]
        reasons: list[list[str]] = [[] for _ in seats]

        def transfers(balances: dict[int, int | None]) -> list[Any]:
            settlement = settle(outcome, game.events, stake, balances)
            for t in settlement.transfers:
                computer = balances.get(t.payer) is None or balances.get(t.payee) is None
                if t.paid or (t.owed and not computer):
                    note = f"{t.reason} {t.paid:+d}" if t.paid == t.owed else (
                        f"{t.reason} {t.paid:+d} (owed {t.owed})"
                    )
                    reasons[t.payee].append(note)
                    reasons[t.payer].append(note.replace("+", "-", 1))
            return list(settlement.transfers)

        settled = await self.store.settle_game(live.game_id, transfers, results)
        changes = {r.seat: r.chip_change for r in settled.results}
        lines = []
        for place, seat in enumerate(outcome.places, start=1):
            change = changes.get(seat, 0)
            why = "; ".join(dict.fromkeys(reasons[seat])) if reasons[seat] else ""
            lines.append(
                f"{place}. {self._who(live, seat)} {change:+d} chips" + (f" ({why})" if why else "")
            )
        if outcome.instant_win is not None:
            lines.insert(
                0,
                f"Instant win for {self._who(live, outcome.winner)}: "
                f"{outcome.instant_win} (×{outcome.multiplier}).",
            )
        live.results = lines
        live.phase = "finished"
        live.deadline = None
        live.previous_game_json = game.to_json()
        live.previous_seats = [_seat_json(s) for s in seats]
        self._cancel_tasks(live)
        await self._save_table(live)
        log.info("table %s game %s finished and settled", live.id, live.game_id)

    # ----------------------------------------------------------------- scheduling
    def _cancel_tasks(self, live: Live) -> None:
        for name in ("clock_task", "ai_task", "chop_task"):
            task: asyncio.Task[None] | None = getattr(live, name)
            if task is not None and not task.done() and task is not asyncio.current_task():
                task.cancel()
            setattr(live, name, None)

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        task.add_done_callback(_log_task)
        return task

    def _arm_deadline(self, live: Live) -> None:
        """Set the turn deadline of the seat to act, once per game state (called before saving,
        so a restart re-arms the same deadline; pressing My hand does not extend anyone's turn)."""
        game = live.game
        if live.phase != "playing" or game is None or game.is_over:
            live.deadline = None
            return
        actor = self._actor(game)
        if actor is None or live.controlled_by_computer(actor):
            live.deadline = None
            return
        if live.deadline is None or live.deadline_version != game.version:
            live.deadline = self.wall_clock() + live.table.turn_seconds
            live.deadline_version = game.version

    def _after_change(self, live: Live) -> None:
        live.changes += 1
        self.request_board(live)
        game = live.game
        if live.phase != "playing" or game is None or game.is_over:
            self._cancel_tasks(live)
            return
        self._offer_chops(live)
        actor = self._actor(game)
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

    def _offer_chops(self, live: Live) -> None:
        """Computer seats may chop out of turn (RULES.md §6) when the rules allow it right now."""
        game = live.game
        assert game is not None
        if live.chop_task is not None and not live.chop_task.done():
            live.chop_task.cancel()
        live.chop_task = None
        if game.phase != "play" or not any(
            seat != game.current and live.controlled_by_computer(seat)
            for seat in game.has_out_of_turn_chop()
        ):
            return
        live.chop_task = self._spawn(self._computer_chop(live, game.version), f"chop-{live.id}")

    async def _computer_chop(self, live: Live, version: int) -> None:
        await asyncio.sleep(self.ai_delay)
        async with live.lock:
            game = live.game
            if game is None or game.version != version or live.phase != "playing":
                return
            for seat in game.has_out_of_turn_chop():
                if seat == game.current or not live.controlled_by_computer(seat):
                    continue
                level = live.seats[seat].bot or "normal"
                # A quick decision (no search) under the lock; the chop window is short anyway.
                cards = self._decide_now(game, seat, "hard" if level == "expert" else level)
                if cards:
                    game.play(seat, cards)
                    live.chop_task = None
                    log.info("table %s: seat %d chopped out of turn", live.id, seat)
                    await self._commit(live)
                    return

    @staticmethod
    def _actor(game: Game) -> int | None:
        if game.phase == "exchange":
            pending = [s for s, n in game.pending_returns.items() if n]
            return pending[0] if pending else None
        return game.current

    async def _clock(self, live: Live, version: int, seconds: float) -> None:
        await asyncio.sleep(seconds)
        async with live.lock:
            game = live.game
            if game is None or game.version != version or game.is_over or live.phase != "playing":
                return
            seat = self._actor(game)
            if seat is None:
                return
            live.clock_task = None
            live.afk[seat] += 1
            if game.phase == "exchange":
                from engine.ai import choose_returns

                game.return_cards(seat, choose_returns(game, seat, "normal"))
            elif game.table is None:
                singles = [c for c in game.legal_plays(seat) if c.kind is ComboKind.SINGLE]
                lowest = min(singles, key=lambda c: c.top) if singles else game.legal_plays(seat)[0]
                game.play(seat, list(lowest.cards))
            else:
                game.pass_turn(seat)
            if live.afk[seat] >= MAX_TIMEOUTS:
                live.auto[seat] = True
            log.info("table %s: turn clock expired for seat %d", live.id, seat)
            await self._commit(live)

    async def _computer_turn(self, live: Live) -> None:
        while True:
            await asyncio.sleep(self.ai_delay)
            async with live.lock:
                game = live.game
                if game is None or game.is_over or live.phase != "playing":
                    return
                seat = self._actor(game)
                if seat is None or not live.controlled_by_computer(seat):
                    return
                level = live.seats[seat].bot or "normal"
                version = game.version
                snapshot = game.to_json() if self._searches(level) else None
                cards = None if snapshot else self._decide_now(game, seat, level)
            if snapshot is not None:  # a search: off the event loop and outside the lock
                cards = await self._decide_far(snapshot, seat, level)
            async with live.lock:
                game = live.game
                if (game is None or game.version != version or game.is_over
                        or live.phase != "playing" or not live.controlled_by_computer(seat)):
                    continue
                if game.phase == "exchange":
                    from engine.ai import choose_returns

                    game.return_cards(seat, choose_returns(game, seat, level))
                elif cards is None:
                    game.pass_turn(seat)
                else:
                    game.play(seat, cards)
                live.ai_task = None
                await self._commit(live)
                return

    def _searches(self, level: str) -> bool:
        return level == "expert" and self.executor is not None

    def _decide_now(self, game: Game, seat: int, level: str) -> list[Card] | None:
        if game.phase == "exchange":
            return None
        from engine import ai

        return ai.decide(game, seat, level, seed=self._rng.randrange(2**31))

    async def _decide_far(self, snapshot: str, seat: int, level: str) -> list[Card] | None:
        from engine import ai, parse_cards

        if Game.from_json(snapshot).phase == "exchange":
            return None
        loop = asyncio.get_running_loop()
        tokens = await loop.run_in_executor(
            self.executor, ai.decide_json, snapshot, seat, level, self._rng.randrange(2**31)
        )
        return None if tokens is None else parse_cards(" ".join(tokens))

    # ----------------------------------------------------------------- board
    def request_board(self, live: Live) -> None:
        """Ask for a board refresh; edits are coalesced to at most one per second."""
        if live.board_task is None or live.board_task.done():
            live.board_task = self._spawn(self._board_later(live), f"board-{live.id}")

    async def _board_later(self, live: Live) -> None:
        loop = asyncio.get_running_loop()
        # Loop: changes made while an edit is in flight (slow or retried requests) are not lost.
        while True:
            wait = live.last_board_edit + self.board_interval - loop.time()
            if wait > 0 and self.board_interval > 0:
                await asyncio.sleep(wait)
            if live.board_rendered == live.changes:
                return
            live.last_board_edit = loop.time()
            live.board_rendered = live.changes
            try:
                await self.publisher.publish_board(live)
            except Exception:  # the next change retries; the game itself is safe in the store
                log.exception("table %s: board update failed", live.id)
                live.board_rendered = -1
                return

    def mark_board_shown(self, live: Live) -> None:
        """The board was just shown by an interaction response (type 7)."""
        live.board_rendered = live.changes
        live.last_board_edit = asyncio.get_running_loop().time()

    def board_needs_repost(self, live: Live) -> bool:
        posted = live.table.board_posted_at
        if live.table.board_message_id is None or posted is None:
            return True
        now = datetime.fromtimestamp(self.wall_clock(), UTC)
        return now - posted > BOARD_MAX_AGE

    async def set_board_message(self, live: Live, message_id: int) -> None:
        async with live.lock:
            if live.table.status != "open":
                return
            posted = datetime.fromtimestamp(self.wall_clock(), UTC)
            await self._save_table(live, board_message_id=message_id, board_posted_at=posted)

    # ----------------------------------------------------------------- hand view
    def hand_line(self, live: Live, seat: int, mask: int) -> tuple[str, bool]:
        """The status line under a hand and whether `Play` is enabled."""
        game = live.game
        assert game is not None
        hand = game.hands[seat]
        cards = sel.selected_cards(hand, mask)
        rules = game.rules
        if game.phase == "exchange":
            need = game.pending_returns.get(seat, 0)
            if not need:
                return "Waiting for the card exchange to finish.", False
            ok = len(cards) == need
            return (
                f"Card exchange: select {need} card{'s' if need > 1 else ''} to give back"
                + (" — ready." if ok else "."),
                ok,
            )
        if not cards:
            if game.current == seat:
                lead = game.table is None
                return ("Your lead: select cards to play." if lead else "Your turn."), False
            return f"Waiting for {self._who(live, game.current)}.", False
        try:
            combo = classify(cards, rules)
        except (TienLenError, ValueError):
            combo = None
        if combo is None:
            return f"{' '.join(map(str, cards))} is not a combination.", False
        text = combo.describe()
        if game.table is None:
            beats = True
            text += " — a lead."
        else:
            beats = game.can_play(seat, cards) or _beats(combo, game)
            table = " ".join(map(str, game.table.cards))
            text += (f" — beats the {table} on the table." if beats
                     else f" — does not beat the {table} on the table.")
        if beats and not game.can_play(seat, cards):
            try:
                game.verify_play(seat, cards)
            except TienLenError as error:
                text += f" But: {self.explain(live, error)}"
        return text, beats


def _beats(combo: Any, game: Game) -> bool:
    from engine import can_beat

    return game.table is not None and can_beat(
        combo, game.table, game.rules, chop_context=game.chop_context
    )
