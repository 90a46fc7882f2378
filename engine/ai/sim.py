"""A light game model for rollouts: count-mask hands, one trick at a time, every seat played by
the ``hard`` policy (or, where the belief says so, by ``normal``'s lowest legal play, or at
random as often as its fitted noise). It follows the rules that matter for the outcome (beating,
chop tables and chop context, double quads, lock-out, going out, lead passing, both endings, cóng)
and skips the rest (out-of-turn chops, instant wins, stakes extras).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.ai.core import (
    Ctx,
    answers,
    easy_choice,
    hard_choice,
    normal_play,
    twos_or_bomb,
)
from engine.cards import Layout, count_cards
from engine.combos import Combo, legal_leads, may_lead
from engine.rules import Rules

__all__ = ["Sim", "step_units", "utility"]

STEP_US = 25.0
"""What one simulated decision is charged at, in microseconds (``STEPS_PER_MS`` in search)."""


def step_units(size: int, lead: bool) -> float:
    """What a rollout decision costs, in simulated decisions of :data:`STEP_US`, by the acting
    seat's hand size (measured on one core: an answer 3 + 1.7 us a card, a lead 5 us a card, each
    with about 5 us of the rollout's own work)."""
    us = 5.0 + (5.0 * size if lead else 3.0 + 1.7 * size)
    return us / STEP_US


_LEAD_UNITS = [step_units(size, True) for size in range(27)]
_ANSWER_UNITS = [step_units(size, False) for size in range(27)]


class Sim:
    """The mutable state of one simulated game."""

    __slots__ = (
        "chop_ctx",
        "counts",
        "cur",
        "direction",
        "finished",
        "frozen",
        "full",
        "hands",
        "layout",
        "n",
        "noise",
        "opps",
        "over",
        "own",
        "owner",
        "passed",
        "played",
        "policy",
        "rng",
        "rules",
        "started",
        "steps",
        "table",
        "work",
    )

    def __init__(
        self,
        *,
        hands: list[int],
        table: Combo | None,
        owner: int | None,
        chop_ctx: bool,
        passed: set[int],
        cur: int,
        finished: list[int],
        played: int,
        direction: int,
        rules: Rules,
        full: int,
        started: set[int] | None = None,
        frozen: Sequence[int] = (),
        noise: Sequence[float] | None = None,
        rng: random.Random | None = None,
        policy: Sequence[int] | None = None,
        own: Mapping[str, float] | None = None,
    ) -> None:
        self.hands = hands
        # The thresholds of the searching seat's own ``hard`` plays in :meth:`run` (None:
        # ``hard``'s own, :data:`engine.ai.core.HARD`; the expert passes ``core.SHARP``).
        self.own = own
        # Per seat: how often it makes a random legal play instead of the ``hard`` one.
        self.noise = noise
        self.rng = rng
        # Per seat: 1 where the seat plays as ``normal`` (the lowest legal play), else ``hard``.
        self.policy = policy
        self.counts = [count_cards(h) for h in hands]
        self.table = table
        self.owner = owner
        self.chop_ctx = chop_ctx
        self.passed = set(passed)
        self.cur = cur
        self.finished = list(finished)
        self.played = played
        self.direction = direction
        self.rules = rules
        self.layout: Layout = rules.layout
        self.n = len(hands)
        self.full = full
        self.over = False
        self.steps = 0
        self.work = 0.0  # what the decisions cost (step_units), charged to the search's budget
        self.opps: list[list[int] | None] = [None] * self.n
        # With cóng: the seats that have played a card (None: not modelled, nobody is frozen).
        self.started = set(range(self.n)) if started is None else set(started)
        self.frozen: list[int] = list(frozen)  # frozen seats hold the last places

    def ctx(self, seat: int) -> Ctx:
        n, d, counts = self.n, self.direction, self.counts
        opponents = self.opps[seat]
        if opponents is None:
            frozen = self.frozen
            opponents = self.opps[seat] = [
                s for s in ((seat + d * i) % n for i in range(1, n)) if counts[s]
                and s not in frozen
            ]
        return Ctx(
            seat=seat,
            hand=self.hands[seat],
            counts=counts,
            table=self.table,
            owner=self.owner,
            chop_ctx=self.chop_ctx,
            unseen=self.full - self.hands[seat] - self.played,
            opponents=opponents,
            rules=self.rules,
            layout=self.layout,
            fresh=seat not in self.started,
        )

    def act(self, seat: int, play: Combo | None) -> None:
        """Apply a play (or a pass, ``None``) by the current seat and move the turn on."""
        self.steps += 1
        if play is None:
            self.passed.add(seat)
        else:
            table = self.table
            if table is not None and play[0].is_bomb and twos_or_bomb(table):
                self.chop_ctx = True
            self.table = play
            self.owner = seat
            mask = play[1]
            self.hands[seat] -= mask
            self.played += mask
            self.counts[seat] -= count_cards(mask)
            self.started.add(seat)
            if not self.rules.pass_locks_out:
                self.passed.clear()
            if not self.hands[seat]:
                self.opps = [None] * self.n
                self.finished.append(seat)
                if len(self.finished) == 1 and len(self.started) < self.n:
                    n, d = self.n, self.direction
                    order = ((seat + d * i) % n for i in range(1, n))
                    self.frozen = [s for s in order if s not in self.started and self.counts[s]]
                if self.rules.end == "first_out":
                    self.over = True
                    return
                frozen = self.frozen
                holders = [s for s in range(self.n) if self.counts[s] and s not in frozen]
                if len(holders) <= 1:
                    self.finished.extend(holders)
                    self.over = True
                    return
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        n, d, counts, owner, passed = self.n, self.direction, self.counts, self.owner, self.passed
        frozen = self.frozen
        s = seat
        for _ in range(n - 1):
            s = (s + d) % n
            if s == owner:
                break
            if counts[s] and s not in passed and s not in frozen:
                self.cur = s
                return
        # The trick is over: its last player leads, or the next holder after them.
        lead = owner if owner is not None else seat
        while not counts[lead] or lead in frozen:
            lead = (lead + d) % n
        self.table = None
        self.owner = None
        self.chop_ctx = False
        self.passed.clear()
        self.cur = lead

    def run(self, me: int, limit: int = 4000) -> None:
        """Play on (each seat by its policy: ``hard`` unless ``policy`` says ``normal``, ``me``
        with the thresholds ``own``) until ``me`` has a place or the game is over."""
        noise, rng, policy, own = self.noise, self.rng, self.policy, self.own
        while not self.over and self.counts[me] and me not in self.frozen and self.steps < limit:
            seat = self.cur
            ctx = self.ctx(seat)
            size = self.counts[seat]
            self.work += (_ANSWER_UNITS if self.table is not None else _LEAD_UNITS)[min(size, 26)]
            if policy is not None and policy[seat]:
                play = normal_play(ctx.hand, self.table, self.rules, self.chop_ctx)
            elif (noise is not None and rng is not None and noise[seat]
                  and rng.random() < noise[seat]):
                play = self._random_play(ctx, rng)
            else:
                play = hard_choice(ctx, None, self.table is not None, own if seat == me else None)
            self.act(seat, play)

    def _random_play(self, ctx: Ctx, rng: random.Random) -> Combo | None:
        rules = self.rules
        table = self.table
        if table is None:
            leads = [c for c in legal_leads(ctx.hand, self.layout, rules.double_seq3_may_lead,
                                            rules.double_quad) if may_lead(rules, c[0], c[1])]
            return easy_choice(leads, False, rng)
        return easy_choice(answers(ctx.hand, table, rules, self.chop_ctx), True, rng)


