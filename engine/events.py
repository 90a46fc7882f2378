"""The game log: one frozen event per thing that happened, JSON-friendly via to_dict/from_dict.

Actions (what players do) are :class:`Played`, :class:`Passed` and returning :class:`Exchanged`
events; :class:`Dealt` starts every log; the others are consequences the engine derives.
``Game.replay(events)`` re-applies the actions and checks that the derived events match.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar

from engine.cards import Card, parse_cards
from engine.combos import ComboKind
from engine.outcome import InstantWinKind, Termination
from engine.rules import Rules

__all__ = [
    "Chopped",
    "Dealt",
    "Event",
    "Exchanged",
    "Fed",
    "Frozen",
    "GameOver",
    "InstantWin",
    "InstantWinKind",
    "Passed",
    "Played",
    "Termination",
    "TrickWon",
    "WentOut",
    "event_from_dict",
]


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def _cards(value: Any) -> tuple[Card, ...]:
    return tuple(parse_cards(value))


class _Event:
    TYPE: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.TYPE}
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            out[f.name] = _dump(value)
        return out


def _dump(value: Any) -> Any:
    if isinstance(value, Rules):
        return value.model_dump(mode="json")
    if isinstance(value, Card):
        return value.code
    if isinstance(value, StrEnum):
        return str(value)
    if isinstance(value, ComboKind):
        return value.value
    if isinstance(value, (tuple, list)):
        return [_dump(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class Dealt(_Event):
    """The deal that starts a game: everything needed to rebuild it."""

    TYPE: ClassVar[str] = "dealt"
    hands: tuple[tuple[Card, ...], ...]
    leader: int
    first_game: bool
    decks: int
    players: tuple[str, ...]
    rules: Rules
    direction: int = 1
    """+1: play goes to increasing seat indexes; -1: decreasing."""
    must_include: Card | None = None
    """The card the first play must include (the lowest card, first game), if any."""
    previous_places: tuple[int, ...] | None = None
    """With card exchange: the previous game's places, which decide who gives to whom."""


@dataclass(frozen=True, slots=True)
class Exchanged(_Event):
    """Cards passed between games (§10): ``returned`` is False for the automatic gifts to the
    winner and second, True for the cards they give back (a player action)."""

    TYPE: ClassVar[str] = "exchanged"
    giver: int
    receiver: int
    cards: tuple[Card, ...]
    returned: bool = False


@dataclass(frozen=True, slots=True)
class Played(_Event):
    """A combination played. ``chop``: a bomb played on 2s or on another bomb.
    ``out_of_turn``: a chop made after passing or out of turn (§6)."""

    TYPE: ClassVar[str] = "played"
    seat: int
    cards: tuple[Card, ...]
    kind: ComboKind
    trick: int
    out_of_turn: bool = False
    chop: bool = False


@dataclass(frozen=True, slots=True)
class Passed(_Event):
    TYPE: ClassVar[str] = "passed"
    seat: int
    trick: int


@dataclass(frozen=True, slots=True)
class Chopped(_Event):
    """Right after the :class:`Played` of a bomb that chopped 2s, or chopped a bomb that chopped
    2s in this trick: ``seat`` chopped ``victim``'s ``chopped`` cards with ``bomb``."""

    TYPE: ClassVar[str] = "chopped"
    seat: int
    victim: int
    trick: int
    chopped: tuple[Card, ...]
    bomb: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class TrickWon(_Event):
    """Everybody else passed: ``seat`` made the last play of the trick (it may have gone out)."""

    TYPE: ClassVar[str] = "trick_won"
    seat: int
    trick: int


@dataclass(frozen=True, slots=True)
class WentOut(_Event):
    """``seat`` played its last card and takes finishing ``place`` (1 = first)."""

    TYPE: ClassVar[str] = "went_out"
    seat: int
    place: int


@dataclass(frozen=True, slots=True)
class Frozen(_Event):
    """With ``cong``: when the first player went out, these seats had not played a card. They take
    the last places at once (``places``, in the same order), their hands are no longer played and
    their payments are doubled."""

    TYPE: ClassVar[str] = "frozen"
    seats: tuple[int, ...]
    places: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Fed(_Event):
    """With ``anti_feed`` (đền bài): right after the :class:`WentOut` of the first player out,
    ``seat``, whom ``feeder`` fed (see :func:`engine.house.feeds`); ``feeder`` pays the table's
    losses of the game. ``how``: ``"lead"``, ``"answer"`` or ``"pass"``."""

    TYPE: ClassVar[str] = "fed"
    feeder: int
    seat: int
    how: str


@dataclass(frozen=True, slots=True)
class InstantWin(_Event):
    TYPE: ClassVar[str] = "instant_win"
    seat: int
    kind: InstantWinKind
    multiplier: int


@dataclass(frozen=True, slots=True)
class GameOver(_Event):
    """The game ended; ``places`` lists every seat, best first."""

    TYPE: ClassVar[str] = "game_over"
    places: tuple[int, ...]
    reason: Termination = Termination.EMPTIED_HANDS


Event = (
    Dealt | Exchanged | Played | Passed | Chopped | TrickWon | WentOut | Frozen | Fed | InstantWin
    | GameOver
)

_TYPES: dict[str, type[_Event]] = {
    cls.TYPE: cls
    for cls in (
        Dealt, Exchanged, Played, Passed, Chopped, TrickWon, WentOut, Frozen, Fed, InstantWin,
        GameOver,
    )
}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from :meth:`to_dict` output."""
    kind = data.get("type")
    if kind == "dealt":
        must = data.get("must_include")
        prev = data.get("previous_places")
        return Dealt(
            hands=tuple(_cards(h) for h in data["hands"]),
            leader=int(data["leader"]),
            first_game=bool(data["first_game"]),
            decks=int(data["decks"]),
            players=tuple(str(p) for p in data["players"]),
            rules=Rules.model_validate(data["rules"]),
            direction=int(data.get("direction", 1)),
            must_include=None if must is None else parse_cards(must)[0],
            previous_places=None if prev is None else tuple(int(p) for p in prev),
        )
    if kind == "exchanged":
        return Exchanged(int(data["giver"]), int(data["receiver"]), _cards(data["cards"]),
                         bool(data.get("returned", False)))
    if kind == "played":
        return Played(int(data["seat"]), _cards(data["cards"]), ComboKind(data["kind"]),
                      int(data["trick"]), bool(data.get("out_of_turn", False)),
                      bool(data.get("chop", False)))
    if kind == "passed":
        return Passed(int(data["seat"]), int(data["trick"]))
    if kind == "chopped":
        return Chopped(int(data["seat"]), int(data["victim"]), int(data["trick"]),
                       _cards(data["chopped"]), _cards(data["bomb"]))
    if kind == "trick_won":
        return TrickWon(int(data["seat"]), int(data["trick"]))
    if kind == "went_out":
        return WentOut(int(data["seat"]), int(data["place"]))
    if kind == "frozen":
        return Frozen(tuple(int(s) for s in data["seats"]), tuple(int(p) for p in data["places"]))
    if kind == "fed":
        return Fed(int(data["feeder"]), int(data["seat"]), str(data["how"]))
    if kind == "instant_win":
        return InstantWin(int(data["seat"]), InstantWinKind(data["kind"]), int(data["multiplier"]))
    if kind == "game_over":
        return GameOver(tuple(int(p) for p in data["places"]), Termination(data["reason"]))
    raise ValueError(f"unknown event type {kind!r}")
