"""Random two-game tables with both house rules on (``anti_feed`` and ``no_two_last``): nobody
ever goes out on a 2, every feed is paid by its feeder, settlement conserves chips across both
games and no balance goes below zero (300 tables; 1,000 at ``TEST_VOLUME=full``)."""

from __future__ import annotations

import random

import pytest

from engine import Game, Rules
from engine.cards import Rank
from engine.events import Fed, Played, WentOut
from engine.settle import settle
from tests.engine.test_settle_property import check_invariants
from tests.support.volume import volume

pytestmark = pytest.mark.no_cover

SCORING = ["places", "loser_pays", "cards_left", "pot"]


def random_rules(rng: random.Random) -> Rules:
    base = Rules.preset(rng.choice(["southern", "vn_house", "online", "vc"]))
    return base.model_copy(update={
        "anti_feed": rng.choice(["on", "on", "lead_only"]),
        "no_two_last": True,
        "scoring": rng.choice(SCORING),
        "chop_bonus": rng.random() < 0.5,
        "deuce_penalty": rng.random() < 0.5,
        "cong": rng.random() < 0.4,
        "instant_wins": rng.random() < 0.3,
    })


def play_out(game: Game, rng: random.Random) -> None:
    """Random legal play, biased toward low singles so that feeds happen."""
    while not game.is_over:
        chances = game.has_out_of_turn_chop()
        if chances and rng.random() < 0.3:
            seat = rng.choice(chances)
            game.play(seat, rng.choice(game.legal_plays(seat)))
            continue
        seat = game.current
        assert seat is not None
        options = game.legal_plays(seat)
        singles = [c for c in options if len(c.cards) == 1]
        if game.can_pass(seat) and (not options or rng.random() < 0.25):
            game.pass_turn(seat)
        elif singles and rng.random() < 0.6:
            game.play(seat, min(singles, key=lambda c: c.cards[0]))
        else:
            game.play(seat, rng.choice(options))


def check_house_rules(game: Game) -> None:
    last_play: dict[int, Played] = {}
    for event in game.events:
        if isinstance(event, Played):
            last_play[event.seat] = event
        elif isinstance(event, WentOut):
            assert all(c.rank is not Rank.TWO for c in last_play[event.seat].cards)
    assert Game.replay(game.events) == game


@pytest.mark.slow
def test_random_two_game_tables_with_both_house_rules() -> None:
    feeds = fed_paid = 0
    for seed in range(volume(300, 1000)):
        rng = random.Random(seed)
        rules = random_rules(rng)
        seats = rng.choice([2, 3, 4, 4, 4, 5, 6, 8])
        stake = rng.choice([1, 2, 5, 10, 100])
        balances: list[int | None] = [
            None if rng.random() < 0.15 else rng.randrange(0, 40 * stake) for _ in range(seats)]
        total = sum(b for b in balances if b is not None)
        game = Game.new(rules, seats, seed=seed)
        for _ in range(2):
            play_out(game, rng)
            check_house_rules(game)
            s = settle(game.outcome, game.events, stake, balances)
            check_invariants(game, s, balances)
            fed = [e for e in game.events if isinstance(e, Fed)]
            assert len(fed) <= 1
            if fed:
                feeds += 1
                assert game.places[0] == fed[0].seat
                for t in s.transfers:
                    if t.reason == "feed":
                        assert t.payer == fed[0].feeder
                        fed_paid += 1
            else:
                assert all(t.reason != "feed" for t in s.transfers)
            balances = [None if b is None else b + s.net[i] for i, b in enumerate(balances)]
            assert all(b is None or b >= 0 for b in balances)
            assert sum(b for b in balances if b is not None) == total  # chips are conserved
            game = game.next_game(seed=seed * 31 + 7)
    assert feeds > 10 and fed_paid > 0  # the random tables do exercise the rule
