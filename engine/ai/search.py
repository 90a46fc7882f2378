"""The ``expert`` player: determinized Monte-Carlo search.

Each sample is a deal of the cards this seat has not seen, consistent with every seat's card count
and the cards this seat gave away in an exchange, and weighted by how well it explains the other
seats' past decisions. By default (``SAMPLER = "particles"``) the deals come from the seat's
carried belief (:mod:`engine.ai.belief`): weighted particles kept from its previous decision in
the game, weighed by a noisy ``hard`` model fitted to each opponent, drawn here by weight. The
older samplers remain for comparison: ``"reject"`` draws independent deals (each seat's hand
redrawn up to ``TRIES`` times until ``hard`` reproduces its decisions, the deal weighed jointly)
and ``"chain"`` a Metropolis chain. For each deal, every candidate play (at most six) is followed
by a rollout until this seat's place is known, the opponents playing ``hard`` (or, for one whose
fitted noise reaches ``NOISE_FROM``, a random legal play that often; or, in a share of the
deals that grows with the evidence, ``normal``'s lowest legal play for a seat that ``normal``
still explains, :func:`engine.ai.belief.normal_share`); the candidate with the best mean result
under the rules' scoring (plus a bonus for first place) wins, but replaces the ``hard`` choice
only when ahead of it by more than ``Z_MARGIN`` standard errors of their paired difference.
Candidates far behind the best stop being sampled (successive pruning), so the close ones get
more deals.

The work is measured in simulated decisions, not in wall-clock time, so a decision is
deterministic under a seed: each part is priced at what it costs on one core of the 2-core
machines here, one unit for about 25 us (a rollout decision by the acting seat's hand size,
:func:`engine.ai.sim.step_units`, plus ``ROLLOUT_UNITS`` a rollout; a history check of the belief
by the size of the hand it weighs, :func:`engine.ai.belief.check_units`). ``budget_ms`` converts
to units at ``STEPS_PER_MS``, and a wall-clock guard (``GUARD`` times the budget plus 50 ms, and
at least twice the budget plus 50 ms after a belief rebuilt from the log) protects slow
machines.
"""

from __future__ import annotations

import bisect
import math
import random
import time
from collections.abc import Mapping, Sequence

from engine.ai.belief import CHECK_UNITS, RANDOM_LEVELS, belief, forget, known_levels, start_hand
from engine.ai.belief import WORK as belief_work
from engine.ai.core import KIND_OF, SHARP, Ctx, hard_choice, remembered_answers, struct_mask
from engine.ai.evidence import _WORK, Decision, _match, history
from engine.ai.planner import split_mask
from engine.ai.sim import Sim, utility
from engine.cards import count_cards
from engine.combos import Combo
from engine.events import Event, Frozen, Played
from engine.rules import Rules

__all__ = ["DEFAULT_BUDGET_MS", "STEPS_PER_MS", "candidates", "expert_choice"]

