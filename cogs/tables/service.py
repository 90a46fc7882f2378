"""The table service: the application layer between the Discord side and the engine and store.

No Discord types and no words for players here. Every action takes the table's lock, checks who
acts, calls the engine, saves to the store (optimistic versions), then schedules what follows
(:mod:`cogs.tables.scheduling`): a board refresh, the turn clock, computer players, settlement.
A refusal is a :class:`~cogs.tables.errors.TableError` carrying its cause and data.
"""

from __future__ import annotations

import contextlib
import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from datetime import UTC, datetime
from typing import Any

from data import Store
from data.errors import StaleVersion, StoreError, TableExists
from data.models import GameRecord, Seat, SeatResult, Shards, TableRecord
from engine import Card, Game, Level, Phase, Rules, TienLenError, parse_cards
from engine.errors import NotYourTurn
from engine.seating import next_game
from engine.settle import bombs_played, places_with_leavers, settle

from .budget import RestBudget, Staleness
from .errors import (
    ActionRefused,
    AlreadyLeft,
    AlreadyOut,
    AlreadyReady,
    AlreadySeated,
    BadSeatCount,
    BadStake,
    CardsGone,
    ChannelHasTable,
    GameInProgress,
    GameNotOver,
    NoGame,
    NoPreviousGame,
    NotEnoughChips,
    NotHost,
    NotSeated,
    ShortOfChips,
    StoreRefused,
    TableChanged,
    TableClosed,
    TableError,
    TableFull,
    TableGone,
    TooFewSeats,
    UnknownLevel,
)
from .life import MIN_SEATS, TableLife, next_host
from .live import (
    Charge,
    CloseReason,
    GameResults,
    LiveTable,
    PlaceResult,
    Player,
    StandingReminder,
    TableClosedResults,
    TablePhase,
    results_from_json,
)
from .scheduling import Publisher, Scheduling

__all__ = ["TableService"]

log = logging.getLogger("cogs.tables")

MAX_SEATS = 8


def _seat_json(seat: Seat) -> dict[str, Any]:
    return seat.to_json()


def _closed_idle(record: TableRecord) -> bool:
    """Whether a closed table's record says it closed itself for want of presses."""
    try:
        results = results_from_json(json.loads(record.state_json or "{}").get("results"))
    except (ValueError, KeyError, TypeError):
        return False
    return isinstance(results, TableClosedResults) and results.reason is CloseReason.IDLE


