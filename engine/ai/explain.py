"""Why the Hint button suggests what it does: the suggestion of :func:`engine.ai.hint` with its
reason as structured data (the engine words nothing; the Discord side turns it into a sentence).

Every reason is computed from the hand as it is, and claims nothing the play does not do. The
hand's *plan* is its cheapest split into plays (:func:`engine.ai.planner.split_mask`); a play
*breaks up* a part of the plan when it takes some, but not all, of that part's cards (a sequence
Q-K-A out of a hand planned as a pair of Queens, a King and a pair of Aces breaks up both pairs;
the King is used whole). "Without breaking up your hand" is said only of a play that breaks
nothing up."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import StrEnum, unique

from engine.ai.core import twos_or_bomb
from engine.ai.observation import Observation
from engine.ai.planner import DSEQ, S1, S2, S3, S4, SEQ, Struct, split_mask, struct_cost
from engine.cards import Rank
from engine.combos import Combo, ComboKind
from engine.game import Phase

__all__ = ["HintWhy", "Part", "Suggestion", "broken_parts", "explain_hint", "plan_parts"]


@unique
class HintWhy(StrEnum):
    GO_OUT = "go_out"
    """The play empties the hand."""
    LEAD_LOWEST = "lead_lowest"
    """Leading: the lowest single of the hand (``broken``: the parts of the plan it breaks)."""
    LEAD_PLAN = "lead_plan"
    """Leading: a part of the hand's plan, and its weakest (it breaks nothing)."""
    LEAD = "lead"
    """Leading: another play (``broken``: the parts of the plan it breaks, maybe none)."""
    CHOP = "chop"
    """A bomb on the 2s (or bomb) on the table (``broken``: the parts it breaks)."""
    BLOCK = "block"
    """An opponent is nearly out (``opponent_cards``): answer now (``broken``: the parts it
    breaks)."""
    FITS_PLAN = "fits_plan"
    """An answer that is a part of the hand's plan: it breaks nothing."""
    ANSWER = "answer"
    """An answer that breaks ``broken`` (never empty)."""
    KEEP = "keep"
    """Pass: the cheapest answer, ``kept``, would break ``broken`` (never empty)."""
    KEEP_FOR_LATER = "keep_for_later"
    """Pass: the cheapest answer, ``kept``, breaks nothing; it is kept for a later trick."""
    KEEP_CONTROL = "keep_control"
    """Pass: the only answers are 2s or bombs (``kept``), worth more later."""
    NO_PLAY = "no_play"
    """Pass: nothing in the hand beats the table."""
    NOT_NOW = "not_now"
    """Nothing to suggest: the seat may neither play nor pass now."""


@dataclass(frozen=True, slots=True)
class Part:
    """A part of a hand's plan, by ranks: ``kind`` from ``low`` to ``high`` (the same rank but for
    sequences and consecutive pairs)."""

    kind: ComboKind
    low: Rank
    high: Rank


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A hint: ``play`` (``None``: pass) and why."""

    play: Combo | None
    why: HintWhy
    plays_left: int = 0
    """Plays in the hand's plan after following the hint (for a pass: in the hand's plan)."""
    kept: Combo | None = None
    """For a suggested pass: the answer that passing keeps in the hand."""
    opponent_cards: int | None = None
    """For ``BLOCK``: the fewest cards an opponent holds."""
    broken: tuple[Part, ...] = ()
    """The parts of the hand's plan that ``play`` (for a pass: ``kept``) breaks."""


_KINDS = {S1: ComboKind.SINGLE, S2: ComboKind.PAIR, S3: ComboKind.TRIPLE, S4: ComboKind.QUAD,
          SEQ: ComboKind.SEQUENCE, DSEQ: ComboKind.DOUBLE_SEQUENCE}
_STRUCTS = {kind: s for s, kind in _KINDS.items()}
_PER_RANK = {S1: 1, S2: 2, S3: 3, S4: 4, SEQ: 1, DSEQ: 2}


def _part(s: Struct) -> Part:
    return Part(_KINDS[s[0]], Rank(s[1]), Rank(s[2]))


