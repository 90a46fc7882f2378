"""The turn clock's automatic move never feeds under ``anti_feed`` (đền bài)."""

from __future__ import annotations

from engine import Fed, Game, Rules
from engine.clock import timed_out as _timed_out

FEED = Rules(instant_wins=False, anti_feed="on")


def test_a_timed_out_lead_plays_the_highest_single_when_the_lowest_would_feed() -> None:
    game = Game.new(FEED, 3, hands=["3S 9C AH", "5D", "4C 6C 8C KD"], leader=0)
    _timed_out(game, 0)
    assert [c.code for c in game.hand(0)] == ["3S", "9C"]


def test_a_timed_out_answer_beats_the_table_when_a_pass_would_feed() -> None:
    game = Game.new(FEED, 3, hands=["3S 7H 8H", "5C AH", "9D"], leader=0)
    game.play(0, "3S")
    _timed_out(game, 1)
    assert [c.code for c in game.hand(1)] == ["5C"]
    assert not any(isinstance(e, Fed) for e in game.events)


def test_without_the_rule_the_clock_leads_low_and_passes() -> None:
    game = Game.new(Rules(instant_wins=False), 3, hands=["3S 9C AH", "5D", "4C 6C 8C KD"],
                    leader=0)
    _timed_out(game, 0)
    assert [c.code for c in game.hand(0)] == ["9C", "AH"]
    _timed_out(game, 1)
    assert game.passed == {1}
