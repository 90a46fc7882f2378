"""What the ``expert`` believes about the hidden cards: weighted deals (particles) carried from one
of its decisions to the next in the same game.

A particle is one deal of the cards this seat has not seen (each other seat's hand, and the cards
set aside when fewer than all are dealt) with, per seat, how many of that seat's past decisions the
``hard`` model reproduces holding it. A deal's weight is the probability that a *noisy* ``hard``
makes every observed decision: a seat plays as ``hard`` would with probability ``1 - eps``, and
any of its options (about one per card it holds) otherwise. ``eps`` is fitted per seat to what the
seat has done this game (the weighted share of its decisions the deals do not reproduce, with a
prior), so a seat that keeps breaking its hand's plan weighs its deals loosely and is rolled out
with random plays, while a seat that plays like ``hard`` keeps its deals sharp.

The belief is a chain over this seat's own decision points in the log. At each point the carried
particles lose the cards their seats played since (a particle whose seat played a card it does not
hold is dropped), are weighed on the decisions made since, the ones far behind the best are
dropped, and fresh deals refill the set: each seat's hand is drawn by a partial Fisher–Yates
shuffle and redrawn (up to ``TRIES`` times) until ``hard`` reproduces that seat's decisions; the
last seat takes the cards left over and is weighed like the others, so a deal counts only as much
as all its seats fit together. A step's random numbers come from a generator seeded by the game's
key (this seat, its hand after any exchange, the budget) and the step's index, never by the
caller's seed, so the chain is a function of what the seat has seen: a cache that is warm, or
rebuilt from the log after a restart or in another process, holds the very same particles, and a
decision does not depend on which.

Beside the joint deals, each seat keeps a few hands of its own under which the ``normal`` model
(the lowest legal play, never a pass when it can answer) makes every decision it has made,
carried and refilled the same way. While such a hand exists (``policy``) a share of the
rollouts, growing with the seat's decisions (:func:`normal_share`), play it as ``normal``; one
decision that no such hand explains (a pass while holding an answer, a play above a lower answer
it held) returns it to ``hard`` until a hand is found that explains them all again.

The cache is a bounded LRU (``MAX_GAMES`` seats' games); a seat's entry is dropped when it goes
out.
"""

from __future__ import annotations

import bisect
import math
import random
import sys
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.ai.evidence import _WORK, Decision, _match, _match_normal, history
from engine.cards import count_cards
from engine.events import Event, Exchanged, Passed, Played
from engine.rules import Rules

__all__ = ["MAX_GAMES", "Belief", "Particle", "belief", "cache_bytes", "clear", "forget",
           "start_hand"]

PARTICLES = 160
"""Particles kept per seat and game (48 until 2026-12-04: with each deal played once, 96 took
+0.8 +- 2.1 points of first places against three ``hard`` and 160 +2.0 +- 2.2, 320 no more)."""
TRIES = 60
"""Redraws per seat of a fresh deal until ``hard`` reproduces that seat's decisions."""
REFILL_SHARE = 0.8
"""Share of a decision's budget (simulated decisions) a step may spend drawing new deals (0.45
until 2026-12-04, with 48 particles)."""
LOOSE = 0.15
"""A seat whose fitted noise reaches this is drawn last, with ``LOOSE_TRIES`` redraws at most."""
LOOSE_TRIES = 3
SWAP_SHARE = 0.95
"""Share of the refills tried as a card-swap move from a carried deal (the rest: fresh deals)."""
IDLE_TRIES = 40
"""A refill stops after this many tries in a row that kept no new deal (late in a game the deals
that explain every decision are few)."""
DROP_LOG = 7.0
"""Particles whose log-weight falls this far behind the best one are dropped."""
EPS_PRIOR = (1.0, 9.0)
"""Beta prior (mismatches, matches) of a seat's noise ``eps``: mean 10%, worth ten decisions."""
EPS_MIN, EPS_MAX = 0.005, 0.6
HARD, NORMAL = 0, 1
"""A seat's fitted policy (:attr:`Belief.policy`): the model its rollouts play."""
FIT_IF_HARD = (1.0, 0.85, 0.60, 0.50, 0.36, 0.23, 0.21, 0.19, 0.16, 0.11)
"""How often a ``hard`` seat that has made 0, 1, 2, ... decisions (the last entry: 9 or more)
still has a hand under which ``normal`` makes them all: ``python -m benchmarks.normal_fit
--games 60 --seed 500`` (138-490 observations an entry)."""
FIT_IF_NORMAL = 0.88
"""How often a ``normal`` seat has one in the kept hands (the same run: 77-98% by count, 88%
over its 1,834 observations after a first decision)."""
PRIOR_NORMAL = 0.5
"""The prior that a seat plays like ``normal`` rather than ``hard``."""
KNOWN_EPS_PRIOR: dict[str, tuple[float, float]] = {
    "hard": (0.2, 19.8), "expert": (0.2, 19.8), "normal": (0.2, 19.8), "easy": (1.0, 0.0)}
