"""A live table: the state one table holds in memory, mirrored in the store after every change,
and the structured results of its last game (worded by the Discord side)."""

from __future__ import annotations

import asyncio
import functools
import json
from dataclasses import dataclass, field
from enum import StrEnum, unique
from typing import Any

from data.models import Seat, TableRecord
from engine import Card, Game, InstantWinKind, Rules, parse_cards

__all__ = [
    "Charge",
    "CloseReason",
    "GameResults",
    "LegacyResults",
    "LiveTable",
    "PlaceResult",
    "Player",
    "Results",
    "StandingReminder",
    "TableClosedResults",
    "TablePhase",
    "results_from_json",
]


@unique
class TablePhase(StrEnum):
    LOBBY = "lobby"
    """Seats change; the last game's results stay on the board."""
    PLAYING = "playing"
    FINISHED = "finished"
    """The game is over and settled; `Play again` deals the next one to the same seats."""


@unique
class CloseReason(StrEnum):
    EVERYONE_LEFT = "everyone left"
    CANCELLED = "cancelled"
    BOARD_LOST = "the bot cannot show its board in this channel"
    IDLE = "idle"
    """Nobody pressed anything at the lobby or finished table for its idle time."""
    LEFT_TO_COMPUTERS = "every person left the game"
    """Every person left a running game: the computers played it out, then the table closed."""


@dataclass(frozen=True, slots=True)
class Player:
    """Who sat in a seat when a result was recorded (seats may change afterwards)."""

    name: str
    user_id: int | None = None

    @classmethod
    def of(cls, seat: Seat) -> Player:
        return cls(seat.name, seat.user_id)


@dataclass(frozen=True, slots=True)
class Charge:
    """One line of settlement seen from one seat: ``paid`` of ``owed`` chips for ``reason``;
    ``payer``: this seat paid (otherwise it received)."""

    reason: str
    paid: int
    owed: int
    payer: bool


@dataclass(frozen=True, slots=True)
class PlaceResult:
    place: int
    player: Player
    chips: int
    """The seat's chip change."""
    charges: tuple[Charge, ...] = ()
    frozen: bool = False
    """Frozen by cóng: never played a card before the first player went out (pays double)."""
    left: bool = False
    """The person left the running game (a computer finished the seat): settled as the last."""
    held: tuple[Card, ...] = ()
    """The cards the seat still held when the game ended (shown to all once it is over)."""
    balance: int | None = None
    """The person's chips just after the settlement (None: a computer player)."""
    rating: tuple[int, int] | None = None
    """The person's display rating (before, after) the game: a ranked game's person only."""


@dataclass(frozen=True, slots=True)
class GameResults:
    places: tuple[PlaceResult, ...]
    instant_win: InstantWinKind | None = None
    winner: Player | None = None
    multiplier: int = 1
    winner_hand: tuple[Card, ...] = ()
    """The hand that won at once (an instant win is decided on the dealt hands)."""
    game_id: int | None = None
    """The stored game these are the results of (None: results saved before it was kept)."""


@dataclass(frozen=True, slots=True)
class TableClosedResults:
    reason: CloseReason
    last_game: GameResults | None = None
    """The results of the table's last game, when it had just finished (they stay shown)."""
    idle_seconds: int = 0
    """The table's idle time (for ``CloseReason.IDLE``)."""


@dataclass(frozen=True, slots=True)
class LegacyResults:
    """Lines saved, already worded, before results were structured."""

    lines: tuple[str, ...]


Results = GameResults | TableClosedResults | LegacyResults


def _player(data: dict[str, Any]) -> Player:
    return Player(str(data["name"]), data.get("user_id"))


def _rating(data: Any) -> tuple[int, int] | None:
    if not data:
        return None
    before, after = data
    return int(before), int(after)


def results_to_json(results: Results | None) -> Any:
    match results:
        case None:
            return None
        case GameResults():
            return {
                "kind": "game",
                "places": [
                    {
                        "place": p.place,
                        "player": {"name": p.player.name, "user_id": p.player.user_id},
                        "chips": p.chips,
                        "charges": [[c.reason, c.paid, c.owed, c.payer] for c in p.charges],
                        "frozen": p.frozen,
                        "left": p.left,
                        "held": [c.code for c in p.held],
                        "balance": p.balance,
                        "rating": None if p.rating is None else list(p.rating),
                    }
                    for p in results.places
                ],
                "instant_win": None if results.instant_win is None else str(results.instant_win),
                "winner": None if results.winner is None else {
                    "name": results.winner.name, "user_id": results.winner.user_id},
                "multiplier": results.multiplier,
                "winner_hand": [c.code for c in results.winner_hand],
                "game_id": results.game_id,
            }
        case TableClosedResults():
            return {"kind": "closed", "reason": str(results.reason),
                    "last_game": results_to_json(results.last_game),
                    "idle_seconds": results.idle_seconds}
        case LegacyResults():
            return list(results.lines)


