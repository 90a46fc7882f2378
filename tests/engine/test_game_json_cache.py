"""Saving after every move converts only the new events (the log only grows); a replaced or
rewritten log is converted afresh, and what `state()` returns may be changed by its caller."""

from __future__ import annotations

import json

from engine import Level, Rules, ai
from engine.game import Game


def _played(moves: int) -> Game:
    game = Game.new(Rules.preset("southern"), ["a", "b", "c", "d"], seed=3)
    for n in range(moves):
        if game.is_over:
            break
        seat = game.actor
        assert seat is not None
        cards = ai.decide(game, seat, Level.NORMAL, seed=n)
        if cards:
            game.play(seat, cards)
        else:
            game.pass_turn(seat)
    return game


def test_the_saved_log_follows_every_move() -> None:
    game = Game.new(Rules.preset("southern"), ["a", "b", "c", "d"], seed=3)
    for n in range(30):
        if game.is_over:
            break
        seat = game.actor
        assert seat is not None
        cards = ai.decide(game, seat, Level.NORMAL, seed=n)
        game.play(seat, cards) if cards else game.pass_turn(seat)
        saved = json.loads(game.to_json())["events"]
        assert saved == [e.to_dict() for e in game.events]
    assert Game.from_json(game.to_json()) == game


def test_a_replaced_or_rewritten_log_is_converted_afresh() -> None:
    game = _played(12)
    game.to_json()
    shorter = game.events[:5]
    game.events = shorter
    assert game.state()["events"] == [e.to_dict() for e in shorter]
    other = _played(20)
    game.events[4] = other.events[4]  # rewritten in place, same length
    assert game.state()["events"] == [e.to_dict() for e in game.events]


def test_changing_a_returned_state_does_not_change_the_next() -> None:
    game = _played(8)
    first = game.state()
    first["events"][0]["type"] = "tampered"
    first["events"].clear()
    assert game.state()["events"] == [e.to_dict() for e in game.events]