"""The noise prior of a seat whose level is known (a computer seat: its level is public at the
table): ``hard``, ``expert`` and ``normal`` 1%, worth twenty decisions (a ``normal`` seat's
decisions are checked under ``normal``'s own model); ``easy`` 100%: it plays at random
(:data:`RANDOM_LEVELS`). A seat of unknown level (a person) has :data:`EPS_PRIOR`."""
RANDOM_LEVELS = frozenset({"easy"})
"""Known levels that play a uniformly random legal play: their decisions say nothing about
their hands under the ``hard`` model (a deal is as likely whatever they did), so they are never
checked, they take the cards left over, and the rollouts play them at random every time."""
USE_LEVELS = True
"""Whether the known levels are used at all (off: every seat is fitted as a person; for
measuring what the levels are worth)."""


def normal_share(fits: bool, decided: int, level: str | None = None) -> float:
    """The probability that a seat plays like ``normal``, given whether some kept hand explains
    all of its ``decided`` decisions under ``normal``: the share of rollouts that play it so. A
    seat known to be ``normal`` is always played so, one known to be another level never."""
    if level is not None:
        return 1.0 if level == "normal" else 0.0
    if not fits:
        return 0.0
    a = PRIOR_NORMAL * FIT_IF_NORMAL
    return a / (a + (1.0 - PRIOR_NORMAL) * FIT_IF_HARD[min(decided, len(FIT_IF_HARD) - 1)])


def eps_prior(level: str | None) -> tuple[float, float]:
    """The beta prior (mismatches, matches) of a seat's noise, by its known level."""
    if level is None:
        return EPS_PRIOR
    return KNOWN_EPS_PRIOR.get(level, EPS_PRIOR)


def known_levels(levels: Sequence[str | None] | None, n: int, me: int
                 ) -> tuple[str | None, ...]:
    """The other seats' levels as the belief uses them (``me``'s own and unknown ones None)."""
    if not levels or not USE_LEVELS:
        return (None,) * n
    return tuple(None if s == me or s >= len(levels) else levels[s] for s in range(n))


NORMAL_HANDS = 12
"""Hands kept per seat under which ``normal`` makes every one of the seat's decisions."""
NORMAL_TRIES = 48
"""Draws and card swaps per seat and step to refill those hands."""
NORMAL_UNITS = 0.3
"""Charged for checking one decision against the ``normal`` model (about 7 us)."""


def normal_check_units(size: int) -> float:
    """Simulated decisions charged for checking a decision of a seat known to be ``normal``
    against a hand of ``size`` cards (measured in a belief's redraws: 5-8 us an answer up to 8
    cards, 10-12 us with 9-13, a lead 7-15 us, on a core that runs a unit in about 18 us)."""
    return 0.15 + 0.04 * size