def results_from_json(data: Any) -> Results | None:
    """Read saved results (a list of lines: the format before results were structured)."""
    if not data:
        return None
    if isinstance(data, list):
        return LegacyResults(tuple(str(line) for line in data))
    if data.get("kind") == "closed":
        last = results_from_json(data.get("last_game"))
        return TableClosedResults(CloseReason(data["reason"]),
                                  last_game=last if isinstance(last, GameResults) else None,
                                  idle_seconds=int(data.get("idle_seconds") or 0))
    win = data.get("instant_win")
    winner = data.get("winner")
    return GameResults(
        places=tuple(
            PlaceResult(
                place=int(p["place"]),
                player=_player(p["player"]),
                chips=int(p["chips"]),
                charges=tuple(Charge(str(r), int(paid), int(owed), bool(payer))
                              for r, paid, owed, payer in p.get("charges", ())),
                frozen=bool(p.get("frozen", False)),
                left=bool(p.get("left", False)),
                held=tuple(parse_cards(p.get("held") or [])),
                balance=None if p.get("balance") is None else int(p["balance"]),
                rating=_rating(p.get("rating")),
            )
            for p in data["places"]
        ),
        instant_win=None if win is None else InstantWinKind(win),
        winner=None if winner is None else _player(winner),
        multiplier=int(data.get("multiplier", 1)),
        winner_hand=tuple(parse_cards(data.get("winner_hand") or [])),
        game_id=None if data.get("game_id") is None else int(data["game_id"]),
    )


@dataclass(frozen=True, slots=True)
class StandingReminder:
    """A turn reminder posted in the table's channel and not yet turned into its past-tense line
    (kept in the store with the table, so that after a restart it is found and edited)."""

    channel_id: int
    message_id: int
    seat: int
    user_id: int
    version: int
    """The game version it was posted at: any later change ends it."""
    events_at: int
    """How many game events there were when it was posted (what followed says how it ended)."""

    def to_json(self) -> dict[str, int]:
        return {"channel_id": self.channel_id, "message_id": self.message_id, "seat": self.seat,
                "user_id": self.user_id, "version": self.version, "events_at": self.events_at}

    @classmethod
    def from_json(cls, data: Any) -> StandingReminder | None:
        if not isinstance(data, dict):
            return None
        return cls(int(data["channel_id"]), int(data["message_id"]), int(data["seat"]),
                   int(data["user_id"]), int(data["version"]), int(data.get("events_at", 0)))


@functools.lru_cache(maxsize=256)
def _rules_of(rules_json: str) -> Rules:
    """The rules stored as this text. Every board and hand drawn reads them, and a table's text
    rarely changes, so each text is parsed once (``Rules`` is frozen: sharing one is safe)."""
    return Rules.model_validate_json(rules_json)


