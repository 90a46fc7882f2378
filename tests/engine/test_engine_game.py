"""Scenario tests of the game flow with fixed hands."""

from __future__ import annotations

import random

import pytest

from engine import (
    CannotPassOnLead,
    Card,
    CardsNotInHand,
    Chopped,
    ComboKind,
    Exchanged,
    Game,
    GameFinished,
    GameOver,
    IllegalPlay,
    InstantWin,
    InstantWinKind,
    InvalidCards,
    MustIncludeCard,
    NotACombination,
    NotYourTurn,
    Passed,
    PassedThisTrick,
    Phase,
    Played,
    Rank,
    Rules,
    Suit,
    Termination,
    TienLenError,
    TrickWon,
    WentOut,
    WrongPhase,
    instant_win_of,
    parse_cards,
)
from engine.cards import full_deck

SOUTHERN = Rules()
NO_IW = Rules(instant_wins=False)


def codes(cards: list[Card]) -> str:
    return " ".join(c.code for c in cards)


def unchanged(
    game: Game, action: object, error: type[TienLenError], match: str | None = None
) -> None:
    """The action raises ``error`` and leaves the game exactly as it was."""
    before = game.to_json()
    with pytest.raises(error, match=match):
        action()  # type: ignore[operator]
    assert game.to_json() == before


# ---------------------------------------------------------------------------- the opening


def test_three_of_spades_leads_and_must_be_included() -> None:
    game = Game.new(
        SOUTHERN,
        ["ann", "bob", "cat", "dan"],
        hands=["4S 5S 9H", "3S 4H 5D KS", "6S 7S 8S", "10S JS QS"],
    )
    assert game.players == ("ann", "bob", "cat", "dan")
    assert game.current == 1
    assert game.first_play_must_include == Card(Rank.THREE, Suit.SPADES)
    plays = game.legal_plays(1)
    assert plays
    assert all(Card(Rank.THREE, Suit.SPADES) in p.cards for p in plays)
    assert {p.kind for p in plays} == {ComboKind.SINGLE, ComboKind.SEQUENCE}
    unchanged(game, lambda: game.play(1, "4H"), MustIncludeCard, "must include 3♠")
    unchanged(game, lambda: game.pass_turn(1), CannotPassOnLead, "you lead this trick")
    unchanged(game, lambda: game.play(0, "4S"), NotYourTurn, "it is not your turn")
    events = game.play(1, "3S 4H 5D")
    assert isinstance(events[0], Played)
    assert events[0].kind is ComboKind.SEQUENCE
    assert events[0].trick == 1
    assert game.first_play_must_include is None
    assert game.current == 2
    assert game.version == 1
    assert game.card_counts == [3, 1, 3, 3]


def test_lowest_card_leads_when_nobody_holds_three_of_spades() -> None:
    game = Game.new(NO_IW, 3, hands=["5S 9H", "4D 6D", "3H KS"])
    assert game.current == 2
    assert game.first_play_must_include == Card(Rank.THREE, Suit.HEARTS)
    unchanged(game, lambda: game.play(2, "KS"), MustIncludeCard, "3♥")
    game.play(2, "3H")


def test_two_decks_lowest_card_first_seat_leads() -> None:
    hands = ["9S", "3S 5D", "4D", "3S 6H", "7C"]
    game = Game.new(NO_IW, 5, hands=hands)
    assert game.decks == 2
    assert game.current == 1


def test_later_game_winner_leads_any_combination() -> None:
    game = Game.new(NO_IW, 2, hands=["3S 4S", "5S 6S"], first_game=False, leader=1)
    assert game.current == 1
    assert game.first_play_must_include is None
    game.play(1, "6S")


def test_first_lead_any_is_seeded() -> None:
    online = Rules.preset("online")
    leaders = {Game.new(online, 4, seed=s).leader for s in range(40)}
    assert leaders == {0, 1, 2, 3}
    for s in range(10):
        a, b = Game.new(online, 4, seed=s), Game.new(online, 4, seed=s)
        assert a == b
        assert a.first_play_must_include is None


