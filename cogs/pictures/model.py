"""What a picture shows, as plain frozen values (no Discord, no game objects).

A picture depends only on its view-model, so the view-model is also the cache key: two boards
that show the same thing are drawn once. Words that appear in a picture come in
:class:`BoardWords` so that a caller can pass them translated.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine import Card, Rank, Suit
from engine.cards import layout_for

__all__ = ["BoardView", "BoardWords", "HandView", "Packed", "SeatView", "pack", "unpack"]

MAX_SEATS = 8
MAX_HAND = 26  # the most cards a hand can hold (two decks, 4 players, or fixed hands in tests)


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the board shows it."""

    name: str
    cards: int
    turn: bool = False
    passed: bool = False
    away: bool = False
    place: int | None = None  # 1 = first out; set once the seat is out (and at the end)
    chips: int | None = None  # chip change at the end of the game
    revealed: tuple[Card, ...] = ()
    """The cards still held, face up: only in the game-over picture (lật bài), never before."""
    keep: str = ""
    """The end of ``name`` kept whole when the name is cut to fit (a computer's level:
    "Máy 2 (khó)" becomes "Má… (khó)", never "Máy 2 (k…")."""

    def __post_init__(self) -> None:
        if self.cards < 0:
            raise ValueError("a seat cannot hold fewer than 0 cards")
        if self.place is not None and self.place < 1:
            raise ValueError("places start at 1")
        if self.revealed and len(self.revealed) != self.cards:
            raise ValueError("a seat reveals exactly the cards it holds")


@dataclass(frozen=True, slots=True)
class BoardWords:
    """Every word a board picture may show; ``{…}`` fields are filled in by the renderer."""

    header: str = "Table #{table} · stake {stake}"
    to_beat: str = "To beat"
    played_by: str = "by {name}"
    new_lead: str = "New lead"
    won_trick: str = "{name} won the trick"
    """Under "New lead": who won the trick just ended (and so leads)."""
    game_over: str = "Game over"
    exchange: str = "Card exchange"
    passed: str = "PASSED"
    away: str = "AWAY"
    out: str = "OUT"
    last_card: str = "1 CARD!"
    """The flag of a seat on its last card (báo 1 lá)."""
    two_cards: str = "2 CARDS!"
    """The flag of a seat on two cards (báo 2 lá)."""
    places: tuple[str, ...] = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th")
    group: str = ","
    """The thousands separator of the picture's language ("," in English, "." in Vietnamese)."""

    def place(self, place: int) -> str:
        return self.places[place - 1] if place <= len(self.places) else f"#{place}"

    def num(self, value: int) -> str:
        """``value`` with its thousands grouped: 10,000 / 10.000."""
        return f"{value:,}".replace(",", self.group)


@dataclass(frozen=True, slots=True)
class BoardView:
    """A table: seats by number, seat 0 drawn at the bottom and the others placed so that play
    goes round counter-clockwise (``direction`` 1: seat 1 on seat 0's right; -1: the engine's
    reversed order, seat 1 on its left)."""

    table: int
    stake: int
    seats: tuple[SeatView, ...]
    to_beat: tuple[Card, ...] = ()
    to_beat_by: int | None = None  # index into ``seats``
    finished: bool = False
    note: str | None = None  # replaces "New lead" when nothing is on the table (e.g. an exchange)
    words: BoardWords = field(default_factory=BoardWords)
    direction: int = 1
    """The engine's order of play: 1 (seat 0, 1, 2, …) or -1 (seat 0, n-1, …)."""
    lead_by: int | None = None
    """With nothing to beat: the seat that won the trick just ended (index into ``seats``)."""

    def __post_init__(self) -> None:
        if not 1 <= len(self.seats) <= MAX_SEATS:
            raise ValueError(f"a board shows 1 to {MAX_SEATS} seats, not {len(self.seats)}")
        for seat in (self.to_beat_by, self.lead_by):
            if seat is not None and not 0 <= seat < len(self.seats):
                raise ValueError(f"there is no seat {seat}")
        if self.direction not in (1, -1):
            raise ValueError("direction must be 1 or -1")
        if not self.finished and any(seat.revealed for seat in self.seats):
            raise ValueError("hands are shown face up only once the game is over")


