"""The Hint button's reasons: structured data consistent with the suggestion it explains."""

from __future__ import annotations

from engine import ComboKind, Game, Phase, Rules
from engine.ai import HintWhy, Suggestion, hint, observe, suggest
from engine.ai.core import twos_or_bomb
from engine.ai.planner import split_mask


def _self_play(seed: int) -> list[tuple[Suggestion, Game, int]]:
    game = Game.new(Rules(), ["a", "b", "c", "d"], seed=seed)
    seen = []
    while not game.is_over and game.phase is Phase.PLAY:
        seat = game.actor
        assert seat is not None
        obs = observe(game, seat)
        s = suggest(obs)
        assert s.play == hint(obs)  # the reason explains exactly the suggestion
        seen.append((s, Game.from_json(game.to_json()), seat))
        if s.play is None:
            game.pass_turn(seat)
        else:
            game.play(seat, s.play)
    return seen


def test_reasons_agree_with_the_suggestion_and_the_table() -> None:
    kinds: set[HintWhy] = set()
    for seed in range(6):
        for s, game, seat in _self_play(seed):
            kinds.add(s.why)
            obs = observe(game, seat)
            hand = obs.hand_mask
            if s.play is None:
                assert s.why in (HintWhy.KEEP, HintWhy.KEEP_FOR_LATER, HintWhy.KEEP_CONTROL,
                                 HintWhy.NO_PLAY)
                assert (s.why is HintWhy.NO_PLAY) == (not obs.legal)
                if s.why is not HintWhy.NO_PLAY:
                    assert s.kept in obs.legal
                    assert (s.why is HintWhy.KEEP_CONTROL) == twos_or_bomb(s.kept)  # type: ignore[arg-type]
                    assert s.plays_left == len(split_mask(hand)[1])
                continue
            if s.why is HintWhy.GO_OUT:
                assert s.play.mask == hand
                continue
            assert s.plays_left == len(split_mask(hand - s.play.mask)[1])
            if s.why in (HintWhy.LEAD_LOWEST, HintWhy.LEAD_PLAN, HintWhy.LEAD):
                assert game.table is None
            else:
                assert game.table is not None
            if s.why is HintWhy.LEAD_LOWEST:
                assert s.play.kind is ComboKind.SINGLE
                assert all(s.play.mask <= c.mask for c in obs.legal if c.kind is ComboKind.SINGLE)
            if s.why is HintWhy.BLOCK:
                assert s.opponent_cards is not None and s.opponent_cards <= 2
    assert {HintWhy.LEAD_PLAN, HintWhy.FITS_PLAN, HintWhy.NO_PLAY, HintWhy.GO_OUT} <= kinds
    assert kinds & {HintWhy.KEEP, HintWhy.KEEP_FOR_LATER, HintWhy.KEEP_CONTROL}
