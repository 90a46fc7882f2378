"""Cards as immutable values, parsing and formatting, and the bit layout used for speed.

A :class:`Card` is a frozen dataclass on the :class:`Rank` and :class:`Suit` enums. Ranks are
ordered Tiến Lên style (3 lowest, 2 highest); the suit order depends on the rule set, so the
engine orders cards through a :class:`Layout` built from ``Rules.suit_order``.

Internally a multiset of cards is an ``int`` with a 2-bit count per card: card index
``i = rank * 4 + suit_position`` occupies bits ``2i`` and ``2i + 1`` (so the 4 cards of rank ``r``
are the byte ``(mask >> 8 * r) & 0xFF``). With one deck every count is 0 or 1; with two decks a
count may be 2. Comparing the top cards of two plays is then ``mask.bit_length()``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum, unique
from functools import cache

from engine.errors import Cause, InvalidCards

__all__ = [
    "Card",
    "Layout",
    "Rank",
    "Suit",
    "count_cards",
    "format_cards",
    "full_deck",
    "layout_for",
    "parse_card",
    "parse_cards",
]


@unique
class Rank(IntEnum):
    """Card ranks, low to high in Tiến Lên order (the 2, "heo", is the highest)."""

    THREE = 0
    FOUR = 1
    FIVE = 2
    SIX = 3
    SEVEN = 4
    EIGHT = 5
    NINE = 6
    TEN = 7
    JACK = 8
    QUEEN = 9
    KING = 10
    ACE = 11
    TWO = 12

    @property
    def label(self) -> str:
        """The rank as printed on a card: ``3`` … ``10``, ``J``, ``Q``, ``K``, ``A``, ``2``."""
        return _RANK_LABELS[self]

    @property
    def plural(self) -> str:
        """The rank in a phrase like "pair of 7s" or "pair of Aces"."""
        return _RANK_PLURALS[self]


_RANK_LABELS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
_RANK_PLURALS = (
    "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "Jacks", "Queens", "Kings", "Aces", "2s",
)


@unique
class Suit(IntEnum):
    """Suits. The integer values give the default order ♠ < ♣ < ♦ < ♥; rule sets may reorder."""

    SPADES = 0
    CLUBS = 1
    DIAMONDS = 2
    HEARTS = 3

    @property
    def letter(self) -> str:
        """One ASCII letter: S, C, D or H."""
        return "SCDH"[self]

    @property
    def symbol(self) -> str:
        """The suit symbol: ♠ ♣ ♦ ♥."""
        return "♠♣♦♥"[self]

    @property
    def is_red(self) -> bool:
        """Diamonds and hearts are red."""
        return self in (Suit.DIAMONDS, Suit.HEARTS)


_SUIT_BY_TEXT: dict[str, Suit] = {}
for _s in Suit:
    _SUIT_BY_TEXT[_s.letter] = _s
    _SUIT_BY_TEXT[_s.symbol] = _s
# Variation selectors and the white-suit symbols people sometimes paste.
_SUIT_BY_TEXT.update({"♤": Suit.SPADES, "♧": Suit.CLUBS, "♢": Suit.DIAMONDS, "♡": Suit.HEARTS})
_SUIT_BY_TEXT.update({"♥️": Suit.HEARTS, "♦️": Suit.DIAMONDS, "♣️": Suit.CLUBS, "♠️": Suit.SPADES})

_RANK_BY_TEXT: dict[str, Rank] = {r.label: r for r in Rank}
_RANK_BY_TEXT["T"] = Rank.TEN


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card. Ordering is by rank, then suit in the default order ♠ ♣ ♦ ♥.

    ``str(card)`` is the label ``3♠`` / ``10♥`` / ``Q♦``; :attr:`code` the ASCII form ``3S``.
    Two identical cards (from two decks) compare equal.
    """

    rank: Rank
    suit: Suit

    def __str__(self) -> str:
        return _RANK_LABELS[self.rank] + "♠♣♦♥"[self.suit]

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @property
    def code(self) -> str:
        """ASCII notation, as used in tests and in the game log: ``3S``, ``10H``, ``2D``."""
        return _RANK_LABELS[self.rank] + "SCDH"[self.suit]

    @property
    def is_red(self) -> bool:
        return self.suit.is_red


_ALL_CARDS: dict[tuple[Rank, Suit], Card] = {(r, s): Card(r, s) for r in Rank for s in Suit}
_DECK: tuple[Card, ...] = tuple(_ALL_CARDS.values())  # low to high: rank, then suit


def full_deck() -> list[Card]:
    """The 52 cards of one deck, low to high in the default order."""
    return list(_DECK)