def test_deal_sizes() -> None:
    assert Game.new(NO_IW, 4, seed=1).card_counts == [13] * 4
    assert Game.new(NO_IW, 3, seed=1).card_counts == [13] * 3
    assert Game.new(NO_IW, 2, seed=1).card_counts == [13] * 2
    seventeen = NO_IW.model_copy(update={"three_player_17": True})
    assert Game.new(seventeen, 3, seed=1).card_counts == [17] * 3
    eight = Game.new(NO_IW, 8, seed=1)
    assert eight.decks == 2
    assert eight.card_counts == [13] * 8
    with pytest.raises(ValueError, match="2 to 8"):
        Game.new(NO_IW, 9)
    with pytest.raises(ValueError, match="2 to 8"):
        Game.new(NO_IW, 1)
    with pytest.raises(InvalidCards, match="twice"):
        Game.new(NO_IW, 2, hands=["3S", "3S"])


# ---------------------------------------------------------------------------- passing


def test_passing_locks_out_and_trick_ends() -> None:
    game = Game.new(NO_IW, 4, hands=["3S 9S", "4S 10S", "5S JS", "6S QS"])
    game.play(0, "3S")
    game.pass_turn(1)
    assert game.passed == frozenset({1})
    game.play(2, "5S")
    assert game.current == 3
    unchanged(game, lambda: game.play(1, "10S"), PassedThisTrick, "you passed this trick")
    unchanged(game, lambda: game.pass_turn(1), PassedThisTrick)
    game.play(3, "6S")
    assert game.current == 0  # seat 1 is skipped: it passed
    game.pass_turn(0)
    events = game.pass_turn(2)
    assert isinstance(events[-1], TrickWon)
    assert events[-1].seat == 3
    assert game.table is None
    assert game.trick == 2
    assert game.current == 3
    assert game.passed == frozenset()


def test_without_lock_out_a_passed_player_plays_again() -> None:
    rules = NO_IW.model_copy(update={"pass_locks_out": False})
    game = Game.new(rules, 3, hands=["3S 9S", "4S 10S", "5S JS"])
    game.play(0, "3S")
    game.pass_turn(1)
    game.play(2, "5S")
    game.play(0, "9S")
    assert game.current == 1  # not locked out
    game.play(1, "10S")
    assert game.current == 2


def test_without_lock_out_only_passes_since_the_last_play_end_a_trick() -> None:
    rules = NO_IW.model_copy(update={"pass_locks_out": False})
    game = Game.new(rules, 4, hands=["3S 9S", "4S 10S", "5S JS", "6S QS"], leader=0)
    game.play(0, "3S")
    game.pass_turn(1)
    game.play(2, "5S")  # seat 1's pass no longer counts: it has not seen 5S
    game.pass_turn(3)
    game.pass_turn(0)
    assert game.table is not None and game.trick == 1  # the trick goes on
    assert game.current == 1
    assert game.passed == frozenset({3, 0})
    events = game.pass_turn(1)
    assert isinstance(events[-1], TrickWon) and events[-1].seat == 2


def test_illegal_plays_leave_the_game_unchanged() -> None:
    game = Game.new(NO_IW, 2, hands=["3S 9S 9H KD", "4S 8S 8H QC"], leader=0)
    game.play(0, "9S 9H")
    unchanged(game, lambda: game.play(1, "8S 8H"), IllegalPlay, "does not beat 9♠ 9♥ on the table")
    unchanged(game, lambda: game.play(1, "QC"), IllegalPlay, "a pair can only be beaten")
    unchanged(game, lambda: game.play(1, "4S QC"), NotACombination, "not a combination")
    unchanged(game, lambda: game.play(1, "KD"), CardsNotInHand, "you do not hold K♦")
    unchanged(game, lambda: game.play(1, "XX"), InvalidCards, "XX")
    unchanged(game, lambda: game.play(1, "4S 4S"), InvalidCards)
    unchanged(game, lambda: game.play(1, []), NotACombination)
    unchanged(game, lambda: game.play(0, "KD"), NotYourTurn)
    unchanged(game, lambda: game.play(7, "KD"), NotYourTurn)
    assert not game.can_play(1, "8S 8H")
    assert game.can_pass(1)
    assert not game.can_pass(0)


