"""Hand-worked cases for the two Vietnamese house rules: ``anti_feed`` (đền bài) and
``no_two_last`` (cấm đánh 2 cuối), their settlement, and the computer players that know them."""

from __future__ import annotations

import pytest

from engine import Game, Rules
from engine.ai import decide, observe, suggest
from engine.errors import Cause, IllegalPlay
from engine.events import Fed, GameOver, WentOut, event_from_dict
from engine.settle import settle

BASE = Rules(instant_wins=False)
FEED = BASE.model_copy(update={"anti_feed": "on"})
TWO = BASE.model_copy(update={"no_two_last": True})


def fed(game: Game) -> list[Fed]:
    return [e for e in game.events if isinstance(e, Fed)]


# ------------------------------------------------------------------ đền bài: the cases

def led_low_single(rules: Rules) -> Game:
    """Seat 0 leads 3♠ holding A♥ while seat 1 is on its last card 5♦, which goes out."""
    game = Game.new(rules, 3, hands=["3S 9C AH", "5D", "4C 6C 8C KD"], leader=0)
    assert game.would_feed(0, "3S") is (rules.anti_feed != "off")
    assert not game.would_feed(0, "AH")  # the highest single is never a feed
    game.play(0, "3S")
    game.play(1, "5D")  # out, first
    game.pass_turn(2)
    game.play(0, "9C")  # seat 2 passed this trick: seat 0 wins it and leads
    game.play(0, "AH")  # out, second; seat 2 is last
    assert game.is_over and game.places == [1, 0, 2]
    return game


def test_feeder_who_led_a_low_single_pays_the_last_players_loss() -> None:
    game = led_low_single(FEED)
    assert fed(game) == [Fed(feeder=0, seat=1, how="lead")]
    i = next(i for i, e in enumerate(game.events) if isinstance(e, Fed))
    assert game.events[i - 1] == WentOut(1, 1)  # right after the first player out
    s = settle(game.outcome, game.events, 10, [100, 100, 100])
    assert [(t.payer, t.payee, t.paid, t.reason) for t in s.transfers] == [(0, 1, 10, "feed")]
    assert s.net == {0: -10, 1: 10, 2: 0}
    assert Game.replay(game.events) == game  # the derived event replays
    assert Game.from_json(game.to_json()) == game


def test_rule_off_nobody_pays_for_feeding() -> None:
    game = led_low_single(BASE)
    assert fed(game) == []
    s = settle(game.outcome, game.events, 10, [100, 100, 100])
    assert [(t.payer, t.payee, t.paid, t.reason) for t in s.transfers] == [(2, 1, 10, "place")]


def test_feeder_who_answered_a_low_single_while_holding_a_higher_one() -> None:
    game = Game.new(FEED, 3, hands=["3S 7H", "5C JD AH", "9D"], leader=0)
    game.play(0, "3S")  # the next seat (1) holds three cards: no feed
    assert game.would_feed(1, "5C") and not game.would_feed(1, "AH")
    game.play(1, "5C")
    game.play(2, "9D")  # out
    assert fed(game) == [Fed(feeder=1, seat=2, how="answer")]
    game.pass_turn(0)
    game.play(1, "JD")
    game.play(1, "AH")  # seat 1 won the trick, leads its last card
    assert game.places == [2, 1, 0]
    s = settle(game.outcome, game.events, 5, [50, 50, 50])
    assert [(t.payer, t.payee, t.paid, t.reason) for t in s.transfers] == [(1, 2, 5, "feed")]
    assert game.events[-1] == GameOver((2, 1, 0))


def test_feeder_who_passed_holding_a_single_that_beats_the_table() -> None:
    game = Game.new(FEED, 3, hands=["3S 7H 8H", "5C AH", "9D"], leader=0)
    game.play(0, "3S")
    assert game.would_feed(1, None)
    game.pass_turn(1)
    game.play(2, "9D")
    assert fed(game) == [Fed(feeder=1, seat=2, how="pass")]
    game.pass_turn(0)  # 8♥ does not beat 9♦; the trick ends, seat 0 leads
    game.play(0, "7H")
    game.play(1, "AH")
    game.pass_turn(0)
    game.play(1, "5C")
    assert game.places == [2, 1, 0]
    s = settle(game.outcome, game.events, 3, [9, 9, 9])
    assert [(t.payer, t.payee, t.paid, t.reason) for t in s.transfers] == [(1, 2, 3, "feed")]


