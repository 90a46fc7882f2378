"""The ranges of a table's settings, defined once: the environment settings (`bot.settings`),
the slash commands and the server settings (`cogs.tienlen`) all read them from here, and
`tests/test_ranges.py` fails when any of them differs."""

from __future__ import annotations

from typing import Final, NamedTuple


class Bounds(NamedTuple):
    low: int
    high: int

    def __contains__(self, value: object) -> bool:
        return type(value) is int and self.low <= value <= self.high


#: chips per unit at a table
STAKE: Final = Bounds(1, 1_000_000)
#: seconds a person has for a turn
TURN_SECONDS: Final = Bounds(10, 3600)
#: seconds into a turn before the person on turn is reminded (0: never)
TURN_REMINDER: Final = Bounds(0, 3600)
#: minutes without a press before a lobby or finished table closes itself (0: never)
IDLE_MINUTES: Final = Bounds(0, 10080)