def utility(sim: Sim, me: int, first_bonus: float = 0.0) -> float:
    """What the final (or partial) result is worth to ``me`` under the rules' scoring."""
    n = sim.n
    rules = sim.rules
    finished = sim.finished
    frozen = sim.frozen
    if rules.end == "first_out" or sim.over:
        if finished and rules.end == "first_out":
            winner = finished[0]
            d = sim.direction
            order = [(winner + d * i) % n for i in range(1, n) if (winner + d * i) % n
                     not in frozen]
            rest = sorted(order, key=lambda s: (sim.counts[s], order.index(s)))
            places = [winner, *rest, *frozen]
        else:
            places = finished + [s for s in range(n) if s not in finished and s not in frozen]
            places += frozen
    else:
        places = finished + [s for s in range(n) if s not in finished and s not in frozen]
        places += frozen
    place = places.index(me) + 1 if me in places else n
    if me in frozen:
        value = _scheme_value(sim, me, place, 0.0)
        return 2 * value if value < 0 else value  # a frozen seat pays double
    if me not in finished and not sim.over:
        # Unfinished rollout: rank me among the seats still holding cards by count.
        place = len(finished) + 1 + sum(
            1 for s in range(n)
            if s not in finished and s not in frozen and s != me and sim.counts[s] < sim.counts[me]
        )
    return _scheme_value(sim, me, place, first_bonus)


def _scheme_value(sim: Sim, me: int, place: int, first_bonus: float) -> float:
    n = sim.n
    rules = sim.rules
    bonus = first_bonus if place == 1 else 0.0
    scoring = rules.scoring
    if scoring == "loser_pays":
        return bonus + (-(n - 1.0) if place == n else 1.0)
    if scoring == "pot":
        return bonus + (n - 1.0 if place == 1 else -1.0)
    if scoring == "cards_left" and rules.end == "first_out":
        if place == 1:
            return bonus + float(sum(sim.counts[s] for s in range(n) if s != me))
        return -float(sim.counts[me])
    half = n // 2
    if place <= half:
        return bonus + float(half - place + 1)
    if place > n - half:
        return -float(half - (n - place + 1) + 1)
    return 0.0