# ---------------------------------------------------------------------------- going out


def test_lead_passes_to_next_player_with_cards_after_going_out() -> None:
    game = Game.new(NO_IW, 4, hands=["3S KH", "4S 5S", "6S 7S", "8S 9S"])
    game.play(0, "3S")
    game.play(1, "4S")
    game.play(2, "6S")
    game.play(3, "8S")
    events = game.play(0, "KH")  # seat 0 goes out
    assert any(isinstance(e, WentOut) and e.seat == 0 and e.place == 1 for e in events)
    assert game.current == 1  # the trick goes on
    game.pass_turn(1)
    game.pass_turn(2)
    events = game.pass_turn(3)
    assert isinstance(events[-1], TrickWon)
    assert events[-1].seat == 0
    assert game.current == 1  # next player in turn order who holds cards
    assert game.table is None


def test_a_player_who_went_out_can_be_beaten() -> None:
    game = Game.new(NO_IW, 3, hands=["3S", "4S 2H", "5S 6S"])
    game.play(0, "3S")
    assert game.places == [0]
    game.play(1, "2H")
    game.pass_turn(2)
    assert game.current == 1
    assert game.table is None


def test_to_last_ending_gives_every_place() -> None:
    game = Game.new(NO_IW, 3, hands=["3S", "4S 9D", "5S 6S"])
    game.play(0, "3S")
    game.play(1, "4S")
    game.play(2, "5S")
    game.play(1, "9D")  # seat 1 goes out second; seat 2 is last
    assert game.is_over
    assert game.current is None
    assert game.outcome is not None
    assert game.outcome.places == (0, 1, 2)
    assert game.outcome.winner == 0
    assert game.outcome.loser == 2
    assert game.outcome.reason is Termination.EMPTIED_HANDS
    assert game.outcome.instant_win is None
    assert game.outcome.multiplier is None
    assert isinstance(game.events[-1], GameOver)
    assert game.actor is None
    unchanged(game, lambda: game.play(2, "6S"), GameFinished, "over")
    unchanged(game, lambda: game.pass_turn(2), GameFinished)
    assert game.legal_plays(2) == []


def test_first_out_ending_ranks_by_cards_left_ties_by_seat_order() -> None:
    rules = NO_IW.model_copy(update={"end": "first_out"})
    game = Game.new(rules, 4, hands=["3S 4H", "5S 6S 7S", "8S 9S 10S", "JS QS"])
    game.play(0, "3S")
    game.pass_turn(1)
    game.pass_turn(2)
    game.pass_turn(3)
    game.play(0, "4H")
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.reason is Termination.FIRST_OUT
    # seat 3 holds 2 cards; seats 1 and 2 hold 3 each: seat order from the winner
    assert game.outcome.places == (0, 3, 1, 2)
    assert game.outcome.cards_left == (0, 3, 3, 2)


# ---------------------------------------------------------------------------- chops


def test_out_of_turn_chop_of_a_two() -> None:
    hands = [
        "3S 2S 9D",
        "4C 2H KD",
        "5S 5H 6S 6H 7S 7H 8S 8H JD",
        "4H 10C QC",
    ]
    game = Game.new(NO_IW, 4, hands=hands)
    game.play(0, "3S")
    game.play(1, "4C")
    game.pass_turn(2)
    game.play(3, "4H")
    game.play(0, "2S")
    assert game.current == 1
    assert game.legal_plays(3) == []
    chops = game.legal_plays(2)  # seat 2 passed, but may chop the 2 with four pairs
    assert [str(c) for c in chops] == ["5♠ 5♥ 6♠ 6♥ 7♠ 7♥ 8♠ 8♥"]
    game.play(1, "2H")  # a 2 on a lower 2 is ordinary
    assert not any(isinstance(e, Chopped) for e in game.events)
    events = game.play(2, "5S 5H 6S 6H 7S 7H 8S 8H")
    played, chopped = events[0], events[1]
    assert isinstance(played, Played)
    assert played.out_of_turn
    assert played.chop
    assert isinstance(chopped, Chopped)
    assert (chopped.seat, chopped.victim, chopped.trick) == (2, 1, 1)
    assert chopped.chopped == (Card(Rank.TWO, Suit.HEARTS),)
    assert len(chopped.bomb) == 8
    assert game.chop_context
    assert game.current == 3  # play continues after the chopper
    assert game.last_play_seat == 2


