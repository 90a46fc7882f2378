"""Hand planning on rank counts: split a hand into the fewest, strongest plays.

A *structure* is a play described by ranks only: ``(kind, low_rank, high_rank)`` with ``kind`` one
of :data:`S1` (single), :data:`S2` (pair), :data:`S3` (triple), :data:`S4` (quad), :data:`SEQ`
(sequence) and :data:`DSEQ` (double sequence). :func:`split` finds a partition of a rank-count
vector into structures minimising :func:`struct_cost` summed (the number of plays, less the
"control" value of strong plays), memoised across calls: rank counts recur constantly in a game and
in rollouts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.combos import COUNT8

__all__ = [
    "DSEQ",
    "MEMO_LIMIT",
    "S1",
    "S2",
    "S3",
    "S4",
    "SEQ",
    "Struct",
    "counts_of",
    "limit_memo",
    "memo_limit",
    "plan_cost",
    "removal_floor",
    "split",
    "split_mask",
    "struct_cost",
    "struct_strength",
]

S1, S2, S3, S4, SEQ, DSEQ = 0, 1, 2, 3, 4, 5
Struct = tuple[int, int, int]
Counts = bytes
"""Cards held per rank (13 bytes, rank 3 first): bytes hash and slice fast as memo keys."""

_TWO = 12
_ACE = 11

_SINGLE_STRENGTH = (0, 0, 0, 0, 0, 0, 0, 0, 0.02, 0.08, 0.2, 0.4, 0.85)
_PAIR_STRENGTH = (0, 0, 0, 0, 0, 0, 0.02, 0.05, 0.1, 0.22, 0.4, 0.65, 1.0)


def struct_strength(s: Struct) -> float:
    """How likely the play is to win its trick / act as a control (0 … 1)."""
    kind, lo, hi = s
    if kind == S1:
        return _SINGLE_STRENGTH[hi]
    if kind == S2:
        return _PAIR_STRENGTH[hi]
    if kind == S3:
        return 1.0 if hi == _TWO else min(0.9, 0.3 + 0.05 * hi)
    if kind == SEQ:
        length = hi - lo + 1
        return max(0.0, min(0.9, 0.12 * (length - 3) + 0.06 * (hi - 6)))
    return 1.0  # quads and double sequences are bombs


def struct_cost(s: Struct) -> float:
    """The cost of one play in a plan: 1 less its strength, plus a small tie-break that prefers
    shedding low cards in multi-card plays."""
    kind, _, hi = s
    cost = 1.0 - struct_strength(s)
    if kind == S1 and hi < _ACE:
        cost += 0.04 * (_ACE - hi) / _ACE
    return cost


_MEMO: dict[Counts, tuple[float, tuple[Struct, ...]]] = {}
MEMO_LIMIT = 400_000
"""Hands each memo holds by default before it starts again (about 170 MB for both memos full:
the expert's search process wants them large)."""
_MEMO_LIMIT = MEMO_LIMIT


def limit_memo(entries: int = MEMO_LIMIT) -> None:
    """Hold at most ``entries`` hands in each memo from now on (a memo over it starts again):
    a process that plans only now and then (the bot's, for hints and `hard` turns) keeps its
    memory small."""
    global _MEMO_LIMIT
    if entries < 1:
        raise ValueError("the planner's memo needs room for at least one hand")
    _MEMO_LIMIT = entries
    for memo in (_MEMO, _BY_MASK):
        if len(memo) > entries:
            memo.clear()


def memo_limit() -> int:
    """Hands each memo holds at most (:func:`limit_memo`)."""
    return _MEMO_LIMIT


_COUNT_BYTES = bytes(COUNT8)


def counts_of(mask: int) -> Counts:
    """The rank-count vector (13 ranks) of a count mask."""
    return mask.to_bytes(13, "little").translate(_COUNT_BYTES)


def split(counts: Counts | Sequence[int]) -> tuple[float, tuple[Struct, ...]]:
    """The cheapest partition of ``counts`` into structures: ``(cost, structures)``."""
    if not isinstance(counts, bytes):
        counts = bytes(counts)
    hit = _MEMO.get(counts)
    if hit is not None:
        return hit
    result = _split(counts)  # remembers the smaller hands it splits on the way
    if len(_MEMO) >= _MEMO_LIMIT:
        _MEMO.clear()
    _MEMO[counts] = result
    return result


def plan_cost(counts: Counts | Sequence[int]) -> float:
    return split(counts)[0]


_BY_MASK: dict[int, tuple[float, tuple[Struct, ...]]] = {}


def split_mask(mask: int) -> tuple[float, tuple[Struct, ...]]:
    """:func:`split` of a count mask's rank counts, memoised by mask."""
    hit = _BY_MASK.get(mask)
    if hit is None:
        if len(_BY_MASK) >= _MEMO_LIMIT:
            _BY_MASK.clear()
        hit = _BY_MASK[mask] = split(counts_of(mask))
    return hit


# Every structure (kind, low rank, high rank) with its cost, looked up instead of computed: the
# split below tries hundreds of thousands of them a game.
_COST: dict[Struct, float] = {}
for _kind in (S1, S2, S3, S4):
    for _r in range(13):
        _COST[(_kind, _r, _r)] = struct_cost((_kind, _r, _r))
for _kind in (SEQ, DSEQ):
    for _lo in range(13):
        for _hi in range(_lo + 2, 13):
            _COST[(_kind, _lo, _hi)] = struct_cost((_kind, _lo, _hi))
_OF_A_KIND = [[(k - 1, r, r) for r in range(13)] for k in range(5)]

# Taking one play out of a hand lowers its cheapest plan's cost by at most that play's own cost
# (the play and the rest's plan are a plan of the hand), so split(h - s) - split(h) >= -cost(s).
# Only for structures the split can use (sequences stop at the ace); a small margin covers the
# order in which the costs were added.
_FLOOR: dict[Struct, float] = {
    s: -cost - 1e-9 for s, cost in _COST.items() if s[0] <= S4 or s[2] <= _ACE
}


def removal_floor(s: Struct) -> float:
    """A lower bound of ``split(h - s) - split(h)`` for every hand ``h`` holding the play ``s``
    (``-inf`` for what is not a structure of the split)."""
    return _FLOOR.get(s, -math.inf)


def _split(counts: Counts) -> tuple[float, tuple[Struct, ...]]:
    """The cheapest partition (memo misses only): at the lowest rank held, every way to use it
    (1-4 of a kind, a sequence or a double sequence starting there), the rest split recursively;
    the first cheapest wins ties."""
    r = 0
    while r < 13 and counts[r] == 0:
        r += 1
    if r == 13:
        return (0.0, ())
    memo = _MEMO
    cost_of = _COST
    best_cost = 1e9
    best: tuple[Struct, ...] = ()
    c = bytearray(counts)
    n = c[r]
    # k of a kind at rank r
    for k in range(1, min(4, n) + 1):
        s = _OF_A_KIND[k][r]
        c[r] = n - k
        key = bytes(c)
        hit = memo.get(key)
        sub_cost, sub = hit if hit is not None else split(key)
        cost = cost_of[s] + sub_cost
        if cost < best_cost:
            best_cost, best = cost, (s, *sub)
    c[r] = n
    if r < _ACE - 1:
        # sequences starting at r
        if c[r + 1] and c[r + 2]:
            for i in range(r, r + 3):
                c[i] -= 1
            hi = r + 2
            while True:
                s = (SEQ, r, hi)
                key = bytes(c)
                hit = memo.get(key)
                sub_cost, sub = hit if hit is not None else split(key)
                cost = cost_of[s] + sub_cost
                if cost < best_cost:
                    best_cost, best = cost, (s, *sub)
                if hi + 1 > _ACE or not c[hi + 1]:
                    break
                hi += 1
                c[hi] -= 1
            c = bytearray(counts)
        # double sequences starting at r
        if n >= 2 and c[r + 1] >= 2 and c[r + 2] >= 2:
            for i in range(r, r + 3):
                c[i] -= 2
            hi = r + 2
            while True:
                s = (DSEQ, r, hi)
                key = bytes(c)
                hit = memo.get(key)
                sub_cost, sub = hit if hit is not None else split(key)
                cost = cost_of[s] + sub_cost
                if cost < best_cost:
                    best_cost, best = cost, (s, *sub)
                if hi + 1 > _ACE or c[hi + 1] < 2:
                    break
                hi += 1
                c[hi] -= 2
    return (best_cost, best)