class TableService(Scheduling, TableLife):
    """Owns every live table of one bot process."""

    def __init__(
        self,
        store: Store,
        publisher: Publisher,
        *,
        default_turn_seconds: int = 60,
        default_turn_reminder: int | None = None,
        ai_delay: float = 1.0,
        expert_budget_ms: int | None = None,
        board_interval: float = 1.0,
        executor: Executor | None = None,
        wall_clock: Callable[[], float] = time.time,
        seed: int | None = None,
        rest: RestBudget | None = None,
        shards: Shards | None = None,
        idle_seconds: int = 900,
        ready_seconds: int = 60,
    ) -> None:
        self.store = store
        #: the shards this process runs (None: all, one process); the service loads, resumes,
        #: times and plays only the tables of servers on them and never touches another's
        self.shards = shards
        self.publisher = publisher
        self.rest = rest if rest is not None else RestBudget()
        self.staleness = Staleness()
        self.default_turn_seconds = default_turn_seconds
        self.default_turn_reminder = default_turn_reminder
        #: seconds without a press before a lobby or finished table closes itself (0: never),
        #: for tables opened without their own (a server's `idle_minutes`)
        self.idle_seconds = idle_seconds
        #: how long the ready check of `Play again` waits for everyone
        self.ready_seconds = ready_seconds
        self.ai_delay = ai_delay
        #: how long an expert computer player thinks over a play (None: the engine's default)
        self.expert_budget_ms = expert_budget_ms
        self.board_interval = board_interval
        self.executor = executor
        self.wall_clock = wall_clock
        self.tables: dict[int, LiveTable] = {}
        self._rng = random.Random(seed)  # deals and computer choices; tests inject a seed

    # ----------------------------------------------------------------- loading
    def _live_from_record(self, record: TableRecord) -> LiveTable:
        live = LiveTable(table=record)
        if record.state_json:
            extras = json.loads(record.state_json)
            live.phase = TablePhase(extras.get("phase", "lobby"))
            live.max_seats = int(extras.get("max_seats", 4))
            live.language = str(extras.get("language", "en"))
            live.opener_language = str(extras.get("opener_language", live.language))
            reminder = extras.get("turn_reminder", self.default_turn_reminder)
            live.turn_reminder = None if reminder is None else int(reminder)
            live.reminder = StandingReminder.from_json(extras.get("reminder"))
            live.in_thread = bool(extras.get("in_thread", False))
            live.ranked = bool(extras.get("ranked", True))
            posted = extras.get("over_posted")
            live.over_posted = None if posted is None else int(posted)
            live.results = results_from_json(extras.get("results"))
            live.previous_game_json = extras.get("previous_game_json")
            live.previous_seats = extras.get("previous_seats")
            live.ready = [int(u) for u in extras.get("ready") or ()]
            deadline = extras.get("ready_deadline")
            live.ready_deadline = None if deadline is None else float(deadline)
            live.idle_seconds = int(extras.get("idle_seconds", self.idle_seconds))
            live.last_press = float(extras.get("last_press") or 0.0)
        if not live.last_press:  # a table saved before presses were counted: count from now
            live.last_press = self.wall_clock()
        return live

    def _attach_game(self, live: LiveTable, record: GameRecord) -> None:
        live.game_id = record.id
        live.game_version = record.version
        state = json.loads(record.state_json or "{}")
        live.game = Game.from_json(state["engine"])
        n = len(live.seats)
        live.afk = list(state.get("afk") or [0] * n)
        live.auto = list(state.get("auto") or [False] * n)
        live.deadline = state.get("deadline")
        live.deadline_version = int(state.get("deadline_version", -1))
        live.left = [(int(seat), parse_cards(codes)) for seat, codes in state.get("left") or ()]
        live.clock_events = [int(i) for i in state.get("clock_events") or []]

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the shard of the server `guild_id` (always, unsharded)."""
        return self.shards is None or self.shards.owns(guild_id)

    def _not_here(self, table_id: int | None, guild_id: int) -> TableGone:
        """The refusal for a table of a server on another process's shard: this process leaves
        it alone. Discord sends a server's events only to its shard, so a player never meets
        this; it reads as a table that is not here."""
        log.warning("table %s of server %s belongs to another process's shard: left alone",
                    table_id, guild_id, extra={"guild_id": guild_id})
        return TableGone(table_id)

    async def load_all(self) -> int:
        """After a (re)start: load every open table of this process's servers (a server that
        moved here from another process included) and its game, re-arm clocks and computers."""
        for record in await self.store.list_open_tables(self.shards):
            if not self.owns(record.guild_id):  # the store filters already; never act on it
                continue
            live = self._live_from_record(record)
            if record.current_game_id is not None:
                game = await self.store.get_game(record.current_game_id)
                if game.state_json and game.status in ("playing", "finished"):
                    self._attach_game(live, game)
                    assert live.game is not None
                    if live.game.is_over and live.phase is TablePhase.PLAYING:
                        # Stopped between the last move and the end of settlement: finish now
                        # (settling twice is a no-op that returns the first result).
                        await self._finish(live)
                    elif game.status == "playing":
                        live.phase = TablePhase.PLAYING
            self.tables[live.id] = live
            live.changes += 1
            log.info("table %s resumed (%s)", live.id, live.phase.value, extra=live.log_extra)
            self._after_change(live)
            self._arm_life(live)  # the idle time and the ready check, from their saved times
        return len(self.tables)

    async def get(self, table_id: int) -> LiveTable:
        live = self.tables.get(table_id)
        if live is None:
            try:
                record = await self.store.get_table(table_id)
            except StoreError:
                raise TableGone(table_id) from None
            if not self.owns(record.guild_id):
                raise self._not_here(table_id, record.guild_id)
            if record.status != "open":
                raise TableClosed(table_id, idle=_closed_idle(record))
            live = self._live_from_record(record)
            self.tables[table_id] = live
        self._require_open(live)
        return live

    @staticmethod
    def _require_open(live: LiveTable) -> None:
        """Refuse a press on a table that closed (checked again under the lock: the idle timer
        may have closed it while the press waited)."""
        if live.table.status != "open":
            idle = (isinstance(live.results, TableClosedResults)
                    and live.results.reason is CloseReason.IDLE)
            raise TableClosed(live.id, idle=idle)

    async def table_in_channel(self, channel_id: int) -> LiveTable | None:
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
        turn_reminder: int | None = None,
        language: str = "en",
        opener_language: str | None = None,
        idle_seconds: int | None = None,
        in_thread: bool = False,
        ranked: bool = True,
    ) -> LiveTable:
        """Open a table; ``turn_reminder``: seconds into a turn before the person on turn is
        reminded (0: never; ``None``: the service's default, itself ``None`` for half the
        turn); ``language``: the language of its
        public messages (chosen by the Discord side), ``opener_language`` the host's own (kept
        for a later change of the server's setting); ``idle_seconds``: without a press for that
        long, the lobby or finished table closes itself (0: never; ``None``: the service's);
        ``in_thread``: ``channel_id`` is a thread opened for this table
        (archived when it closes); ``ranked``: its games are rated (fixed for the table)."""
        if not self.owns(guild_id):
            raise self._not_here(None, guild_id)
        if stake < 1:
            raise BadStake(1)
        if not MIN_SEATS <= seats <= MAX_SEATS:
            raise BadSeatCount(MIN_SEATS, MAX_SEATS)
        turn = turn_seconds or self.default_turn_seconds
        chips = await self.store.ensure_player(guild_id, host_id)
        if chips < stake:
            raise NotEnoughChips(chips, stake)
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
            raise ChannelHasTable(error.table_id) from None
        live = self._live_from_record(await self.store.get_table(table_id))
        live.max_seats = seats
        live.language = language
        live.opener_language = opener_language or language
        live.in_thread = in_thread
        live.ranked = ranked
        live.turn_reminder = (self.default_turn_reminder if turn_reminder is None
                              else max(0, turn_reminder))
        live.idle_seconds = self.idle_seconds if idle_seconds is None else max(0, idle_seconds)
        live.last_press = self.wall_clock()
        await self._save_table(live)
        self.tables[table_id] = live
        log.info("table %s opened in channel %s", table_id, channel_id,
                 extra={"guild_id": guild_id})
        return live

    async def _save_seats(self, live: LiveTable, seats: list[Seat], **fields: Any) -> None:
        # A finished game's board belongs to its seats: back to the lobby.
        live.phase = TablePhase.LOBBY
        await self._save_table(live, seats=[_seat_json(s) for s in seats], **fields)

    async def _save_table(self, live: LiveTable, **fields: Any) -> None:
        fields.setdefault("state_json", live.extras_json())
        live.table = await self.store.update_table_record(live.id, live.table.version, **fields)
        live.changes += 1
        self._arm_life(live)

    def _require_lobby(self, live: LiveTable) -> None:
        """Seats change only between games; after a finished game the table returns to its lobby
        (the last results stay on the board), since the finished board belongs to the old seats."""
        self._require_open(live)
        if live.phase is TablePhase.PLAYING:
            raise GameInProgress()

    async def join(self, live: LiveTable, user_id: int, name: str) -> None:
        async with live.lock:
            self._require_lobby(live)
            if live.seat_of(user_id) is not None:
                raise AlreadySeated()
            if len(live.seats) >= live.max_seats:
                raise TableFull()
            chips = await self.store.ensure_player(live.table.guild_id, user_id)
            if chips < live.table.stake:
                raise NotEnoughChips(chips, live.table.stake)
            seats = [*live.seats, Seat(name=name, user_id=user_id)]
            await self._save_seats(live, seats)

    async def leave(self, live: LiveTable, user_id: int) -> bool:
        """Leave the table; returns True when the table closed (nobody left)."""
        async with live.lock:
            self._require_lobby(live)
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            seats = [s for i, s in enumerate(live.seats) if i != seat]
            host = next_host(live.table.host_id, seats)
            if host is None:
                await self._close(live, CloseReason.EVERYONE_LEFT)
                return True
            if user_id in live.ready:
                live.ready.remove(user_id)
            await self._save_seats(live, seats, host_id=host)
            if live.ready and self._all_ready(live):  # the one not ready yet left
                try:
                    await self._deal_ready(live)
                except TableError as error:  # dealt at the ready check's end, or not at all
                    log.info("table %s: no deal after a leave (%s)", live.id,
                             type(error).__name__, extra=live.log_extra)
            return False

    def check_can_abandon(self, live: LiveTable, user_id: int) -> int:
        """Whether the person may leave the running game (asked before the confirmation);
        returns the game's id, which the confirmation carries."""
        self._require_open(live)
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        if not live.playing or live.game_id is None:
            raise NoGame()
        if live.has_left(seat):
            raise AlreadyLeft()
        game = live.game
        assert game is not None
        if game.is_over:
            raise NoGame(over=True)
        if not game.hand(seat):
            raise AlreadyOut()
        return live.game_id

    async def abandon(self, live: LiveTable, user_id: int, game_id: int) -> None:
        """Leave the running game ``game_id`` (confirmed): a computer plays the seat to the end,
        the person is settled as the last place (engine.settle, with the cards held now) and
        unseated once the game is over. The leave is saved with the game."""
        async with live.lock:
            if live.game_id != game_id and live.table.status == "open":
                raise NoGame(over=True)  # a confirmation from an earlier game
            if self.check_can_abandon(live, user_id) != game_id:
                raise NoGame(over=True)
            seat = live.seat_of(user_id)
            game = live.game
            assert seat is not None and game is not None
            live.left.append((seat, list(game.hand(seat))))
            live.auto[seat] = True
            live.afk[seat] = 0
            log.info("table %s: seat %d left game %s", live.id, seat, game_id,
                     extra=live.log_extra)
            await self._commit(live)

    def check_can_add_computer(self, live: LiveTable, user_id: int) -> None:
        """Only seated players add computer players (checked before the level is asked)."""
        if live.seat_of(user_id) is None:
            raise NotSeated(for_computers=True)

    async def add_computer(self, live: LiveTable, user_id: int, level: Level | str) -> None:
        async with live.lock:
            self._require_lobby(live)
            self.check_can_add_computer(live, user_id)
            if level not in set(Level):
                raise UnknownLevel(str(level))
            level = Level(level)
            if len(live.seats) >= live.max_seats:
                raise TableFull()
            taken = {s.name for s in live.seats}
            number = 1
            while f"Computer {number} ({level})" in taken:
                number += 1
            seats = [*live.seats, Seat(name=f"Computer {number} ({level})", bot=level)]
            await self._save_seats(live, seats)

    async def cancel(self, live: LiveTable, user_id: int, *, can_manage: bool = False) -> None:
        """Close the table: the host, a member who manages the server, or, between games, a
        seated person nobody else (no other person) sits with."""
        async with live.lock:
            self._require_open(live)
            others = [s for s in live.seats if s.user_id is not None and s.user_id != user_id]
            alone = (live.seat_of(user_id) is not None and not others
                     and live.phase is not TablePhase.PLAYING)
            if user_id != live.table.host_id and not can_manage and not alone:
                raise NotHost(or_manager=True, for_close=True)
            await self._close(live, CloseReason.CANCELLED)

    stop = cancel

    async def _close(self, live: LiveTable, why: CloseReason) -> None:
        self._cancel_tasks(live)
        self._stop_life(live)
        last = live.results if isinstance(live.results, GameResults) else None
        live.results = TableClosedResults(why, last_game=last, idle_seconds=live.idle_seconds)
        if live.table.status == "open":
            # The reason first (a press on the closed table is told why), then the close.
            with contextlib.suppress(StoreError):
                live.table = await self.store.update_table_record(
                    live.id, live.table.version, state_json=live.extras_json())
        await self.store.close_table(live.id)
        live.table = await self.store.get_table(live.id)
        live.changes += 1
        self.tables.pop(live.id, None)
        log.info("table %s closed (%s)", live.id, why, extra=live.log_extra)
        self.request_board(live)
        self.publisher.table_changed(live)

    # ----------------------------------------------------------------- games
    async def start(self, live: LiveTable, user_id: int) -> None:
        """The host deals. During a ready check (`Play again` pressed), the people not ready are
        unseated first (nothing charged); the host counts as ready."""
        async with live.lock:
            self._require_open(live)
            if live.phase is TablePhase.PLAYING:
                raise GameInProgress(starting=True)
            if user_id != live.table.host_id:
                raise NotHost()
            if live.ready:
                await self._deal_ready(live, also=user_id)
            else:
                await self._deal(live)

    async def set_stake(self, live: LiveTable, user_id: int, stake: int) -> None:
        """The host changes the table's stake between games: from 1 to the chips of the poorest
        seated person (so everyone can still cover one unit)."""
        async with live.lock:
            self._require_open(live)
            if live.phase is TablePhase.PLAYING:
                raise GameInProgress()
            if user_id != live.table.host_id:
                raise NotHost(for_stake=True)
            held = [
                await self.store.ensure_player(live.table.guild_id, seat.user_id)
                for seat in live.seats
                if seat.user_id is not None
            ]
            poorest = min(held)  # the host is always seated
            if not 1 <= stake <= poorest:
                raise BadStake(1, poorest)
            await self._save_table(live, stake=stake)
            log.info("table %s: stake set to %s", live.id, stake)
        self.request_board(live)

    async def play_again(self, live: LiveTable, user_id: int) -> bool:
        """`Play again` after a game: the presser is ready for the next deal (a ready check, see
        :mod:`cogs.tables.life`); the deal starts once every seated person is. Returns True when
        it dealt."""
        async with live.lock:
            self._require_open(live)
            if live.phase is TablePhase.PLAYING:
                raise GameNotOver()
            if not live.had_game:
                raise NoPreviousGame()
            if live.seat_of(user_id) is None:
                raise NotSeated()
            if user_id in live.ready:
                raise AlreadyReady()
            live.ready.append(user_id)
            if live.ready_deadline is None:
                live.ready_deadline = self.wall_clock() + self.ready_seconds
            await self._save_table(live)  # the ready mark stays even if the deal is refused
            if not self._all_ready(live):
                return False
            await self._deal(live)
            return True

    async def _check_chips(self, live: LiveTable, seats: Sequence[Seat]) -> None:
        """Refuse a deal to ``seats`` while a person among them holds less than the stake."""
        stake = live.table.stake
        short: dict[int, int] = {}
        for seat in seats:
            if seat.user_id is None:
                continue
            chips = await self.store.ensure_player(live.table.guild_id, seat.user_id)
            if chips < stake:
                short[seat.user_id] = chips
        if short:
            raise ShortOfChips(live.id, short, stake)

    async def _deal(self, live: LiveTable) -> None:
        seats = list(live.seats)
        if len(seats) < MIN_SEATS:
            raise TooFewSeats(MIN_SEATS)
        rules = live.rules
        stake = live.table.stake
        await self._check_chips(live, seats)
        seed = self._rng.randrange(2**63)
        ids = [str(s.user_id) if s.user_id is not None else f"cpu:{i}" for i, s in enumerate(seats)]
        if live.previous_game_json is not None:
            # Winner leads and the card exchange apply to whoever plays the next game.
            game = next_game(Game.from_json(live.previous_game_json), ids, seed=seed)
        else:
            game = Game.new(rules, ids, seed=seed)
        saved = (live.game, live.game_id, live.game_version, live.afk, live.auto,
                 live.deadline, live.phase, live.results, live.left, live.ready,
                 live.ready_deadline, live.clock_events)
        live.game = game
        live.clock_events = []
        live.afk = [0] * len(seats)
        live.auto = [False] * len(seats)
        live.left = []
        live.ready, live.ready_deadline = [], None
        live.deadline = None
        live.phase = TablePhase.PLAYING
        live.results = None
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
                ranked=live.ranked,
            )
        except StoreError as error:
            (live.game, live.game_id, live.game_version, live.afk, live.auto,
             live.deadline, live.phase, live.results, live.left, live.ready,
             live.ready_deadline, live.clock_events) = saved
            raise StoreRefused(str(error)) from None
        live.game_id = record.id
        live.game_version = record.version
        await self._save_table(live, current_game_id=record.id)
        log.info("table %s game %s started with %d seats", live.id, record.id, len(seats),
                 extra=live.log_extra)
        if game.is_over:  # an instant win
            await self._finish_safely(live)
        self._after_change(live)

    def _seat_for_action(self, live: LiveTable, user_id: int) -> int:
        seat = live.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        if not live.playing:
            raise NoGame()
        if live.has_left(seat):
            raise AlreadyLeft()
        return seat

    async def act(self, live: LiveTable, user_id: int, cards: list[Card] | None) -> None:
        """Play ``cards`` (give them back during the card exchange), or pass (``None``), for a
        person's seat, judged by the game as it is when the table's lock is taken: accepted
        whenever the engine accepts it now (on turn, or an out-of-turn chop)."""
        async with live.lock:
            seat = self._seat_for_action(live, user_id)
            game = live.game
            assert game is not None
            if cards is not None:
                left = list(game.hand(seat))
                gone = []
                for card in cards:
                    if card in left:
                        left.remove(card)
                    else:
                        gone.append(card)
                if gone:
                    raise CardsGone(gone)
            try:
                if cards is None:
                    game.pass_turn(seat)
                elif game.phase is Phase.EXCHANGE:
                    game.return_cards(seat, cards)
                else:
                    game.play(seat, cards)
            except TienLenError as error:
                waiting = None
                if isinstance(error, NotYourTurn) and game.current is not None:
                    waiting = Player.of(live.seats[game.current])
                raise ActionRefused(error, waiting) from None
            live.afk[seat] = 0
            await self._commit(live)

    async def reclaim(self, live: LiveTable, user_id: int) -> None:
        """`My hand`: a seat held by the computer after timeouts returns to its owner."""
        seat = live.seat_of(user_id)
        if seat is not None and live.playing and live.has_left(seat):
            raise AlreadyLeft()  # the computer keeps the seat of a person who left
        if seat is None or not live.playing or not live.auto or not live.auto[seat]:
            return
        async with live.lock:
            live.auto[seat] = False
            live.afk[seat] = 0
            await self._commit(live)

    async def _commit(self, live: LiveTable) -> None:
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
            raise TableChanged() from None
        if live.game.is_over:
            await self._finish_safely(live)
        self._after_change(live)

    async def _finish_safely(self, live: LiveTable) -> None:
        """Settle; if that fails the game stays saved as over and is settled at the next start."""
        try:
            await self._finish(live)
        except Exception:
            log.exception("table %s: settling game %s failed; it is retried at start-up",
                          live.id, live.game_id, extra=live.log_extra)

    async def _finish(self, live: LiveTable) -> None:
        game = live.game
        assert game is not None and live.game_id is not None
        stake = live.table.stake
        seats = live.seats
        bombs = bombs_played(game.events)
        outcome = game.outcome
        assert outcome is not None
        left = list(live.left)
        gone = {seat for seat, _ in left}
        # People who left the game take the last places (engine.settle).
        order = (outcome.places if outcome.instant_win is not None
                 else places_with_leavers(outcome.places, [seat for seat, _ in left]))
        places = {seat: place + 1 for place, seat in enumerate(order)}
        results = [SeatResult(seat=i, place=places[i], bombs_played=bombs[i], left=i in gone)
                   for i in places]
        charges: list[list[Charge]] = [[] for _ in seats]

        def transfers(balances: dict[int, int | None]) -> list[Any]:
            settlement = settle(outcome, game.events, stake, balances, left=left)
            for t in settlement.transfers:
                computer = balances.get(t.payer) is None or balances.get(t.payee) is None
                if t.paid or (t.owed and not computer):
                    charges[t.payee].append(Charge(t.reason, t.paid, t.owed, payer=False))
                    charges[t.payer].append(Charge(t.reason, t.paid, t.owed, payer=True))
            return list(settlement.transfers)

        settled = await self.store.settle_game(live.game_id, transfers, results)
        changes = {r.seat: r.chip_change for r in settled.results}
        rated = {r.seat: (r.before, r.after) for r in settled.ratings}
        balances = {  # read only: settlement has just written every seated person's row
            seat: await self.store.get_chips(live.table.guild_id, s.user_id)
            for seat, s in enumerate(seats) if s.user_id is not None
        }
        live.results = GameResults(
            places=tuple(
                PlaceResult(place, Player.of(seats[seat]), changes.get(seat, 0),
                            tuple(dict.fromkeys(charges[seat])), seat in outcome.frozen,
                            left=seat in gone,
                            held=tuple(game.hand(seat)), balance=balances.get(seat),
                            rating=rated.get(seat))
                for place, seat in enumerate(order, start=1)
            ),
            game_id=live.game_id,
            instant_win=outcome.instant_win,
            winner=None if outcome.instant_win is None else Player.of(seats[outcome.winner]),
            multiplier=outcome.multiplier or 1,
            winner_hand=() if outcome.instant_win is None else tuple(game.hand(outcome.winner)),
        )
        live.phase = TablePhase.FINISHED
        live.deadline = None
        live.previous_game_json = game.to_json()
        live.previous_seats = [_seat_json(s) for s in seats]
        live.last_press = self.wall_clock()  # the idle time of a finished table starts now
        self._cancel_tasks(live)
        log.info("table %s game %s finished and settled", live.id, live.game_id,
                 extra=live.log_extra)
        if not gone:
            await self._save_table(live)
            return
        # Those who left are unseated now; the host role passes on if the host left.
        stay = [s for i, s in enumerate(seats) if i not in gone]
        host = next_host(live.table.host_id, stay)
        if host is None:  # every person left: the computers played it out
            await self._save_table(live)
            await self._close(live, CloseReason.LEFT_TO_COMPUTERS)
            return
        # The finished board belongs to the game's seats: with fewer, the table is a lobby again
        # (the results stay on its board).
        live.phase = TablePhase.LOBBY
        await self._save_table(live, seats=[_seat_json(s) for s in stay], host_id=host)

    async def set_language(self, live: LiveTable, language: str) -> None:
        """Change the language of a table's public messages (the board is redrawn)."""
        async with live.lock:
            if live.table.status != "open" or live.language == language:
                return
            live.language = language
            await self._save_table(live)
        self.request_board(live)

    # ----------------------------------------------------------------- announcements
    def game_over_pending(self, live: LiveTable) -> GameResults | None:
        """The results of the table's last game while its game-over post is still to be sent
        (it is sent once per game: `game_over_posted` records it in the store)."""
        results = live.results
        if (isinstance(results, GameResults) and results.game_id is not None
                and results.game_id != live.over_posted and live.table.status == "open"):
            return results
        return None

    async def game_over_posted(self, live: LiveTable, game_id: int) -> None:
        """The game-over post of game ``game_id`` is in the channel: never send it again."""
        async with live.lock:
            if live.table.status != "open" or live.over_posted == game_id:
                return
            live.over_posted = game_id
            await self._save_table(live)

    async def reminder_posted(self, live: LiveTable, reminder: StandingReminder) -> bool:
        """Keep a turn reminder just posted as the table's standing one (in the store, so a
        restart finds it); False when the turn moved on meanwhile (the caller ends it now)."""
        async with live.lock:
            game = live.game
            if (live.table.status != "open" or not live.playing or game is None
                    or game.version != reminder.version
                    or (live.reminder is not None and live.reminder.version == reminder.version)):
                return False  # an older standing one is being edited by its own task
            live.reminder = reminder
            await self._save_table(live)
            return True

    async def reminder_ended(self, live: LiveTable, message_id: int) -> None:
        """The standing reminder ``message_id`` was edited to its past-tense line."""
        async with live.lock:
            if live.reminder is None or live.reminder.message_id != message_id:
                return
            live.reminder = None
            if live.table.status == "open":
                await self._save_table(live)

    async def set_board_message(self, live: LiveTable, message_id: int) -> None:
        async with live.lock:
            if live.table.status != "open":
                return
            posted = datetime.fromtimestamp(self.wall_clock(), UTC)
            await self._save_table(live, board_message_id=message_id, board_posted_at=posted)