def test_no_out_of_turn_chop_in_pagat() -> None:
    rules = Rules.preset("pagat")
    hands = ["3S 2S 9D", "4C KD", "5S 5H 6S 6H 7S 7H 8S 8H JD", "4H 10C QC"]
    game = Game.new(rules, 4, hands=hands)
    game.play(0, "3S")
    game.play(1, "4C")
    game.pass_turn(2)
    game.play(3, "4H")
    game.play(0, "2S")
    assert game.legal_plays(2) == []
    unchanged(game, lambda: game.play(2, "5S 5H 6S 6H 7S 7H 8S 8H"), PassedThisTrick)


def test_chop_context_and_chained_chops() -> None:
    rules = NO_IW.model_copy(update={"bombs_need_chop_context": True})
    hands = ["2S 3D", "5S 5H 6S 6H 7S 7H", "9S 9H 9D 9C", "3S JS QS KS AS 10S"]
    game = Game.new(rules, 4, hands=hands, leader=0)
    game.play(0, "2S")
    events = game.play(1, "5S 5H 6S 6H 7S 7H")
    assert isinstance(events[1], Chopped)
    assert game.chop_context
    events = game.play(2, "9S 9H 9D 9C")  # quad on three pairs: allowed, a 2 was chopped
    assert isinstance(events[1], Chopped)
    assert events[1].victim == 1
    # without a chopped 2 the same quad may not beat three pairs
    game2 = Game.new(rules, 4, hands=hands, leader=1)
    game2.play(1, "5S 5H 6S 6H 7S 7H")
    assert not game2.can_play(2, "9S 9H 9D 9C")
    unchanged(game2, lambda: game2.play(2, "9S 9H 9D 9C"), IllegalPlay)


def test_three_pairs_may_not_lead_online() -> None:
    rules = Rules.preset("online").model_copy(update={"instant_wins": False})
    game = Game.new(rules, 2, hands=["5S 5H 6S 6H 7S 7H", "3D 4D"], leader=0)
    assert all(p.kind is not ComboKind.DOUBLE_SEQUENCE for p in game.legal_plays(0))
    unchanged(game, lambda: game.play(0, "5S 5H 6S 6H 7S 7H"), IllegalPlay, "may not lead")


# ---------------------------------------------------------------------------- next games


def _finished(rules: Rules, seats: int = 4) -> Game:
    hands = ["3S", "4S 5D", "6S 7D 8C", "9S 10D JC QH"][:seats]
    game = Game.new(rules, seats, hands=hands)
    game.play(0, "3S")
    while not game.is_over:
        seat = game.current
        assert seat is not None
        plays = game.legal_plays(seat)
        if plays:
            game.play(seat, min(plays, key=lambda c: c.mask))
        else:
            game.pass_turn(seat)
    return game


def test_next_game_winner_leads_and_reverse_order() -> None:
    rules = NO_IW.model_copy(update={"reverse_order_each_game": True})
    first = _finished(rules)
    assert first.outcome is not None
    winner = first.outcome.winner
    nxt = Game.next(first, seed=3)
    assert nxt.players == first.players
    assert nxt.direction == -1
    assert nxt.leader == winner
    assert nxt.current == winner
    assert nxt.first_play_must_include is None
    assert nxt.next_seat(0) == 3
    assert nxt.seat_order == [0, 3, 2, 1]
    seat = nxt.current
    nxt.play(seat, nxt.legal_plays(seat)[0])
    assert nxt.current == (seat - 1) % 4
    assert first.outcome is not None
    again = Game.next(first.outcome, rules=rules, players=4, direction=-1, seed=1)
    assert again.direction == 1


def test_next_game_without_winner_leads_uses_lowest_card() -> None:
    rules = NO_IW.model_copy(update={"winner_leads_next": False})
    first = _finished(rules)
    nxt = Game.next(first, seed=9)
    assert nxt.first_play_must_include == Card(Rank.THREE, Suit.SPADES)
    assert Card(Rank.THREE, Suit.SPADES) in nxt.hands[nxt.leader]


