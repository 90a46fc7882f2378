"""People who leave a running game are settled as the last places (engine.settle, `left`), and
the next game among changed seats keeps winner-leads (engine.seating)."""

from __future__ import annotations

import pytest

from engine import Card, Game, Level, Rules, ai
from engine.seating import next_game
from engine.settle import places_with_leavers, settle


def played(rules: Rules, n: int, seed: int, leave_at: int | None = None,
           seat: int = 0) -> tuple[Game, list[tuple[int, list[Card]]]]:
    """A game the computers play out; ``seat`` leaves after ``leave_at`` moves."""
    game = Game.new(rules, n, seed=seed)
    left: list[tuple[int, list[Card]]] = []
    moves = 0
    while not game.is_over:
        if leave_at is not None and moves == leave_at and not left:
            left.append((seat, list(game.hand(seat))))
        actor = game.actor
        assert actor is not None
        cards = ai.decide(game, actor, Level.EASY, seed=moves)
        if cards is None:
            game.pass_turn(actor)
        else:
            game.play(actor, cards)
        moves += 1
    return game, left


def test_places_with_leavers_puts_the_first_to_leave_last() -> None:
    assert places_with_leavers((2, 0, 1, 3), [0]) == (2, 1, 3, 0)
    assert places_with_leavers((2, 0, 1, 3), [1, 2]) == (0, 3, 2, 1)
    assert places_with_leavers((0, 1), []) == (0, 1)


@pytest.mark.parametrize("scoring", ["places", "loser_pays", "cards_left", "pot"])
def test_a_leaver_pays_as_the_last_place(scoring: str) -> None:
    rules = Rules(scoring=scoring, end="first_out" if scoring == "cards_left" else "to_last")
    game, left = played(rules, 4, seed=7, leave_at=2, seat=1)
    outcome = game.outcome
    assert outcome is not None and left
    result = settle(outcome, game.events, 10, [1000] * 4, left=left)
    assert result.places[-1] == 1
    assert sum(result.net.values()) == 0  # chips conserved
    assert result.net[1] < 0  # the leaver pays
    plain = settle(outcome, game.events, 10, [1000] * 4)
    if scoring == "cards_left":
        owed = sum(t.owed for t in result.transfers if t.payer == 1 and t.reason == "cards_left")
        assert owed == 10 * len(left[0][1])  # every card held when they left
    if scoring == "loser_pays":
        assert all(t.payer == 1 for t in result.transfers if t.reason == "loser_pays")
    assert plain.places == outcome.places


def test_leavers_are_checked() -> None:
    game, _ = played(Rules(), 2, seed=3)
    assert game.outcome is not None
    with pytest.raises(ValueError):
        settle(game.outcome, game.events, 1, [10, 10], left=[(5, [])])


def test_the_next_game_among_changed_seats_keeps_winner_leads() -> None:
    game, _ = played(Rules(), 3, seed=11)
    outcome = game.outcome
    assert outcome is not None
    winner = game.players[outcome.winner]
    players = [p for p in game.players if p != game.players[outcome.loser]] + ["new"]
    following = next_game(game, players, seed=1)
    assert following.players == tuple(players)
    assert following.players[following.leader] == winner
    assert following.first_play_must_include is None
    same = next_game(game, list(game.players), seed=1)
    assert same.leader == outcome.winner
