"""Every refusal of the engine names its cause and carries the data a sentence needs, so the
presentation side can word it in any language without parsing English."""

from __future__ import annotations

import pytest

from engine import (
    Cause,
    Game,
    IllegalPlay,
    InvalidCards,
    RuleOptionError,
    Rules,
    TienLenError,
    classify,
    parse_cards,
)

HANDS = [
    "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S",
    "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C",
    "3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2D",
    "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H",
]


def _game() -> Game:
    return Game.new(Rules(instant_wins=False), 4, hands=HANDS)


def _refusal(action: object) -> TienLenError:
    with pytest.raises(TienLenError) as caught:
        action()  # type: ignore[operator]
    return caught.value


def test_the_first_play_must_include_the_lowest_card() -> None:
    game = _game()
    error = _refusal(lambda: game.play(0, "4S"))
    assert error.cause is Cause.MUST_INCLUDE
    assert str(error.data["card"]) == "3♠"


def test_not_your_turn_and_cards_not_held() -> None:
    game = _game()
    assert _refusal(lambda: game.play(1, "3C")).cause is Cause.NOT_YOUR_TURN
    error = _refusal(lambda: game.play(0, "3S 3C"))
    assert error.cause is Cause.NOT_HELD
    assert [str(c) for c in error.data["cards"]] == ["3♣"]
    assert _refusal(lambda: game.play(0, [])).cause is Cause.NO_CARDS
    error = _refusal(lambda: game.play(0, "3S 5S"))
    assert error.cause is Cause.NOT_A_COMBINATION
    assert len(error.data["cards"]) == 2
    assert _refusal(lambda: game.play(9, "3S")).data == {"seat": 9}


def test_a_play_that_does_not_beat_carries_both_combinations() -> None:
    game = _game()
    game.play(0, "3S 4S 5S")
    game.play(1, "6C 7C 8C")
    error = _refusal(lambda: game.play(2, "6D"))
    assert isinstance(error, IllegalPlay)
    assert error.cause is Cause.DOES_NOT_BEAT
    assert error.data["play"] == classify("6D")
    assert error.data["table"] == classify("6C 7C 8C")
    assert error.data["same_kind"] is False
    assert error.data["chop"] is False
    same = _refusal(lambda: game.play(2, "3D 4D 5D"))
    assert same.data["same_kind"] is True
    assert "does not beat" in str(same)  # the English message stays for logs


def test_passing_and_leading() -> None:
    game = _game()
    assert _refusal(lambda: game.pass_turn(0)).cause is Cause.MUST_PLAY
    game.play(0, "3S")
    game.pass_turn(1)
    game.play(2, "4D")
    assert _refusal(lambda: game.play(1, "5C")).cause is Cause.PASSED


def test_cards_that_are_not_cards() -> None:
    error = _refusal(lambda: parse_cards("3S ZZ"))
    assert isinstance(error, InvalidCards)
    assert error.cause is Cause.BAD_CARD
    assert error.data == {"token": "ZZ"}
    error = _refusal(lambda: Rules().layout.to_mask(parse_cards("3S 3S")))
    assert error.cause is Cause.DUPLICATE
    assert error.data["times"] == 2


def test_rule_option_texts_carry_the_option_and_the_text() -> None:
    error = _refusal(lambda: Rules().with_options(["cong"]))
    assert isinstance(error, RuleOptionError)
    assert (error.cause, error.data) == (Cause.OPTION_FORMAT, {"part": "cong"})
    error = _refusal(lambda: Rules().with_options(["cong=on", "cnog=on"]))
    assert error.cause is Cause.UNKNOWN_OPTION
    assert error.data["name"] == "cnog"
    assert error.data["options"] == tuple(Rules.model_fields)
    error = _refusal(lambda: Rules().with_options(["cong=on", "suit_order=QQQQ"]))
    assert error.cause is Cause.OPTION_VALUE
    assert error.data == {"name": "suit_order", "value": "QQQQ"}
    assert "option suit_order" in str(error)  # the English message stays for logs
    assert Rules().with_options(["cong=on"]).cong is True


def test_every_error_class_has_a_cause() -> None:
    import engine.errors as errors

    for name in errors.__all__:
        cls = getattr(errors, name)
        if isinstance(cls, type) and issubclass(cls, TienLenError) and cls is not TienLenError:
            error = cls("x")
            assert error.cause is not None or cls in (
                errors.IllegalPlay, errors.WrongPhase, errors.RuleOptionError), name