DEFAULT_BUDGET_MS = 100
STEPS_PER_MS = 42.0
"""Simulated decisions a millisecond of budget buys. A unit costs about 25 us here, so a search
that spends its whole budget takes about its budget (the cost of a unit varies with the planner's
memo and the machine's load). Most decisions stop well before it (one candidate, or the carried
deals all played), so the 95th percentile of all decisions stays within the budget: 71.7 ms at
100 ms on an idle core, 74-84 ms with both cores busy (docs/AI.md). 28 until 2026-12-04, when a
full search took about 70% of its budget and the 95th percentile was 48 ms: the 50% more work
took +1.30 +- 0.93 points of first places and +0.050 +- 0.030 chips a game over four arena
seeds."""
GUARD = 2.5
"""The wall-clock guard: a search stops after this many times its budget plus 50 ms whatever its
work (300 ms for the default 100 ms); it only acts on a slow or overloaded machine."""
ROLLOUT_UNITS = 0.6
"""Simulated decisions charged per rollout for setting it up and scoring it (about 15 us)."""
HISTORY = 999
"""How many recent decisions of the other seats a sampled deal should reproduce (0: none, deals
are uniform given the counts; the default keeps every decision of the game)."""
BURN_IN = 12
"""``"chain"`` sampler: steps before the first sampled deal."""
MOVES = 2
"""``"chain"`` sampler: steps between two sampled deals."""
BETA = 2.0
"""``"chain"`` sampler: log-weight of one reproduced decision."""
PRUNE_EVERY = 4
PRUNE_GAP = 0.75
"""Every ``PRUNE_EVERY`` samples, plays more than ``PRUNE_GAP`` (mean utility) behind the best
stop being sampled."""
MAX_CANDIDATES = 6
OWN: Mapping[str, float] = SHARP
"""The thresholds of the expert's own unsearched plays: its first candidate (the choice a
search must beat by :data:`Z_MARGIN`) and its seat's later plays in every rollout
(:data:`engine.ai.core.SHARP`; ``core.HARD`` plays them as ``hard``)."""
FIRST_BONUS = 1.0
MARGIN = 0.0
"""How much better (chips per game) another play must score than the ``hard`` choice."""
SAMPLER = "particles"
"""How deals are drawn when ``HISTORY`` is on: ``"particles"`` (weighted deals carried from the
seat's previous decision, :mod:`engine.ai.belief`; the default), ``"reject"`` (independent deals,
each seat's hand redrawn until it reproduces that seat's decisions; the last seat takes the cards
left over unchecked) or ``"chain"`` (a Metropolis chain over card swaps, which measured worse: its
successive deals are nearly alike)."""
Z_MARGIN = 1.0
"""How many standard errors of the paired difference another play must be ahead of the ``hard``
choice to replace it (0: ahead at all, by more than ``MARGIN``): the best of six means is often
ahead by chance. With each deal played once (``DISTINCT``), the arena (``benchmarks.arena --seats
expert,hard,hard,hard --games 2000 --seed 1``, paired) gave 0: 31.4%, 1.0: 35.0%, 2.0: 35.1%,
3.0: 34.6% of first places (1.0 against 0: +3.65 +- 1.75 points). The one-step benchmark
(``benchmarks.ai_decisions --known``) had preferred 0 by +0.90 +- 0.68: a decision's own result
does not show what a needless change of plan costs later."""
NOISE_FROM = 0.05
"""Opponents whose fitted noise (:mod:`engine.ai.belief`) reaches this play a random legal play
that often in the rollouts; below it they play ``hard`` (a seat of known level is fitted at
about 1%). 0.15 until 2026-12-03: a seat that plays at random 30% of the time is often fitted at
5-15% (its random plays are often explainable), and was then rolled out as pure ``hard``; at
0.05 the pool of three ``noisy30`` went from +2.6 to +6.7 points over ``hard``."""
KNOWN_EXACT = True
"""Roll out a seat of known level (other than a random one) without noise."""
DISTINCT = True
"""Play each particle at most once when the rollouts are deterministic (``_particle_search``)."""
TRIES = 120
"""Redraws per seat and deal for the ``"reject"`` sampler."""
ANSWER_COST = 0.5
"""``"chain"`` sampler: simulated decisions charged per answer a redraw check weighs."""
NOISE = 0.05
"""``"reject"`` sampler: how often the noisy ``hard`` that weighs a deal plays at random."""
SEARCH_BELOW = 99
"""Search only when at most this many cards are left in all hands together."""
SPENT: list[float] | None = None
"""When a list (benchmarks only): the simulated decisions each searched decision spent, the
belief's catching up on skipped decision points included (at ``STEPS_PER_MS`` a millisecond)."""
RECORD: list[tuple[list[int], float]] | None = None
"""When a list (benchmarks only): every deal a decision samples is appended to it, with the
weight its rollouts count for."""