@dataclass(frozen=True, slots=True)
class HandView:
    """A hand in display order; ``raised[i]`` tells whether card ``i`` is selected;
    ``four_colour``: the owner's four-colour deck (♣ green, ♦ blue). The owner's order (by rank
    or by suit) is the order of ``cards``."""

    cards: tuple[Card, ...]
    raised: tuple[bool, ...] = ()
    four_colour: bool = False

    def __post_init__(self) -> None:
        if not self.raised:
            object.__setattr__(self, "raised", (False,) * len(self.cards))
        if len(self.raised) != len(self.cards):
            raise ValueError("raised must have one flag per card")
        if len(self.cards) > MAX_HAND:
            raise ValueError(f"a hand picture shows at most {MAX_HAND} cards")

    @classmethod
    def sorted(cls, cards: Iterable[Card], selected: Sequence[Card] = (),
               suit_order: tuple[Suit, ...] = tuple(Suit), *, by_suit: bool = False,
               four_colour: bool = False) -> HandView:
        """The hand sorted low to high under ``suit_order`` (``by_suit``: grouped by suit in
        that order, low to high in each); cards in ``selected`` raised (with two decks a card
        listed once raises one of its two copies)."""
        layout = layout_for(suit_order)
        ordered = layout.sort_by_suit(cards) if by_suit else layout.sort(cards)
        left = list(selected)
        raised = []
        for card in ordered:
            if card in left:
                left.remove(card)
                raised.append(True)
            else:
                raised.append(False)
        return cls(tuple(ordered), tuple(raised), four_colour)


Packed = tuple[Any, ...]
"""A view as plain tuples, ints and strings (:func:`pack`)."""


def _cards(cards: tuple[Card, ...]) -> tuple[tuple[int, int], ...]:
    return tuple((int(card.rank), int(card.suit)) for card in cards)


def _uncards(packed: tuple[tuple[int, int], ...]) -> tuple[Card, ...]:
    return tuple(Card(Rank(rank), Suit(suit)) for rank, suit in packed)


def pack(view: BoardView | HandView) -> Packed:
    """``view`` as nested tuples of ints, strings, booleans and None, which :func:`unpack` turns
    back into an equal view. Pickled, it is what a drawing process is sent and what a picture's
    key hashes: frozen dataclasses with slots pickle and unpickle field by field in Python
    (36 and 41 µs a board), these tuples in C (a board packed and pickled in 8 µs)."""
    if isinstance(view, HandView):
        return ("hand", _cards(view.cards), view.raised, view.four_colour)
    words = view.words
    return ("board", view.table, view.stake,
            tuple((s.name, s.cards, s.turn, s.passed, s.away, s.place, s.chips,
                   _cards(s.revealed), s.keep) for s in view.seats),
            _cards(view.to_beat), view.to_beat_by, view.finished, view.note,
            (words.header, words.to_beat, words.played_by, words.new_lead, words.won_trick,
             words.game_over, words.exchange, words.passed, words.away, words.out,
             words.last_card, words.two_cards, words.places, words.group),
            view.direction, view.lead_by)


def unpack(packed: Packed) -> BoardView | HandView:
    """The view :func:`pack` made ``packed`` of (checked again as it is built)."""
    if packed[0] == "hand":
        _, cards, raised, four_colour = packed
        return HandView(_uncards(cards), raised, four_colour)
    _, table, stake, seats, to_beat, to_beat_by, finished, note, words, direction, lead_by = packed
    return BoardView(
        table, stake,
        tuple(SeatView(name, cards, turn, passed, away, place, chips, _uncards(revealed), keep)
              for name, cards, turn, passed, away, place, chips, revealed, keep in seats),
        _uncards(to_beat), to_beat_by, finished, note, BoardWords(*words), direction, lead_by)