def parse_card(token: str) -> Card:
    """Parse one card token (case-insensitive rank ``3``…``10``/``T``, ``J``, ``Q``, ``K``, ``A``,
    ``2`` followed by a suit letter or symbol)."""
    text = token.strip()
    upper = text.upper().replace("\ufe0f", "")
    if len(upper) >= 2:
        rank = _RANK_BY_TEXT.get(upper[:-1])
        suit = _SUIT_BY_TEXT.get(upper[-1])
        if rank is not None and suit is not None:
            return _ALL_CARDS[(rank, suit)]
    raise InvalidCards(f"{token!r} is not a card (write cards like 3S, 10H, TD, QC or 2♥)",
                       token=token)


_SPLIT = re.compile(r"[\s,;]+")


def parse_cards(text: str | Iterable[Card | str]) -> list[Card]:
    """Parse cards separated by whitespace or commas: ``"3S 4h 10D TD JC 2♥"``.

    Also accepts an iterable of cards or tokens. A bad token raises :class:`InvalidCards` naming
    it. Duplicates are kept (whether they are allowed depends on the number of decks).
    """
    if isinstance(text, str):
        return [parse_card(tok) for tok in _SPLIT.split(text.strip()) if tok]
    out: list[Card] = []
    for item in text:
        if isinstance(item, Card):
            out.append(item)
        elif isinstance(item, str):
            out.append(parse_card(item))
        else:
            raise InvalidCards(f"{item!r} is not a card", token=repr(item))
    return out


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as labels separated by spaces: ``3♠ 4♥ 10♦``."""
    return " ".join(str(c) for c in cards)


class Layout:
    """Card indexes and bit masks under one suit order (low to high).

    One instance per suit order (see :func:`layout_for`), so identity comparison is fine.
    """

    __slots__ = ("bit_of", "card_at", "index_of", "order", "position")

    def __init__(self, order: tuple[Suit, ...]) -> None:
        self.order = order
        self.position: dict[Suit, int] = {s: i for i, s in enumerate(order)}
        self.card_at: tuple[Card, ...] = tuple(_ALL_CARDS[(r, s)] for r in Rank for s in order)
        self.index_of: dict[Card, int] = {c: i for i, c in enumerate(self.card_at)}
        self.bit_of: dict[Card, int] = {c: 1 << (2 * i) for i, c in enumerate(self.card_at)}

    def __repr__(self) -> str:
        return "Layout(" + "".join(s.symbol for s in self.order) + ")"

    def __reduce__(self) -> tuple[object, tuple[tuple[Suit, ...]]]:
        return (layout_for, (self.order,))

    def key(self, card: Card) -> int:
        """Sort key of a card: its index (rank, then suit under this order)."""
        return self.index_of[card]

    def sort(self, cards: Iterable[Card]) -> list[Card]:
        return sorted(cards, key=self.index_of.__getitem__)

    def sort_by_suit(self, cards: Iterable[Card]) -> list[Card]:
        """The cards grouped by suit in this order, low to high within each suit."""
        return sorted(cards, key=lambda c: (self.order.index(c.suit), self.index_of[c]))

    def to_mask(self, cards: Iterable[Card], decks: int = 1) -> int:
        """The count mask of the cards; more copies than ``decks`` raises :class:`InvalidCards`."""
        mask = 0
        bit_of = self.bit_of
        for card in cards:
            bit = bit_of[card]
            field = (mask // bit) & 3
            if field >= decks:
                if decks == 1:
                    raise InvalidCards(f"{card} is given twice, but there is only one deck",
                                       cause=Cause.DUPLICATE, card=card, times=2, decks=1)
                raise InvalidCards(
                    f"{card} is given {field + 1} times, but there are only {decks} decks",
                    cause=Cause.DUPLICATE, card=card, times=field + 1, decks=decks,
                )
            mask += bit
        return mask

    def cards(self, mask: int) -> list[Card]:
        """The cards of a count mask, low to high under this order (twins repeated)."""
        out: list[Card] = []
        card_at = self.card_at
        while mask:
            low = mask & -mask
            pos = low.bit_length() - 1
            idx = pos >> 1
            card = card_at[idx]
            out.append(card)
            if pos & 1:  # the field holds 0b10: two identical cards
                out.append(card)
            mask ^= low
        return out


@cache
def layout_for(order: tuple[Suit, ...]) -> Layout:
    """The shared :class:`Layout` of a suit order."""
    if sorted(order) != list(Suit):
        raise ValueError(f"a suit order must list each suit once, not {order!r}")
    return Layout(tuple(order))


def count_cards(mask: int) -> int:
    """Number of cards in a count mask."""
    return (mask & _LOW).bit_count() + 2 * (mask & _HIGH).bit_count()


_LOW = int("01" * 52, 2)
_HIGH = _LOW << 1
