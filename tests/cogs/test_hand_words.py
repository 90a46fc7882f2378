"""The hand's and the board's lines, one fact a line, in both catalogues: whose turn and when it
ends, the play to beat, the selection's status with why it cannot be played now, a seat's cards
worded one way everywhere, and the note after a double click."""

from __future__ import annotations

from datetime import UTC, datetime

from cogs import words
from cogs.i18n import words as words_of
from cogs.tables import LiveTable, TablePhase
from data.models import Seat, TableRecord
from engine import Game, Rules, parse_cards

EN, VI = words_of("en"), words_of("vi")
ANN, BO, CY = 11, 22, 33
DEADLINE = 1_800_000_000


def table(hands: list[str], *, leader: int = 0, first_game: bool = False,
          deadline: float | None = DEADLINE) -> LiveTable:
    """Three people at a table in play, with a fixed deal."""
    now = datetime(2026, 12, 1, tzinfo=UTC)
    seats = tuple(Seat(name, user) for name, user in (("ann", ANN), ("bo", BO), ("cy", CY)))
    record = TableRecord(1, 5, 6, ANN, "open", Rules().model_dump_json(), 10, 60, seats,
                         None, None, None, None, 1, now, now)
    game = Game.new(Rules(), ["ann", "bo", "cy"], hands=hands, first_game=first_game,
                    leader=None if first_game else leader)
    live = LiveTable(record, phase=TablePhase.PLAYING, max_seats=3, game=game, game_id=1,
                     deadline=deadline)
    live.auto = [False, False, False]
    return live


HANDS = ["3S 4S 5S 6S 7C 7D 9H", "6C 6D 8S 10C JC QD KH", "3C 4C 5D 8D 9C 2S 2H"]


def test_the_turn_line_says_whose_turn_and_that_it_ends() -> None:
    live = table(HANDS)
    when = f"<t:{DEADLINE}:R>"
    assert words.hand_turn_line(EN, live, 0) == f"🟢 **Your turn**: you lead — ends {when}"
    assert words.hand_turn_line(EN, live, 1) == f"<@{ANN}> to lead — ends {when}"
    assert words.turn_line(EN, live) == f"<@{ANN}> to lead — ends {when}"
    assert words.hand_table_line(EN, live) == ""  # nothing to beat: the turn line says "lead"
    assert words.turn_line(VI, live) == f"Đến lượt <@{ANN}> đánh trước — hết giờ {when}"
    assert words.hand_turn_line(VI, live, 0) == (
        f"🟢 **Đến lượt bạn**: bạn đánh trước — hết giờ {when}")
    live.game.play(0, parse_cards("3S"))  # type: ignore[union-attr]
    assert words.hand_turn_line(EN, live, 1) == f"🟢 **Your turn** — ends {when}"
    assert words.turn_line(EN, live) == f"<@{BO}> to play — ends {when}"
    assert words.hand_table_line(EN, live) == f"To beat: 3♠ by <@{ANN}>"
    assert words.hand_table_line(VI, live) == f"Cần chặn: 3♠ của <@{ANN}>"
    live.deadline = None
    assert words.turn_line(EN, live) == f"<@{BO}> to play"


def test_the_status_says_what_the_selection_does_and_why_not_now() -> None:
    live = table(HANDS)
    game = live.game
    assert game is not None
    assert words.hand_status(EN, live, 0, []) == ("", False)  # the turn line says it all
    assert words.hand_status(EN, live, 0, parse_cards("7C 7D")) == (
        "pair of 7s — ready to play.", True)
    assert words.hand_status(EN, live, 2, parse_cards("2S 2H")) == (
        f"pair of 2s — but it is <@{ANN}>'s turn.", True)
    assert words.hand_status(VI, live, 2, parse_cards("2S 2H")) == (
        f"đôi heo — nhưng đang đến lượt <@{ANN}>.", True)
    game.play(0, parse_cards("3S"))
    assert words.hand_status(EN, live, 1, parse_cards("6C")) == (
        "single 6♣ — beats the single 3♠.", True)
    assert words.hand_status(EN, live, 2, parse_cards("2S")) == (
        f"single 2♠ — beats the single 3♠, but it is <@{BO}>'s turn.", True)
    assert words.hand_status(VI, live, 2, parse_cards("2S")) == (
        f"lá lẻ 2♠ — chặn được lá lẻ 3♠, nhưng đang đến lượt <@{BO}>.", True)
    assert words.hand_status(EN, live, 1, parse_cards("6C 6D")) == (
        "pair of 6s — does not beat the single 3♠.", False)
    assert words.hand_status(EN, live, 1, parse_cards("6C 8S")) == (
        "6♣ 8♠ is not a combination.", False)
    game.pass_turn(1)
    game.play(2, parse_cards("4C"))
    assert words.hand_status(EN, live, 1, parse_cards("8S")) == (
        "single 8♠ — beats the single 4♣, but you passed this trick.", True)
    for w in (EN, VI):  # no "But:" glue, one line
        for cards in ("8S", "2S", "6C 6D"):
            line, _ = words.hand_status(w, live, 1, parse_cards(cards))
            assert "\n" not in line and "But:" not in line and "Nhưng:" not in line


def test_the_first_play_names_the_card_it_must_include() -> None:
    live = table(HANDS, first_game=True)
    seat = live.game.current  # type: ignore[union-attr]
    assert seat == 0  # 3♠ leads
    assert words.hand_status(EN, live, 0, parse_cards("4S")) == (
        "single 4♠ — but the first play must include 3♠.", True)


def test_a_seat_is_worded_one_way_on_the_board_and_the_hand() -> None:
    live = table(HANDS)
    game = live.game
    assert game is not None
    game.play(0, parse_cards("3S"))
    game.pass_turn(1)
    assert words.seat_state(EN, live, 1) == "7 cards (passed)"
    assert words.seat_state(VI, live, 1) == "7 lá (đã bỏ lượt)"
    line = words.hand_counts_line(EN, live)
    assert line == f"<@{ANN}> 6 cards · <@{BO}> 7 cards (passed) · <@{CY}> 7 cards"
    live.auto[2] = True
    assert words.seat_state(EN, live, 2) == "7 cards (away: computer playing)"


def test_a_double_click_note_says_the_second_press_did_nothing() -> None:
    assert words.already_done(EN, passed=False) == (
        "You had already played; the second press did nothing.")
    assert words.already_done(EN, passed=True) == (
        "You had already passed; the second press did nothing.")
    for passed in (False, True):
        vi = words.already_done(VI, passed=passed)
        assert vi != words.already_done(EN, passed=passed) and "bây giờ" not in vi
