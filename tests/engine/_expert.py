"""Helpers shared by the expert's tests: decision points of ``hard`` games and a seat's belief."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game, Rules
from engine.ai import belief, decide, observe, search
from engine.ai.core import full_mask


def hard_points(seed: int) -> list[Game]:
    """Seat 0's turns in a game of four ``hard`` seats (copies of the game at each)."""
    game = Game.new(Rules().model_copy(update={"instant_wins": False}), 4, seed=seed)
    out: list[Game] = []
    while not game.is_over:
        seat = game.current
        assert seat is not None
        if seat == 0:
            out.append(Game.from_json(game.to_json()))
        cards = decide(game, seat, "hard")
        if cards is None:
            game.pass_turn(seat)
        else:
            game.play(seat, cards)
    return out


def seat_belief(game: Game, levels: Sequence[str | None] | None, budget: int) -> belief.Belief:
    """Seat 0's belief at this point of ``game`` (four seats, one deck)."""
    obs = observe(game, 0)
    state, _ = belief.belief(me=0, n=4, direction=obs.direction, rules=obs.rules,
                             full=full_mask(1), hand=obs.hand_mask, counts=obs.counts,
                             log=obs.log, budget_units=budget * search.STEPS_PER_MS,
                             budget_ms=budget, levels=levels)
    return state