def test_card_exchange() -> None:
    rules = NO_IW.model_copy(update={"card_exchange": True})
    first = _finished(rules)
    assert first.outcome is not None
    places = first.outcome.places
    winner, second, second_last, last = places[0], places[1], places[2], places[3]
    hands = [""] * 4
    hands[winner] = "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 3C"
    hands[second] = "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 4C"
    hands[second_last] = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2C"
    hands[last] = "5C 6C 7C 8C 9C 10C JC QC KC AC 2S 2D 2H"
    game = Game.next(first, hands=hands)
    assert game.phase is Phase.EXCHANGE
    assert game.current is None
    assert game.actor == winner  # the first seat that still owes cards back
    gifts = [e for e in game.events if isinstance(e, Exchanged)]
    assert [(e.giver, e.receiver, codes(list(e.cards)), e.returned) for e in gifts] == [
        (last, winner, "2D 2H", False),
        (second_last, second, "2C", False),
    ]
    assert game.pending_returns == {winner: 2, second: 1}
    assert game.return_targets == {winner: last, second: second_last}
    unchanged(game, lambda: game.play(winner, "3S"), WrongPhase)
    unchanged(game, lambda: game.return_cards(winner, "3S"), IllegalPlay, "exactly 2")
    unchanged(game, lambda: game.return_cards(winner, "3S 3H"), CardsNotInHand)
    unchanged(game, lambda: game.return_cards(last, "2S"), WrongPhase)
    assert game.can_return(second, "4C")
    game.return_cards(winner, "3S 3C")
    assert game.phase is Phase.EXCHANGE
    assert game.actor == second
    game.return_cards(second, "4C")
    assert game.phase is Phase.PLAY
    assert game.actor == game.current == winner
    assert game.current == winner
    assert game.card_counts == [13, 13, 13, 13]
    assert codes(game.hands[last])[:5] == "3S 3C"
    assert Game.replay(game.events) == game
    assert Game.from_json(game.to_json()) == game


def test_no_exchange_with_three_players() -> None:
    rules = NO_IW.model_copy(update={"card_exchange": True})
    first = _finished(rules, 3)
    game = Game.next(first, seed=2)
    assert game.phase is Phase.PLAY


# ---------------------------------------------------------------------------- instant wins

INSTANT = {
    "3S 4S 5S 6H 7S 8S 9S 10S JS QS KS AS 2D": (InstantWinKind.DRAGON, 4),
    "3D 3H 5D 6H 7H 8H 9H 10H JH QH KD AD 2D": (InstantWinKind.THIRTEEN_ONE_COLOUR, 4),
    "2S 2C 2D 2H 3S 5D 7H 9C JD KH AS 4C 6D": (InstantWinKind.FOUR_TWOS, 3),
    "3S 4S 5S 6H 7S 8S 9S 10S JS QS KS AS AD": (InstantWinKind.PARTIAL_DRAGON, 2),
    "3S 3C 5D 5H 7S 7C 9D 9H JS JC KD KH 2S": (InstantWinKind.SIX_PAIRS, 2),
    "3S 3C 3D 3H 7S 7C 9D 9H JS JC KD KH 2S": (InstantWinKind.SIX_PAIRS, 2),
    "4S 4C 5D 5H 6S 6C 7D 7H 8S 8C 10D QH 2S": (InstantWinKind.FIVE_CONSECUTIVE_PAIRS, 2),
    "3S 3C 5C 6C 7S 8S 9S 10S JC QC KS AS 2D": (InstantWinKind.TWELVE_ONE_COLOUR, 2),
}


