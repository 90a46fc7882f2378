"""Settlement (the stakes rules): a worked example per scheme and extra, caps, computer players."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import pytest

from engine import Game, Rules, parse_cards
from engine.errors import WrongPhase
from engine.settle import Settlement, deuce_penalty_units, settle

Step = tuple[int, str | None]  # (seat, cards) or (seat, None) for a pass


def play_out(rules: Rules, hands: Sequence[str], steps: Sequence[Step], *, leader: int = 0) -> Game:
    game = Game.new(rules, len(hands), hands=list(hands), leader=leader)
    for seat, cards in steps:
        if cards is None:
            game.pass_turn(seat)
        else:
            game.play(seat, cards)
    assert game.is_over, "the script must finish the game"
    return game


def lines(s: Settlement) -> list[tuple[int, int, int, int, str]]:
    return [(t.payer, t.payee, t.owed, t.paid, t.reason) for t in s.transfers]


def rich(n: int) -> list[int | None]:
    return [10_000] * n


ONE_CARD_EACH = ["3S", "4S", "5S", "6S"]
IN_ORDER: list[Step] = [(0, "3S"), (1, "4S"), (2, "5S")]  # places 0, 1, 2, 3


def test_places_four_players() -> None:
    game = play_out(Rules(), ONE_CARD_EACH, IN_ORDER)
    s = settle(game.outcome, game.events, 10, rich(4))
    assert s.places == (0, 1, 2, 3)
    assert lines(s) == [(3, 0, 20, 20, "place"), (2, 1, 10, 10, "place")]
    assert s.net == {0: 20, 1: 10, 2: -10, 3: -20}
    assert [t.detail for t in s.transfers] == ["4th pays 1st", "3rd pays 2nd"]


def test_places_five_players_and_odd_middle() -> None:
    game = play_out(
        Rules(), ["3S", "4S", "5S", "6S", "7S"], [(0, "3S"), (1, "4S"), (2, "5S"), (3, "6S")]
    )
    s = settle(game.outcome, game.events, 1, rich(5))
    assert lines(s) == [(4, 0, 2, 2, "place"), (3, 1, 1, 1, "place")]
    assert s.net[2] == 0  # the middle place neither pays nor wins


def test_loser_pays() -> None:
    game = play_out(Rules.preset("vc"), ONE_CARD_EACH[:3], IN_ORDER[:2])
    s = settle(game.outcome, game.events, 7, rich(3))
    assert lines(s) == [(2, 0, 7, 7, "loser_pays"), (2, 1, 7, 7, "loser_pays")]


def test_cards_left_first_out() -> None:
    game = play_out(Rules.preset("pagat"), ["3S", "4S 5S 6S", "7S 8S"], [(0, "3S")])
    s = settle(game.outcome, game.events, 5, rich(3))
    assert s.places == (0, 2, 1)  # fewer cards left is better
    assert lines(s) == [(2, 0, 10, 10, "cards_left"), (1, 0, 15, 15, "cards_left")]
    assert s.transfers[1].detail == "3 cards left"


def test_pot() -> None:
    rules = Rules.preset("online").model_copy(update={"deuce_penalty": False})
    game = play_out(rules, ["3S", "4S 5S", "7S 8S", "9S"], [(0, "3S")])
    s = settle(game.outcome, game.events, 25, rich(4))
    assert s.places[0] == 0
    assert sorted(lines(s)) == [(1, 0, 25, 25, "pot"), (2, 0, 25, 25, "pot"), (3, 0, 25, 25, "pot")]
    assert s.net[0] == 75


CHAIN_HANDS = [
    "2H AS",
    "3S 3C 4S 4C 5S 5C 6S",
    "9S 9C 9D 9H 7S",
    "10S 10C JS JC QS QC KS KC 8S",
]
CHAIN_STEPS: list[Step] = [
    (0, "2H"),
    (1, "3S 3C 4S 4C 5S 5C"),  # chop 1: three pairs on the 2
    (2, "9S 9C 9D 9H"),  # chop 2: a quad on the three pairs
    (3, "10S 10C JS JC QS QC KS KC"),  # chop 3: four pairs on the quad
    (0, None),
    (1, None),
    (2, None),
    (3, "8S"),  # seat 3 goes out first
    (0, "AS"),  # second
    (1, None),
    (2, None),
    (1, "6S"),  # third; seat 2 is last
]


def test_chain_of_three_chops() -> None:
    rules = Rules().model_copy(update={"chop_bonus": True})
    game = play_out(rules, CHAIN_HANDS, CHAIN_STEPS)
    s = settle(game.outcome, game.events, 10, rich(4))
    assert s.places == (3, 0, 1, 2)
    chops = [(t.payer, t.payee, int(t.units), t.owed) for t in s.transfers if t.reason == "chop"]
    # the red 2 is worth 2 units; the trick's factor doubles with each chop
    assert chops == [(0, 1, 2, 20), (1, 2, 4, 40), (2, 3, 8, 80)]
    assert s.net == {0: -20 + 10, 1: 20 - 40 - 10, 2: 40 - 80 - 20, 3: 80 + 20}
    assert s.bombs_played == (0, 1, 1, 1)
    # without the option, no chop transfers
    plain_game = play_out(Rules(), CHAIN_HANDS, CHAIN_STEPS)
    plain = settle(plain_game.outcome, plain_game.events, 10, rich(4))
    assert [t.reason for t in plain.transfers] == ["place", "place"]


def test_chop_counts_every_2_of_the_trick_and_settles_when_the_game_ends_inside_it() -> None:
    rules = Rules().model_copy(update={"chop_bonus": True, "end": "first_out"})
    game = play_out(
        rules,
        ["2S 3S", "2H 4S", "7S 7C 7D 7H"],
        [(0, "2S"), (1, "2H"), (2, "7S 7C 7D 7H")],  # the quad chops the 2H and goes out
    )
    s = settle(game.outcome, game.events, 10, rich(3))
    assert s.places == (2, 0, 1)
    # 2S (1) + 2H (2) = 3 units, factor 1, paid by the owner of the chopped 2H
    assert lines(s) == [(1, 2, 10, 10, "place"), (1, 2, 30, 30, "chop")]


def test_a_bomb_on_a_plain_bomb_is_no_chop_bonus() -> None:
    rules = Rules().model_copy(update={"chop_bonus": True})
    game = play_out(
        rules,
        ["3S 3C 4S 4C 5S 5C", "9S 9C 9D 9H", "6S"],
        [(0, "3S 3C 4S 4C 5S 5C"), (1, "9S 9C 9D 9H")],
    )
    assert [t.reason for t in settle(game.outcome, game.events, 10, rich(3)).transfers] == ["place"]


@pytest.mark.parametrize(
    ("hand", "units"),
    [
        ("2S", Fraction(1, 2)),
        ("2H", Fraction(1)),
        ("2S 2C 2D", Fraction(2)),
        ("2S 2C 2D 2H", Fraction(4)),  # four 2s (3) and a quad (1)
        ("9S 9C 9D 9H", Fraction(1)),
        ("3S 3C 4S 4C 5S 5C", Fraction(1)),
        ("3S 3C 4S 4C 5S 5C 6S 6C", Fraction(2)),
        ("3S 3C 4S 4C 5S 5C 6S 6C 7S 7C", Fraction(2)),
        ("3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 8S 8C 9S 9C", Fraction(3)),
        ("3S 3C 4S 4C 6S 6C 7S 7C", Fraction(0)),  # no three in a row
        ("QS QC KS KC AS AC 2S 2C", Fraction(2)),  # Q-K-A pairs (1) and two black 2s (1)
        ("3S 4S 5S 6S 7S", Fraction(0)),
    ],
)
def test_deuce_penalty_units(hand: str, units: Fraction) -> None:
    assert deuce_penalty_units(parse_cards(hand)) == units


def test_deuce_penalty_on_the_last_hand() -> None:
    rules = Rules().model_copy(update={"deuce_penalty": True, "instant_wins": False})
    game = play_out(
        rules,
        ["6S", "7S 2C", "2S 2H 9S 9C 9D 9H 3S 3C 4S 4C 5S 5C"],
        [(0, "6S"), (1, "7S"), (2, None), (1, "2C")],  # seat 2 is last with everything
    )
    s = settle(game.outcome, game.events, 3, rich(3))
    assert s.places == (0, 1, 2)
    # ½ (2S) + 1 (2H) + 1 (quad) + 1 (three pairs) = 3.5 units x 3 = 10.5 -> 10 chips
    assert lines(s) == [(2, 0, 3, 3, "place"), (2, 0, 10, 10, "penalty")]
    assert s.transfers[1].units == Fraction(7, 2)


def test_deuce_penalty_first_out_assesses_every_other_hand() -> None:
    rules = Rules.preset("online").model_copy(update={"scoring": "places"})
    game = play_out(rules, ["3S", "2S 4S", "2H 9S 9C 9D 9H", "5S"], [(0, "3S")])
    s = settle(game.outcome, game.events, 2, rich(4))
    penalties = sorted((t.payer, t.units, t.owed) for t in s.transfers if t.reason == "penalty")
    assert penalties == [(1, Fraction(1, 2), 1), (2, Fraction(2), 4)]
    assert all(t.payee == 0 for t in s.transfers if t.reason == "penalty")


def test_half_units_round_down() -> None:
    rules = Rules.preset("online").model_copy(update={"scoring": "places"})
    game = play_out(rules, ["3S", "2S 4S"], [(0, "3S")])
    s = settle(game.outcome, game.events, 1, rich(2))
    # ½ unit at stake 1 rounds to 0 chips and is dropped
    assert lines(s) == [(1, 0, 1, 1, "place")]


def test_instant_win() -> None:
    deck = [
        f"{r}{s}"
        for r in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
        for s in "SCDH"
    ]
    winner = ["2S", "2C", "2D", "2H", *deck[:9]]
    rest = deck[9:]
    hands = [" ".join(rest[i::3]) for i in range(3)]
    game = Game.new(Rules(), 4, hands=[hands[0], hands[1], " ".join(winner), hands[2]])
    assert game.outcome is not None
    assert game.outcome.instant_win is not None
    assert game.outcome.multiplier == 3
    s = settle(game.outcome, game.events, 10, rich(4))
    assert s.places[0] == 2
    assert sorted(lines(s)) == [
        (0, 2, 30, 30, "instant_win"),
        (1, 2, 30, 30, "instant_win"),
        (3, 2, 30, 30, "instant_win"),
    ]
    assert s.transfers[0].detail == "four 2s x3"


def test_capped_payer_with_two_creditors() -> None:
    game = play_out(Rules.preset("vc"), ONE_CARD_EACH[:3], IN_ORDER[:2])
    s = settle(game.outcome, game.events, 10, [500, 500, 15])
    # owes 10 + 10 but holds 15: 15 shared in proportion, rounded down (7 + 7)
    assert lines(s) == [(2, 0, 10, 7, "loser_pays"), (2, 1, 10, 7, "loser_pays")]
    assert s.net == {0: 7, 1: 7, 2: -14}
    assert sum(t.shortfall for t in s.transfers) == 6


def test_capped_payer_unequal_debts() -> None:
    rules = Rules().model_copy(update={"chop_bonus": True})
    game = play_out(rules, CHAIN_HANDS, CHAIN_STEPS)
    # seat 2 owes seat 3: 80 (chop) + 20 (place) = 100, holds 50
    s = settle(game.outcome, game.events, 10, [1000, 1000, 50, 1000])
    paid = {(t.payee, t.reason): (t.owed, t.paid) for t in s.transfers if t.payer == 2}
    assert paid == {(3, "chop"): (80, 40), (3, "place"): (20, 10)}
    assert s.net[2] == -50 + 40  # seat 2 still receives its own chop bonus from seat 1
    assert s.net[2] + 50 >= 0


def test_broke_payer_pays_nothing() -> None:
    game = play_out(Rules(), ONE_CARD_EACH, IN_ORDER)
    s = settle(game.outcome, game.events, 10, {0: 0, 1: 0, 2: 0, 3: 0})
    assert [t.paid for t in s.transfers] == [0, 0]
    assert [t.owed for t in s.transfers] == [20, 10]


def test_computer_players_neither_pay_nor_receive() -> None:
    game = play_out(Rules(), ONE_CARD_EACH, IN_ORDER)
    s = settle(game.outcome, game.events, 10, [1000, None, 1000, None])
    assert lines(s) == [(3, 0, 20, 0, "place"), (2, 1, 10, 0, "place")]
    assert s.net == {0: 0, 1: 0, 2: 0, 3: 0}
    assert s.owed_net == {0: 20, 1: 10, 2: -10, 3: -20}


def test_capping_counts_only_debts_to_people() -> None:
    rules = Rules().model_copy(update={"chop_bonus": True})
    game = play_out(rules, CHAIN_HANDS, CHAIN_STEPS)
    # seat 1 owes seat 2 (a computer) 40 and seat 0 (place) 10; holds 10: pays seat 0 in full
    s = settle(game.outcome, game.events, 10, [1000, 10, None, 1000])
    paid = {(t.payee, t.reason): t.paid for t in s.transfers if t.payer == 1}
    assert paid == {(2, "chop"): 0, (0, "place"): 10}


def test_bad_input() -> None:
    unfinished = Game.new(Rules(), 2, hands=["3S 4S", "5S 6S"])
    with pytest.raises(WrongPhase, match="not over"):
        settle(unfinished.outcome, unfinished.events, 10, rich(2))
    game = play_out(Rules(), ONE_CARD_EACH, IN_ORDER)
    with pytest.raises(ValueError, match="stake"):
        settle(game.outcome, game.events, -1, rich(4))
    with pytest.raises(ValueError, match="3 balances were given for 4 seats"):
        settle(game.outcome, game.events, 1, rich(3))
    with pytest.raises(ValueError, match=r"no balance given for seats \[3\]"):
        settle(game.outcome, game.events, 1, {0: 1, 1: 1, 2: 1})
    with pytest.raises(ValueError, match="seat 1's balance"):
        settle(game.outcome, game.events, 1, [1, -1, 1, 1])
    zero = settle(game.outcome, game.events, 0, rich(4))
    assert zero.transfers == ()
