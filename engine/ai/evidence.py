"""The other seats' past decisions, rebuilt from the public log, and the check of a hand against
them: would the ``hard`` model, holding this hand, have made that decision? (Used by the deal
samplers of :mod:`engine.ai.search` and the carried belief of :mod:`engine.ai.belief`.)"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ai.core import (
    HARD,
    Ctx,
    answers,
    gain_floor,
    hard_choice,
    normal_play,
    twos_or_bomb,
)
from engine.ai.planner import split_mask
from engine.cards import count_cards
from engine.combos import Combo, ComboKind, classify_mask
from engine.events import Chopped, Event, Passed, Played, TrickWon
from engine.rules import Rules

__all__ = ["EXACT", "PASSES_ONLY", "Decision", "history"]

PASSES_ONLY = False
"""Check only the other seats' passes (not their plays) against the model."""
EXACT = True
"""Match past plays card for card (True) or by size and top rank (False)."""
_WORK = [0]
"""Answers weighed by :func:`_match` since the last reset (for the budget)."""


class Decision:
    """One past decision of another seat, with the public state it was made in."""

    __slots__ = ("action", "at", "chop_ctx", "counts", "later", "opponents", "owner", "played",
                 "seat", "table")

    def __init__(self, seat: int, table: Combo | None, owner: int | None, chop_ctx: bool,
                 counts: tuple[int, ...], played: int, action: int | None) -> None:
        self.seat = seat
        self.table = table
        self.owner = owner
        self.chop_ctx = chop_ctx
        self.counts = counts
        self.played = played
        self.action = action  # the mask played, or None for a pass
        self.later = 0  # cards this seat played from this decision on
        self.opponents: list[int] | None = None  # other seats holding cards then, in turn order
        self.at = 0  # index of the decision's event in the log


def history(
    log: Sequence[Event], counts_now: Sequence[int], me: int, rules: Rules, keep: int
) -> list[Decision]:
    """The last ``keep`` on-turn decisions of the other seats, rebuilt from the public log."""
    layout = rules.layout
    bit_of = layout.bit_of
    plays = [e for e in log if isinstance(e, Played)]
    counts = list(counts_now)
    for p in plays:
        counts[p.seat] += len(p.cards)
    table: Combo | None = None
    owner: int | None = None
    chop_ctx = False
    played = 0
    out: list[Decision] = []
    before: list[int] = []  # per decision: cards its seat had played before it
    by_seat = [0] * len(counts)
    first = True
    for at, e in enumerate(log):
        if isinstance(e, Played):
            mask = 0
            for c in e.cards:
                mask += bit_of[c]
            if e.seat != me and not e.out_of_turn and not first and not PASSES_ONLY:
                out.append(Decision(e.seat, table, owner, chop_ctx, tuple(counts), played, mask))
                out[-1].at = at
                before.append(by_seat[e.seat])
            first = False
            kind = classify_mask(mask, rules.double_quad)
            if kind is None:
                continue
            table = Combo(kind, mask, layout)
            owner = e.seat
            played += mask
            by_seat[e.seat] += mask
            counts[e.seat] -= len(e.cards)
        elif isinstance(e, Passed):
            if e.seat != me:
                out.append(Decision(e.seat, table, owner, chop_ctx, tuple(counts), played, None))
                out[-1].at = at
                before.append(by_seat[e.seat])
        elif isinstance(e, Chopped):
            chop_ctx = True
        elif isinstance(e, TrickWon):
            table, owner, chop_ctx = None, None, False
    # Cards each deciding seat played from its decision on (to rebuild its hand then).
    for d, b in zip(out, before, strict=True):
        d.later = by_seat[d.seat] - b
    return out[-keep:] if keep else []


def _match(d: Decision, hand_now: int, n: int, direction: int, rules: Rules, full: int) -> bool:
    """Whether the ``hard`` model, holding ``hand_now`` plus the cards the seat played since,
    makes the decision the seat made: a pass, or the same play (card for card with ``EXACT``,
    otherwise of the same size and top rank)."""
    s = d.seat
    hand = hand_now + d.later
    counts = d.counts
    opponents = d.opponents
    if opponents is None:
        opponents = d.opponents = [
            x for x in ((s + direction * i) % n for i in range(1, n)) if counts[x]
        ]
    table = d.table
    action = d.action
    legal = None
    if table is not None:
        legal = answers(hand, table, rules, d.chop_ctx)
        _WORK[0] += len(legal)
        if action is None:
            # Passing: cheap cases first, where ``hard`` surely passes or surely plays.
            if not legal:
                return True
            if min((counts[x] for x in opponents), default=99) <= HARD["urgent"]:
                return False
            for c in legal:
                if c[1] == hand:
                    return False
        elif EXACT and not _may_play(hand, action, legal, table, counts, opponents):
            return False
    ctx = Ctx(seat=s, hand=hand, counts=counts, table=table, owner=d.owner,
              chop_ctx=d.chop_ctx, unseen=full - hand - d.played, opponents=opponents,
              rules=rules, layout=rules.layout)
    try:
        choice = hard_choice(ctx, legal, table is not None)
    except (IndexError, KeyError, ValueError):
        return False
    if choice is None or action is None:
        return choice is None and action is None
    if EXACT:
        return choice[1] == action
    return choice[1] == action or (
        choice[1].bit_length() >> 3 == action.bit_length() >> 3
        and count_cards(choice[1]) == count_cards(action)
    )


def _match_normal(d: Decision, hand_now: int, rules: Rules) -> bool:
    """Whether the ``normal`` model (the lowest legal play, never a pass when it can answer),
    holding ``hand_now`` plus the cards the seat played since, makes the decision the seat made."""
    choice = normal_play(hand_now + d.later, d.table, rules, d.chop_ctx)
    if choice is None:
        return d.action is None
    return choice[1] == d.action


def _may_play(hand: int, action: int, legal: Sequence[Combo], table: Combo,
                 counts: Sequence[int], opponents: Sequence[int]) -> bool:
    """Whether ``hard`` may answer ``table`` with ``action`` from ``hand``: ``False`` when it
    surely does not (another answer scores better, or a rule picks another), ``True`` when only
    the full model can tell. Mirrors the order of :func:`engine.ai.core.hard_respond`, stopping
    at the first better answer."""
    masks = [c[1] for c in legal]
    if action not in masks:
        return False
    if hand in masks:
        return action == hand
    tkind = table[0]
    if twos_or_bomb(table) and any(c[0].is_bomb for c in legal):
        return True
    if tkind is ComboKind.SINGLE and min((counts[x] for x in opponents), default=99) == 1:
        return action == max(masks)
    base = split_mask(hand)[0]
    ka = (split_mask(hand - action)[0] - base, (action.bit_length() - 1) >> 1)
    ia = masks.index(action)
    for i, c in enumerate(masks):
        if i != ia and gain_floor(legal[i]) <= ka[0]:  # else surely scored below the action
            k = (split_mask(hand - c)[0] - base, (c.bit_length() - 1) >> 1)
            if k < ka or (k == ka and i < ia):
                return False
    return True