def test_passing_without_a_beating_single_is_no_feed() -> None:
    game = Game.new(FEED, 3, hands=["8S 7H", "5C 6D", "9D"], leader=0)
    game.play(0, "8S")
    assert not game.would_feed(1, None)
    game.pass_turn(1)
    game.play(2, "9D")
    assert fed(game) == []


def test_no_feeding_when_the_next_player_holds_two_cards() -> None:
    game = Game.new(FEED, 3, hands=["3S 4H", "5D 6D", "4C 6C 8C"], leader=0)
    assert not game.would_feed(0, "3S")
    game.play(0, "3S")  # low, but seat 1 holds two cards
    game.play(1, "5D")
    game.pass_turn(2)
    assert not game.would_feed(0, None)  # 4♥ does not beat 5♦
    game.pass_turn(0)  # seat 1 wins the trick and goes out on its lead
    game.play(1, "6D")
    assert game.places[:1] == [1] and fed(game) == []


def test_leading_a_pair_or_a_sequence_is_no_feed() -> None:
    game = Game.new(FEED, 3, hands=["3S 3C 4D 5D 6D AH", "9H", "4C 6C 8C"], leader=0)
    assert not game.would_feed(0, "3S 3C")
    assert not game.would_feed(0, "4D 5D 6D")
    assert game.would_feed(0, "4D")


def test_lead_only_counts_a_low_single_led_but_not_an_answer() -> None:
    rules = BASE.model_copy(update={"anti_feed": "lead_only"})
    assert fed(led_low_single(rules)) == [Fed(0, 1, "lead")]
    game = Game.new(rules, 3, hands=["3S 7H", "5C JD AH", "9D"], leader=0)
    game.play(0, "3S")
    assert not game.would_feed(1, "5C") and not game.would_feed(1, None)
    game.play(1, "5C")
    game.play(2, "9D")
    assert fed(game) == []


def test_a_feed_counts_only_for_the_first_player_out() -> None:
    # seat 2 went out first; seat 0 then leads low while seat 1 holds one card
    game = Game.new(FEED, 3, hands=["3S 9C AH", "5D 7D", "KS"], leader=2)
    game.play(2, "KS")
    game.pass_turn(0)
    game.pass_turn(1)  # trick over, seat 2 out, seat 0 leads
    game.play(0, "3S")
    game.play(1, "5D")
    game.pass_turn(0)
    game.play(1, "7D")
    assert game.places[:2] == [2, 1] and fed(game) == []


def test_the_feeder_pays_within_the_caps_and_cong_doubles_stay() -> None:
    game = led_low_single(FEED)
    s = settle(game.outcome, game.events, 10, [4, 100, 100])  # the feeder holds only 4
    assert [(t.payer, t.payee, t.owed, t.paid) for t in s.transfers] == [(0, 1, 10, 4)]
    assert sum(s.net.values()) == 0


def test_fed_event_round_trips() -> None:
    event = Fed(2, 0, "pass")
    assert event_from_dict(event.to_dict()) == event


# ------------------------------------------------------------------ cấm đánh 2 cuối

def test_going_out_on_a_single_2_is_refused() -> None:
    game = Game.new(TWO, 3, hands=["3S 6S", "2H", "4C 5C"], leader=0)
    game.play(0, "3S")
    with pytest.raises(IllegalPlay) as caught:
        game.play(1, "2H")
    assert caught.value.cause is Cause.NO_TWO_LAST and caught.value.data == {"out": True}
    assert not game.can_play(1, "2H") and game.legal_plays(1) == []
    assert game.hand(1)[0].code == "2H" and game.current == 1  # nothing changed
    game.pass_turn(1)


def test_going_out_on_a_pair_of_2s_is_refused() -> None:
    game = Game.new(TWO, 3, hands=["3S 3C 9D", "2S 2H", "4C 5C"], leader=0)
    game.play(0, "3S 3C")
    with pytest.raises(IllegalPlay) as caught:
        game.play(1, "2S 2H")
    assert caught.value.cause is Cause.NO_TWO_LAST
    assert game.legal_plays(1) == []


