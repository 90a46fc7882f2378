"""Random self-play under every preset: invariants of the game flow (OpenSpiel style)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from benchmarks.engine import random_action
from engine import (
    Chopped,
    Game,
    Passed,
    Phase,
    Played,
    Rules,
    TienLenError,
    TrickWon,
    WentOut,
    classify,
)
from engine.combos import classify_mask
from engine.events import GameOver
from tests.support.volume import volume

PRESETS = ["southern", "pagat", "vc", "online"]
GAMES = volume(24, 100)  # plus a second game at the same table every third game
FAST_GAMES = volume(200, 1000)


def _variants(preset: str) -> list[tuple[Rules, int]]:
    rules = Rules.preset(preset)
    out = [(rules, 4), (rules, 2), (rules, 3)]
    out.append((rules.model_copy(update={"three_player_17": True}), 3))
    out.append((rules.model_copy(update={"pass_locks_out": False}), 4))
    update = {"bombs_need_chop_context": True, "card_exchange": True}
    out.append((rules.model_copy(update=update), 4))
    out.append((rules, 6))
    out.append((rules, 8))
    return out


def _check_invariants(game: Game, deck_total: Counter[str]) -> None:
    held = Counter(c.code for hand in game.hands for c in hand)
    played = Counter(c.code for e in game.events if isinstance(e, Played) for c in e.cards)
    assert held + played == deck_total
    if game.is_over:
        assert game.current is None
        assert game.outcome is not None
        assert sorted(game.outcome.places) == list(range(game.seat_count))
    elif game.phase is Phase.PLAY:
        assert game.current is not None
        assert game.hands[game.current], "the seat to act holds cards"
        assert game.current not in game.passed


def _sample_unlisted(game: Game, seat: int, listed: set[tuple[str, ...]],
                     rng: random.Random) -> None:
    hand = game.hands[seat]
    for _ in range(3):
        k = rng.randint(1, min(len(hand), 6))
        cards = rng.sample(hand, k)
        key = tuple(sorted(c.code for c in cards))
        if key not in listed:
            assert not game.can_play(seat, cards), (cards, game.table)
            before = game.to_json()
            with pytest.raises(TienLenError):
                game.play(seat, cards)
            assert game.to_json() == before


def _run_game(rules: Rules, seats: int, seed: int, check_all: bool,
              previous: Game | None = None) -> Game:
    rng = random.Random(seed)
    game = Game.new(rules, seats, seed=seed) if previous is None else previous.next_game(seed=seed)
    deck_total = Counter(c.code for hand in game.hands for c in hand)
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < 2000, "every game ends"
        if game.phase is Phase.EXCHANGE:
            giver = min(game.pending_returns)
            due = game.pending_returns[giver]
            game.return_cards(giver, rng.sample(game.hands[giver], due))
            continue
        seat = game.current
        assert seat is not None
        # out-of-turn chops: only double sequences of 4+ pairs, only when the table shows 2s
        for other in range(game.seat_count):
            if other == seat:
                continue
            chops = game.legal_plays(other)
            for c in chops:
                assert c.kind.value == "double_sequence"
                assert len(c) >= 8
                assert game.table is not None
                assert game.can_play(other, list(c.cards))
        chopped = False
        for other in range(game.seat_count):
            if other != seat and game.legal_plays(other) and rng.random() < 0.5:
                ev = game.play(other, rng.choice(game.legal_plays(other)))
                assert isinstance(ev[0], Played)
                assert ev[0].out_of_turn
                chopped = True
                break
        if chopped:
            _check_invariants(game, deck_total)
            continue
        plays = game.legal_plays(seat)
        if check_all:
            listed = {tuple(sorted(c.code for c in p.cards)) for p in plays}
            assert len(listed) == len(plays), "plays are distinct"
            for p in plays:
                assert game.can_play(seat, p.cards)
                assert game.can_play(seat, " ".join(c.code for c in p.cards))
                assert classify_mask(p.mask) is p.kind
            _sample_unlisted(game, seat, listed, rng)
        can_pass = game.can_pass(seat)
        assert can_pass == (game.table is not None)
        version = game.version
        options = len(plays) + can_pass
        assert options > 0
        i = rng.randrange(options)
        if i < len(plays):
            game.play(seat, plays[i])
        else:
            game.pass_turn(seat)
        assert game.version == version + 1
        _check_invariants(game, deck_total)
    _check_invariants(game, deck_total)
    return game


@pytest.mark.slow
@pytest.mark.no_cover  # many random games: the unit tests cover these lines
@pytest.mark.parametrize("preset", PRESETS)
def test_random_self_play(preset: str) -> None:
    variants = _variants(preset)
    for i in range(GAMES):
        rules, seats = variants[i % len(variants)]
        seed = i * 7919 + len(preset)
        game = _run_game(rules, seats, seed=seed, check_all=i % 10 == 0)
        if i % 3 == 0:  # a second game at the same table: winner leads, exchange, reversal
            game = _run_game(rules, seats, seed=seed + 1, check_all=i % 10 == 0, previous=game)
            assert not game.first_game
        # the log replays and the JSON round trip is exact
        if i % 5 == 0:
            assert Game.from_json(game.to_json()) == game
            replayed = Game.replay(game.events)
            assert replayed == game
            assert Game.replay([e.to_dict() for e in game.events]) == game
        events = game.events
        assert isinstance(events[-1], GameOver)
        outs = [e for e in events if isinstance(e, WentOut)]
        assert [e.place for e in outs] == list(range(1, len(outs) + 1))
        if rules.end == "first_out" and game.outcome and game.outcome.instant_win is None:
            assert len(outs) == 1
        # a Chopped always follows the Played of its bomb
        for j, e in enumerate(events):
            if isinstance(e, Chopped):
                before = events[j - 1]
                assert isinstance(before, Played)
                assert before.seat == e.seat
                assert before.chop
                assert classify(before.cards, rules, decks=game.decks) is not None
        # trick numbers only grow, and each TrickWon closes its trick
        tricks = [e.trick for e in events if isinstance(e, Played | Passed | TrickWon)]
        assert tricks == sorted(tricks)


@pytest.mark.parametrize("preset", PRESETS)
def test_mid_game_round_trip(preset: str) -> None:
    rules = Rules.preset(preset)
    for seed in range(40):
        rng = random.Random(seed)
        game = Game.new(rules, 4, seed=seed)
        for _ in range(rng.randrange(1, 40)):
            if game.is_over:
                break
            random_action(game, rng)
        restored = Game.from_json(game.to_json())
        assert restored == game
        assert restored.to_json() == game.to_json()
        assert Game.replay(game.events) == game
        # the restored game continues identically
        if not game.is_over:
            seat = game.current
            assert seat is not None
            assert restored.legal_plays(seat) == game.legal_plays(seat)


@pytest.mark.no_cover  # many random games: the unit tests cover these lines
@pytest.mark.parametrize("preset", PRESETS)
def test_many_fast_games(preset: str) -> None:
    """Many games per preset (1,000 at the full volume) through the computer players' fast paths."""
    from benchmarks.engine import lowest_policy, play_out, random_policy

    rules = Rules.preset(preset)
    for i in range(FAST_GAMES):
        seats = (4, 4, 4, 2, 3, 5, 8)[i % 7]
        game = Game.new(rules, seats, seed=i)
        total = sum(game.card_counts)
        policy = random_policy if i % 2 else lowest_policy
        play_out(game, policy, random.Random(i))
        assert game.is_over
        assert game.outcome is not None
        assert sorted(game.outcome.places) == list(range(seats))
        played = sum(len(e.cards) for e in game.events if isinstance(e, Played))
        assert played + sum(game.card_counts) == total
