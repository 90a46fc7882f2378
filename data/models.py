"""Plain records the store reads and writes. Frozen dataclasses; no I/O here."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from data.errors import InvalidInput

TableStatus = Literal["open", "closed"]
GameStatus = Literal["lobby", "playing", "finished", "cancelled"]
LeaderboardKey = Literal["chips", "wins", "winrate"]
LeaderboardScope = Literal["server", "global"]


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: a human (`user_id`), a computer player (`bot` = its level) or empty (neither)."""

    name: str
    user_id: int | None = None
    bot: str | None = None

    @property
    def is_human(self) -> bool:
        return self.user_id is not None

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and self.bot is None

    def to_json(self) -> dict[str, Any]:
        return {"user_id": self.user_id, "bot": self.bot, "name": self.name}

    @classmethod
    def coerce(cls, value: Seat | Mapping[str, Any]) -> Seat:
        if isinstance(value, Seat):
            seat = value
        elif isinstance(value, Mapping):
            try:
                seat = cls(
                    name=str(value.get("name", "")),
                    user_id=value.get("user_id"),
                    bot=value.get("bot"),
                )
            except TypeError as exc:  # pragma: no cover - dataclass init is permissive
                raise InvalidInput(f"A seat is malformed: {value!r}.") from exc
        else:
            raise InvalidInput(f"A seat must be a Seat or a mapping, not {type(value).__name__}.")
        if seat.user_id is not None and (
            not isinstance(seat.user_id, int) or isinstance(seat.user_id, bool)
        ):
            raise InvalidInput(f"A seat's user_id must be an integer, not {seat.user_id!r}.")
        if seat.user_id is not None and seat.bot is not None:
            raise InvalidInput("A seat holds either a person or a computer player, not both.")
        if seat.bot is not None and not isinstance(seat.bot, str):
            raise InvalidInput(f"A computer player's level must be text, not {seat.bot!r}.")
        return seat


SeatLike = Seat | Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class TableRecord:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: TableStatus
    rules_json: str
    stake: int
    turn_seconds: int
    seats: tuple[Seat, ...]
    board_message_id: int | None
    board_posted_at: datetime | None
    current_game_id: int | None
    state_json: str | None
    version: int
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    table_id: int | None
    host_id: int
    rules_json: str
    stake: int
    status: GameStatus
    seats: tuple[Seat, ...]
    state_json: str | None
    version: int
    created_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    ranked: bool = True
    """A ranked game's settlement rates its people; a casual one changes no rating."""


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards a bot process runs: `ids` out of `count` (Discord's sharding)."""

    ids: frozenset[int]
    count: int

    def __post_init__(self) -> None:
        if not isinstance(self.count, int) or isinstance(self.count, bool) or self.count < 1:
            raise InvalidInput(f"The shard count must be at least 1, not {self.count!r}.")
        if not self.ids:
            raise InvalidInput("A process runs at least one shard.")
        bad = sorted(i for i in self.ids if not 0 <= i < self.count)
        if bad:
            raise InvalidInput(f"Shard ids {bad} are outside 0..{self.count - 1}.")

    @classmethod
    def of(cls, ids: Iterable[int], count: int) -> Shards:
        return cls(frozenset(ids), count)

    @staticmethod
    def shard_of(guild_id: int, count: int) -> int:
        """The shard that carries a guild's events: (guild_id >> 22) % count."""
        return (guild_id >> 22) % count

    def owns(self, guild_id: int) -> bool:
        return self.shard_of(guild_id, self.count) in self.ids


class TransferLike(Protocol):
    """What `settle_game` reads from a transfer; `engine.Transfer` fits."""

    @property
    def payer(self) -> int: ...
    @property
    def payee(self) -> int: ...
    @property
    def paid(self) -> int: ...
    @property
    def reason(self) -> str: ...


@dataclass(frozen=True, slots=True)
class ChipTransfer:
    """A chip movement between two seats of one game (`paid` chips from payer to payee).

    The store's own record of what `engine.Transfer` describes; either fits `settle_game`.
    """

    payer: int
    payee: int
    paid: int
    reason: str


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's place in a finished game and the bombs it played (for stats)."""

    seat: int
    place: int
    bombs_played: int = 0
    left: bool = False
    """The person left the running game: rated last among the seats that left (docs/RATING.md)."""


@dataclass(frozen=True, slots=True)
class ResultRow:
    seat: int
    user_id: int | None
    place: int
    chip_change: int


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a ranked game did to one person's server rating (display ratings, docs/RATING.md)."""

    seat: int
    user_id: int
    before: int
    after: int

    @property
    def delta(self) -> int:
        return self.after - self.before


@dataclass(frozen=True, slots=True)
class Settled:
    """What a settlement booked. `first_call` is False when the game had already been settled.
    `ratings`: each person's server rating change (empty for a casual game)."""

    game_id: int
    results: tuple[ResultRow, ...]
    first_call: bool = field(default=True, compare=False)
    ratings: tuple[RatingChange, ...] = ()

    @property
    def chip_changes(self) -> dict[int, int]:
        """user id -> chips won (negative: lost) for every human seat."""
        return {r.user_id: r.chip_change for r in self.results if r.user_id is not None}


@dataclass(frozen=True, slots=True)
class DailyClaim:
    granted: int
    chips: int
    next_at: datetime


@dataclass(frozen=True, slots=True)
class PlayerStats:
    guild_id: int
    user_id: int
    chips: int
    games: int
    wins: int
    places: dict[int, int]
    chips_won: int
    chips_lost: int
    bombs_played: int

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


@dataclass(frozen=True, slots=True)
class LeaderboardEntry:
    """One ranked player. On the server board `chips` is what they hold there; on the global
    board it is what they hold across every server. `net_chips` is chips won minus chips lost
    in games (what the global "chips" board ranks, since chips are per server)."""

    rank: int
    user_id: int
    chips: int
    games: int
    wins: int
    net_chips: int = 0

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None


@dataclass(frozen=True, slots=True)
class LeaderboardPage:
    by: LeaderboardKey
    page: int
    pages: int
    total: int
    entries: tuple[LeaderboardEntry, ...]
    scope: LeaderboardScope = "server"


@dataclass(frozen=True, slots=True)
class GuildSettings:
    """A server's defaults; None means "use the bot's default"."""

    guild_id: int
    preset: str | None = None
    stake: int | None = None
    turn_seconds: int | None = None
    language: str | None = None  # "auto", "en" or "vi" (the table language)
    turn_reminder: int | None = None  # seconds into a turn before a reminder; 0 = off
    images: bool | None = None  # card pictures on the board and hands
