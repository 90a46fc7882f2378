"""Settlement over hundreds of random legal games (a thousand at ``TEST_VOLUME=full``):
zero-sum, never negative, paid <= owed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import Game, Rules
from engine.settle import Settlement, settle
from tests.support.volume import volume

# Many random games: the unit tests cover these lines; coverage's tracer would triple the time.
pytestmark = pytest.mark.no_cover

PRESETS = ["southern", "pagat", "vc", "online"]


def random_game(seed: int) -> Game:
    """A random legal game, biased toward bombs so that chop chains happen."""
    rng = random.Random(seed)
    rules = Rules.preset(PRESETS[seed % 4])
    if rng.random() < 0.5:  # mix extras into every preset
        rules = rules.model_copy(
            update={"chop_bonus": rng.random() < 0.7, "deuce_penalty": rng.random() < 0.7}
        )
    game = Game.new(rules, rng.choice([2, 3, 4, 4, 4, 5, 6, 8]), seed=seed)
    while not game.is_over:
        chances = game.has_out_of_turn_chop()
        if chances and rng.random() < 0.6:
            seat = rng.choice(chances)
            game.play(seat, rng.choice(game.legal_plays(seat)))
            continue
        current = game.current
        assert current is not None
        seat = current
        options = game.legal_plays(seat)
        bombs = [c for c in options if c.kind.is_bomb]
        if bombs and rng.random() < 0.8:
            game.play(seat, rng.choice(bombs))
        elif game.can_pass(seat) and (not options or rng.random() < 0.3):
            game.pass_turn(seat)
        else:
            game.play(seat, rng.choice(options))
    return game


def random_balances(rng: random.Random, seats: int, stake: int) -> list[int | None]:
    out: list[int | None] = []
    for _ in range(seats):
        roll = rng.random()
        if roll < 0.15:
            out.append(None)  # a computer player
        elif roll < 0.5:
            out.append(rng.randrange(0, 3 * stake + 2))  # short of chips
        else:
            out.append(rng.randrange(0, 100_000))
    return out


def check_invariants(game: Game, s: Settlement, balances: list[int | None]) -> None:
    net = s.net
    assert sum(net.values()) == 0
    assert sorted(s.places) == list(range(game.seat_count))
    taken: dict[int, int] = {}
    for t in s.transfers:
        assert 0 <= t.paid <= t.owed
        assert t.owed == int(t.units * s.stake) > 0
        assert t.payer != t.payee
        if balances[t.payer] is None or balances[t.payee] is None:
            assert t.paid == 0
        taken[t.payer] = taken.get(t.payer, 0) + t.paid
    for seat, held in enumerate(balances):
        if held is None:
            assert net[seat] == 0
            continue
        assert taken.get(seat, 0) <= held  # pays at most what it held
        assert held + net[seat] >= 0
        owed_to_people = sum(
            t.owed for t in s.transfers if t.payer == seat and balances[t.payee] is not None
        )
        if owed_to_people <= held:  # not capped: pays in full
            assert taken.get(seat, 0) == owed_to_people


@pytest.mark.slow
def test_thousands_of_random_games() -> None:
    reasons: set[str] = set()
    chains = 0
    for seed in range(volume(300, 1000)):
        game = random_game(seed)
        rng = random.Random(seed * 7 + 1)
        stake = rng.choice([1, 2, 3, 5, 10, 25, 100])
        balances = random_balances(rng, game.seat_count, stake)
        s = settle(game.outcome, game.events, stake, balances)
        check_invariants(game, s, balances)
        reasons.update(t.reason for t in s.transfers)
        chains += any(t.reason == "chop" and "chop 2" in t.detail for t in s.transfers)
    # the random games exercise every scheme and extra
    assert reasons >= {"place", "loser_pays", "cards_left", "pot", "chop", "penalty", "instant_win"}
    assert chains > 0


@settings(max_examples=volume(100, 300), deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    stake=st.integers(min_value=0, max_value=1000),
    data=st.data(),
)
def test_settlement_properties(seed: int, stake: int, data: st.DataObject) -> None:
    game = random_game(seed)
    balances = data.draw(
        st.lists(
            st.one_of(st.none(), st.integers(min_value=0, max_value=5000)),
            min_size=game.seat_count,
            max_size=game.seat_count,
        )
    )
    s = settle(game.outcome, game.events, stake, balances)
    check_invariants(game, s, balances)
    # the same game settles the same way (pure)
    assert settle(game.outcome, game.events, stake, balances) == s
