"""Against seats of known level (a table shows a computer's level) every rollout is deterministic,
so the expert plays each deal of its belief at most once, by weight, and stops when none is left;
a known ``hard`` seat is rolled out as ``hard`` whatever noise its deals were fitted; the belief
keeps no deal twice and refills mostly by card swaps from deals drawn by weight, so more than one
deal explains every decision."""

from __future__ import annotations

from typing import Any

import pytest

from engine import Game
from engine.ai import belief, decide, observe, search
from engine.ai.core import full_mask
from engine.ai.evidence import _match, history
from tests.engine._expert import hard_points, seat_belief

BUDGET = 30
HARD = ["hard"] * 4


@pytest.fixture(autouse=True)
def _no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search.time, "perf_counter", lambda: 0.0)  # the work decides, not time
    belief.clear()


def _belief(game: Game, levels: list[str] | None = HARD) -> belief.Belief:
    return seat_belief(game, levels, BUDGET)


def _consistent(game: Game, state: belief.Belief) -> int:
    """How many of the belief's deals make ``hard`` reproduce every decision of every seat."""
    obs = observe(game, 0)
    hist = history(obs.log, obs.counts, 0, obs.rules, 999)
    return sum(all(_match(d, p.hands[d.seat], 4, obs.direction, obs.rules, full_mask(1))
                   for d in hist) for p in state.particles)


def test_each_deal_is_played_once_and_the_search_stops_when_none_is_left(
        monkeypatch: pytest.MonkeyPatch) -> None:
    points = [g for seed in (921, 922, 923) for g in hard_points(seed)][::2]
    short = 0
    for i, game in enumerate(points):
        monkeypatch.setattr(search, "RECORD", [])
        decide(game, 0, "expert", seed=i, budget_ms=BUDGET, levels=HARD)
        deals = search.RECORD
        assert deals is not None
        if not deals:
            continue  # one candidate: no search
        state = _belief(game)
        hands = [tuple(h) for h, _ in deals]
        assert len(set(hands)) == len(hands)  # never the same deal twice
        assert len(hands) <= len(state.particles)
        assert all(w > 0 for _, w in deals)
        short += len(hands) == sum(w > 0 for w in state.weights())  # every deal played
    assert short > 0  # some searches ran out of deals before their budget


def test_a_known_hard_seat_is_rolled_out_as_hard_whatever_its_fitted_noise(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search, "NOISE_FROM", 0.0)  # every fitted seat would be played noisy
    seen: list[object] = []
    real = search.Sim

    def watched(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs.get("noise"))
        return real(*args, **kwargs)

    monkeypatch.setattr(search, "Sim", watched)
    points = hard_points(931)[2:8]
    for i, game in enumerate(points):
        decide(game, 0, "expert", seed=i, budget_ms=BUDGET, levels=HARD)
    assert seen and all(noise is None for noise in seen)
    seen.clear()
    belief.clear()
    for i, game in enumerate(points):  # the same seats shown as people: fitted, played noisy
        decide(game, 0, "expert", seed=i, budget_ms=BUDGET)
    assert any(noise is not None for noise in seen)


def test_the_belief_keeps_no_deal_twice_and_swaps_find_more_that_explain_everything(
        monkeypatch: pytest.MonkeyPatch) -> None:
    points = [g for seed in (941, 942, 943, 944) for g in hard_points(seed)]
    mid = [g for g in points if 20 <= sum(observe(g, 0).counts) <= 40]
    assert len(mid) >= 8

    def found(share: float) -> int:
        monkeypatch.setattr(belief, "SWAP_SHARE", share)
        belief.clear()
        total = 0
        for game in mid:
            state = _belief(game)
            hands = [tuple(p.hands) for p in state.particles]
            assert len(set(hands)) == len(hands)
            total += _consistent(game, state)
        return total

    mostly_swaps, half = found(0.95), found(0.5)
    assert mostly_swaps > half  # swaps from deals that fit find more deals that fit