def candidates(ctx: Ctx, legal: Sequence[Combo], can_pass: bool) -> list[Combo | None]:
    """The plays worth searching (at most ``MAX_CANDIDATES``): the expert's own choice first
    (``hard``'s plan with the thresholds :data:`OWN`), then
    the plan's other plays (on a lead) or the cheapest answers, then passing (on a response;
    passing is left out when six answers come before it, unless it is the ``hard`` choice:
    keeping it in measured +0.55 +- 0.83 and +0.10 +- 0.89 points on two seeds, docs/AI.md)."""
    first = hard_choice(ctx, legal, can_pass, OWN)
    out: list[Combo | None] = [first]
    seen = {None if first is None else first[1]}
    hand = ctx.hand
    if ctx.table is None:
        by_mask = {c[1]: c for c in legal}
        _, plan = split_mask(hand)
        for s in sorted(plan, key=lambda s: (s[1], -s[2])):
            mask = struct_mask(hand, s)
            c = by_mask.get(mask)
            if c is not None and mask not in seen and c[0] is KIND_OF[s[0]]:
                out.append(c)
                seen.add(mask)
    else:
        scored = sorted(
            legal,
            key=lambda c: (split_mask(hand - c[1])[0], c[1].bit_length()),
        )
        for c in scored:
            if c[1] not in seen:
                out.append(c)
                seen.add(c[1])
        if can_pass and None not in seen:
            out.append(None)
            seen.add(None)
    return out[:MAX_CANDIDATES]


class DealSampler:
    """Deals of the unseen cards, drawn by a Metropolis chain that favours deals in which the
    ``hard`` model reproduces the other seats' recent decisions (their plays and passes)."""

    def __init__(self, *, groups: dict[int, list[int]], base: list[int], hist: list[Decision],
                 rng: random.Random, n: int, direction: int, rules: Rules, full: int) -> None:
        self.groups = groups  # seat (or -1: set-aside cards) -> card bits
        self.base = base  # per seat: fixed cards (own hand, known exchange cards)
        self.hist = hist
        self.rng = rng
        self.n, self.direction, self.rules, self.full = n, direction, rules, full
        self.by_seat: dict[int, list[int]] = {}
        for i, d in enumerate(hist):
            self.by_seat.setdefault(d.seat, []).append(i)
        self.flags = [False] * len(hist)
        self.checks = 0
        self.keys = [g for g, bits in groups.items() if bits]
        for seat in self.by_seat:
            self._rescore(seat)

    def hands(self) -> list[int]:
        out = list(self.base)
        for seat, bits in self.groups.items():
            if seat >= 0:
                out[seat] += sum(bits)
        return out

    def _hand(self, seat: int) -> int:
        return self.base[seat] + sum(self.groups.get(seat, ()))

    def _rescore(self, seat: int) -> int:
        idx = self.by_seat.get(seat, [])
        if not idx:
            return 0
        hand = self._hand(seat)
        total = 0
        for i in idx:
            ok = _match(self.hist[i], hand, self.n, self.direction, self.rules, self.full)
            self.flags[i] = ok
            total += ok
        self.checks += len(idx)
        return total

    def step(self) -> None:
        if len(self.keys) < 2 or not self.hist:
            return
        rng = self.rng
        a, b = rng.sample(self.keys, 2)
        ga, gb = self.groups[a], self.groups[b]
        i, j = rng.randrange(len(ga)), rng.randrange(len(gb))
        if ga[i] == gb[j]:
            return
        idx = self.by_seat.get(a, []) + self.by_seat.get(b, [])
        flags = self.flags
        idx.sort(key=lambda k: not flags[k])  # the decisions that could stop matching first
        old = sum(flags[k] for k in idx)
        # Metropolis: accept when the matches reach ``need``; stop at the first decision after
        # which they no longer can (most proposals are refused after one or two checks).
        need = old + math.log(1.0 - rng.random()) / BETA
        ga[i], gb[j] = gb[j], ga[i]
        hands = {a: self._hand(a), b: self._hand(b)}
        new: list[bool] = []
        left = len(idx)
        got = 0
        for k in idx:
            d = self.hist[k]
            ok = _match(d, hands[d.seat], self.n, self.direction, self.rules, self.full)
            self.checks += 1
            new.append(ok)
            got += ok
            left -= 1
            if got + left < need:
                ga[i], gb[j] = gb[j], ga[i]
                return
        for k, ok in zip(idx, new, strict=True):
            flags[k] = ok


