"""The table layer: live tables between the Discord side and the engine and store.

Not part of an extension, so reloading the cogs never duplicates its classes. It imports neither
`discord` nor any cog, and words nothing for players: refusals are `TableError`s carrying their
cause and data, results are structured (`cogs.tables.live`); the Discord side words both.

* `live`: a live table (`LiveTable`, `TablePhase`) and the results of its last game;
* `errors`: the refusals;
* `service`: `TableService`, every action on a table;
* `scheduling`: the turn clock, computer turns and chops, board refreshes (a mixin of the service);
* `budget`: `RestBudget`, the one scheduler of every REST request the bot makes on its own.
"""

from .budget import RestBudget
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
    TableError,
    TableFull,
    TableGone,
    TooFewSeats,
    UnknownLevel,
)
from .live import (
    Charge,
    CloseReason,
    GameResults,
    LegacyResults,
    LiveTable,
    PlaceResult,
    Player,
    Results,
    TableClosedResults,
    TablePhase,
)
from .scheduling import BOARD_MAX_AGE, MAX_TIMEOUTS, BoardUnavailable, Publisher
from .service import TableService

__all__ = [
    "BOARD_MAX_AGE",
    "MAX_TIMEOUTS",
    "ActionRefused",
    "AlreadySeated",
    "BadSeatCount",
    "BadStake",
    "BoardUnavailable",
    "CardsGone",
    "ChannelHasTable",
    "Charge",
    "CloseReason",
    "GameInProgress",
    "GameNotOver",
    "GameResults",
    "LegacyResults",
    "LiveTable",
    "NoGame",
    "NotEnoughChips",
    "NotHost",
    "NotSeated",
    "PlaceResult",
    "Player",
    "Publisher",
    "RestBudget",
    "Results",
    "ShortOfChips",
    "StoreRefused",
    "TableChanged",
    "TableClosed",
    "TableClosedResults",
    "TableError",
    "TableFull",
    "TableGone",
    "TablePhase",
    "TableService",
    "TooFewSeats",
    "UnknownLevel",
]
