"""The levels a table shows: the expert's belief models a computer seat of known level as that
level (a ``normal`` seat played as ``normal`` in every rollout, a ``hard`` one never, an ``easy``
one at random, its decisions never checked), keys its cache by them (warm or cold, the same
decision), and treats a seat of unknown level (a person) as before."""

from __future__ import annotations

from typing import Any

import pytest

from benchmarks.arena import play_game
from benchmarks.opponents import known_levels
from engine import Game, Rules
from engine.ai import belief, decide, observe, search
from engine.ai.evidence import _match_normal, history
from tests.engine._expert import seat_belief

BUDGET = 8
SEATS = ["expert", "normal", "hard", "easy"]


@pytest.fixture(autouse=True)
def _fresh_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search.time, "perf_counter", lambda: 0.0)
    belief.clear()


def _played(seed: int, steps: int, levels: tuple[str | None, ...] | None) -> Game:
    """``steps`` turns of a game with :data:`SEATS` in its seats, the expert told ``levels``."""
    game = Game.new(Rules().model_copy(update={"instant_wins": False}), 4, seed=seed)
    for step in range(steps):
        if game.is_over:
            break
        seat = game.current
        assert seat is not None
        cards = decide(game, seat, SEATS[seat], seed=step, budget_ms=BUDGET, levels=levels)
        if cards is None:
            game.pass_turn(seat)
        else:
            game.play(seat, cards)
    return game


def _belief(game: Game, levels: tuple[str | None, ...] | None) -> belief.Belief:
    return seat_belief(game, levels, BUDGET)


def _normal_fit(game: Game, state: belief.Belief) -> float:
    """The weighted share of the deals under which ``normal`` makes every decision of seat 1."""
    obs = observe(game, 0)
    decisions = [d for d in history(obs.log, obs.counts, 0, obs.rules, 999) if d.seat == 1]
    weights = state.weights()
    fit = sum(w for p, w in zip(state.particles, weights, strict=True)
              if all(_match_normal(d, p.hands[1], obs.rules) for d in decisions))
    return fit / sum(weights)


def test_a_known_level_sets_the_seats_model() -> None:
    levels = known_levels(SEATS)
    assert levels == ("expert", "normal", "hard", "easy")
    checked = 0
    fits: list[tuple[float, float]] = []
    for seed in range(600, 606):
        game = _played(seed, 24, levels)
        if game.is_over or not game.hand(0):
            continue
        told, unknown = _belief(game, levels), _belief(game, None)
        counts = observe(game, 0).counts
        if not all(counts[1:]):
            continue
        checked += 1
        assert told.share[1:] == [1.0, 0.0, 0.0]  # normal always, hard and easy never
        assert told.share[0] == unknown.share[0] == 0.0  # its own seat is never modelled
        # A known `easy` seat plays at random: never checked, rolled out at random every time.
        assert told.eps[3] == 1.0 and unknown.eps[3] < 1.0
        assert all(p.match[3] == p.mis[3] == 0 for p in told.particles)
        assert any(p.match[3] + p.mis[3] for p in unknown.particles)
        assert not told.normal_hands[1] and not told.normal_hands[2]  # no search for a model
        # The known `normal` seat's deals are weighed under `normal`'s own model.
        fits.append((_normal_fit(game, told), _normal_fit(game, unknown)))
    assert checked >= 3
    told_fit = sum(t for t, _ in fits) / len(fits)
    unknown_fit = sum(u for _, u in fits) / len(fits)
    assert told_fit > unknown_fit + 0.5  # (here 0.83 against 0.07)
    # The noise priors: a known `hard`, `expert` or `normal` seat 1%, an unknown one 10%,
    # `easy` 100%.
    mean = [a / (a + b) for a, b in map(belief.eps_prior, ["hard", None, "easy", "normal"])]
    assert mean[0] == mean[3] < mean[1] < mean[2]


def test_known_levels_key_the_cache_and_warm_or_cold_decide_alike() -> None:
    levels = known_levels(SEATS)
    game = _played(611, 20, levels)  # the expert's cache warmed at each of its decisions
    for step in range(20, 40):  # on to the expert's turn
        now = game.current
        if game.is_over or now is None or now == 0:
            break
        cards = decide(game, now, SEATS[now], seed=step, budget_ms=BUDGET, levels=levels)
        if cards is None:
            game.pass_turn(now)
        else:
            game.play(now, cards)
    assert not game.is_over and game.current == 0
    seat = 0
    warm = decide(game, seat, SEATS[seat], seed=5, budget_ms=BUDGET, levels=levels)
    keys = [key[-1] for key in belief._CACHE]
    assert keys and all(k == (None, "normal", "hard", "easy") for k in keys)
    belief.clear()  # a restart: rebuilt from the log alone
    cold = decide(game, seat, SEATS[seat], seed=5, budget_ms=BUDGET, levels=levels)
    assert cold == warm
    # Unknown levels are another belief, cached apart.
    decide(game, seat, SEATS[seat], seed=5, budget_ms=BUDGET)
    assert {key[-1] for key in belief._CACHE} >= {(None, "normal", "hard", "easy"),
                                                  (None, None, None, None)}


def test_a_bad_level_is_refused() -> None:
    game = _played(612, 4, None)
    seat = game.current
    assert seat is not None
    with pytest.raises(ValueError, match="unknown level"):
        decide(game, seat, "expert", seed=1, budget_ms=BUDGET,
               levels=[None, "wizard", None, None])


def test_the_arena_tells_the_levels_a_table_would_show(monkeypatch: pytest.MonkeyPatch) -> None:
    """Benchmark players are shown as people; the levels as levels; ``known=False`` shows none."""
    assert known_levels(["expert", "greedy", "noisy10", "hard"]) == ("expert", None, None, "hard")
    keys: list[object] = []

    def watched(**kwargs: Any) -> tuple[belief.Belief, tuple[object, ...]]:
        state, key = belief.belief(**kwargs)
        keys.append(key[-1])  # the levels the belief was built on (a seat's own: None)
        return state, key

    monkeypatch.setattr(search, "belief", watched)
    rules = Rules.preset("southern")
    told = play_game(["expert", "normal", "normal", "normal"], rules, 7, 0, BUDGET)
    told_keys, keys[:] = set(keys), []
    blind = play_game(["expert", "normal", "normal", "normal"], rules, 7, 0, BUDGET, known=False)
    assert told_keys == {(None, "normal", "normal", "normal")}
    assert set(keys) == {(None, None, None, None)}
    assert sorted(told.places) == sorted(blind.places) == [1, 2, 3, 4]
