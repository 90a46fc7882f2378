"""Hand-worked cases for the options double_quad, chop_after_pass, cong and card_exchange."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from engine import (
    Chopped,
    ComboKind,
    Exchanged,
    Frozen,
    Game,
    IllegalPlay,
    NotACombination,
    NotYourTurn,
    Outcome,
    Played,
    Rules,
    Termination,
    TienLenError,
    can_beat,
    classify,
)
from engine.combos import legal_leads, legal_responses
from engine.settle import settle

NO_IW = Rules(instant_wins=False)
DQ = NO_IW.model_copy(update={"double_quad": True})
DQ_CARDS = "7S 7C 7D 7H 8S 8C 8D 8H"


def beats(play: str, table: str, rules: Rules = DQ, chop_context: bool = False) -> bool:
    p, t = classify(play, rules, decks=2), classify(table, rules, decks=2)
    assert p is not None and t is not None
    return can_beat(p, t, rules, chop_context=chop_context)


def unchanged(game: Game, action: object, error: type[TienLenError], match: str | None = None
              ) -> None:
    before = game.to_json()
    with pytest.raises(error, match=match):
        action()  # type: ignore[operator]
    assert game.to_json() == before


def codes(cards: Sequence[object]) -> str:
    return " ".join(getattr(c, "code", str(c)) for c in cards)


# ---------------------------------------------------------------------------- double quad


def test_double_quad_is_a_combination_only_with_the_option() -> None:
    c = classify(DQ_CARDS, DQ)
    assert c is not None and c.kind is ComboKind.DOUBLE_QUAD and c.is_bomb
    assert c.describe() == "four 7s and four 8s"
    assert classify(DQ_CARDS, NO_IW) is None
    assert classify("KS KC KD KH AS AC AD AH", DQ) is not None
    assert classify("AS AC AD AH 2S 2C 2D 2H", DQ) is None  # no 2s
    assert classify("7S 7C 7D 7H 9S 9C 9D 9H", DQ) is None  # consecutive ranks only
    three_pairs = classify("7S 7C 8S 8C 9S 9C", DQ)
    assert three_pairs is not None and three_pairs.kind is ComboKind.DOUBLE_SEQUENCE


@pytest.mark.parametrize("chop_table", ["default", "narrow", "online"])
def test_what_a_double_quad_beats_under_every_chop_table(chop_table: str) -> None:
    rules = DQ.model_copy(update={"chop_table": chop_table})
    for table in ("2H", "2D 2H", "2S 2D 2H", "3S 3C 3D 3H", "AS AC AD AH",
                  "3S 3C 4S 4C 5S 5C", "3S 3C 4S 4C 5S 5C 6S 6C",
                  "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C"):
        assert beats(DQ_CARDS, table, rules), table
    six_pairs = "3S 3C 4S 4C 5S 5C 6S 6C 7S 7C 8S 8C"
    for table in ("2S 2C 2D 2H", "AH", "AS AH", "3S 4S 5S", six_pairs):
        assert not beats(DQ_CARDS, table, rules), table
    # beaten only by a higher double quad; six pairs and a double quad do not beat each other
    assert beats("8S 8C 8D 8H 9S 9C 9D 9H", DQ_CARDS, rules)
    assert not beats(DQ_CARDS, "8S 8C 8D 8H 9S 9C 9D 9H", rules)
    assert not beats(DQ_CARDS, DQ_CARDS, rules)  # an identical twin (two decks) never beats
    for bomb in ("2S 2C 2D 2H", "AS AC AD AH", "9S 9C 10S 10C JS JC QS QC KS KC AS AC",
                 "9S 9C 10S 10C JS JC QS QC"):
        assert not beats(bomb, DQ_CARDS, rules), bomb


def test_double_quad_on_a_bomb_needs_a_chopped_2_with_that_option() -> None:
    rules = DQ.model_copy(update={"bombs_need_chop_context": True})
    assert not beats(DQ_CARDS, "3S 3C 3D 3H", rules)
    assert beats(DQ_CARDS, "3S 3C 3D 3H", rules, chop_context=True)
    assert beats(DQ_CARDS, "2H", rules)


def test_double_quad_generation() -> None:
    hand = classify("5S 7S 7C 7D 7H 8S 8C 8D 8H 9S 9C 9D 9H", DQ)
    assert hand is None  # thirteen cards are no combination; generate from the mask instead
    layout = DQ.layout
    from engine import parse_cards

    mask = layout.to_mask(parse_cards("5S 7S 7C 7D 7H 8S 8C 8D 8H 9S 9C 9D 9H"), 1)
    leads = legal_leads(mask, layout, True, True)
    dqs = sorted(str(c) for c in leads if c.kind is ComboKind.DOUBLE_QUAD)
    assert dqs == ["7♠ 7♣ 7♦ 7♥ 8♠ 8♣ 8♦ 8♥", "8♠ 8♣ 8♦ 8♥ 9♠ 9♣ 9♦ 9♥"]
    without = legal_leads(mask, layout, True, False)
    assert not [c for c in without if c.kind is ComboKind.DOUBLE_QUAD]
    two = classify("2H", DQ)
    assert two is not None
    answers = {str(c) for c in legal_responses(mask, two, DQ, False)
               if c.kind is ComboKind.DOUBLE_QUAD}
    assert len(answers) == 2
    plain = {str(c) for c in legal_responses(mask, two, NO_IW, False)}
    assert not any(len(a.split()) == 8 for a in plain)
    low = classify(DQ_CARDS, DQ)
    assert low is not None
    higher = [str(c) for c in legal_responses(
        layout.to_mask(parse_cards("8S 8C 8D 8H 9S 9C 9D 9H 3S"), 1), low, DQ, False)]
    assert higher == ["8♠ 8♣ 8♦ 8♥ 9♠ 9♣ 9♦ 9♥"]


def test_double_quad_chops_a_pair_of_2s_in_a_game() -> None:
    rules = DQ.model_copy(update={"chop_bonus": True})
    game = Game.new(rules, 3, hands=["2D 2H 3S", DQ_CARDS + " 4S", "5S"], leader=0)
    game.play(0, "2D 2H")
    events = game.play(1, DQ_CARDS)
    assert isinstance(events[0], Played) and events[0].chop
    assert isinstance(events[1], Chopped) and events[1].victim == 0
    assert game.table is not None and game.table.kind is ComboKind.DOUBLE_QUAD
    unchanged(game, lambda: game.play(2, "5S"), IllegalPlay)
    game.pass_turn(2)
    game.pass_turn(0)
    assert game.current == 1
    game.play(1, "4S")  # seat 1 goes out first
    game.play(2, "5S")  # and seat 2 second
    assert game.is_over
    s = settle(game.outcome, game.events, 1, [100, 100, 100])
    chop = [t for t in s.transfers if t.reason == "chop"]
    assert [(t.payer, t.payee, t.owed) for t in chop] == [(0, 1, 4)]  # two red 2s
    assert s.bombs_played == (0, 1, 0)
    assert Game.replay(game.events) == game
    assert Game.from_json(game.to_json()) == game


def test_without_the_option_eight_cards_are_refused() -> None:
    game = Game.new(NO_IW, 2, hands=[DQ_CARDS + " 3S", "5S"], leader=0)
    unchanged(game, lambda: game.play(0, DQ_CARDS), NotACombination)


# ---------------------------------------------------------------------------- chop_after_pass

# Seat 0 leads a 2; seat 1 holds four pairs, seat 2 a quad, seat 3 three pairs.
OOT_HANDS = [
    "2S 3S",
    "4S 4C 5S 5C 6S 6C 7S 7C 3C",
    "9S 9C 9D 9H 3D",
    "JS JC QS QC KS KC 3H",
]


def oot_game(value: str) -> Game:
    game = Game.new(NO_IW.model_copy(update={"chop_after_pass": value}), 4, hands=OOT_HANDS,
                    leader=0)
    game.play(0, "2S")
    return game


def test_chop_after_pass_off() -> None:
    game = oot_game("off")
    assert game.has_out_of_turn_chop() == []
    unchanged(game, lambda: game.play(2, "9S 9C 9D 9H"), NotYourTurn)
    game.pass_turn(1)
    unchanged(game, lambda: game.play(1, "4S 4C 5S 5C 6S 6C 7S 7C"), TienLenError, "passed")


def test_chop_after_pass_pairs_lets_only_four_pairs_in() -> None:
    game = oot_game("pairs")
    assert game.has_out_of_turn_chop() == []  # seat 1 is the one to act
    game.pass_turn(1)
    assert game.has_out_of_turn_chop() == [1]
    assert game.legal_plays(3) == []  # three pairs are not an out-of-turn chop
    unchanged(game, lambda: game.play(3, "JS JC QS QC KS KC"), NotYourTurn)
    events = game.play(1, "4S 4C 5S 5C 6S 6C 7S 7C")
    assert isinstance(events[0], Played) and events[0].out_of_turn and events[0].chop
    assert game.current == 2  # play continues from the player after the chopper


def test_chop_after_pass_any_bomb() -> None:
    game = oot_game("any_bomb")
    assert game.current == 1
    # the quad and the three pairs may come in out of turn, before seat 1 acts
    assert [str(c) for c in game.legal_plays(2)] == ["9♠ 9♣ 9♦ 9♥"]
    assert [c.kind for c in game.legal_plays(3)] == [ComboKind.DOUBLE_SEQUENCE]
    assert game.has_out_of_turn_chop() == [2, 3]
    unchanged(game, lambda: game.play(2, "3D"), NotYourTurn)  # only bombs out of turn
    events = game.play(3, "JS JC QS QC KS KC")
    assert events[0].out_of_turn  # type: ignore[union-attr]
    assert isinstance(events[1], Chopped)
    assert game.current == 0  # after the chopper
    # a bomb that chopped 2s: the quad may answer it out of turn (stacking)
    assert game.has_out_of_turn_chop() == [1, 2]
    game.play(2, "9S 9C 9D 9H")
    assert game.table is not None and game.table.kind is ComboKind.QUAD
    # the four pairs chop the quad out of turn too
    assert [c.kind for c in game.legal_plays(1)] == [ComboKind.DOUBLE_SEQUENCE]
    game.play(1, "4S 4C 5S 5C 6S 6C 7S 7C")
    assert game.chop_context
    assert Game.replay(game.events) == game


def test_any_bomb_needs_2s_or_a_bomb_that_chopped_them() -> None:
    rules = NO_IW.model_copy(update={"chop_after_pass": "any_bomb"})
    game = Game.new(rules, 3, hands=["AS 3S", "9S 9C 9D 9H 3D", "5S 3C"], leader=0)
    game.play(0, "AS")  # an ace: no window
    assert game.has_out_of_turn_chop() == []
    game2 = Game.new(rules, 3, hands=["3S 3C 3D 3H 5S", "9S 9C 9D 9H 6H", "5C 4C"], leader=0)
    game2.play(0, "3S 3C 3D 3H")  # a bomb that was led, not a chop: no window
    assert game2.has_out_of_turn_chop() == []
    unchanged(game2, lambda: game2.play(2, "5C"), NotYourTurn)


def test_old_true_and_false_load_as_the_new_values() -> None:
    assert Rules.model_validate({"chop_after_pass": True}).chop_after_pass == "pairs"
    assert Rules.model_validate({"chop_after_pass": False}).chop_after_pass == "off"
    assert Rules.model_validate({"card_exchange": True}).card_exchange == "san_jose"
    assert Rules.model_validate({"card_exchange": False}).card_exchange == "off"
    assert Rules().model_copy(update={"card_exchange": "on"}).card_exchange == "san_jose"
    assert Rules().model_copy(update={"chop_after_pass": "false"}).chop_after_pass == "off"
    with pytest.raises(ValueError):
        Rules().model_copy(update={"chop_after_pass": "sometimes"})
    # a game saved before the options had three values
    game = oot_game("pairs")
    state = json.loads(game.to_json())
    state["rules"]["chop_after_pass"] = True
    state["events"][0]["rules"]["chop_after_pass"] = True
    loaded = Game.from_json(json.dumps(state))
    assert loaded.rules.chop_after_pass == "pairs"
    assert loaded == game


# ---------------------------------------------------------------------------- cóng

CONG = NO_IW.model_copy(update={"cong": True})


def test_cong_freezes_those_who_never_played() -> None:
    # five seats (two decks): seat 0 goes out while seats 3 and 4 have not played a card
    hands = ["3S 2H", "5S 6S 7S", "4S 9S", "8S", "10S"]
    game = Game.new(CONG, 5, hands=hands, leader=0)
    game.play(0, "3S")
    game.play(1, "5S")
    game.play(2, "9S")
    game.pass_turn(3)
    game.pass_turn(4)
    events = game.play(0, "2H")
    frozen = [e for e in events if isinstance(e, Frozen)]
    assert frozen == [Frozen(seats=(3, 4), places=(4, 5))]
    assert game.frozen == (3, 4)
    assert game.current == 1
    unchanged(game, lambda: game.play(3, "8S"), NotYourTurn, "frozen")
    game.pass_turn(1)
    game.pass_turn(2)  # the trick ends; seat 0 is out, so seat 1 leads
    assert game.current == 1
    game.play(1, "6S")
    game.pass_turn(2)
    game.play(1, "7S")
    assert game.is_over
    out = game.outcome
    assert out is not None
    assert out.places == (0, 1, 2, 3, 4)
    assert out.frozen == (3, 4)
    assert out.reason is Termination.EMPTIED_HANDS
    assert Game.replay(game.events) == game
    assert Game.from_json(game.to_json()) == game
    # places: 5th pays 1st 2 units and 4th pays 2nd 1, both doubled for the frozen payers
    s = settle(out, game.events, 10, [100] * 5)
    assert [(t.payer, t.payee, t.owed, t.paid) for t in s.transfers] == [
        (4, 0, 40, 40), (3, 1, 20, 20)]
    assert "x2 cóng" in s.transfers[0].detail
    # caps still apply: seat 4 holds 30 chips
    capped = settle(out, game.events, 10, [100, 100, 100, 100, 30])
    assert [(t.payer, t.owed, t.paid) for t in capped.transfers] == [(4, 40, 30), (3, 20, 20)]
    assert sum(capped.net.values()) == 0
    # without cóng nobody is frozen and nobody pays double
    plain = Game.new(NO_IW, 5, hands=hands, leader=0)
    for seat, cards in [(0, "3S"), (1, "5S"), (2, "9S"), (3, None), (4, None), (0, "2H")]:
        plain.play(seat, cards) if cards else plain.pass_turn(seat)
    assert plain.frozen == () and not plain.is_over


def test_cong_everyone_frozen_ends_the_game_at_once() -> None:
    game = Game.new(CONG, 4, hands=["3S", "4S 5S", "6S", "7S 8S"], leader=0)
    game.play(0, "3S")
    assert game.is_over
    assert game.outcome is not None
    assert game.outcome.places == (0, 1, 2, 3)
    assert game.outcome.frozen == (1, 2, 3)
    s = settle(game.outcome, game.events, 1, [10] * 4)
    assert [(t.payer, t.payee, t.owed) for t in s.transfers] == [(3, 0, 4), (2, 1, 2)]


def test_cong_with_first_out_puts_the_frozen_last_whatever_they_hold() -> None:
    rules = Rules.preset("pagat").model_copy(update={"cong": True})  # cards_left scoring
    hands = ["3S 2H", "5S 6S 7S 8S", "4D", "9S 10S"]
    game = Game.new(rules, 4, hands=hands, leader=0)
    game.play(0, "3S")
    game.play(1, "5S")
    game.pass_turn(2)
    game.pass_turn(3)
    game.play(0, "2H")
    out = game.outcome
    assert out is not None and out.reason is Termination.FIRST_OUT
    assert out.places == (0, 1, 2, 3)
    assert out.frozen == (2, 3)
    assert out.cards_left == (0, 3, 1, 2)
    s = settle(out, game.events, 1, [100] * 4)
    assert [(t.payer, t.payee, t.owed) for t in s.transfers] == [(1, 0, 3), (2, 0, 2), (3, 0, 4)]
    # without cóng the seats with fewer cards rank higher and pay single
    plain = Game.new(Rules.preset("pagat"), 4, hands=hands, leader=0)
    for seat, cards in [(0, "3S"), (1, "5S"), (2, None), (3, None), (0, "2H")]:
        plain.play(seat, cards) if cards else plain.pass_turn(seat)
    assert plain.outcome is not None and plain.outcome.places == (0, 2, 3, 1)
    assert plain.outcome.frozen == ()


def test_cong_doubles_loser_pays_and_pot_but_not_the_penalty() -> None:
    vc = Rules.preset("vc").model_copy(update={"cong": True})
    game = Game.new(vc, 3, hands=["3S", "4S", "5S"], leader=0)
    game.play(0, "3S")
    s = settle(game.outcome, game.events, 1, [10] * 3)
    assert [(t.payer, t.payee, t.owed, t.reason) for t in s.transfers] == [
        (2, 0, 2, "loser_pays"), (2, 1, 2, "loser_pays")]
    online = Rules.preset("online").model_copy(update={"cong": True, "instant_wins": False})
    game = Game.new(online, 3, hands=["3H", "4S 2S", "5S"], leader=0)
    game.play(0, "3H")
    s = settle(game.outcome, game.events, 2, [100] * 3)
    got = sorted((t.payer, t.payee, t.owed, t.reason) for t in s.transfers)
    # pot: each frozen seat's ante doubled (2 units); the black 2 left: ½ unit, not doubled
    assert got == [(1, 0, 1, "penalty"), (1, 0, 4, "pot"), (2, 0, 4, "pot")]


def test_outcome_is_immutable_and_round_trips() -> None:
    out = Outcome(places=[2, 0, 1], reason=Termination.EMPTIED_HANDS, cards_left=[0, 0, 3],  # type: ignore[arg-type]
                  frozen=[1])  # type: ignore[arg-type]
    assert out.places == (2, 0, 1) and out.cards_left == (0, 0, 3) and out.frozen == (1,)
    with pytest.raises(AttributeError):
        out.places = (0, 1, 2)  # type: ignore[misc]
    assert Outcome.from_dict(json.loads(json.dumps(out.to_dict()))) == out
    old = {"places": [0, 1], "reason": "first_out", "instant_win": None, "multiplier": None,
           "cards_left": [0, 2]}
    assert Outcome.from_dict(old).frozen == ()


# ---------------------------------------------------------------------------- card exchange

FOUR = [
    "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 3C",
    "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 4C",
    "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2C",
    "5C 6C 7C 8C 9C 10C JC QC KC AC 2S 2D 2H",
]


def previous(rules: Rules, places: Sequence[int]) -> Outcome:
    return Outcome(places=tuple(places), reason=Termination.EMPTIED_HANDS)


def gifts(game: Game) -> list[tuple[int, int, str, bool]]:
    return [(e.giver, e.receiver, codes(e.cards), e.returned)
            for e in game.events if isinstance(e, Exchanged)]


def test_tribute_with_four_players() -> None:
    rules = NO_IW.model_copy(update={"card_exchange": "tribute"})
    # previous places: seat 1 won, seat 0 second, seat 3 third, seat 2 last
    game = Game.next(previous(rules, [1, 0, 3, 2]), rules=rules, players=4, hands=FOUR)
    assert gifts(game) == [(2, 1, "AH 2C", False), (3, 0, "2D 2H", False)]
    assert game.phase == "play"  # nothing is given back
    assert game.pending_returns == {}
    assert game.current == 1  # the winner leads
    assert game.card_counts == [15, 15, 11, 11]
    unchanged(game, lambda: game.return_cards(1, "3D 4D"), TienLenError)
    assert Game.replay(game.events) == game


def test_tribute_with_five_players_and_none_with_three() -> None:
    rules = NO_IW.model_copy(update={"card_exchange": "tribute"})
    hands = ["3S 4S 5S", "3C 4C 5C", "3D 4D 2D", "6S 7S 2S", "8S 2H 9S"]
    game = Game.next(previous(rules, [0, 1, 2, 3, 4]), rules=rules, players=5, hands=hands)
    # the last (seat 4) pays the winner, the second-to-last (seat 3) the second; seat 2 keeps all
    assert gifts(game) == [(4, 0, "9S 2H", False), (3, 1, "7S 2S", False)]
    assert game.card_counts == [5, 5, 3, 1, 1]
    three = Game.next(previous(rules, [0, 1, 2]), rules=rules, players=3,
                      hands=["3S", "4S", "5S"])
    assert gifts(three) == []


def test_san_jose_with_five_players() -> None:
    rules = NO_IW.model_copy(update={"card_exchange": "san_jose"})
    hands = ["3S 4S 5S", "3C 4C 5C", "3D 4D 2D", "6S 7S 2S", "8S 2H 9S"]
    game = Game.next(previous(rules, [0, 1, 2, 3, 4]), rules=rules, players=5, hands=hands)
    assert gifts(game) == [(4, 0, "9S 2H", False), (3, 1, "2S", False)]
    assert game.pending_returns == {0: 2, 1: 1}
    assert game.return_targets == {0: 4, 1: 3}
    game.return_cards(0, "3S 4S")
    game.return_cards(1, "3C")
    assert game.phase == "play"
    assert game.card_counts == [3, 3, 3, 3, 3]


# ---------------------------------------------------------------------------- option texts


def test_every_option_lists_its_values_and_describes_itself() -> None:
    values = Rules.option_values()
    assert list(values) == list(Rules.model_fields)
    assert values["chop_after_pass"] == ("off", "pairs", "any_bomb")
    assert values["card_exchange"] == ("off", "san_jose", "tribute")
    assert values["double_quad"] == values["cong"] == ("on", "off")
    for name, texts in values.items():  # every listed value is accepted
        for text in texts:
            Rules().with_options([f"{name}={text}"])
    labels = dict(Rules(double_quad=True, cong=True, chop_after_pass="any_bomb",
                        card_exchange="tribute").describe())
    assert labels["Two consecutive quads are a bomb"] == "on"
    assert labels["Chop out of turn (after passing)"].startswith("with any bomb")
    assert labels["Card exchange between games"].startswith("tribute")
    assert len(Rules().describe()) == len(Rules.model_fields)


def test_option_texts_and_completions() -> None:
    rules = Rules().with_options(["cong=on", "card_exchange=tribute", "chop_after_pass=any_bomb"])
    assert (rules.cong, rules.card_exchange, rules.chop_after_pass) == (True, "tribute", "any_bomb")
    with pytest.raises(ValueError, match="no rule option 'cnog'"):
        Rules().with_options(["cnog=on"])
    with pytest.raises(ValueError, match="name=value"):
        Rules().with_options(["cong"])
    with pytest.raises(ValueError, match="option card_exchange"):
        Rules().with_options(["card_exchange=sometimes"])
    assert Rules.option_completions("cong=on card_ex") == [
        "cong=on card_exchange=off", "cong=on card_exchange=san_jose",
        "cong=on card_exchange=tribute"]
    assert Rules.option_completions("chop_") == [
        "chop_after_pass=", "chop_table=", "chop_bonus="]
    assert Rules.option_completions("chop_after_pass=a") == ["chop_after_pass=any_bomb"]
    assert len(Rules.option_completions("")) == len(Rules.model_fields)
    assert "cong=" not in Rules.option_completions("cong=on ")  # already given


def test_a_double_quad_out_of_turn_only_with_any_bomb() -> None:
    hands = ["2D 2H 3S", "9S 10S", DQ_CARDS + " 4S", "JS QS"]
    for value, allowed in (("pairs", False), ("any_bomb", True)):
        rules = DQ.model_copy(update={"chop_after_pass": value})
        game = Game.new(rules, 4, hands=hands, leader=0)
        game.play(0, "2D 2H")
        assert game.current == 1
        # seat 2 holds a double quad, the only answer to a pair of 2s it has
        assert bool(game.legal_plays(2)) is allowed
        if allowed:
            events = game.play(2, DQ_CARDS)
            assert isinstance(events[0], Played) and events[0].out_of_turn
            assert game.current == 3
        else:
            unchanged(game, lambda g=game: g.play(2, DQ_CARDS), NotYourTurn)