def _check_price(size: int) -> float:
    """Simulated decisions charged for a history check of a hand of ``size`` cards (measured on
    one core: 17-29 us up to 5 cards, 42-51 us with 6-10, 77-109 with 11, 98-120 with 12,
    112-155 with 13; a simulated decision is charged 25 us): the planner's work grows about as
    the cube of the hand."""
    if size <= 13:
        return 0.6 + 0.0028 * size**3
    return 0.6 + 0.0028 * 13**3 + 0.5 * (size - 13)


CHECK_UNITS = tuple(_check_price(size) for size in range(27))
"""Simulated decisions charged per history check, by the size of the checked hand."""
NO_ANSWER_UNITS = 0.8
"""Charged for a pass checked against a hand that holds no answer to the table (about 20 us)."""
SEEN_UNITS = 0.04
"""Charged for looking a check up among the step's own (about 1 us)."""
DRAW_UNITS = 0.025
"""Charged per card a fresh deal draws (a random number and a swap: about 0.6 us)."""


def check_units(d: Decision, size: int, answers: int) -> float:
    """What a history check cost, in simulated decisions: ``size`` cards checked, ``answers``
    listed (a check the step already made is only looked up: ``SEEN_UNITS``)."""
    if d.table is not None and not answers:
        return NO_ANSWER_UNITS
    return CHECK_UNITS[min(size, 26)]


MAX_GAMES = 64
"""Cache entries (one per seat and game) kept; the least recently used goes first."""


class Particle:
    """One deal of the hidden cards (``hands[n]``: cards set aside) and, per seat, how many of
    its past decisions ``hard`` reproduces with it (``match``, ``mis``) and the log of the option
    counts of the ones it does not (``logk``)."""

    __slots__ = ("hands", "logk", "match", "mis")

    def __init__(self, hands: list[int], n: int) -> None:
        self.hands = hands
        self.match = [0] * n
        self.mis = [0] * n
        self.logk = [0.0] * n

    def log_weight(self, logs: Sequence[tuple[float, float]]) -> float:
        w = 0.0
        for s, (l_ok, l_bad) in enumerate(logs):
            w += self.match[s] * l_ok + self.mis[s] * l_bad - self.logk[s]
        return w


@dataclass
class Belief:
    """The particles of one seat at one of its decision points."""

    point: int
    """Log length the particles are valid at."""
    step: int
    """Index of that decision point among the seat's own decisions."""
    sig: int
    """Hash of the log up to ``point`` (a cached belief is reused only on the same log)."""
    particles: list[Particle]
    eps: list[float]
    """Per seat: the fitted noise of its decisions (0 for this seat)."""
    units: float
    """Simulated decisions the last step spent (charged to the decision's budget)."""
    normal_hands: list[list[int]]
    """Per seat: hands under which ``normal`` makes every decision of the seat so far."""
    share: list[float]
    """Per seat: the share of rollouts that play it as ``normal`` (:func:`normal_share`)."""

    @property
    def policy(self) -> list[int]:
        """Per seat: ``NORMAL`` while some kept hand makes ``normal`` reproduce all it did, else
        ``HARD``."""
        return [NORMAL if hands else HARD for hands in self.normal_hands]

    def weights(self) -> list[float]:
        logs = _logs(self.eps)
        lws = [p.log_weight(logs) for p in self.particles]
        top = max(lws)
        return [math.exp(lw - top) for lw in lws]


_CACHE: OrderedDict[tuple[object, ...], Belief] = OrderedDict()
WORK = [0.0]
"""Simulated decisions the last :func:`belief` call spent, catching up included (benchmarks)."""


def clear() -> None:
    """Forget every carried belief (a restart)."""
    _CACHE.clear()


def forget(me: int, n: int, start_hand: int) -> None:
    """Drop the beliefs of seat ``me`` in the game it started with ``start_hand`` (it went out)."""
    for key in [k for k in _CACHE if k[:3] == (me, n, start_hand)]:
        del _CACHE[key]