@dataclass
class LiveTable:
    """A table held in memory, mirrored in the store after every change."""

    table: TableRecord
    phase: TablePhase = TablePhase.LOBBY
    max_seats: int = 4
    language: str = "en"
    """The language of the table's public messages ("en" or "vi"), chosen when it opened."""
    opener_language: str = "en"
    """The language of the person who opened the table (the fallback when the server has none)."""
    results: Results | None = None
    game: Game | None = None
    game_id: int | None = None
    game_version: int = 0
    previous_game_json: str | None = None
    previous_seats: list[dict[str, Any]] | None = None
    afk: list[int] = field(default_factory=list)
    auto: list[bool] = field(default_factory=list)
    reactions: list[Any] = field(default_factory=list)
    """Reactions waiting for the next board refresh (:mod:`cogs.tables.reactions`)."""
    reactions_upto: int = 0
    """The change counter the board last went out at: older reactions are not shown again."""
    deadline: float | None = None
    deadline_version: int = -1  # the game version the deadline was armed for
    turn_reminder: int | None = None
    """Seconds into a person's turn before they are reminded (0: never; None: half the turn)."""
    reminder: StandingReminder | None = None
    """The turn reminder standing in the channel now (at most one per table)."""
    in_thread: bool = False
    """The table lives in a thread the bot opened for it (archived when the table closes)."""
    ranked: bool = True
    """The table's games are rated (docs/RATING.md); a casual table's change no rating. Chosen
    when the table opens and kept for every game it deals."""
    over_posted: int | None = None
    """The id of the last game whose game-over post was sent (sent exactly once per game)."""
    clock_events: list[int] = field(default_factory=list)
    """Indexes in the game's events of the actions the turn clock made (a timeout, not a
    choice: the board says "ran out of time")."""
    left: list[tuple[int, list[Card]]] = field(default_factory=list)
    """The seats whose people left the running game, in the order they left, each with the cards
    it held then (saved with the game: settled as the last places, unseated after the game)."""
    ready: list[int] = field(default_factory=list)
    """The people who pressed `Play again` (the ready check for the next deal), in order."""
    ready_deadline: float | None = None
    """When the ready check ends (wall clock): the next deal starts if 2+ seated are ready."""
    last_press: float = 0.0
    """Wall-clock time of the last press at the table (a lobby or finished table closes itself
    after ``idle_seconds`` without one)."""
    idle_seconds: int = 900
    """Seconds without a press before a lobby or finished table closes itself (0: never)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changes: int = 0
    board_rendered: int = -1
    last_board_edit: float = 0.0
    board_pending_since: float | None = None  # loop time of the first change not yet shown
    clock_task: asyncio.Task[None] | None = None
    ai_task: asyncio.Task[None] | None = None
    chop_task: asyncio.Task[None] | None = None
    board_task: asyncio.Task[None] | None = None
    remind_task: asyncio.Task[None] | None = None
    idle_task: asyncio.Task[None] | None = None
    ready_task: asyncio.Task[None] | None = None

    @property
    def id(self) -> int:
        return self.table.id

    @property
    def seats(self) -> tuple[Seat, ...]:
        return self.table.seats

    @property
    def log_extra(self) -> dict[str, int]:
        """For log calls about this table: its server, so the line names the server's shard."""
        return {"guild_id": self.table.guild_id}

    @property
    def rules(self) -> Rules:
        return _rules_of(self.table.rules_json)

    @property
    def playing(self) -> bool:
        return self.phase is TablePhase.PLAYING and self.game is not None

    def seat_of(self, user_id: int) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat.user_id == user_id:
                return index
        return None

    @property
    def reminder_after(self) -> int:
        """Seconds into a person's turn before the reminder (0: none; default half the turn)."""
        if self.turn_reminder is None:
            return self.table.turn_seconds // 2
        return self.turn_reminder

    def by_clock(self, index: int) -> bool:
        """Whether the game's event ``index`` is an action the turn clock made."""
        return index in self.clock_events

    def controlled_by_computer(self, seat: int) -> bool:
        if self.seats[seat].bot is not None:
            return True
        return bool(self.auto and self.auto[seat])

    def seats_match_game(self, user_id: int) -> bool:
        """Whether the person's seat now is their seat in the table's game (not so once the
        seats changed after the game: people who left it were unseated, others moved up)."""
        seat = self.seat_of(user_id)
        game = self.game
        return (seat is not None and game is not None and seat < game.seat_count
                and game.players[seat] == str(user_id))

    def has_left(self, seat: int) -> bool:
        """Whether the person of ``seat`` left the running game (a computer holds the seat)."""
        return any(s == seat for s, _ in self.left)

    @property
    def had_game(self) -> bool:
        """Whether a game was played at this table (its board offers `Play again`)."""
        return self.previous_game_json is not None

    def extras_json(self) -> str:
        return json.dumps(
            {
                "phase": str(self.phase),
                "max_seats": self.max_seats,
                "language": self.language,
                "opener_language": self.opener_language,
                "turn_reminder": self.turn_reminder,
                "reminder": None if self.reminder is None else self.reminder.to_json(),
                "over_posted": self.over_posted,
                "in_thread": self.in_thread,
                "ranked": self.ranked,
                "results": results_to_json(self.results),
                "previous_game_json": self.previous_game_json,
                "previous_seats": self.previous_seats,
                "ready": self.ready,
                "ready_deadline": self.ready_deadline,
                "last_press": self.last_press,
                "idle_seconds": self.idle_seconds,
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
                "left": [[seat, [c.code for c in held]] for seat, held in self.left],
                "clock_events": self.clock_events,
            }
        )
