"""A truthful Hint: each reason is computed from the hand as it is, and a reason that claims
something (the weakest part, breaking nothing) is given only where it holds; a play that breaks
up parts of the hand names them. True and false cases of every reason, on fixed hands."""

from __future__ import annotations

from engine import ComboKind, Game, Rank, Rules, classify
from engine.ai import HintWhy, observe
from engine.ai.explain import Part, broken_parts, explain_hint, plan_parts
from engine.ai.planner import split_mask
from tests.engine.test_hint_reasons import _self_play


def _answering(hand: str, table: str, *, others: str = "3H 6C 7C JC JD KD KH") -> Game:
    """Seat 1 holds ``hand`` and answers ``table``, led by seat 0 (who keeps ``others``)."""
    game = Game.new(Rules(), 2, hands=[f"{table} {others}", hand], leader=0)
    game.play(0, classify(table))
    return game


def _leading(hand: str) -> Game:
    return Game.new(Rules(), 2, hands=["3H 6C 7C JC JD KD KH", hand], leader=1)


def _why(game: Game, cards: str | None) -> tuple[HintWhy, tuple[Part, ...]]:
    s = explain_hint(observe(game, 1), None if cards is None else classify(cards))
    return s.why, s.broken


Q, K, A = Rank.QUEEN, Rank.KING, Rank.ACE


def test_the_issues_sequence_breaks_both_pairs_and_says_so() -> None:
    """Q♣ K♣ A♣ out of Q♣ Q♦ K♣ A♣ A♥: the hand is planned as two pairs and a King, so the
    sequence is no part of it: not "without breaking up your hand"."""
    game = _answering("QC QD KC AC AH 4D", "9S 10S JS")
    hand = observe(game, 1).hand_mask
    assert Part(ComboKind.PAIR, Q, Q) in plan_parts(hand)
    why, broken = _why(game, "QC KC AC")
    assert why is HintWhy.ANSWER
    assert set(broken) == {Part(ComboKind.PAIR, Q, Q), Part(ComboKind.PAIR, A, A)}


def test_an_answer_that_is_a_part_of_the_plan_breaks_nothing() -> None:
    game = _answering("9C 10D JH 4S 4D KC", "5S 6S 7S")
    why, broken = _why(game, "9C 10D JH")
    assert (why, broken) == (HintWhy.FITS_PLAN, ())
    s = explain_hint(observe(game, 1), classify("9C 10D JH"))
    assert s.plays_left == len(split_mask(observe(game, 1).hand_mask - s.play.mask)[1]) == 2  # type: ignore[union-attr]


def test_leads_weakest_part_lowest_card_and_others() -> None:
    game = _leading("3S 4D 5C 9H 9D KS")
    assert _why(game, "3S 4D 5C") == (HintWhy.LEAD_PLAN, ())  # a part, and the weakest
    assert _why(game, "9H 9D") == (HintWhy.LEAD, ())  # a part, not the weakest
    assert _why(game, "3S") == (HintWhy.LEAD_LOWEST,
                                (Part(ComboKind.SEQUENCE, Rank.THREE, Rank.FIVE),))
    assert _why(game, "9H") == (HintWhy.LEAD, (Part(ComboKind.PAIR, Rank.NINE, Rank.NINE),))
    assert _why(_leading("3S 7D 9H 9D"), "3S") == (HintWhy.LEAD_LOWEST, ())  # a lone 3


def test_passes_keep_what_answering_would_break_or_spend() -> None:
    three_eights = _answering("8S 8D 8C 4H 5C", "6S 6H")
    assert _why(three_eights, None) == (HintWhy.KEEP, (Part(ComboKind.TRIPLE, Rank.EIGHT,
                                                            Rank.EIGHT),))
    pair = _answering("8S 8D 4H 5C 10C", "6S 6H")
    assert _why(pair, None) == (HintWhy.KEEP_FOR_LATER, ())
    twos = _answering("2S 2D 4H 5C 10C", "6S 6H")
    assert _why(twos, None)[0] is HintWhy.KEEP_CONTROL
    nothing = _answering("3S 4H 5C 10C", "6S 6H")
    assert _why(nothing, None) == (HintWhy.NO_PLAY, ())


def test_chop_and_block_name_what_they_break() -> None:
    chop = _answering("5S 5D 5C 5H 9C", "2S")
    assert _why(chop, "5S 5D 5C 5H") == (HintWhy.CHOP, ())
    block = _answering("9C 9D 9H 4S", "7S 7D", others="3D")  # seat 0 holds one card
    assert _why(block, "9C 9D") == (HintWhy.BLOCK, (Part(ComboKind.TRIPLE, Rank.NINE,
                                                         Rank.NINE),))
    assert explain_hint(observe(block, 1), classify("9C 9D")).opponent_cards == 1


def test_broken_parts_are_the_plans_parts_that_lose_cards_to_the_play() -> None:
    """Over self-played games: a play never "breaks nothing" while it takes cards from a part of
    the plan it is not, and every part named shares a rank with the play without being wholly in
    it."""
    for seed in range(4):
        for s, game, seat in _self_play(seed):
            obs = observe(game, seat)
            shown = s.play if s.play is not None else s.kept
            if shown is None:
                continue
            hand = obs.hand_mask
            assert s.broken == broken_parts(hand, shown)
            ranks = {c.rank for c in shown.cards}
            for part in s.broken:
                assert ranks & {Rank(r) for r in range(part.low, part.high + 1)}
                assert part not in [Part(shown.kind, shown.low_rank, shown.top.rank)]
            plan = plan_parts(hand)
            in_plan = shown.kind is not ComboKind.DOUBLE_QUAD and Part(
                shown.kind, shown.low_rank, shown.top.rank) in plan
            if s.why in (HintWhy.FITS_PLAN, HintWhy.LEAD_PLAN, HintWhy.KEEP_FOR_LATER):
                assert not s.broken, (s, plan)
            if s.why is HintWhy.LEAD_PLAN:
                assert in_plan, (s, plan)
            if s.why in (HintWhy.ANSWER, HintWhy.KEEP):
                assert s.broken and not in_plan


def test_a_play_made_of_whole_parts_breaks_nothing() -> None:
    """Consecutive pairs built from three whole pairs of the plan, or a King single used in a
    sequence, break nothing up; one card of a pair does."""
    hand = observe(_leading("5S 5D 6S 6D 7S 7D KC"), 1).hand_mask
    assert broken_parts(hand, classify("5S 5D 6S 6D 7S 7D")) == ()
    assert broken_parts(hand, classify("5S")) == (
        Part(ComboKind.DOUBLE_SEQUENCE, Rank.FIVE, Rank.SEVEN),)


def test_going_out_and_nothing_to_do() -> None:
    last = _answering("9C 9D", "7S 7D")
    assert _why(last, "9C 9D") == (HintWhy.GO_OUT, ())  # the last cards: out
    assert _why(_answering("9C 9D 3S", "7S 7D"), "9C 9D")[0] is HintWhy.FITS_PLAN  # not out
    waiting = _answering("9C 9D 3S", "7S 7D")
    s = explain_hint(observe(waiting, 0), None)  # seat 0 just played: not its turn
    assert (s.why, s.play, s.broken) == (HintWhy.NOT_NOW, None, ())
