"""Shortcuts of the computer players that must not change a decision. An answer whose lower bound
on the plan cost it leaves is already worse than the best answer found is not planned: the bound
must hold on every hand, and ``hard``'s answers must be the ones of the plain definition (plan
every answer, sort, take the first). A search lists a hand's answers to a table once, and keeps
nothing afterwards."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from engine import Rules, classify, parse_cards
from engine.ai.core import (
    _ANSWERS,
    HARD,
    SHARP,
    Ctx,
    _beatable,
    _is_control,
    _respond,
    answers,
    full_mask,
    gain_floor,
    remembered_answers,
    twos_or_bomb,
)
from engine.ai.planner import split_mask
from engine.combos import Combo, ComboKind, legal_leads, legal_responses


def _hand(rng: random.Random, size: int, decks: int) -> int:
    """A random count mask of ``size`` cards from ``decks`` decks."""
    cards = [i for i in range(52) for _ in range(decks)]
    hand = 0
    for i in rng.sample(cards, size):
        hand += 1 << (2 * i)
    return hand


@pytest.mark.parametrize("decks", [1, 2])
def test_taking_out_a_play_never_lowers_the_plan_by_more_than_its_floor(decks: int) -> None:
    rules = Rules(double_quad=True)
    rng = random.Random(decks)
    checked = pruning = 0
    for _ in range(400):
        hand = _hand(rng, rng.randint(1, 13 * decks), decks)
        base = split_mask(hand)[0]
        for c in legal_leads(hand, rules.layout, True, True):
            floor = gain_floor(c)
            change = split_mask(hand - c[1])[0] - base
            assert change >= floor, (hex(hand), c)
            checked += 1
            pruning += floor > -1.0
    assert checked > 2_500 * decks and pruning > checked // 10


def _respond_by_definition(ctx: Ctx, cands: list[Combo], p: Mapping[str, float]) -> Combo | None:
    """``hard``'s answer as first written: every answer planned, sorted, the first taken (with
    thresholds ``p``; ``spare``: instead of a kept 2, the first answer that is not a 2 or bomb)."""
    if not cands:
        return None
    hand, table = ctx.hand, ctx.table
    for c in cands:
        if c[1] == hand:
            return c
    base = split_mask(hand)[0]
    scored = sorted(
        ((split_mask(hand - c[1])[0] - base, (c[1].bit_length() - 1) >> 1, c) for c in cands),
        key=lambda x: (x[0], x[1]))
    delta, _, best = scored[0]
    m = ctx.min_opp()
    if table is not None:
        if twos_or_bomb(table):
            bombs = [x for x in scored if x[2][0].is_bomb]
            if bombs:
                return bombs[0][2]
        if m == 1 and table[0] is ComboKind.SINGLE:
            return max(cands, key=lambda c: c[1])
    if m <= p["urgent"]:
        return best
    most = p["delta_near"] if m <= p["near_m"] else p["delta"]
    kind = best[0]
    if _is_control(kind, best[1]):
        _, plan = split_mask(hand - best[1])
        if _beatable(ctx, kind, best[1]):
            if m <= p["ctrl_beatable_m"]:
                return best
        elif len(plan) <= p["ctrl_plan"] or m <= p["ctrl_m"]:
            return best
        plain = [x for x in scored if not _is_control(x[2][0], x[2][1])]
        if p["spare"] and plain and plain[0][0] <= most:
            return plain[0][2]
        return None
    return best if delta <= most else None


@pytest.mark.parametrize("thresholds", [HARD, SHARP], ids=["hard", "expert"])
@pytest.mark.parametrize("rules", [Rules(), Rules(double_quad=True, chop_after_pass="any_bomb"),
                                   Rules.preset("pagat")], ids=["southern", "bombs", "pagat"])
def test_hard_answers_are_those_of_the_plain_definition(
        rules: Rules, thresholds: Mapping[str, float]) -> None:
    rng = random.Random(str(rules))
    full = full_mask(1)
    answered = differs = 0
    for _ in range(1500):
        hand = _hand(rng, rng.randint(1, 13), 1)
        other = _hand(rng, 13, 1)
        other &= ~hand & full  # the table's play comes from cards this seat does not hold
        leads = legal_leads(other, rules.layout, True, rules.double_quad) if other else []
        if not leads:
            continue
        table = rng.choice(leads)
        chop_ctx = rng.random() < 0.3
        cands = legal_responses(hand, table, rules, chop_ctx)
        counts = [rng.randint(1, 13) for _ in range(4)]
        counts[0] = bin(hand).count("1")
        ctx = Ctx(seat=0, hand=hand, counts=counts, table=table, owner=1, chop_ctx=chop_ctx,
                  unseen=full - hand - table[1], opponents=[1, 2, 3], rules=rules,
                  layout=rules.layout)
        got = _respond(ctx, cands, thresholds)
        assert got == _respond_by_definition(ctx, cands, thresholds)
        answered += got is not None
        differs += got != _respond(ctx, cands, HARD)
    assert answered > 300
    assert (differs > 20) is (thresholds is SHARP)  # the expert's own differ, and are checked


def test_a_search_lists_a_hands_answers_once_and_keeps_nothing_after() -> None:
    rules = Rules()
    layout = rules.layout
    hand = layout.to_mask(parse_cards("4S 9C 9D JH 2S"))
    table = classify(parse_cards("8H"))
    assert table is not None
    outside = answers(hand, table, rules, False)
    assert outside == legal_responses(hand, table, rules, False)
    assert answers(hand, table, rules, False) is not outside  # listed again: nothing kept
    with remembered_answers():
        first = answers(hand, table, rules, False)
        assert first == outside
        with remembered_answers():  # a search inside a search shares the same lists
            assert answers(hand, table, rules, False) is first
        assert answers(hand, table, rules, True) is not first  # the chop context is in the key
    assert not _ANSWERS

    def failing_search() -> None:
        with remembered_answers():
            answers(hand, table, rules, False)
            raise RuntimeError("the search failed")

    with pytest.raises(RuntimeError):
        failing_search()
    assert not _ANSWERS