@pytest.mark.parametrize(("hand", "expected"), list(INSTANT.items()))
def test_instant_win_kinds(hand: str, expected: tuple[InstantWinKind, int]) -> None:
    assert instant_win_of(hand) is expected[0]
    assert expected[0].multiplier == expected[1]
    deck = {c.code for c in full_deck()}
    rest = sorted(deck - {c.code for c in parse_cards(hand)})
    rng = random.Random(1)
    while True:  # other seats get ordinary hands
        rng.shuffle(rest)
        others = [" ".join(rest[i * 13 : (i + 1) * 13]) for i in range(3)]
        if all(instant_win_of(h) is None for h in others):
            break
    hands = [hand, *others]
    game = Game.new(SOUTHERN, len(hands), hands=hands)
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.winner == 0
    assert game.outcome.instant_win is expected[0]
    assert game.outcome.multiplier == expected[1]
    assert game.outcome.reason is Termination.INSTANT_WIN
    iw = [e for e in game.events if isinstance(e, InstantWin)]
    assert [(e.seat, e.kind, e.multiplier) for e in iw] == [(0, expected[0], expected[1])]


def test_no_instant_win_in_pagat_or_ordinary_hands() -> None:
    hand = "2S 2C 2D 2H 3S 5D 7H 9C JD KH AS 4C 6D"
    game = Game.new(Rules.preset("pagat"), 2, hands=[hand, "3C 4S 5S"])
    assert not game.is_over
    assert instant_win_of("3S 3D 7H 9C JD KH AS 4C 6D 8S 10C QD 2H") is None


def test_instant_win_ties() -> None:
    six_pairs = "3S 3C 5D 5H 7S 7C 9D 9H JS JC KD KH 2S"
    six_pairs_b = "4S 4C 6D 6H 8S 8C 10D 10H QS QC AD AH 2C"
    four_twos = "2D 2H 3D 4D 5C 6C 7D 8D 9C 10C JD QD KS"
    # equal multipliers: the first in turn order from the leader (3♠ holder, seat 1)
    game = Game.new(SOUTHERN, 2, hands=[six_pairs_b, six_pairs])
    assert game.outcome is not None
    assert game.outcome.winner == 1
    assert game.outcome.places == (1, 0)
    assert four_twos  # (one deck holds only four 2s)
    # the higher multiplier wins whatever the order
    dragon = "3H 4S 5S 6H 7H 8S 9S 10S JD QS KS AS 2D"
    game = Game.new(SOUTHERN, 2, hands=[dragon, six_pairs])
    assert game.outcome is not None
    assert game.outcome.winner == 0
    assert game.outcome.instant_win is InstantWinKind.DRAGON


def test_instant_win_checked_after_exchange() -> None:
    rules = SOUTHERN.model_copy(update={"card_exchange": True})
    first = _finished(rules.model_copy(update={"instant_wins": False}))
    assert first.outcome is not None
    winner, second, second_last, last = first.outcome.places
    hands = [""] * 4
    # the winner holds 2♠ 2♣; the last player's two highest cards are 2♦ 2♥
    hands[winner] = "2S 2C 3S 4D 5S 6S 7S 8S 9S 10D JD QD KD"
    hands[second] = "3D 4S 5D 6D 7D 8D 9D 10S JS QS KS AD 4C"
    hands[second_last] = "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 3C"
    hands[last] = "5C 6C 7C 8C 9C 10C JC QC KC AC AS 2D 2H"
    game = Game.next(first, hands=hands, rules=rules)
    assert not game.is_over
    game.return_cards(winner, "3S 4D")
    game.return_cards(second, "4C")
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.instant_win is InstantWinKind.FOUR_TWOS
    assert game.outcome.winner == winner


# ---------------------------------------------------------------------------- persistence


def test_json_round_trip_and_replay_mid_game() -> None:
    game = Game.new(SOUTHERN, ["a", "b", "c"], seed=42)
    seat = game.current
    assert seat is not None
    game.play(seat, game.legal_plays(seat)[0])
    text = game.to_json()
    restored = Game.from_json(text)
    assert restored == game
    assert restored.to_json() == text
    assert restored.players == ("a", "b", "c")
    assert Game.replay(game.events) == game
    other = Game.new(SOUTHERN, ["a", "b", "c"], seed=43)
    assert other != game


def test_replay_rejects_a_tampered_log() -> None:
    game = Game.new(NO_IW, 2, hands=["3S 4S", "5S 6S"])
    game.play(0, "3S")
    events = list(game.events)
    events.append(Passed(seat=0, trick=1))
    with pytest.raises(TienLenError):
        Game.replay(events)
