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


@dataclass(frozen=True, slots=True)
class GameResults:
    places: tuple[PlaceResult, ...]
    instant_win: InstantWinKind | None = None
    winner: Player | None = None
    multiplier: int = 1
    winner_hand: tuple[Card, ...] = ()
    """The hand that won at once (an instant win is decided on the dealt hands)."""


@dataclass(frozen=True, slots=True)
class TableClosedResults:
    reason: CloseReason


@dataclass(frozen=True, slots=True)
class LegacyResults:
    """Lines saved, already worded, before results were structured."""

    lines: tuple[str, ...]


Results = GameResults | TableClosedResults | LegacyResults


def _player(data: dict[str, Any]) -> Player:
    return Player(str(data["name"]), data.get("user_id"))


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
                    }
                    for p in results.places
                ],
                "instant_win": None if results.instant_win is None else str(results.instant_win),
                "winner": None if results.winner is None else {
                    "name": results.winner.name, "user_id": results.winner.user_id},
                "multiplier": results.multiplier,
                "winner_hand": [c.code for c in results.winner_hand],
            }
        case TableClosedResults():
            return {"kind": "closed", "reason": str(results.reason)}
        case LegacyResults():
            return list(results.lines)


def results_from_json(data: Any) -> Results | None:
    """Read saved results (a list of lines: the format before results were structured)."""
    if not data:
        return None
    if isinstance(data, list):
        return LegacyResults(tuple(str(line) for line in data))
    if data.get("kind") == "closed":
        return TableClosedResults(CloseReason(data["reason"]))
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
            )
            for p in data["places"]
        ),
        instant_win=None if win is None else InstantWinKind(win),
        winner=None if winner is None else _player(winner),
        multiplier=int(data.get("multiplier", 1)),
        winner_hand=tuple(parse_cards(data.get("winner_hand") or [])),
    )


@functools.lru_cache(maxsize=256)
def _rules_of(rules_json: str) -> Rules:
    """The rules stored as this text. Every board and hand drawn reads them, and a table's text
    rarely changes, so each text is parsed once (``Rules`` is frozen: sharing one is safe)."""
    return Rules.model_validate_json(rules_json)


MAX_TIMEOUTS_KEPT = 8


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
    timeouts: list[tuple[int, int]] = field(default_factory=list)
    """The turns the clock played in this game: (length of the game's log then, seat), for the
    call-outs (bounded: the latest ``MAX_TIMEOUTS_KEPT``)."""
    reactions: list[Any] = field(default_factory=list)
    """Reactions waiting for the next board refresh (:mod:`cogs.tables.reactions`)."""
    reactions_upto: int = 0
    """The change counter the board last went out at: older reactions are not shown again."""
    deadline: float | None = None
    deadline_version: int = -1  # the game version the deadline was armed for
    turn_reminder: int = 10
    """Seconds into a person's turn before they are reminded (0: never)."""
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

    def controlled_by_computer(self, seat: int) -> bool:
        if self.seats[seat].bot is not None:
            return True
        return bool(self.auto and self.auto[seat])

    def extras_json(self) -> str:
        return json.dumps(
            {
                "phase": str(self.phase),
                "max_seats": self.max_seats,
                "language": self.language,
                "opener_language": self.opener_language,
                "turn_reminder": self.turn_reminder,
                "results": results_to_json(self.results),
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
                "timeouts": self.timeouts,
                "deadline": self.deadline,
                "deadline_version": self.deadline_version,
            }
        )
