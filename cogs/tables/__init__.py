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

# Each module's `__all__` is the package's API; the package re-exports all of them.
from .budget import *
from .errors import *
from .live import *
from .scheduling import *
from .service import *