def _structs(play: Combo) -> list[Struct]:
    """The play as parts of a plan (two consecutive quads are two quads)."""
    low, high = int(play.low_rank), int(play.top.rank)
    if play.kind is ComboKind.DOUBLE_QUAD:
        return [(S4, low, low), (S4, high, high)]
    return [(_STRUCTS[play.kind], low, high)]


def plan_parts(hand: int) -> tuple[Part, ...]:
    """The hand's plan (count mask ``hand``): its cheapest split into plays."""
    return tuple(_part(s) for s in split_mask(hand)[1]) if hand else ()


def broken_parts(hand: int, play: Combo) -> tuple[Part, ...]:
    """The parts of the plan of ``hand`` that ``play`` breaks up: those that lose some, but not
    all, of their cards to it (a King single taken into a sequence is used, not broken; a pair
    losing one Queen is broken). Empty: the play is made of whole parts of the plan."""
    plan = list(split_mask(hand)[1])
    taken: Counter[int] = Counter()
    for s in _structs(play):
        if s in plan:
            plan.remove(s)
        else:
            for rank in range(s[1], s[2] + 1):
                taken[rank] += _PER_RANK[s[0]]
    broken = []
    for s in sorted(plan, key=lambda s: (_PER_RANK[s[0]] * (s[2] - s[1] + 1), s)):
        ranks = range(s[1], s[2] + 1)
        if all(taken[r] >= _PER_RANK[s[0]] for r in ranks):  # wholly taken into the play
            for r in ranks:
                taken[r] -= _PER_RANK[s[0]]
        elif any(taken[r] for r in ranks):
            broken.append(s)
    return tuple(_part(s) for s in sorted(broken, key=lambda s: (s[1], s[2], s[0])))


def _weakest(hand: int, play: Combo) -> bool:
    """Whether ``play`` is one part of the hand's plan and none is weaker (costs more to keep)."""
    plan = split_mask(hand)[1]
    structs = _structs(play)
    if len(structs) != 1 or structs[0] not in plan:
        return False
    return struct_cost(structs[0]) >= max(struct_cost(s) for s in plan) - 1e-9


def _plan_size(mask: int) -> int:
    return len(split_mask(mask)[1]) if mask else 0


def explain_hint(obs: Observation, play: Combo | None) -> Suggestion:
    """The reason for ``play``, the hint for the seat of ``obs`` (``None``: pass)."""
    hand = obs.hand_mask
    legal = list(obs.legal)
    if obs.phase is not Phase.PLAY or (not legal and not obs.can_pass):
        return Suggestion(None, HintWhy.NOT_NOW)
    if play is None:
        if not legal:
            return Suggestion(None, HintWhy.NO_PLAY, _plan_size(hand))
        kept = min(legal, key=lambda c: (split_mask(hand - c.mask)[0], c.mask.bit_length()))
        broken = broken_parts(hand, kept)
        why = (HintWhy.KEEP_CONTROL if twos_or_bomb(kept)
               else HintWhy.KEEP if broken else HintWhy.KEEP_FOR_LATER)
        return Suggestion(None, why, _plan_size(hand), kept=kept, broken=broken)
    rest = hand - play.mask
    left = _plan_size(rest)
    if not rest:
        return Suggestion(play, HintWhy.GO_OUT)
    broken = broken_parts(hand, play)
    if obs.table is None:
        singles = [c for c in legal if c.kind is ComboKind.SINGLE]
        if (play.kind is ComboKind.SINGLE and singles
                and play.mask == min(singles, key=lambda c: c.mask).mask):
            return Suggestion(play, HintWhy.LEAD_LOWEST, left, broken=broken)
        if not broken and _weakest(hand, play):
            return Suggestion(play, HintWhy.LEAD_PLAN, left)
        return Suggestion(play, HintWhy.LEAD, left, broken=broken)
    if play.is_bomb and twos_or_bomb(obs.table):
        return Suggestion(play, HintWhy.CHOP, left, broken=broken)
    others = [n for s, n in enumerate(obs.counts) if s != obs.seat and n]
    fewest = min(others, default=0)
    if 0 < fewest <= 2:
        return Suggestion(play, HintWhy.BLOCK, left, opponent_cards=fewest, broken=broken)
    if broken:
        return Suggestion(play, HintWhy.ANSWER, left, broken=broken)
    return Suggestion(play, HintWhy.FITS_PLAN, left)
