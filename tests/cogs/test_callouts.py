"""Call-outs from engine events, in English and Vietnamese (every line from the catalogues)."""

from __future__ import annotations

from cogs import callouts
from cogs.i18n import words
from engine import Game, Rules
from engine.settle import settle

EN, VI = words("en"), words("vi")
NO_IW = Rules(instant_wins=False)


def name(seat: int) -> str:
    return f"@p{seat}"


def both(game: Game, **kw: object) -> tuple[list[str], list[str]]:
    return (callouts.callouts(EN, game.events, name, **kw),  # type: ignore[arg-type]
            callouts.callouts(VI, game.events, name, **kw))  # type: ignore[arg-type]


def test_last_card() -> None:
    game = Game.new(NO_IW, 3, hands=["3S 9C", "5D 6D 7D", "4C 6C 8C"], leader=0)
    game.play(0, "3S")
    assert both(game) == (["@p0: last card!"], ["@p0 báo 1 lá!"])


def test_a_chopped_2_names_both_and_the_cost_with_chop_bonus() -> None:
    rules = NO_IW.model_copy(update={"chop_bonus": True})
    game = Game.new(rules, 2, hands=["2H 3D 4D", "5S 5C 5D 5H 9S 10S"], leader=0)
    game.play(0, "2H")
    game.play(1, "5S 5C 5D 5H")
    en, vi = both(game, stake=10)
    assert en == ["Chop! @p1 chopped @p0's 2♥: @p0 pays 20 chips"]
    assert vi == ["Chặt heo! @p1 chặt 2♥ của @p0: @p0 mất 20 chip"]
    # without the chop bonus (or a stake) no cost is named
    assert callouts.callouts(EN, game.events, name) == ["Chop! @p1 chopped @p0's 2♥"]
    plain = Game.new(NO_IW, 2, hands=["2H 3D 4D", "5S 5C 5D 5H 9S 10S"], leader=0)
    plain.play(0, "2H")
    plain.play(1, "5S 5C 5D 5H")
    assert callouts.callouts(EN, plain.events, name, stake=10) == ["Chop! @p1 chopped @p0's 2♥"]
    # the cost named is what the settlement charges
    game.pass_turn(0)
    game.play(1, "9S")
    game.pass_turn(0)
    game.play(1, "10S")
    assert game.is_over
    s = settle(game.outcome, game.events, 10, [100, 100])
    assert [t.owed for t in s.transfers if t.reason == "chop"] == [20]


def test_a_chop_on_a_chop() -> None:
    game = Game.new(NO_IW, 3, hands=["2S 3C 4H", "4S 4C 5S 5C 6S 6C 9D 10H",
                                      "7S 7C 7D 7H 10D JD"], leader=0)
    game.play(0, "2S")
    game.play(1, "4S 4C 5S 5C 6S 6C")
    game.play(2, "7S 7C 7D 7H")
    en, vi = both(game)
    assert en == ["Chop! @p1 chopped @p0's 2♠",
                       "Chop on a chop! @p2 chopped @p1's 4♠ 4♣ 5♠ 5♣ 6♠ 6♣"]
    assert vi[-1].startswith("Chặt chồng! @p2 chặt")


def test_frozen_and_feed() -> None:
    cong = Game.new(NO_IW.model_copy(update={"cong": True}), 3,
                    hands=["3S 4S 5S", "6D 7D", "8C 9C"], leader=0)
    cong.play(0, "3S 4S 5S")
    en, vi = both(cong)
    assert en[-1] == "Frozen! @p1, @p2 never played a card"
    assert vi[-1] == "Cóng! @p1, @p2 chưa đánh lá nào"
    feed = Game.new(NO_IW.model_copy(update={"anti_feed": "on"}), 3,
                    hands=["3S 9C AH", "5D", "4C 6C 8C KD"], leader=0)
    feed.play(0, "3S")
    feed.play(1, "5D")
    en, vi = both(feed)
    assert en[-1] == "Fed! @p0 let @p1 out and pays for everyone"
    assert vi[-1] == "Đền bài! @p0 để @p1 về, đền cả làng"


def test_instant_win_with_its_kind() -> None:
    dragon = "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S"
    other = "3H 4H 5H 6H 7D 8D 9D 10D JC QC KC AC 2D"
    game = Game.new(Rules(), 2, hands=[dragon, other])
    assert game.is_over
    en, vi = both(game)
    assert en[0].startswith("Instant win! @p0: ") and vi[0].startswith("Tới trắng! @p0: ")
    assert en[0] != vi[0]


def test_timeouts_are_called_out_where_they_happened_and_the_board_keeps_three() -> None:
    game = Game.new(NO_IW, 2, hands=["3S 9C JD QD", "5D 6D"], leader=0)
    game.play(0, "3S")
    game.play(1, "5D")  # @p1: last card
    at = len(game.events)
    game.pass_turn(0)  # the clock passed for seat 0
    assert both(game, timeouts=[(at, 0)]) == (
        ["@p1: last card!", "@p0 ran out of time"], ["@p1 báo 1 lá!", "@p0 hết giờ"])
    many = [(1, 0), (2, 1), (3, 0), (at, 1)]
    assert len(callouts.callouts(EN, game.events, name, timeouts=many)) == 5
    assert callouts.latest(EN, game.events, name, timeouts=many) == [
        "@p1: last card!", "@p0 ran out of time", "@p1 ran out of time"]


def test_no_log_no_callouts() -> None:
    assert callouts.callouts(EN, [], name) == []
