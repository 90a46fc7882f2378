"""How a game ended: the termination, the instant-win hands and the immutable :class:`Outcome`.

Scoring, the store and the boards read an :class:`Outcome` (and the game's log), never a live game.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum, unique
from typing import Any

from engine.cards import Card, count_cards, parse_cards
from engine.combos import COUNT8
from engine.rules import Rules

__all__ = ["InstantWinKind", "Outcome", "Termination", "instant_win_of"]


@unique
class InstantWinKind(StrEnum):
    """Hands that win at once ("tới trắng"), best first."""

    DRAGON = "dragon"
    THIRTEEN_ONE_COLOUR = "thirteen_one_colour"
    FOUR_TWOS = "four_twos"
    PARTIAL_DRAGON = "partial_dragon"
    SIX_PAIRS = "six_pairs"
    FIVE_CONSECUTIVE_PAIRS = "five_consecutive_pairs"
    TWELVE_ONE_COLOUR = "twelve_one_colour"

    @property
    def multiplier(self) -> int:
        return _MULTIPLIERS[self]

    @property
    def label(self) -> str:
        return _LABELS[self]


_MULTIPLIERS = {
    InstantWinKind.DRAGON: 4,
    InstantWinKind.THIRTEEN_ONE_COLOUR: 4,
    InstantWinKind.FOUR_TWOS: 3,
    InstantWinKind.PARTIAL_DRAGON: 2,
    InstantWinKind.SIX_PAIRS: 2,
    InstantWinKind.FIVE_CONSECUTIVE_PAIRS: 2,
    InstantWinKind.TWELVE_ONE_COLOUR: 2,
}
_LABELS = {
    InstantWinKind.DRAGON: "dragon (3 to 2)",
    InstantWinKind.THIRTEEN_ONE_COLOUR: "thirteen cards of one colour",
    InstantWinKind.FOUR_TWOS: "four 2s",
    InstantWinKind.PARTIAL_DRAGON: "dragon (3 to A)",
    InstantWinKind.SIX_PAIRS: "six pairs",
    InstantWinKind.FIVE_CONSECUTIVE_PAIRS: "five consecutive pairs",
    InstantWinKind.TWELVE_ONE_COLOUR: "twelve cards of one colour",
}


@unique
class Termination(StrEnum):
    """How a game ended."""

    EMPTIED_HANDS = "emptied_hands"
    """``end = "to_last"``: all but one player emptied their hands (or were frozen)."""
    FIRST_OUT = "first_out"
    """``end = "first_out"``: the first player to empty their hand won."""
    INSTANT_WIN = "instant_win"
    """A dealt hand won at once."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended (immutable). Scoring and the store read this, never the live game."""

    places: tuple[int, ...]
    """Every seat, best first."""
    reason: Termination
    instant_win: InstantWinKind | None = None
    multiplier: int | None = None
    """The instant win's multiplier, or ``None`` for a game that was played out."""
    cards_left: tuple[int, ...] = ()
    """Cards each seat still held at the end, by seat."""
    frozen: tuple[int, ...] = ()
    """With ``cong``: the seats frozen when the first player went out (they hold the last places,
    in this order); their payments are doubled."""

    def __post_init__(self) -> None:
        # Accept lists from callers, store tuples: an outcome never changes.
        object.__setattr__(self, "places", tuple(int(p) for p in self.places))
        object.__setattr__(self, "cards_left", tuple(int(c) for c in self.cards_left))
        object.__setattr__(self, "frozen", tuple(int(s) for s in self.frozen))

    @property
    def winner(self) -> int:
        return self.places[0]

    @property
    def loser(self) -> int:
        return self.places[-1]

    def to_dict(self) -> dict[str, Any]:
        return {
            "places": list(self.places),
            "reason": str(self.reason),
            "instant_win": None if self.instant_win is None else str(self.instant_win),
            "multiplier": self.multiplier,
            "cards_left": list(self.cards_left),
            "frozen": list(self.frozen),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Outcome:
        iw = data.get("instant_win")
        return cls(
            places=tuple(int(p) for p in data["places"]),
            reason=Termination(data["reason"]),
            instant_win=None if iw is None else InstantWinKind(iw),
            multiplier=data.get("multiplier"),
            cards_left=tuple(int(c) for c in data.get("cards_left", ())),
            frozen=tuple(int(s) for s in data.get("frozen", ())),
        )


def instant_win_of(cards: str | Iterable[Card | str] | int,
                   rules: Rules | None = None) -> InstantWinKind | None:
    """The best instant win a hand qualifies for, or ``None`` (a count mask or cards).

    Colour wins compare with the hand's size: "13 cards of one colour" means every card of the
    hand, "12" all but one (so a 17-card hand needs 17 or 16). Hands of fewer than 13 cards
    (fixed hands in tests) never win at once.
    """
    layout = (rules or Rules()).layout
    mask = cards if isinstance(cards, int) else layout.to_mask(parse_cards(cards), 2)
    counts = [COUNT8[(mask >> (8 * r)) & 255] for r in range(13)]
    size = sum(counts)
    if size < 13:
        return None  # only dealt hands (13 or 17 cards) win at once
    if all(counts):
        return InstantWinKind.DRAGON
    red_positions = [i for i, s in enumerate(layout.order) if s.is_red]
    red_byte = sum(3 << (2 * i) for i in red_positions)
    red_mask = int.from_bytes(bytes([red_byte]) * 13, "little")
    reds = count_cards(mask & red_mask)
    most = max(reds, size - reds)
    if most == size and size >= 13:
        return InstantWinKind.THIRTEEN_ONE_COLOUR
    if counts[12] >= 4:
        return InstantWinKind.FOUR_TWOS
    if all(counts[:12]):
        return InstantWinKind.PARTIAL_DRAGON
    if sum(c // 2 for c in counts) >= 6:
        return InstantWinKind.SIX_PAIRS
    run = 0
    for c in counts[:12]:
        run = run + 1 if c >= 2 else 0
        if run >= 5:
            return InstantWinKind.FIVE_CONSECUTIVE_PAIRS
    if most == size - 1 and size >= 13:
        return InstantWinKind.TWELVE_ONE_COLOUR
    return None
