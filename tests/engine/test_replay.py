"""Replays: every step rebuilt by Game.replay equals the original game after that many actions."""

from __future__ import annotations

import random

import pytest

from benchmarks.engine import random_action
from engine import Game, Passed, Played, Rules
from engine.replay import Replay, is_action
from tests.support.volume import volume


def _play_out(game: Game, rng: random.Random) -> list[dict[str, object]]:
    """Random legal moves to the end; the state after the deal and after every action."""
    states = [game.state()]
    while not game.is_over:
        if game.pending_returns:
            seat = next(s for s, n in game.pending_returns.items() if n)
            game.return_cards(seat, game.hand(seat)[:game.pending_returns[seat]])
        else:
            random_action(game, rng)
        states.append(game.state())
    return states


CASES = [("southern", 4), ("southern", 2), ("pagat", 3), ("vc", 4), ("online", 4),
         ("southern", 6), ("southern", 8)]


@pytest.mark.parametrize(("preset", "seats"), CASES)
def test_every_step_equals_the_game_after_that_many_actions(preset: str, seats: int) -> None:
    rng = random.Random(f"{preset}-{seats}")
    for g in range(volume(6, 30)):
        game = Game.new(Rules.preset(preset), seats, seed=rng.randrange(10**9))
        previous = None
        if g % 2 and seats >= 4:  # a second game: winner leads, card exchange where the rules say
            first = Game.new(Rules.preset(preset), seats, seed=rng.randrange(10**9))
            _play_out(first, rng)
            previous = first
            game = first.next_game(seed=rng.randrange(10**9))
        states = _play_out(game, rng)
        replay = Replay(game.events)
        actions = sum(1 for e in game.events if is_action(e))
        assert len(replay) == actions + 1 == len(states)
        for k, step in enumerate(replay):
            assert step.index == k
            assert step.game.state() == states[k], (preset, seats, g, k)
        assert replay[len(replay) - 1].game == game
        assert previous is None or previous.is_over


def test_trick_steps_and_bounds() -> None:
    rng = random.Random(3)
    game = Game.new(Rules(instant_wins=False), 4, seed=11)
    _play_out(game, rng)
    replay = Replay(game.events)
    assert replay.first_step_of_trick(1) == 1
    for trick in range(1, replay.tricks + 1):
        k = replay.first_step_of_trick(trick)
        event = replay.step_events(k)[0]
        assert isinstance(event, Played | Passed) and event.trick == trick
        assert replay.trick_of(k) == trick
    with pytest.raises(IndexError):
        replay[len(replay)]
    with pytest.raises(IndexError):
        replay[-1]
    with pytest.raises(IndexError):
        replay.first_step_of_trick(replay.tricks + 1)


def test_a_log_that_does_not_replay_is_refused() -> None:
    game = Game.new(Rules(instant_wins=False), 4, seed=11)
    _play_out(game, random.Random(1))
    events = list(game.events)
    swapped = [events[0], events[2], events[1], *events[3:]]
    with pytest.raises(ValueError):
        Replay(swapped)


def test_an_instant_win_has_one_step() -> None:
    game = Game.new(Rules(), 4, seed=5)  # seat 0 holds four 2s
    assert game.is_over
    replay = Replay(game.events)
    assert len(replay) == 1 and replay.actions == 0
    assert replay.first_step_of_trick(1) == 0
    assert replay[0].game == game
