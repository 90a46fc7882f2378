"""The playing logic shared by the real table and the rollouts: a decision context and the
``easy``, ``normal`` and ``hard`` policies on count masks (see :mod:`engine.cards`).

A policy sees a :class:`Ctx` (its own hand, the table, every seat's card count, the cards it has
not seen) and a list of candidate plays; it never sees another seat's hand.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from engine.ai.planner import (
    DSEQ,
    S1,
    S2,
    S3,
    S4,
    SEQ,
    Struct,
    counts_of,
    removal_floor,
    split_mask,
    struct_strength,
)
from engine.cards import Layout, count_cards
from engine.combos import (
    COUNT8,
    SUBS,
    Combo,
    ComboKind,
    beats_mask,
    chop_spec,
    classify_mask,
    double_quad_beats,
    legal_leads,
    legal_responses,
    may_lead,
)
from engine.rules import Rules

__all__ = [
    "KIND_OF",
    "SHARP",
    "Ctx",
    "answers",
    "easy_choice",
    "full_mask",
    "hard_choice",
    "normal_choice",
    "normal_lead",
    "normal_play",
    "remembered_answers",
    "struct_mask",
    "twos_or_bomb",
]

_LOW = int("01" * 52, 2)
_TWO = 12
SINGLE, SEQUENCE = ComboKind.SINGLE, ComboKind.SEQUENCE
DOUBLE_SEQUENCE, DOUBLE_QUAD = ComboKind.DOUBLE_SEQUENCE, ComboKind.DOUBLE_QUAD

KIND_OF: dict[int, ComboKind] = {
    S1: ComboKind.SINGLE,
    S2: ComboKind.PAIR,
    S3: ComboKind.TRIPLE,
    S4: ComboKind.QUAD,
    SEQ: ComboKind.SEQUENCE,
    DSEQ: ComboKind.DOUBLE_SEQUENCE,
}


_STRUCT_OF: dict[str, int] = {kind.value: s for s, kind in KIND_OF.items()}
_FLOORS = [removal_floor((s, lo, hi)) for s in range(6) for lo in range(13) for hi in range(13)]


def gain_floor(combo: Combo) -> float:
    """A lower bound of how much playing ``combo`` changes its holder's plan cost
    (``split_mask(hand - combo[1])[0] - split_mask(hand)[0]``, for any hand holding it): an
    answer whose bound is already worse than the best one found needs no plan of its own."""
    s = _STRUCT_OF.get(combo[0]._value_)
    if s is None:
        return -math.inf
    m = combo[1]
    return _FLOORS[(s * 13 + (((m & -m).bit_length() - 1) >> 3)) * 13 + ((m.bit_length() - 1) >> 3)]


def full_mask(decks: int) -> int:
    """The count mask of every card of ``decks`` decks."""
    return _LOW * decks


class Ctx:
    """What one seat knows when it decides (built from an observation or inside a rollout)."""

    __slots__ = (
        "chop_ctx",
        "counts",
        "fresh",
        "hand",
        "layout",
        "opponents",
        "owner",
        "rules",
        "seat",
        "table",
        "unseen",
    )

    def __init__(
        self,
        *,
        seat: int,
        hand: int,
        counts: Sequence[int],
        table: Combo | None,
        owner: int | None,
        chop_ctx: bool,
        unseen: int,
        opponents: Sequence[int],
        rules: Rules,
        layout: Layout,
        fresh: bool = False,
    ) -> None:
        self.seat = seat
        self.hand = hand
        self.counts = counts
        self.table = table
        self.owner = owner
        self.chop_ctx = chop_ctx
        self.unseen = unseen
        self.opponents = opponents  # other seats still holding cards, in turn order after us
        self.rules = rules
        self.layout = layout
        self.fresh = fresh  # with cóng: this seat has not played a card yet (it could be frozen)

    def min_opp(self) -> int:
        counts = self.counts
        return min((counts[s] for s in self.opponents), default=99)

    def max_opp(self) -> int:
        counts = self.counts
        return max((counts[s] for s in self.opponents), default=0)


# --------------------------------------------------------------------------- easy / normal


def easy_choice(cands: Sequence[Combo], can_pass: bool, rng: random.Random) -> Combo | None:
    """A uniformly random legal play; passing is one more option when allowed."""
    n = len(cands) + (1 if can_pass else 0)
    if n == 0:
        return None
    i = rng.randrange(n)
    return cands[i] if i < len(cands) else None


def normal_choice(cands: Sequence[Combo]) -> Combo | None:
    """The lowest legal play: lowest top card (by rank, then suit); at an equal top rank, more
    cards."""
    best: Combo | None = None
    best_key = (1 << 30, 0, 0)
    for c in cands:
        top = (c[1].bit_length() - 1) >> 1
        key = (top >> 2, -count_cards(c[1]), top)
        if key < best_key:
            best, best_key = c, key
    return best


def normal_lead(hand: int, rules: Rules) -> Combo | None:
    """:func:`normal_choice` among the hand's leads, found among the cards of its lowest rank
    only (a lead whose top card is of that rank holds nothing else): the play a ``normal`` seat
    leads, for the models of other seats (:mod:`engine.ai.belief`, :mod:`engine.ai.sim`)."""
    if not hand:
        return None
    rank = ((hand & -hand).bit_length() - 1) >> 3
    low = hand & (255 << (8 * rank))
    return normal_choice([c for c in legal_leads(low, rules.layout, rules.double_seq3_may_lead,
                                                 rules.double_quad)
                          if may_lead(rules, c[0], c[1])])


def normal_play(hand: int, table: Combo | None, rules: Rules, chop_ctx: bool) -> Combo | None:
    """What a ``normal`` seat holding ``hand`` plays on ``table`` (a lead when ``None``; ``None``:
    it passes, having no answer)."""
    if table is None:
        return normal_lead(hand, rules)
    return normal_choice(answers(hand, table, rules, chop_ctx))


# --------------------------------------------------------------------------- hard


def struct_mask(hand: int, s: Struct) -> int:
    """Cards of the hand for a structure: sets take the highest cards of their rank, sequences
    the lowest cards below their top rank and the highest at it."""
    kind, lo, hi = s
    if kind <= S4:
        subs = SUBS[lo][(hand >> (8 * lo)) & 255][kind + 1]
        return subs[-1]
    k = 1 if kind == SEQ else 2
    mask = 0
    for r in range(lo, hi + 1):
        subs = SUBS[r][(hand >> (8 * r)) & 255][k]
        mask |= subs[-1] if r == hi else subs[0]
    return mask


def _unseen_double_quad(ctx: Ctx, above: int = -1) -> bool:
    """Whether the unseen cards hold two quads of consecutive ranks (top card above ``above``)."""
    unseen = ctx.unseen
    lower = False
    for r in range(12):
        p = (unseen >> (8 * r)) & 255
        quad = COUNT8[p] >= 4 and any((q.bit_length() - 1) >> 1 > above for q in SUBS[r][p][4])
        if lower and quad:
            return True
        lower = COUNT8[p] >= 4
    return False


def _beatable(ctx: Ctx, kind: ComboKind, mask: int, most: int | None = None,
              cnt: bytes | None = None) -> bool:
    """Whether the cards unseen by this seat could beat the play (card counting). ``most`` (the
    most cards an opponent holds) and ``cnt`` (the unseen cards per rank) when already known."""
    if most is None:
        most = ctx.max_opp()
    if most < min(count_cards(mask), 4):
        return False
    unseen = ctx.unseen
    t = (mask.bit_length() - 1) >> 1
    top_rank = t >> 2
    if kind is DOUBLE_QUAD:
        return most >= 8 and _unseen_double_quad(ctx, t)
    if (
        ctx.rules.double_quad
        and most >= 8
        and double_quad_beats(ctx.rules, kind, mask, ctx.chop_ctx)
        and _unseen_double_quad(ctx)
    ):
        return True
    if kind is SINGLE:
        if unseen >> (2 * (t + 1)):
            return True
        if top_rank != _TWO:
            return False
    if cnt is None:
        cnt = counts_of(unseen)
    if kind is SINGLE:
        pass
    elif kind is SEQUENCE or kind is DOUBLE_SEQUENCE:
        k = 1 if kind is SEQUENCE else 2
        length = top_rank - (((mask & -mask).bit_length() - 1) >> 3) + 1
        if most >= k * length:
            for end in range(top_rank, 12):
                if all(cnt[r] >= k for r in range(end - length + 1, end + 1)) and (
                    end > top_rank or (unseen >> (2 * (t + 1))) & (255 << (8 * end)) != 0
                ):
                    return True
    else:
        k = count_cards(mask)
        if most >= k:
            for r in range(top_rank, 13):
                if cnt[r] >= k and (r > top_rank or (unseen >> (2 * (t + 1))) & (255 << (8 * r))):
                    return True
    quad_ok, lo, hi = chop_spec(ctx.rules, kind, mask, ctx.chop_ctx)
    if quad_ok and most >= 4 and any(c >= 4 for c in cnt):
        return True
    if lo <= hi and most >= 2 * lo:
        run = 0
        for r in range(12):
            run = run + 1 if cnt[r] >= 2 else 0
            if run >= lo:
                return True
    return False


def _is_control(kind: ComboKind, mask: int) -> bool:
    return kind.is_bomb or (mask.bit_length() - 1) >> 3 == _TWO


def hard_lead(ctx: Ctx, legal: Sequence[Combo] | None = None) -> Combo:
    """The lead of the planning player. ``legal``: the allowed leads when known (the real table);
    ``None`` inside rollouts (every combination of the hand may lead, rules permitting)."""
    hand, layout, rules = ctx.hand, ctx.layout, ctx.rules
    _, plan = split_mask(hand)
    legal_masks = None if legal is None else {c[1]: c for c in legal}

    def make(s: Struct) -> Combo | None:
        mask = struct_mask(hand, s)
        kind = KIND_OF[s[0]]
        if legal_masks is not None:
            return legal_masks.get(mask)
        if not may_lead(rules, kind, mask):
            return None
        return Combo(kind, mask, layout)

    if legal_masks is not None:
        whole = legal_masks.get(hand)
        if whole is not None:
            return whole  # the whole hand is one play (a double quad the planner splits)
    else:
        kind = classify_mask(hand, rules.double_quad)
        if kind is not None and may_lead(rules, kind, hand):
            return Combo(kind, hand, layout)
    if len(plan) == 1:
        c = make(plan[0])
        if c is not None:
            return c
    choice: Combo | None = None
    most = ctx.max_opp()
    cnt = counts_of(ctx.unseen)
    sure = [s for s in plan
            if not _beatable(ctx, KIND_OF[s[0]], struct_mask(hand, s), most, cnt)]
    if sure and len(plan) - len(sure) <= 1:
        sure.sort(key=lambda s: (-(s[2] - s[1] + 1) * (s[0] + 1), s[2]))
        for s in sure:
            choice = make(s)
            if choice is not None:
                return choice
    weak = [s for s in plan if s not in sure] or list(plan)
    m = ctx.min_opp()
    if m == 1:
        multi = [s for s in weak if s[0] != S1]
        if multi:
            weak = multi
        else:
            # only singles: lead the highest one so the last card cannot follow cheaply
            weak = sorted(plan, key=lambda s: -s[2])
            for s in weak:
                choice = make(s)
                if choice is not None:
                    return choice
    elif m == 2:
        nonpair = [s for s in weak if s[0] != S2]
        if nonpair:
            weak = nonpair

    def key(s: Struct) -> tuple[float, int, int]:
        size = (s[2] - s[1] + 1) * (2 if s[0] == DSEQ else 1) if s[0] >= SEQ else s[0] + 1
        return (round(struct_strength(s), 1), s[1], -size)

    for s in sorted(weak, key=key):
        choice = make(s)
        if choice is not None:
            return choice
    # Fall back on the legal lead that leaves the cheapest hand.
    cands = legal if legal is not None else _all_leads(ctx)
    return _cheapest(hand, cands)


def _all_leads(ctx: Ctx) -> list[Combo]:
    from engine.combos import legal_leads

    return legal_leads(ctx.hand, ctx.layout, ctx.rules.double_seq3_may_lead)


def _cheapest(hand: int, cands: Sequence[Combo]) -> Combo:
    best = cands[0]
    best_key = (1e9, 0)
    for c in cands:
        key = (split_mask(hand - c[1])[0], (c[1].bit_length() - 1) >> 1)
        if key < best_key:
            best, best_key = c, key
    return best


CONG_DANGER = 7
"""With cóng, a seat that has not played yet answers rather than passes once an opponent holds at
most this many cards (being frozen costs the last place and double payments)."""


def hard_respond(ctx: Ctx, cands: Sequence[Combo],
                 thresholds: Mapping[str, float] | None = None) -> Combo | None:
    """The answer of the planning player to the table, or ``None`` to pass (``thresholds``:
    :data:`HARD` unless given)."""
    choice = _respond(ctx, cands, HARD if thresholds is None else thresholds)
    if choice is None and ctx.fresh and cands and ctx.min_opp() <= CONG_DANGER:
        hand = ctx.hand
        return min(cands, key=lambda c: (split_mask(hand - c[1])[0], c[1].bit_length()))
    return choice


def _respond(ctx: Ctx, cands: Sequence[Combo], p: Mapping[str, float]) -> Combo | None:
    if not cands:
        return None
    hand = ctx.hand
    table = ctx.table
    for c in cands:
        if c[1] == hand:
            return c
    # The answer that costs the plan least (then the lowest), the first of equals; and the same
    # among the bombs when the table is 2s or a bomb; with ``spare``, also among the answers that
    # are neither 2s nor a bomb (what to answer with instead of a 2 kept for later).
    base = split_mask(hand)[0]
    want_bomb = table is not None and twos_or_bomb(table)
    spare = p["spare"] > 0
    best = bomb = other = cands[0]
    best_key = bomb_key = other_key = (math.inf, 0)
    for c in cands:
        mask = c[1]
        is_bomb = want_bomb and c[0].is_bomb
        plain = spare and not _is_control(c[0], mask)
        bound = other_key[0] if plain else best_key[0]
        if not is_bomb and bound < 0.0 and gain_floor(c) > bound:
            continue  # surely worse than the best so far: no need to plan without it
        key = (split_mask(hand - mask)[0] - base, (mask.bit_length() - 1) >> 1)
        if key < best_key:
            best_key, best = key, c
        if is_bomb and key < bomb_key:
            bomb_key, bomb = key, c
        if plain and key < other_key:
            other_key, other = key, c
    delta = best_key[0]
    m = ctx.min_opp()
    if table is not None:
        if want_bomb and bomb_key[0] < math.inf:
            return bomb
        if m == 1 and table[0] is ComboKind.SINGLE:
            return max(cands, key=lambda c: c[1])
    if m <= p["urgent"]:
        return best
    most = p["delta_near"] if m <= p["near_m"] else p["delta"]
    kind = best[0]
    if _is_control(kind, best[1]):
        # Keep 2s and bombs for when they win the trick and the rest of the hand follows.
        rest = hand - best[1]
        _, plan = split_mask(rest)
        if _beatable(ctx, kind, best[1]):
            if m <= p["ctrl_beatable_m"]:
                return best
        elif len(plan) <= p["ctrl_plan"] or m <= p["ctrl_m"]:
            return best
        if spare and other_key[0] <= most:
            return other  # keep the 2, answer with something else that costs the plan as little
        return None
    if delta <= most:
        return best
    return None


HARD: dict[str, float] = {
    "urgent": 2,
    "ctrl_beatable_m": 3,
    "ctrl_plan": 3,
    "ctrl_m": 4,
    "delta": 0.25,
    "near_m": 0,
    "delta_near": 0.25,
    "spare": 0,
}
"""Thresholds of the ``hard`` responses (tuned in the arena): answer whatever it costs once an
opponent holds ``urgent`` cards or fewer; a 2 or bomb the unseen cards could beat only once one
holds ``ctrl_beatable_m`` or fewer, one they cannot when ``ctrl_plan`` parts or fewer are left
after it or one holds ``ctrl_m`` or fewer; otherwise an answer that raises the plan's cost by at
most ``delta`` (``delta_near`` once one holds ``near_m`` or fewer); ``spare`` (0 or 1): when a
2 or bomb is kept, answer with the cheapest other answer within that cost rather than pass."""

SHARP: dict[str, float] = {
    **HARD,
    "ctrl_beatable_m": 8,
    "near_m": 5,
    "delta_near": 1.0,
    "spare": 1,
}
"""The expert's own thresholds, for the plays it does not search (its first candidate, and its
own later plays in every rollout): ``hard``'s, except in three answers. It spends a 2 or a bomb
that the unseen cards could still beat once an opponent holds 8 cards or fewer, not 3; when it
keeps a 2 or a bomb for later, it answers with its cheapest other answer if that costs its plan
no more than it would otherwise accept, rather than passing (``spare``); and once an opponent
holds 5 cards or fewer it accepts an answer that raises its plan's cost by up to 1.0, not 0.25
(``near_m``, ``delta_near``). In ``hard`` self-play one seat with the first took 32.9% of first
places against three ``hard`` (20,000 games, paired +7.98 +- 0.53 points over ``hard`` in its
place), the other two +0.89 +- 0.31 more (33.8%; docs/AI.md). The ``hard`` level keeps
:data:`HARD`: it is what the table calls hard, and the expert's belief models a ``hard`` seat
by it."""


_SETS = (ComboKind.SINGLE, ComboKind.PAIR, ComboKind.TRIPLE)


def twos_or_bomb(combo: Combo) -> bool:
    """Whether a play is of 2s (a single, pair or triple) or a bomb: what a bomb may chop."""
    kind = combo[0]
    return kind.is_bomb or (kind in _SETS and (combo[1].bit_length() - 1) >> 3 == _TWO)


_ANSWERS: list[dict[tuple[int, int, bool], list[Combo]]] = []
"""While a search runs (:func:`remembered_answers`): the answers to each table it has listed."""


@contextmanager
def remembered_answers() -> Iterator[None]:
    """Within one search (one seat, one rule set) a hand meets the same table again and again
    (every candidate's rollouts from one deal, the history checks of one belief step): list its
    answers once. Nothing is kept after the search. Also a decorator (``@remembered_answers()``)."""
    if _ANSWERS:  # already inside one
        yield
        return
    _ANSWERS.append({})
    try:
        yield
    finally:
        _ANSWERS.clear()


def answers(hand: int, table: Combo, rules: Rules, chop_ctx: bool) -> Sequence[Combo]:
    """:func:`~engine.combos.legal_responses`, remembered within a search (the caller must not
    change the list)."""
    if not _ANSWERS:
        return legal_responses(hand, table, rules, chop_ctx)
    cache = _ANSWERS[0]
    key = (hand, table[1], chop_ctx)  # a table's kind follows from its cards under one rule set
    hit = cache.get(key)
    if hit is None:
        hit = cache[key] = legal_responses(hand, table, rules, chop_ctx)
    return hit


def hard_choice(ctx: Ctx, legal: Sequence[Combo] | None, can_pass: bool,
                thresholds: Mapping[str, float] | None = None) -> Combo | None:
    """The planning player's play (``legal``: the real table's legal plays; ``None`` in rollouts,
    where they are generated here; ``thresholds``: those of its answers, :data:`HARD` unless
    given)."""
    if ctx.table is None:
        if legal is not None and not legal:
            return None
        return hard_lead(ctx, legal)
    if legal is None:
        legal = answers(ctx.hand, ctx.table, ctx.rules, ctx.chop_ctx)
    choice = hard_respond(ctx, legal, thresholds)
    if choice is None and not can_pass and legal:
        return legal[0]
    return choice


def beats(rules: Rules, play: Combo, table: Combo, chop_ctx: bool) -> bool:
    return beats_mask(rules, play[0], play[1], table[0], table[1], chop_ctx)