class RejectSampler:
    """Independent deals: the seats' hands are drawn one after another from the cards left (a
    partial Fisher–Yates shuffle: only the cards drawn are shuffled), each redrawn (up to
    ``TRIES`` times) until the ``hard`` model reproduces every past decision of that seat; the
    seat with the fewest decisions takes the cards left over. The deal is then weighed jointly
    (:attr:`weight`): a seat whose decisions it does not all reproduce, the last one included,
    multiplies its weight by the chance that a noisy ``hard`` (``NOISE``: a random option about
    one per card held) made the decisions it misses."""

    def __init__(self, *, pool: list[int], need: dict[int, int], base: list[int],
                 hist: list[Decision], rng: random.Random, n: int, direction: int,
                 rules: Rules, full: int) -> None:
        self.pool, self.need, self.base, self.rng = pool, need, base, rng
        self.n, self.direction, self.rules, self.full = n, direction, rules, full
        by_seat: dict[int, list[Decision]] = {s: [] for s in need}
        for d in hist:
            if d.seat in by_seat:
                by_seat[d.seat].append(d)
        for ds in by_seat.values():
            ds.reverse()  # the latest decisions first: they are the likeliest to fail
        self.by_seat = by_seat
        self.order = sorted(need, key=lambda s: -len(by_seat[s]))
        self.checks = 0.0
        self.weight = 1.0

    def _price(self, hand: int, d: Decision) -> float:
        return CHECK_UNITS[min(count_cards(hand + d.later), len(CHECK_UNITS) - 1)]

    def _fits(self, seat: int, hand: int) -> bool:
        for d in self.by_seat[seat]:
            self.checks += self._price(hand, d)
            if not _match(d, hand, self.n, self.direction, self.rules, self.full):
                return False
        return True

    def _likelihood(self, seat: int, hand: int) -> float:
        """The chance, relative to a fitting hand, that a noisy ``hard`` holding ``hand`` made
        the seat's decisions."""
        w = 1.0
        for d in self.by_seat[seat]:
            self.checks += self._price(hand, d)
            if not _match(d, hand, self.n, self.direction, self.rules, self.full):
                w *= NOISE / ((1.0 - NOISE) * (1 + count_cards(hand + d.later)))
        return w

    def hands(self) -> list[int]:
        rng = self.rng
        out = list(self.base)
        left = list(self.pool)
        order = self.order
        self.weight = 1.0
        for k, seat in enumerate(order):
            need = self.need[seat]
            if k == len(order) - 1 and len(left) == need:
                out[seat] += sum(left)
                if self.by_seat[seat]:
                    self.weight *= self._likelihood(seat, out[seat])
                break
            hand = 0
            size = len(left)
            fit = not self.by_seat[seat]
            for _ in range(TRIES if self.by_seat[seat] else 1):
                for a in range(need):  # partial Fisher–Yates
                    b = rng.randrange(a, size)
                    left[a], left[b] = left[b], left[a]
                hand = sum(left[:need])
                if self._fits(seat, out[seat] + hand):
                    fit = True
                    break
            out[seat] += hand
            if not fit:
                self.weight *= self._likelihood(seat, out[seat])
            left = left[need:]
        return out


def _unseen_bits(unseen: int) -> list[int]:
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