def start_hand(log: Sequence[Event], me: int, hand: int, rules: Rules) -> int:
    """The seat's hand at its first decision of the game (after any exchange): with its seat
    and the seat count, the key of the game's beliefs."""
    bit_of = rules.layout.bit_of
    first = False
    for e in log:
        if not first and ((isinstance(e, Played) and e.seat == me and not e.out_of_turn)
                          or (isinstance(e, Passed) and e.seat == me)):
            first = True
        if first and isinstance(e, Played) and e.seat == me:
            for c in e.cards:
                hand += bit_of[c]
    return hand


def cache_bytes() -> int:
    """Approximate memory held by the cache (particles, their lists and integers)."""
    total = sys.getsizeof(_CACHE)
    for key, b in _CACHE.items():
        total += sys.getsizeof(key) + sys.getsizeof(b) + sys.getsizeof(b.particles)
        total += sys.getsizeof(b.eps) + sys.getsizeof(b.share)
        total += sys.getsizeof(b.normal_hands) + sum(
            sys.getsizeof(h) + sum(sys.getsizeof(x) for x in h) for h in b.normal_hands)
        for p in b.particles:
            total += sys.getsizeof(p)
            for lst in (p.hands, p.match, p.mis, p.logk):
                total += sys.getsizeof(lst) + sum(sys.getsizeof(x) for x in lst)
    return total


def _logs(eps: Sequence[float]) -> list[tuple[float, float]]:
    # (a seat at 0 is this seat; one at 1 plays at random and is never checked)
    return [(math.log(1.0 - e), math.log(e)) if 0 < e < 1 else (0.0, 0.0) for e in eps]


def _sig(log: Sequence[Event], point: int) -> int:
    return hash(tuple(log[:point]))


def _bits(unseen: int) -> list[int]:
    bits: list[int] = []
    m = unseen
    while m:
        low = m & -m
        pos = low.bit_length() - 1
        bit = 1 << (pos & ~1)
        bits.append(bit)
        if pos & 1:  # two identical cards
            bits.append(bit)
        m -= 2 * bit if pos & 1 else bit
    return bits


def _draw_front(left: list[int], want: int, rng: random.Random) -> int:
    """``want`` random cards of ``left``, moved to its front (a partial Fisher–Yates shuffle:
    only the cards drawn), as one mask."""
    size = len(left)
    for a in range(want):
        b = rng.randrange(a, size)
        left[a], left[b] = left[b], left[a]
    return sum(left[:want])


def _holds(hand: int, cards: int) -> bool:
    """Whether the count mask ``hand`` holds every card of ``cards``."""
    if not cards:
        return True
    if not (hand | cards) & int("10" * 52, 2):  # one copy of each: a plain subset test
        return hand & cards == cards
    m = cards
    while m:
        low = m & -m
        pos = (low.bit_length() - 1) & ~1
        if ((hand >> pos) & 3) < ((cards >> pos) & 3):
            return False
        m &= ~(3 << pos)
    return True


class _Point:
    """What the seat knew at one of its decision points (rebuilt from the current log)."""

    __slots__ = ("counts", "hand", "known", "point", "unseen")

    def __init__(self, point: int, hand: int, counts: list[int], unseen: int,
                 known: dict[int, int]) -> None:
        self.point, self.hand, self.counts, self.unseen, self.known = (
            point, hand, counts, unseen, known)


