"""The expert's own unsearched plays: ``hard``'s plan with thresholds of its own
(:data:`engine.ai.core.SHARP`), used for its first candidate and for its own seat in the
rollouts; every other seat in a rollout, and the ``hard`` level itself, play by ``HARD``. They
differ in three answers: a 2 that could be beaten is spent sooner, a 2 kept for later does not
mean passing when another answer costs the plan little, and a costlier answer is taken once an
opponent is down to 5 cards."""

from __future__ import annotations

import random

from engine import Rules, classify, parse_cards
from engine.ai import decide, hint, observe
from engine.ai.core import HARD, SHARP, Ctx, full_mask, hard_choice, twos_or_bomb
from engine.ai.search import OWN, candidates
from engine.ai.sim import Sim
from engine.combos import Combo, legal_responses
from tests.engine._expert import hard_points


def _facing(hand: str, table: str, counts: list[int]) -> tuple[Ctx, list[Combo]]:
    """Seat 0 holds ``hand`` and faces ``table``, led by seat 1; the seats hold ``counts``."""
    rules = Rules()
    mask = rules.layout.to_mask(parse_cards(hand))
    played = classify(parse_cards(table))
    assert played is not None
    ctx = Ctx(seat=0, hand=mask, counts=counts, table=played, owner=1, chop_ctx=False,
              unseen=full_mask(1) - mask - played[1], opponents=[1, 2, 3], rules=rules,
              layout=rules.layout)
    return ctx, legal_responses(mask, played, rules, False)


def _facing_an_ace(opponent_cards: int) -> tuple[Ctx, list[Combo]]:
    """Seat 0 holds the lowest 2 and five small singles; seat 1 led the ace of hearts; every
    opponent holds ``opponent_cards``. The 2 is its only answer, and a higher 2 is unseen."""
    return _facing("2S 5C 7D 9H JC QD", "AH", [6, *[opponent_cards] * 3])


def test_the_expert_spends_a_beatable_two_sooner_than_hard() -> None:
    for cards in (4, 5, 8):
        ctx, legal = _facing_an_ace(cards)
        assert [c[1] for c in legal] == [ctx.layout.to_mask(parse_cards("2S"))]
        assert hard_choice(ctx, legal, True) is None  # hard keeps it while every opponent has 4+
        assert hard_choice(ctx, legal, True, HARD) is None
        assert hard_choice(ctx, legal, True, SHARP) == legal[0]
        assert OWN is SHARP
        assert candidates(ctx, legal, True)[0] == legal[0]  # the search starts from its own play
    ctx, legal = _facing_an_ace(9)  # far from the end, both keep the 2
    assert hard_choice(ctx, legal, True, SHARP) is None
    assert candidates(ctx, legal, True)[0] is None


def test_the_expert_keeps_its_two_and_answers_with_another_card() -> None:
    ctx, legal = _facing("3H 4S 7C 8S 9C 10C 2D", "6D", [7, 10, 10, 10])
    seven = ctx.layout.to_mask(parse_cards("7C"))
    assert hard_choice(ctx, legal, True) is None  # hard's cheapest answer is its 2: it passes
    played = hard_choice(ctx, legal, True, SHARP)
    assert played is not None and played[1] == seven  # the 8-9-10 stays a sequence
    assert candidates(ctx, legal, True)[0] == played


def test_the_expert_takes_a_costlier_answer_once_an_opponent_has_five_cards() -> None:
    tens = Rules().layout.to_mask(parse_cards("10S 10C"))
    for cards, breaks_the_triple in ((5, True), (4, True), (6, False), (9, False)):
        ctx, legal = _facing("3D 4C 4H 8H 10S 10C 10D QD", "6C 6D", [8, cards, 10, 10])
        assert hard_choice(ctx, legal, True) is None
        played = hard_choice(ctx, legal, True, SHARP)
        assert (played is not None and played[1] == tens) is breaks_the_triple
        if not breaks_the_triple:
            assert played is None


class _Logged(Sim):
    """A rollout that notes, at each play, what each set of thresholds would have played."""

    __slots__ = ("log",)
    log: list[tuple[int, Combo | None, Combo | None, Combo | None]]

    def act(self, seat: int, play: Combo | None) -> None:
        ctx = self.ctx(seat)
        leading = ctx.table is None
        self.log.append((seat, play, hard_choice(ctx, None, not leading, HARD),
                         hard_choice(ctx, None, not leading, SHARP)))
        super().act(seat, play)


def test_in_a_rollout_only_the_searching_seat_plays_by_its_own_thresholds() -> None:
    rules = Rules()
    rng = random.Random(3)
    seen = {"own": 0, "other": 0, "differs": 0}
    for _ in range(60):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [sum(1 << (2 * i) for i in deck[13 * s:13 * s + 13]) for s in range(4)]
        me = rng.randrange(4)
        sim = _Logged(hands=hands, table=None, owner=None, chop_ctx=False, passed=set(),
                      cur=me, finished=[], played=0, direction=1, rules=rules,
                      full=full_mask(1), own=SHARP)
        sim.log = []
        sim.run(me)
        for seat, play, as_hard, as_sharp in sim.log:
            assert play == (as_sharp if seat == me else as_hard)
            seen["own" if seat == me else "other"] += 1
            seen["differs"] += seat == me and as_hard != as_sharp
    assert seen["own"] > 300 and seen["other"] > 900
    assert seen["differs"] > 0  # the searching seat met positions the two answer differently


def test_the_hint_answers_where_hard_passes() -> None:
    sooner = instead = 0
    for seed in range(951, 971):
        for game in hard_points(seed):
            obs = observe(game, 0)
            suggested = hint(obs)
            as_hard = decide(game, 0, "hard")
            assert suggested is None or suggested in obs.legal
            if as_hard is None and suggested is not None:
                if twos_or_bomb(suggested):
                    sooner += 1
                else:
                    instead += 1
    assert sooner > 0 and instead > 0