@remembered_answers()
def expert_choice(
    ctx: Ctx,
    legal: Sequence[Combo],
    can_pass: bool,
    *,
    rng: random.Random,
    budget_ms: int,
    n: int,
    direction: int,
    passed: frozenset[int],
    finished: Sequence[int],
    played: int,
    full: int,
    known: dict[int, int] | None = None,
    log: Sequence[Event] = (),
    levels: Sequence[str | None] | None = None,
) -> Combo | None:
    """Search the candidates of :func:`candidates` and return the best (``None``: pass).
    ``levels``: the computer seats' levels, None for people (see :func:`.belief.belief`)."""
    cands = candidates(ctx, legal, can_pass)
    if len(cands) == 1 or sum(ctx.counts) > SEARCH_BELOW:
        if cands[0] is None or cands[0][1] != ctx.hand:
            keep_up(ctx, n=n, direction=direction, full=full, log=log, budget_ms=budget_ms,
                    levels=levels)
        _release(ctx, cands[0], n, log)
        return cands[0]
    me = ctx.seat
    counts = ctx.counts
    known = known or {}
    others = [s for s in range(n) if s != me and counts[s]]
    pool_mask = ctx.unseen
    for mask in known.values():
        pool_mask -= mask
    pool = _unseen_bits(pool_mask)
    need = {s: counts[s] - _count(known.get(s, 0)) for s in others}
    step_budget = max(1.0, budget_ms * STEPS_PER_MS)
    deadline = time.perf_counter() + (GUARD * budget_ms + 50.0) / 1000.0
    totals = [0.0] * len(cands)
    runs = [1e-12] * len(cands)  # total weight of the deals each candidate was played on
    active = list(range(len(cands)))
    steps = 0.0
    samples = 0
    rules = ctx.rules
    hist = history(log, counts, me, rules, HISTORY) if HISTORY and log else []
    started = {e.seat for e in log if isinstance(e, Played)} if rules.cong else None
    frozen = next((e.seats for e in log if isinstance(e, Frozen)), ())
    rng.shuffle(pool)
    groups: dict[int, list[int]] = {}
    i = 0
    for s in others:
        groups[s] = pool[i : i + need[s]]
        i += need[s]
    if i < len(pool):
        groups[-1] = pool[i:]
    base = [0] * n
    base[me] = ctx.hand
    for s, mask in known.items():
        base[s] += mask
    if SAMPLER == "particles":
        return _particle_search(ctx, cands, rng=rng, step_budget=step_budget, deadline=deadline,
                                n=n, direction=direction, passed=passed, finished=finished,
                                played=played, full=full, log=log, started=started,
                                frozen=frozen, budget_ms=budget_ms, levels=levels)
    sampler: DealSampler | RejectSampler
    if SAMPLER == "reject" and hist:
        sampler = RejectSampler(pool=pool, need=need, base=base, hist=hist, rng=rng, n=n,
                                direction=direction, rules=rules, full=full)
    else:
        sampler = DealSampler(groups=groups, base=base, hist=hist, rng=rng, n=n,
                              direction=direction, rules=rules, full=full)
    chain = isinstance(sampler, DealSampler)
    if isinstance(sampler, DealSampler) and hist:
        for _ in range(BURN_IN):
            sampler.step()
    while True:
        if samples and hist and isinstance(sampler, DealSampler):
            for _ in range(MOVES):
                sampler.step()
        elif samples and chain:
            rng.shuffle(pool)
            i = 0
            for s in others:
                groups[s][:] = pool[i : i + need[s]]
                i += need[s]
        _WORK[0] = 0
        hands = sampler.hands()
        weight = sampler.weight if isinstance(sampler, RejectSampler) else 1.0
        if RECORD is not None:
            RECORD.append((hands, weight))
        if isinstance(sampler, RejectSampler):
            steps += sampler.checks
        else:
            steps += sampler.checks + ANSWER_COST * _WORK[0]
        sampler.checks = 0
        for j in active:
            sim = Sim(
                hands=list(hands),
                table=ctx.table,
                owner=ctx.owner,
                chop_ctx=ctx.chop_ctx,
                passed=set(passed),
                cur=me,
                finished=list(finished),
                played=played,
                direction=direction,
                rules=ctx.rules,
                full=full,
                started=started,
                frozen=frozen,
                own=OWN,
            )
            sim.act(me, cands[j])
            sim.run(me)
            steps += ROLLOUT_UNITS + sim.work
            totals[j] += weight * utility(sim, me, FIRST_BONUS)
            runs[j] += weight
        samples += 1
        if steps >= step_budget or time.perf_counter() > deadline:
            break
        if len(active) > 2 and samples % PRUNE_EVERY == 0:
            # Successive pruning: stop sampling the plays far behind the best one.
            means = {j: totals[j] / runs[j] for j in active}
            top = max(means.values())
            keep = [j for j in active if means[j] >= top - PRUNE_GAP]
            if len(keep) < 2:
                keep = sorted(active, key=lambda j: -means[j])[:2]
            active = sorted(keep)
    best = active[0]
    for j in active[1:]:
        if totals[j] / runs[j] > totals[best] / runs[best] + 1e-9:
            best = j
    if best and 0 in active and totals[best] / runs[best] - totals[0] / runs[0] <= MARGIN:
        best = 0
    return cands[best]