def _points(log: Sequence[Event], me: int, hand_now: int, counts_now: Sequence[int],
            full: int, rules: Rules) -> list[_Point]:
    """The seat's decision points so far (the current one last), with its hand, the counts, the
    unseen cards and the known exchange cards at each."""
    bit_of = rules.layout.bit_of
    n = len(counts_now)
    masks: list[int] = []
    for e in log:
        m = 0
        if isinstance(e, Played):
            for c in e.cards:
                m += bit_of[c]
        masks.append(m)
    idx = [i for i, e in enumerate(log)
           if (isinstance(e, Played) and e.seat == me and not e.out_of_turn)
           or (isinstance(e, Passed) and e.seat == me)]
    idx.append(len(log))
    gave: dict[int, int] = {}
    for e in log:
        if isinstance(e, Exchanged) and e.giver == me:
            for c in e.cards:
                gave[e.receiver] = gave.get(e.receiver, 0) + bit_of[c]
    out: list[_Point] = []
    # Walk backwards from now, adding back what was played after each point.
    after_seat = [0] * n
    after_cards = [0] * n
    j = len(log)
    played_now = sum(masks)
    played_after = 0
    for p in reversed(idx):
        while j > p:
            j -= 1
            e = log[j]
            if isinstance(e, Played) and masks[j]:
                after_seat[e.seat] += masks[j]
                after_cards[e.seat] += len(e.cards)
                played_after += masks[j]
        hand = hand_now + after_seat[me]
        counts = [counts_now[s] + after_cards[s] for s in range(n)]
        played = played_now - played_after
        unseen = full - hand - played
        known: dict[int, int] = {}
        for s, mask in gave.items():
            kept = 0
            m = mask
            while m:
                low = m & -m
                b = 1 << ((low.bit_length() - 1) & ~1)
                if ((unseen - kept) // b) & 3:
                    kept += b
                m -= b
            if kept and counts[s]:
                known[s] = kept
        out.append(_Point(p, hand, counts, unseen, known))
    out.reverse()
    return out


def belief(*, me: int, n: int, direction: int, rules: Rules, full: int, hand: int,
           counts: Sequence[int], log: Sequence[Event], budget_units: float,
           budget_ms: int, before: bool = False,
           levels: Sequence[str | None] | None = None) -> tuple[Belief, tuple[object, ...]]:
    """The seat's belief at the current point (the end of ``log``), brought up to date from the
    cache or rebuilt from the start of the log; and its cache key. ``before``: only up to the
    seat's previous decision point (to warm the cache as a game in progress would have).
    ``levels``: per seat, the level of a computer seat (public at the table), None for a person:
    a known level sets that seat's model (:func:`normal_share`, :func:`eps_prior`)."""
    points = _points(log, me, hand, counts, full, rules)
    first_hand = points[0].hand if points else hand
    known = known_levels(levels, n, me)
    key: tuple[object, ...] = (me, n, first_hand, budget_ms, rules.model_dump_json(), known)
    cached = _CACHE.get(key)
    here = len(log)
    state: Belief | None = None
    WORK[0] = 0.0
    if cached is not None:
        if cached.point == here and cached.sig == _sig(log, here):
            _CACHE.move_to_end(key)
            return cached, key
        if cached.point < here and cached.sig == _sig(log, cached.point):
            state = cached
    if state is None:
        start = 0
    else:
        start = next((i + 1 for i, p in enumerate(points) if p.point == state.point), 0)
        if start == 0:
            state = None
    refill = REFILL_SHARE * budget_units
    WORK[0] = 0.0
    for k in range(start, len(points) - 1 if before else len(points)):
        pt = points[k]
        prev = None if state is None else state.point
        state = _step(state, k, pt, prev, log, key, me=me, n=n, direction=direction,
                      rules=rules, full=full, refill=refill, levels=known)
        WORK[0] += state.units
    if state is None:  # ``before`` at the seat's first decision: nothing to warm
        return Belief(point=0, step=-1, sig=0, particles=[], eps=[], units=0.0,
                      normal_hands=[], share=[]), key
    _CACHE[key] = state
    _CACHE.move_to_end(key)
    while len(_CACHE) > MAX_GAMES:
        _CACHE.popitem(last=False)
    return state, key


def _step(state: Belief | None, k: int, pt: _Point, prev: int | None,
          log: Sequence[Event], key: tuple[object, ...], *, me: int, n: int, direction: int,
          rules: Rules, full: int, refill: float,
          levels: Sequence[str | None]) -> Belief:
    """One step of the chain: carry, weigh, drop, refill, refit the seats' noise."""
    # The same decision checked against the same hand again (redraws of a seat with few cards,
    # a carried deal re-weighed) gives the same answer: a step remembers its checks, and charges
    # only the ones it makes (what it remembers is the step's own, so the charge is
    # deterministic too).
    seen: dict[tuple[int, int], bool] = {}
    charged = [0.0]

    def match(d: Decision, hand: int, n: int, direction: int, rules: Rules, full: int) -> bool:
        """Check a decision against a hand, charging the work done (:func:`check_units`): under
        the ``hard`` model, or ``normal``'s for a seat known to be ``normal``."""
        key = (d.at, hand + d.later)
        ok = seen.get(key)
        charged[0] += SEEN_UNITS
        if ok is None:
            if levels[d.seat] == "normal":
                charged[0] += normal_check_units(count_cards(hand + d.later))
                ok = seen[key] = _match_normal(d, hand, rules)
            else:
                before = _WORK[0]
                ok = seen[key] = _match(d, hand, n, direction, rules, full)
                charged[0] += check_units(d, count_cards(hand + d.later), _WORK[0] - before)
        return ok

    def normal(d: Decision, hand: int) -> bool:
        """Check a decision against a hand under the ``normal`` model."""
        charged[0] += NORMAL_UNITS
        return _match_normal(d, hand, rules)

    rng = random.Random(f"{key!r}|{k}")
    prefix = log[: pt.point]
    hist = history(prefix, pt.counts, me, rules, 999)
    others = [s for s in range(n) if s != me]
    by_seat: dict[int, list[Decision]] = {s: [] for s in others}
    hist = [d for d in hist if levels[d.seat] not in RANDOM_LEVELS]  # (they say nothing)
    for d in hist:
        by_seat[d.seat].append(d)
    for ds in by_seat.values():
        ds.reverse()  # latest first: the likeliest to fail
    priors = [eps_prior(levels[s]) for s in range(n)]
    eps = list(state.eps) if state is not None else [0.0 if s == me else
                                                     priors[s][0] / sum(priors[s])
                                                     for s in range(n)]
    normal_hands: list[list[int]] = [[] for _ in range(n)]
    kept: list[Particle] = []
    if state is not None and prev is not None:
        bit_of = rules.layout.bit_of
        gone = [0] * n
        for e in log[prev : pt.point]:
            if isinstance(e, Played):
                for c in e.cards:
                    gone[e.seat] += bit_of[c]
        new = [d for d in hist if d.at >= prev]
        for p in state.particles:
            if not all(_holds(p.hands[s], gone[s]) for s in others):
                continue
            hands = list(p.hands)
            hands[me] = pt.hand
            for s in others:
                hands[s] -= gone[s]
            q = Particle(hands, n)
            q.match, q.mis, q.logk = list(p.match), list(p.mis), list(p.logk)
            for d in new:
                h = hands[d.seat]
                if match(d, h, n, direction, rules, full):
                    q.match[d.seat] += 1
                else:
                    q.mis[d.seat] += 1
                    q.logk[d.seat] += math.log(1 + count_cards(h + d.later))
            kept.append(q)
        # ``normal``'s own hands: those still possible that make the new decisions too.
        for s in others:
            ds = [d for d in new if d.seat == s]
            avail = pt.unseen - sum(m for t, m in pt.known.items() if t != s)
            left_hands = (h - gone[s] for h in state.normal_hands[s] if _holds(h, gone[s]))
            normal_hands[s] = [h for h in left_hands
                               if _holds(avail, h) and all(normal(d, h) for d in ds)]
    logs = _logs(eps)
    if kept:
        lws = [p.log_weight(logs) for p in kept]
        top = max(lws)
        kept = [p for p, lw in zip(kept, lws, strict=True) if lw >= top - DROP_LOG]
    # Refill with fresh deals.
    need = {s: pt.counts[s] - count_cards(pt.known.get(s, 0)) for s in others if pt.counts[s]}
    pool_mask = pt.unseen
    for mask in pt.known.values():
        pool_mask -= mask
    pool = _bits(pool_mask)
    # The seats most like ``hard`` are drawn first, most decisions first; the noisiest seat takes
    # the cards left over (its misfits cost its deals least).
    order = sorted(need, key=lambda s: (eps[s] >= LOOSE, -len(by_seat[s]), s))
    aside = len(pool) > sum(need.values())

    def weigh(q: Particle, s: int) -> None:
        """Check every decision of seat ``s`` against ``q``'s hand."""
        q.match[s] = q.mis[s] = 0
        q.logk[s] = 0.0
        hand = q.hands[s]
        for d in by_seat[s]:
            size = count_cards(hand + d.later)
            if match(d, hand, n, direction, rules, full):
                q.match[s] += 1
            else:
                q.mis[s] += 1
                q.logk[s] += math.log(1 + size)

    def weigh_above(q: Particle, seats: list[int], floor: float) -> bool:
        """Re-check the decisions of ``seats`` against ``q``'s hands, latest first, stopping at
        the first miss after which ``q``'s log-weight can no longer reach ``floor``."""
        for s in seats:
            q.match[s] = q.mis[s] = 0
            q.logk[s] = 0.0
        bound = q.log_weight(logs) + sum(len(by_seat[s]) * logs[s][0] for s in seats)
        if bound < floor:
            return False
        for s in seats:
            hand = q.hands[s]
            l_ok, l_bad = logs[s]
            for d in by_seat[s]:
                if match(d, hand, n, direction, rules, full):
                    q.match[s] += 1
                else:
                    q.mis[s] += 1
                    k = math.log(1 + count_cards(hand + d.later))
                    q.logk[s] += k
                    bound += l_bad - l_ok - k
                    if bound < floor:
                        return False
        return True

    # Parents of the card-swap moves: every particle so far, drawn by weight.
    parents: list[Particle] = []
    parent_lw: list[float] = []
    parent_cum: list[float] = []
    top_lw = [0.0]
    have: set[tuple[int, ...]] = set()
    idle = 0  # tries in a row that kept no new deal

    def add(q: Particle) -> bool:
        """Keep ``q`` (a deal already kept is not kept twice) and make it a parent."""
        nonlocal idle
        h = tuple(q.hands)
        if h in have:
            return False
        idle = 0
        have.add(h)
        kept.append(q)
        lw = q.log_weight(logs)
        if not parents or lw > top_lw[0]:
            scale = math.exp(top_lw[0] - lw) if parents else 1.0
            parent_cum[:] = [c * scale for c in parent_cum]
            top_lw[0] = lw
        parents.append(q)
        parent_lw.append(lw)
        parent_cum.append((parent_cum[-1] if parent_cum else 0.0) + math.exp(lw - top_lw[0]))
        return True

    carried, kept = kept, []
    for q in carried:
        add(q)
    groups = [s for s in order if need[s]] + ([n] if aside else [])
    while len(kept) < PARTICLES and (not kept or charged[0] < refill) and idle < IDLE_TRIES:
        charged[0] += SEEN_UNITS  # (every try costs something: the loop always ends)
        idle += 1
        if parents and len(groups) >= 2 and rng.random() < SWAP_SHARE:
            # A card-swap move from a deal drawn by weight (Metropolis on the weights; the
            # checks stop as soon as the move can no longer be accepted).
            i = min(bisect.bisect_left(parent_cum, rng.random() * parent_cum[-1]),
                    len(parents) - 1)
            parent = parents[i]
            ga, gb = rng.sample(groups, 2)
            hands = list(parent.hands)
            ca = rng.choice(_bits(hands[ga] - pt.known.get(ga, 0)))
            cb = rng.choice(_bits(hands[gb] - pt.known.get(gb, 0)))
            if ca != cb:
                hands[ga] += cb - ca
                hands[gb] += ca - cb
                floor = parent_lw[i] + math.log(1.0 - rng.random())
                q = Particle(hands, n)
                q.match, q.mis, q.logk = list(parent.match), list(parent.mis), list(parent.logk)
                if tuple(hands) not in have and weigh_above(q, [g for g in (ga, gb) if g < n],
                                                            floor):
                    add(q)
            continue
        hands = [0] * (n + 1)
        hands[me] = pt.hand
        for s, mask in pt.known.items():
            hands[s] += mask
        left = list(pool)
        q = Particle(hands, n)
        for i, s in enumerate(order):
            want = need[s]
            last = i == len(order) - 1 and not aside
            ds = by_seat[s]
            fit = False
            drawn = 0
            if last:
                drawn = sum(left)
                left = []
            else:
                for _ in range((TRIES if eps[s] < LOOSE else LOOSE_TRIES) if ds else 1):
                    drawn = _draw_front(left, want, rng)
                    charged[0] += DRAW_UNITS * want
                    fit = True
                    for d in ds:
                        if not match(d, hands[s] + drawn, n, direction, rules, full):
                            fit = False
                            break
                    if fit:
                        break
                left = left[want:]
            hands[s] += drawn
            if fit:
                q.match[s] = len(ds)
            else:
                weigh(q, s)
        hands[n] = sum(left)
        add(q)
    # Refit each seat's noise to the weighted share of its decisions the deals miss.
    lws = [p.log_weight(logs) for p in kept]
    top = max(lws)
    ws = [math.exp(lw - top) for lw in lws]
    total = sum(ws)
    new_eps = list(eps)
    for s in others:
        decided = len(by_seat[s])
        if not decided:
            continue
        prior_bad, prior_ok = priors[s]
        missed = sum(w * p.mis[s] for w, p in zip(ws, kept, strict=True)) / total
        fitted = (prior_bad + missed) / (prior_bad + prior_ok + decided)
        new_eps[s] = min(EPS_MAX, max(EPS_MIN, fitted))
    # (a seat of known level has its model already: no ``normal`` hands to look for)
    _refill_normal(normal_hands, {s: w for s, w in need.items() if levels[s] is None}, pt,
                   pool, by_seat, normal, charged,
                   random.Random(f"{key!r}|{k}|normal"))
    share = [normal_share(bool(normal_hands[s]), len(by_seat[s]), levels[s]) if s in by_seat
             else 0.0 for s in range(n)]
    return Belief(point=pt.point, step=k, sig=_sig(log, pt.point), particles=kept, eps=new_eps,
                  units=charged[0], normal_hands=normal_hands, share=share)


def _refill_normal(normal_hands: list[list[int]], need: dict[int, int], pt: _Point,
                   pool: list[int], by_seat: dict[int, list[Decision]],
                   normal: Callable[[Decision, int], bool], charged: list[float],
                   rng: random.Random) -> None:
    """Top up each seat's ``normal`` hands: a card swap from a kept hand (half the time, when
    there is one) or a fresh draw, kept when ``normal`` makes every decision of the seat with it
    (its latest decisions checked first)."""
    pool_mask = sum(pool)
    for s, want in need.items():
        hands_s = normal_hands[s]
        ds = by_seat[s]
        known = pt.known.get(s, 0)
        for _ in range(NORMAL_TRIES):
            if len(hands_s) >= NORMAL_HANDS:
                break
            if hands_s and rng.random() < 0.5:
                h = rng.choice(hands_s)
                outside = _bits(pool_mask - (h - known))  # the pool's cards this hand lacks
                if not outside or h == known:
                    continue
                h = h - rng.choice(_bits(h - known)) + rng.choice(outside)
            else:
                h = known + _draw_front(list(pool), want, rng)
                charged[0] += DRAW_UNITS * want
            if h not in hands_s and all(normal(d, h) for d in ds):
                hands_s.append(h)