def test_a_2_played_earlier_is_fine_and_a_play_leaving_only_2s_is_refused() -> None:
    game = Game.new(TWO, 2, hands=["3S 4S", "2H 9D"], leader=0)
    game.play(0, "3S")
    with pytest.raises(IllegalPlay) as caught:
        game.play(1, "9D")  # would leave only the 2♥, which could never go out
    assert caught.value.data == {"out": False}
    assert [c.cards[0].code for c in game.legal_plays(1)] == ["2H"]
    game.play(1, "2H")
    game.pass_turn(0)
    game.play(1, "9D")
    assert game.places == [1, 0]


def test_rule_off_going_out_on_a_2_is_fine() -> None:
    game = Game.new(BASE, 3, hands=["3S 6S", "2H", "4C 5C"], leader=0)
    game.play(0, "3S")
    game.play(1, "2H")
    assert game.places[:1] == [1]


def test_a_hand_of_only_2s_may_still_lead_them() -> None:
    game = Game.new(TWO, 2, hands=["2H", "3S 4S"], leader=0)
    assert [c.cards[0].code for c in game.legal_plays(0)] == ["2H"]
    game.play(0, "2H")
    assert game.is_over


def test_bomb_of_four_2s_counts_as_2s() -> None:
    game = Game.new(TWO.model_copy(update={"chop_table": "default"}), 2,
                    hands=["2S 2C 2D 2H", "3S 4S"], leader=1)
    game.play(1, "3S")
    assert game.legal_plays(0) == [] or all(len(c.cards) < 4 for c in game.legal_plays(0))
    with pytest.raises(IllegalPlay):
        game.play(0, "2S 2C 2D 2H")


# ------------------------------------------------------------------ computer players and the Hint

@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
def test_computer_players_never_feed(level: str) -> None:
    for seed in range(12):
        lead = Game.new(FEED, 3, hands=["3S 9C AH", "5D", "4C 6C 8C KD"], leader=0)
        cards = decide(lead, 0, level, seed=seed, budget_ms=20)
        assert cards is not None and not lead.would_feed(0, cards)
        answer = Game.new(FEED, 3, hands=["3S 7H", "5C JD AH", "9D"], leader=0)
        answer.play(0, "3S")
        cards = decide(answer, 1, level, seed=seed, budget_ms=20)
        assert cards is not None and not answer.would_feed(1, cards)  # never a low one, no pass


def test_the_hint_does_not_feed() -> None:
    game = Game.new(FEED, 3, hands=["3S 9C AH", "5D", "4C 6C 8C KD"], leader=0)
    play = suggest(observe(game, 0)).play
    assert play is not None and [c.code for c in play.cards] == ["AH"]


@pytest.mark.parametrize("level", ["easy", "normal", "hard", "expert"])
def test_computer_players_plan_around_no_two_last(level: str) -> None:
    for seed in range(12):
        game = Game.new(TWO, 2, hands=["3S 4S", "2H 9D"], leader=0)
        game.play(0, "3S")
        cards = decide(game, 1, level, seed=seed, budget_ms=20)
        assert cards is None or [c.code for c in cards] == ["2H"]


def test_vn_house_preset() -> None:
    rules = Rules.preset("vn_house")
    assert rules.anti_feed == "on" and rules.no_two_last and rules.cong
    assert rules.preset_name() == "vn_house"
    assert Rules().with_options(["anti_feed=true"]).anti_feed == "on"
    assert Rules().with_options(["anti_feed=off", "no_two_last=on"]).no_two_last
    assert Rules.option_values()["anti_feed"] == ("off", "on", "lead_only")


def test_an_unknown_value_is_refused_with_the_choices() -> None:
    from cogs import glossary
    from cogs.i18n import words
    from engine.errors import RuleOptionError

    with pytest.raises(RuleOptionError) as caught:
        Rules().with_options(["anti_feed=maybe"])
    assert caught.value.data["choices"] == ("off", "on", "lead_only")
    assert glossary.engine_refusal(words("en"), caught.value) == (
        "Option anti_feed: maybe is not allowed; choose one of off, on, lead_only.")
    with pytest.raises(RuleOptionError) as caught:
        Rules().with_options(["no_two_last=2"])
    assert caught.value.data["choices"] == ("on", "off")
