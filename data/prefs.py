"""A person's own preferences (`/tienlen prefs`); a mixin of :class:`data.store.Store`.

Table ``player_prefs`` (migration 0014): one row per Discord user, for every server, written the
first time they choose something. What a preference may be is declared once, in :data:`CHOICES`;
anything else (a name not declared, a value not among its choices) is refused with
:class:`~data.errors.InvalidInput` and nothing is written.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Literal

from data.errors import InvalidInput
from engine import Card, Suit
from engine.cards import layout_for

if TYPE_CHECKING:
    from data.db import Conn

__all__ = ["CHOICES", "DEFAULT_PREFS", "HandPrefs", "PrefsStore"]

SortBy = Literal["rank", "suit"]

CHOICES: Mapping[str, tuple[object, ...]] = {
    "four_colour": (False, True),
    "sort_by": ("rank", "suit"),
    "pictures": (True, False),
}
"""Every preference and its allowed values (the first is the default)."""


@dataclass(frozen=True, slots=True)
class HandPrefs:
    """How a person's own hand is shown: ``four_colour`` deck (♣ green, ♦ blue), cards sorted by
    ``sort_by`` (rank, or suit then rank), ``pictures`` of the hand. The board, which everyone
    sees, keeps the server's look."""

    four_colour: bool = False
    sort_by: SortBy = "rank"
    pictures: bool = True

    def __post_init__(self) -> None:
        for name, allowed in CHOICES.items():
            value = getattr(self, name)
            if not any(value == a and type(value) is type(a) for a in allowed):
                raise InvalidInput(f"{name} must be one of {', '.join(map(str, allowed))}.")

    def arrange(self, cards: Iterable[Card], suit_order: tuple[Suit, ...]) -> list[Card]:
        """``cards`` in this person's order: low to high by rank (the game's order), or grouped
        by suit in ``suit_order`` and low to high in each suit."""
        layout = layout_for(suit_order)
        return layout.sort_by_suit(cards) if self.sort_by == "suit" else layout.sort(cards)

    def changed(self, **changes: object) -> HandPrefs:
        """These prefs with ``changes`` (declared names and values only, else InvalidInput)."""
        unknown = sorted(set(changes) - set(CHOICES))
        if unknown:
            raise InvalidInput(f"no such preference: {', '.join(unknown)}.")
        return replace(self, **changes)  # type: ignore[arg-type]  # checked in __post_init__


DEFAULT_PREFS = HandPrefs()
"""Everyone's preferences until they choose."""


class PrefsStore:
    """`get_prefs` / `set_prefs` of the store."""

    if TYPE_CHECKING:
        def _read(self) -> AbstractAsyncContextManager[Conn]: ...
        def _write(self) -> AbstractAsyncContextManager[Conn]: ...
        def _now(self, now: datetime | None) -> str: ...

    async def get_prefs(self, user_id: int) -> HandPrefs:
        """A person's preferences (the defaults until they choose)."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT four_colour, sort_by, pictures FROM player_prefs WHERE user_id = ?",
                (user_id,))
        if row is None:
            return HandPrefs()
        return HandPrefs(four_colour=bool(row[0]), sort_by="suit" if row[1] == "suit" else "rank",
                         pictures=bool(row[2]))

    async def set_prefs(self, user_id: int, /, **changes: object) -> HandPrefs:
        """Change some of a person's preferences (names and values of :data:`CHOICES` only:
        anything else raises InvalidInput and nothing is written); returns them all."""
        if type(user_id) is not int or not 0 < user_id < 2**63:
            raise InvalidInput("user_id must be a Discord id.")
        HandPrefs().changed(**changes)  # refuse before touching the database
        async with self._write() as db:
            row = await db.fetchone(
                "SELECT four_colour, sort_by, pictures FROM player_prefs WHERE user_id = ?",
                (user_id,))
            old = HandPrefs() if row is None else HandPrefs(
                four_colour=bool(row[0]), sort_by="suit" if row[1] == "suit" else "rank",
                pictures=bool(row[2]))
            new = old.changed(**changes)
            await db.execute(
                "INSERT INTO player_prefs (user_id, four_colour, sort_by, pictures, updated_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "four_colour = excluded.four_colour, sort_by = excluded.sort_by, "
                "pictures = excluded.pictures, updated_at = excluded.updated_at",
                (user_id, int(new.four_colour), new.sort_by, int(new.pictures),
                 self._now(None)))
        return new
