"""Card selections carried inside custom ids: a bitmask over card identities.

A card's code is `rank * 4 + suit` in the fixed ♠♣♦♥ order (0..51); with two decks the second copy
of a card a hand holds gets `code + 52`. The mask survives restarts (it lives in the button's custom
id) and stays meaningful when the hand changes: cards no longer held simply drop out.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine import Card, Rank, Suit

MAX_CODES = 2 * 52
"""Card codes run below this (two decks at most); a selection has at most this many bits."""
MAX_HEX = (MAX_CODES + 3) // 4
"""Hex digits of the largest selection."""

_RANKS = list(Rank)
_SUITS = [Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS]


def card_code(card: Card) -> int:
    return _RANKS.index(card.rank) * 4 + _SUITS.index(card.suit)


def card_from_code(code: int) -> Card:
    """The card of a code (a second copy's ``code + 52`` gives the same card)."""
    code %= 52
    return Card(_RANKS[code // 4], _SUITS[code % 4])


def hand_codes(hand: Sequence[Card]) -> list[int]:
    """Codes of a hand, in hand order; a second identical card gets +52."""
    seen: set[int] = set()
    codes = []
    for card in hand:
        code = card_code(card)
        if code in seen:
            code += 52
        seen.add(code)
        codes.append(code)
    return codes


def to_mask(codes: Iterable[int]) -> int:
    mask = 0
    for code in codes:
        mask |= 1 << code
    return mask


def selected_cards(hand: Sequence[Card], mask: int) -> list[Card]:
    """The cards of `hand` whose codes are in `mask` (cards not held are ignored)."""
    return [card for card, code in zip(hand, hand_codes(hand), strict=True) if mask >> code & 1]


def chosen_cards(hand: Sequence[Card], mask: int) -> list[Card]:
    """Every card `mask` selects, held or not (the cards of `hand` first, in hand order)."""
    codes = hand_codes(hand)
    held = [card for card, code in zip(hand, codes, strict=True) if mask >> code & 1]
    rest = mask & ~to_mask(codes)
    gone = [card_from_code(code) for code in range(rest.bit_length()) if rest >> code & 1]
    return held + gone


def clean_mask(hand: Sequence[Card], mask: int) -> int:
    """Keep only the bits of cards the hand still holds."""
    return to_mask(code for code in hand_codes(hand) if mask >> code & 1)


def mask_for(hand: Sequence[Card], cards: Iterable[Card]) -> int:
    """The mask selecting `cards` (a multiset) out of `hand`."""
    wanted = list(cards)
    codes = []
    for card, code in zip(hand, hand_codes(hand), strict=True):
        if card in wanted:
            wanted.remove(card)
            codes.append(code)
    return to_mask(codes)


def encode(mask: int) -> str:
    return format(mask, "x")


def decode(text: str) -> int:
    """A selection from a custom id; bits beyond the largest deck are dropped."""
    return (int(text, 16) if text else 0) & ((1 << MAX_CODES) - 1)