@remembered_answers()
def keep_up(ctx: Ctx, *, n: int, direction: int, full: int, log: Sequence[Event],
            budget_ms: int, levels: Sequence[str | None] | None = None) -> None:
    """Bring the seat's belief up to date on a decision that needs no search (one candidate, or
    nothing to play), so that the next search does not catch up on several steps at once: its
    time stays bounded. The chain, and so every decision, is the same either way."""
    if SAMPLER != "particles":
        return
    belief(me=ctx.seat, n=n, direction=direction, rules=ctx.rules, full=full, hand=ctx.hand,
           counts=ctx.counts, log=log, budget_units=max(1.0, budget_ms * STEPS_PER_MS),
           budget_ms=budget_ms, levels=levels)
    if SPENT is not None:
        SPENT.append(belief_work[0])


def _particle_search(
    ctx: Ctx,
    cands: list[Combo | None],
    *,
    rng: random.Random,
    step_budget: float,
    deadline: float,
    n: int,
    direction: int,
    passed: frozenset[int],
    finished: Sequence[int],
    played: int,
    full: int,
    log: Sequence[Event],
    started: set[int] | None,
    frozen: Sequence[int],
    budget_ms: int,
    levels: Sequence[str | None] | None,
) -> Combo | None:
    """The search on the carried belief: each sample is a particle drawn by weight."""
    me = ctx.seat
    bel, _ = belief(me=me, n=n, direction=direction, rules=ctx.rules, full=full, hand=ctx.hand,
                    counts=ctx.counts, log=log, budget_units=step_budget, budget_ms=budget_ms,
                    levels=levels)
    # A belief rebuilt after a restart (more than a decision's work to catch up on) takes longer
    # than the budget once; the guard then counts from here so that the decision is still the
    # one a warm cache gives.
    if belief_work[0] > step_budget:
        deadline = max(deadline, time.perf_counter() + (2.0 * budget_ms + 50.0) / 1000.0)
    steps = bel.units
    parts = bel.particles
    weights = bel.weights()
    cum: list[float] = []
    acc = 0.0
    for w in weights:
        acc += w
        cum.append(acc)
    share = bel.share if any(bel.share) else None
    # A seat of known level plays as that level: ``hard`` (or better) without noise however its
    # deals fit; only people, and the random levels, are rolled out with random plays.
    told = known_levels(levels, n, me)
    noise = [e if e >= NOISE_FROM and s != me
             and (told[s] is None or told[s] in RANDOM_LEVELS or not KNOWN_EXACT) else 0.0
             for s, e in enumerate(bel.eps)]
    noisy = noise if any(noise) else None
    # With every rollout deterministic (no seat played at random or as ``normal``), a deal
    # played twice tells nothing new: each particle is played at most once, drawn by weight
    # without replacement, and counts by its weight; the search ends when none is left.
    once = noisy is None and DISTINCT and (share is None or all(p in (0.0, 1.0) for p in share))
    if once:  # a random order by weight, without replacement (Efraimidis and Spirakis' keys)
        order = sorted((i for i, w in enumerate(weights) if w > 0.0),
                       key=lambda i: math.log(1.0 - rng.random()) / weights[i], reverse=True)
    totals = [0.0] * len(cands)
    runs = [0.0] * len(cands)
    gain = [0.0] * len(cands)  # per candidate: sum of its result minus the ``hard`` choice's
    gain2 = [0.0] * len(cands)  # and of its square, on the same deals
    got = [0.0] * len(cands)
    active = list(range(len(cands)))
    samples = 0
    wsum = 0.0
    wsum2 = 0.0
    while True:
        if once:
            pick = order[samples]
            w = weights[pick]
        else:
            pick = min(bisect.bisect_left(cum, rng.random() * acc), len(parts) - 1)
            w = 1.0
        hands = parts[pick].hands[:n]
        if RECORD is not None:
            RECORD.append((hands, w))
        # Which seats this deal's rollouts play as ``normal`` (the same for every candidate).
        policy = None if share is None else [int(p > 0 and rng.random() < p) for p in share]
        for j in active:
            sim = Sim(hands=list(hands), table=ctx.table, owner=ctx.owner, chop_ctx=ctx.chop_ctx,
                      passed=set(passed), cur=me, finished=list(finished), played=played,
                      direction=direction, rules=ctx.rules, full=full, started=started,
                      frozen=frozen, noise=noisy, rng=rng, policy=policy, own=OWN)
            sim.act(me, cands[j])
            sim.run(me)
            steps += ROLLOUT_UNITS + sim.work
            u = utility(sim, me, FIRST_BONUS)
            got[j] = u
            totals[j] += w * u
            runs[j] += w
        if active[0] == 0:
            wsum += w
            wsum2 += w * w
            for j in active[1:]:
                d = got[j] - got[0]
                gain[j] += w * d
                gain2[j] += w * d * d
        samples += 1
        if steps >= step_budget or time.perf_counter() > deadline:
            break
        if once and samples == len(order):
            break
        if len(active) > 2 and samples % PRUNE_EVERY == 0:
            means = {j: totals[j] / runs[j] for j in active}
            top = max(means.values())
            keep = [j for j in active if means[j] >= top - PRUNE_GAP]
            if len(keep) < 2:
                keep = sorted(active, key=lambda j: -means[j])[:2]
            active = sorted(keep)
    best = active[0]
    for j in active[1:]:
        if totals[j] / runs[j] > totals[best] / runs[best] + 1e-9:
            best = j
    if best and 0 in active and totals[best] / runs[best] - totals[0] / runs[0] <= MARGIN:
        best = 0
    if best and 0 in active and Z_MARGIN > 0.0:
        # Another play replaces the ``hard`` choice only when it is ahead by more than
        # ``Z_MARGIN`` standard errors of the (weighted) paired difference on the deals both
        # were played on; one deal alone never shows it.
        mean = gain[best] / wsum
        var = max(0.0, gain2[best] / wsum - mean * mean)
        deals = wsum * wsum / wsum2  # the effective number of deals
        se = math.sqrt(var / max(1e-9, deals - 1)) if deals > 1.0 + 1e-9 else math.inf
        if mean <= Z_MARGIN * se:
            best = 0
    choice = cands[best]
    if SPENT is not None:
        SPENT.append(steps - bel.units + belief_work[0])
    _release(ctx, choice, n, log)
    return choice


def _release(ctx: Ctx, choice: Combo | None, n: int, log: Sequence[Event]) -> None:
    """When the seat goes out with ``choice``, its game's belief is no longer needed."""
    if choice is not None and choice[1] == ctx.hand:
        forget(ctx.seat, n, start_hand(log, ctx.seat, ctx.hand, ctx.rules))


def _count(mask: int) -> int:
    from engine.cards import count_cards

    return count_cards(mask)
