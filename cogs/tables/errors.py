"""Refusals of the table layer: each one a cause with its data, worded by the Discord side.

Every refusal leaves the table as it was. The message of each exception is for logs and
developers; what a player reads is written by `cogs.words.refusal`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Card, TienLenError

from .live import Player

__all__ = [
    "ActionRefused",
    "AlreadyLeft",
    "AlreadyOut",
    "AlreadyReady",
    "AlreadySeated",
    "BadSeatCount",
    "BadStake",
    "CardsGone",
    "ChannelHasTable",
    "GameInProgress",
    "GameNotOver",
    "NoGame",
    "NoPreviousGame",
    "NotEnoughChips",
    "NotHost",
    "NotSeated",
    "ShortOfChips",
    "StoreRefused",
    "TableChanged",
    "TableClosed",
    "TableError",
    "TableFull",
    "TableGone",
    "TooFewSeats",
    "UnknownLevel",
]


class TableError(Exception):
    """A refusal a player can be told about; nothing changed."""


class TableGone(TableError):
    """The table does not exist (any more)."""


class TableClosed(TableError):
    """The table exists but is closed (``idle``: it closed itself after its idle time)."""

    def __init__(self, table_id: int | None = None, *, idle: bool = False) -> None:
        super().__init__(table_id)
        self.idle = idle


class AlreadyReady(TableError):
    """`Play again` pressed by someone already marked ready for the next deal."""


class AlreadyLeft(TableError):
    """The person already left this game (a computer plays their seat until it ends)."""


class AlreadyOut(TableError):
    """The person already played all their cards: their place is kept; they leave after the
    game (`Leave` on the board)."""


class NoPreviousGame(TableError):
    """`Play again` at a table that has not played a game yet (the host presses Start)."""


class BadStake(TableError):
    """The stake is outside ``minimum`` … ``maximum`` (``None``: no upper bound; otherwise the
    chips of the poorest seated person)."""

    def __init__(self, minimum: int, maximum: int | None = None) -> None:
        super().__init__(f"stake outside {minimum}..{maximum}")
        self.minimum = minimum
        self.maximum = maximum


class BadSeatCount(TableError):
    def __init__(self, low: int, high: int) -> None:
        super().__init__(f"seats outside {low}..{high}")
        self.low = low
        self.high = high


class NotEnoughChips(TableError):
    """The person acting holds less than one stake."""

    def __init__(self, chips: int, stake: int) -> None:
        super().__init__(f"{chips} chips < stake {stake}")
        self.chips = chips
        self.stake = stake


class ShortOfChips(TableError):
    """A game cannot start: these seated people hold less than one stake (user id -> chips)."""

    def __init__(self, table_id: int, short: dict[int, int], stake: int) -> None:
        super().__init__(f"short of chips: {sorted(short)}")
        self.table_id = table_id
        self.short = short
        self.stake = stake


class ChannelHasTable(TableError):
    """The channel already has an open table."""

    def __init__(self, table_id: int, *, guild_id: int | None = None,
                 channel_id: int | None = None, board_message_id: int | None = None) -> None:
        super().__init__(f"channel has table {table_id}")
        self.table_id = table_id
        self.guild_id = guild_id
        self.channel_id = channel_id
        self.board_message_id = board_message_id


class GameInProgress(TableError):
    """Seats change, and games start, only when no game is being played.
    ``starting``: the refused action was starting a game."""

    def __init__(self, *, starting: bool = False) -> None:
        super().__init__("a game is in progress")
        self.starting = starting


class AlreadySeated(TableError):
    pass


class TableFull(TableError):
    pass


class NotSeated(TableError):
    """The person is not seated. ``for_computers``: they tried to add a computer player."""

    def __init__(self, *, for_computers: bool = False) -> None:
        super().__init__("not seated")
        self.for_computers = for_computers


class UnknownLevel(TableError):
    def __init__(self, level: str) -> None:
        super().__init__(f"unknown level {level!r}")
        self.level = level


class NotHost(TableError):
    """Only the host may do this; ``or_manager``: or a member who manages the server."""

    def __init__(self, *, or_manager: bool = False, for_stake: bool = False,
                 for_close: bool = False) -> None:
        super().__init__("not the host")
        self.or_manager = or_manager
        self.for_stake = for_stake
        self.for_close = for_close


class GameNotOver(TableError):
    pass


class TooFewSeats(TableError):
    def __init__(self, minimum: int) -> None:
        super().__init__(f"fewer than {minimum} seats")
        self.minimum = minimum


class NoGame(TableError):
    """No game is being played at the table. ``over``: the one the button belonged to ended."""

    def __init__(self, *, over: bool = False) -> None:
        super().__init__("no game in progress")
        self.over = over


class CardsGone(TableError):
    """Selected cards the seat no longer holds (played already: by the person, the turn clock or
    the computer holding the seat)."""

    def __init__(self, cards: Sequence[Card]) -> None:
        super().__init__("cards no longer held: " + " ".join(map(str, cards)))
        self.cards = tuple(cards)


class TableChanged(TableError):
    """Another change was saved at the same moment; nothing was played."""


class StoreRefused(TableError):
    """The store refused to start the game (its reason is in the message)."""


class ActionRefused(TableError):
    """The engine refused a play or pass. ``waiting_for``: who is to act, when it was not the
    player's turn."""

    def __init__(self, error: TienLenError, waiting_for: Player | None = None) -> None:
        super().__init__(str(error))
        self.error = error
        self.waiting_for = waiting_for
