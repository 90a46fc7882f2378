"""The table service: the application layer between the Discord side and the engine and store.

No Discord types and no words for players here. Every action takes the table's lock, checks who
acts, calls the engine, saves to the store (optimistic versions), then schedules what follows
(:mod:`cogs.tables.scheduling`): a board refresh, the turn clock, computer players, settlement.
A refusal is a :class:`~cogs.tables.errors.TableError` carrying its cause and data.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor
from datetime import UTC, datetime
from typing import Any

from data import Store
from data.errors import StaleVersion, StoreError, TableExists
from data.models import GameRecord, Seat, SeatResult, Shards, TableRecord
from engine import Card, Game, Level, Phase, Rules, TienLenError
from engine.errors import NotYourTurn
from engine.settle import bombs_played, settle

from .budget import RestBudget, Staleness
from .errors import (
    ActionRefused,
    AlreadySeated,
    BadSeatCount,
    BadStake,
    CardsGone,
    ChannelHasTable,
    GameInProgress,
    GameNotOver,
    NoGame,
    NotEnoughChips,
    NotHost,
    NotSeated,
    ShortOfChips,
    StoreRefused,
    TableChanged,
    TableClosed,
    TableFull,
    TableGone,
    TooFewSeats,
    UnknownLevel,
)
from .live import (
    Charge,
    CloseReason,
    GameResults,
    LiveTable,
    PlaceResult,
    Player,
    TableClosedResults,
    TablePhase,
    results_from_json,
)
from .scheduling import Publisher, Scheduling

__all__ = ["TableService"]

log = logging.getLogger("cogs.tables")

MIN_SEATS, MAX_SEATS = 2, 8


def _seat_json(seat: Seat) -> dict[str, Any]:
    return seat.to_json()


class TableService(Scheduling):
    """Owns every live table of one bot process."""

    def __init__(
        self,
        store: Store,
        publisher: Publisher,
        *,
        default_turn_seconds: int = 60,
        default_turn_reminder: int = 10,
        ai_delay: float = 1.0,
        board_interval: float = 1.0,
        executor: Executor | None = None,
        wall_clock: Callable[[], float] = time.time,
        seed: int | None = None,
        rest: RestBudget | None = None,
        shards: Shards | None = None,
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
        self.ai_delay = ai_delay
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
            live.turn_reminder = int(extras.get("turn_reminder", self.default_turn_reminder))
            live.results = results_from_json(extras.get("results"))
            live.previous_game_json = extras.get("previous_game_json")
            live.previous_seats = extras.get("previous_seats")
        return live

    def _attach_game(self, live: LiveTable, record: GameRecord) -> None:
        live.game_id = record.id
        live.game_version = record.version
        state = json.loads(record.state_json or "{}")
        live.game = Game.from_json(state["engine"])
        n = len(live.seats)
        live.afk = list(state.get("afk") or [0] * n)
        live.auto = list(state.get("auto") or [False] * n)
        live.timeouts = [(int(at), int(seat)) for at, seat in state.get("timeouts") or []]
        live.deadline = state.get("deadline")
        live.deadline_version = int(state.get("deadline_version", -1))

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
                    if live.game.is_over and live.phase is not TablePhase.FINISHED:
                        # Stopped between the last move and the end of settlement: finish now
                        # (settling twice is a no-op that returns the first result).
                        await self._finish(live)
                    elif game.status == "playing":
                        live.phase = TablePhase.PLAYING
            self.tables[live.id] = live
            live.changes += 1
            log.info("table %s resumed (%s)", live.id, live.phase.value, extra=live.log_extra)
            self._after_change(live)
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
                raise TableClosed(table_id)
            live = self._live_from_record(record)
            self.tables[table_id] = live
        if live.table.status != "open":
            raise TableClosed(table_id)
        return live

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
    ) -> LiveTable:
        """Open a table; ``turn_reminder``: seconds into a turn before the person on turn is
        reminded (0: never; ``None``: the service's default); ``language``: the language of its
        public messages (chosen by the Discord side), ``opener_language`` the host's own (kept
        for a later change of the server's setting)."""
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
        live.turn_reminder = (self.default_turn_reminder if turn_reminder is None
                              else max(0, turn_reminder))
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

    def _require_lobby(self, live: LiveTable) -> None:
        """Seats change only between games; after a finished game the table returns to its lobby
        (the last results stay on the board), since the finished board belongs to the old seats."""
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
            if not any(s.is_human for s in seats):
                await self._close(live, CloseReason.EVERYONE_LEFT)
                return True
            host = live.table.host_id
            if host == user_id:
                host = next(s.user_id for s in seats if s.user_id is not None)
            await self._save_seats(live, seats, host_id=host)
            return False

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
        async with live.lock:
            if user_id != live.table.host_id and not can_manage:
                raise NotHost(or_manager=True)
            await self._close(live, CloseReason.CANCELLED)

    stop = cancel

    async def _close(self, live: LiveTable, why: CloseReason) -> None:
        self._cancel_tasks(live)
        await self.store.close_table(live.id)
        live.table = await self.store.get_table(live.id)
        live.results = TableClosedResults(why)
        live.changes += 1
        self.tables.pop(live.id, None)
        log.info("table %s closed (%s)", live.id, why, extra=live.log_extra)
        self.request_board(live)
        self.publisher.table_changed(live)

    # ----------------------------------------------------------------- games
    async def start(self, live: LiveTable, user_id: int) -> None:
        async with live.lock:
            if live.phase is TablePhase.PLAYING:
                raise GameInProgress(starting=True)
            if user_id != live.table.host_id:
                raise NotHost()
            await self._deal(live, again=False)

    async def set_stake(self, live: LiveTable, user_id: int, stake: int) -> None:
        """The host changes the table's stake between games: from 1 to the chips of the poorest
        seated person (so everyone can still cover one unit)."""
        async with live.lock:
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

    async def play_again(self, live: LiveTable, user_id: int) -> None:
        async with live.lock:
            if live.phase is not TablePhase.FINISHED:
                raise GameNotOver()
            if live.seat_of(user_id) is None:
                raise NotSeated()
            await self._deal(live, again=True)

    async def _deal(self, live: LiveTable, *, again: bool) -> None:
        seats = list(live.seats)
        if len(seats) < MIN_SEATS:
            raise TooFewSeats(MIN_SEATS)
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
            raise ShortOfChips(live.id, short, stake)
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
        live.timeouts = []
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
            )
        except StoreError as error:
            (live.game, live.game_id, live.game_version, live.afk, live.auto,
             live.deadline, live.phase, live.results) = saved
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
        places = {seat: place + 1 for place, seat in enumerate(outcome.places)}
        results = [SeatResult(seat=i, place=places[i], bombs_played=bombs[i]) for i in places]
        charges: list[list[Charge]] = [[] for _ in seats]

        def transfers(balances: dict[int, int | None]) -> list[Any]:
            settlement = settle(outcome, game.events, stake, balances)
            for t in settlement.transfers:
                computer = balances.get(t.payer) is None or balances.get(t.payee) is None
                if t.paid or (t.owed and not computer):
                    charges[t.payee].append(Charge(t.reason, t.paid, t.owed, payer=False))
                    charges[t.payer].append(Charge(t.reason, t.paid, t.owed, payer=True))
            return list(settlement.transfers)

        settled = await self.store.settle_game(live.game_id, transfers, results)
        changes = {r.seat: r.chip_change for r in settled.results}
        live.results = GameResults(
            places=tuple(
                PlaceResult(place, Player.of(seats[seat]), changes.get(seat, 0),
                            tuple(dict.fromkeys(charges[seat])), seat in outcome.frozen)
                for place, seat in enumerate(outcome.places, start=1)
            ),
            instant_win=outcome.instant_win,
            winner=None if outcome.instant_win is None else Player.of(seats[outcome.winner]),
            multiplier=outcome.multiplier or 1,
            winner_hand=() if outcome.instant_win is None else tuple(game.hand(outcome.winner)),
        )
        live.phase = TablePhase.FINISHED
        live.deadline = None
        live.previous_game_json = game.to_json()
        live.previous_seats = [_seat_json(s) for s in seats]
        self._cancel_tasks(live)
        await self._save_table(live)
        log.info("table %s game %s finished and settled", live.id, live.game_id,
                 extra=live.log_extra)

    async def set_language(self, live: LiveTable, language: str) -> None:
        """Change the language of a table's public messages (the board is redrawn)."""
        async with live.lock:
            if live.table.status != "open" or live.language == language:
                return
            live.language = language
            await self._save_table(live)
        self.request_board(live)

    async def set_board_message(self, live: LiveTable, message_id: int) -> None:
        async with live.lock:
            if live.table.status != "open":
                return
            posted = datetime.fromtimestamp(self.wall_clock(), UTC)
            await self._save_table(live, board_message_id=message_id, board_posted_at=posted)
