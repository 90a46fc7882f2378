"""The two Vietnamese house rules, as pure functions on count masks (docs/RULES_ENGINE.md,
"Đền bài" and "Cấm đánh 2 cuối"): the game uses them to refuse and to record, the computer
players and the Hint to stay clear of them.

* :func:`two_last_refused`: with ``no_two_last``, a play containing a 2 may not empty the hand,
  and no play may leave a hand of nothing but 2s; a seat that must lead holding only 2s (a dealt
  test hand; it cannot happen in a real deal) may play them.
* :func:`feeds`: with ``anti_feed``, whether an action (a play, or a pass) by the seat on turn
  "feeds" the next player, who holds one card.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from engine.combos import Combo, ComboKind
from engine.rules import Rules

__all__ = ["TWOS", "feeds", "next_active", "two_last_refused"]

TWOS = 0xFF << 96
"""The count-mask bits of the 2s (rank 12, eight bits per rank)."""


def two_last_refused(rules: Rules, hand: int, mask: int, leading: bool) -> bool:
    """Whether ``no_two_last`` refuses playing ``mask`` from ``hand``."""
    if not rules.no_two_last:
        return False
    if leading and not hand & ~TWOS:
        return False  # only 2s and the lead: the game must go on
    rest = hand - mask
    if rest == 0:
        return bool(mask & TWOS)
    return not rest & ~TWOS


def _index(mask: int) -> int:
    """The card index of the highest card of a count mask."""
    return (mask.bit_length() - 1) >> 1


def feeds(rules: Rules, hand: int, table: Combo | None, play: Combo | None,
          next_count: int, anyone_out: bool) -> bool:
    """Whether the seat on turn holding ``hand`` feeds the next player (who holds
    ``next_count`` cards) by playing ``play`` (``None``: passing) on ``table`` (``None``: leading).

    A feed: the next player holds exactly one card, nobody has gone out yet, and the seat leads a
    single lower than its highest card, answers a single with a single lower than its highest
    card, or passes on a single while its highest card beats it (``lead_only``: only the first)."""
    if rules.anti_feed == "off" or next_count != 1 or anyone_out or not hand:
        return False
    highest = _index(hand)
    if play is None:
        if rules.anti_feed == "lead_only" or table is None or table[0] is not ComboKind.SINGLE:
            return False
        return highest > _index(table[1])
    if play[0] is not ComboKind.SINGLE:
        return False
    if table is not None and (rules.anti_feed == "lead_only"
                              or table[0] is not ComboKind.SINGLE):
        return False
    return _index(play[1]) < highest


def next_active(seat: int, counts: Sequence[int], passed: Collection[int],
                frozen: Collection[int], direction: int) -> int | None:
    """The seat that acts after ``seat``: the next one in play order that holds cards, has not
    passed this trick and is not frozen (``None``: there is none). ``counts``: per seat, anything
    that is 0 for a seat without cards (card counts, or the game's hand masks)."""
    n = len(counts)
    s = seat
    for _ in range(n - 1):
        s = (s + direction) % n
        if counts[s] and s not in passed and s not in frozen:
            return s
    return None
