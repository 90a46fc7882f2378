"""The wording of the table layer's structured data: events, results, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cogs.tables
from cogs import words
from cogs.i18n import words as words_of
from cogs.tables import errors as table_errors
from cogs.tables.live import (
    Charge,
    CloseReason,
    GameResults,
    LegacyResults,
    PlaceResult,
    Player,
    TableClosedResults,
    results_from_json,
    results_to_json,
)
from engine import (
    Chopped,
    ComboKind,
    Frozen,
    GameOver,
    InstantWin,
    InstantWinKind,
    NotYourTurn,
    Passed,
    Played,
    TrickWon,
    WentOut,
    parse_cards,
)

EN, VI = words_of("en"), words_of("vi")
ANN = Player("Ann", 11)
CPU = Player("Computer 1 (hard)")


def _name(seat: int) -> str:
    return ["Ann", "Bo"][seat]


def test_every_shown_event_has_one_line() -> None:
    cards = tuple(parse_cards("3S 4S 5S"))
    twos = tuple(parse_cards("2H"))
    assert words.describe_event(EN, Played(0, cards, ComboKind.SEQUENCE, 1), _name) == (
        "Ann played 3♠ 4♠ 5♠")
    assert words.describe_event(EN, Played(1, twos, ComboKind.SINGLE, 1, out_of_turn=True),
                                _name) == "Bo played 2♥ (out of turn)"
    assert words.describe_event(EN, Passed(1, 1), _name) == "Bo passed"
    assert words.describe_event(EN, Chopped(0, 1, 2, twos, cards), _name) == "Ann chopped Bo!"
    assert words.describe_event(EN, TrickWon(0, 2), _name) == "Ann won the trick"
    assert words.describe_event(EN, WentOut(1, 1), _name) == "Bo went out (1st)"
    assert words.describe_event(EN, InstantWin(0, InstantWinKind.FOUR_TWOS, 3), _name) == (
        "Ann wins at once: instant win (four 2s) ×3")
    assert words.describe_event(EN, GameOver((0, 1)), _name) is None


def test_events_in_vietnamese() -> None:
    cards = tuple(parse_cards("3S 4S 5S"))
    twos = tuple(parse_cards("2H"))
    assert words.describe_event(VI, Played(0, cards, ComboKind.SEQUENCE, 1), _name) == (
        "Ann đánh 3♠ 4♠ 5♠")
    assert words.describe_event(VI, Passed(1, 1), _name) == "Bo bỏ lượt"
    assert words.describe_event(VI, Chopped(0, 1, 2, twos, cards), _name) == "Ann chặt Bo!"
    assert words.describe_event(VI, WentOut(1, 2), _name) == "Bo đã hết bài (về nhì)"
    assert words.describe_event(VI, InstantWin(0, InstantWinKind.PARTIAL_DRAGON, 4), _name) == (
        "Ann thắng ngay: tới trắng (sảnh rồng (3 đến A)) ×4")


def test_results_say_each_number_once() -> None:
    """Several reasons each say their amount, short payments how short; a computer player holds
    no chips, so its line is its place and name (never "+0 chips")."""
    results = GameResults(
        places=(
            PlaceResult(1, ANN, 15, (Charge("place", 10, 10, payer=False),
                                     Charge("chop", 5, 8, payer=False))),
            PlaceResult(2, CPU, 0, (Charge("place", 0, 10, payer=True),)),
        ),
        instant_win=InstantWinKind.DRAGON, winner=ANN, multiplier=4,
        winner_hand=tuple(parse_cards("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S")),
    )
    assert words.result_lines(EN, results) == [
        "<@11> wins at once with dragon (3 to 2): 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ 2♠",
        "1. <@11> +15 chips: place +10, chop +5 (3 chips short)",
        "2. Computer 1 (hard)",
    ]
    assert words.result_lines(VI, results) == [
        "<@11> tới trắng với sảnh rồng (3 đến heo): 3♠ 4♠ 5♠ 6♠ 7♠ 8♠ 9♠ 10♠ J♠ Q♠ K♠ A♠ 2♠",
        "1. <@11> +15 chip: thứ tự về +10, chặt +5 (thiếu 3 chip)",
        "2. Máy 1 (khó)",
    ]
    assert words.result_lines(EN, TableClosedResults(CloseReason.CANCELLED)) == [
        "Table closed (cancelled). No chips moved for an unfinished game."]
    assert words.result_lines(VI, TableClosedResults(CloseReason.EVERYONE_LEFT)) == [
        "Bàn đã đóng (mọi người đã rời bàn). Ván chưa xong không tính chip."]
    assert words.result_lines(EN, None) == []


def test_a_place_payment_alone_is_the_number_alone() -> None:
    """"1. @carol +20 chips (place +20)" said the number twice: a payment of the table's own
    scoring, paid in full, needs no reason; a short one says how short; a zero change is said."""
    bob, cy = Player("Bob", 12), Player("Cy", 13)
    results = GameResults((
        PlaceResult(1, ANN, 20, (Charge("place", 20, 20, payer=False),)),
        PlaceResult(2, bob, 0),
        PlaceResult(3, cy, -7, (Charge("loser_pays", 7, 20, payer=True),)),
    ))
    assert words.result_lines(EN, results) == [
        "1. <@11> +20 chips",
        "2. <@12> no chips won or lost",
        "3. <@13> -7 chips: loser pays, 13 chips short",
    ]
    assert words.result_lines(VI, results) == [
        "1. <@11> +20 chip",
        "2. <@12> hoà vốn",
        "3. <@13> -7 chip: người bét trả, thiếu 13 chip",
    ]
    for lines in (words.result_lines(EN, results), words.result_lines(VI, results)):
        assert not any("+0" in line or "-0" in line for line in lines)
        assert "thứ hạng" not in " ".join(lines)


def test_amounts_that_do_not_add_up_to_the_change_are_not_shown() -> None:
    """A loser paying three players 10 each is kept as one charge (equal charges are kept once):
    with a chop too, "loser pays -10, chop -40" would not add up to -70, so the reasons are
    named without amounts; a chopper who was also chopped says the net of both."""
    bob = Player("Bob", 12)
    loser = GameResults((
        PlaceResult(1, ANN, 50, (Charge("loser_pays", 10, 10, payer=False),
                                 Charge("chop", 40, 40, payer=False))),
        PlaceResult(4, bob, -70, (Charge("loser_pays", 10, 10, payer=True),
                                  Charge("chop", 40, 40, payer=True))),
    ))
    assert words.result_lines(EN, loser) == ["1. <@11> +50 chips: loser pays +10, chop +40",
                                             "4. <@12> -70 chips: loser pays, chop"]
    assert words.result_lines(VI, loser)[1] == "4. <@12> -70 chip: người bét trả, chặt"
    both = GameResults((PlaceResult(1, ANN, 30, (
        Charge("place", 20, 20, payer=False), Charge("chop", 40, 40, payer=False),
        Charge("chop", 30, 30, payer=True))),))
    assert words.result_lines(EN, both) == ["1. <@11> +30 chips: place +20, chop +10"]


def test_a_reason_other_than_the_scoring_is_named_without_its_number_when_alone() -> None:
    results = GameResults((PlaceResult(1, ANN, 40, (Charge("chop", 40, 40, payer=False),)),
                           PlaceResult(2, Player("Bob", 12), -40,
                                       (Charge("chop", 40, 40, payer=True),))))
    assert words.result_lines(EN, results) == ["1. <@11> +40 chips: chop",
                                               "2. <@12> -40 chips: chop"]
    assert words.result_lines(VI, results) == ["1. <@11> +40 chip: chặt",
                                               "2. <@12> -40 chip: chặt"]


def test_an_instant_win_charge_says_its_multiplier_once_the_hand_is_named_above() -> None:
    results = GameResults(
        places=(PlaceResult(1, ANN, 1234, (Charge("instant_win", 1234, 1234, payer=False),)),
                PlaceResult(2, CPU, -1234, (Charge("instant_win", 1234, 1234, payer=True),))),
        instant_win=InstantWinKind.PARTIAL_DRAGON, winner=ANN, multiplier=4)
    lines = words.result_lines(VI, results)
    assert lines == ["<@11> tới trắng với sảnh rồng (3 đến A).",
                     "1. <@11> +1.234 chip: tới trắng ×4",
                     "2. Máy 1 (khó) -1.234 chip: tới trắng ×4"]
    assert words.result_lines(EN, results)[1:] == [
        "1. <@11> +1,234 chips: instant win ×4",
        "2. Computer 1 (hard) -1,234 chips: instant win ×4"]
    for line in lines + words.result_lines(EN, results):
        assert "_" not in line  # no raw identifiers


@pytest.mark.parametrize("results", [
    GameResults((PlaceResult(1, ANN, 3, (Charge("place", 3, 3, payer=False),)),
                 PlaceResult(2, CPU, -3))),
    GameResults((PlaceResult(1, CPU, 0),), InstantWinKind.SIX_PAIRS, CPU, 2,
                tuple(parse_cards("3S 3C 4S 4C"))),
    GameResults((PlaceResult(1, ANN, 4), PlaceResult(2, CPU, -4, frozen=True))),
    TableClosedResults(CloseReason.EVERYONE_LEFT),
    TableClosedResults(CloseReason.IDLE, GameResults((PlaceResult(1, ANN, 4, left=True),)), 900),
    LegacyResults(("1. <@1> +10 chips",)),
    None,
])
def test_results_survive_the_store(results: object) -> None:
    saved = json.loads(json.dumps(results_to_json(results)))  # type: ignore[arg-type]
    assert results_from_json(saved) == results


def test_frozen_players_are_named_in_the_results_and_the_log() -> None:
    bob = Player("Bob", 12)
    results = GameResults((
        PlaceResult(1, ANN, 40, (Charge("place", 40, 40, payer=False),)),
        PlaceResult(2, bob, -40, (Charge("place", 40, 40, payer=True),), frozen=True),
        PlaceResult(3, CPU, 0, left=True),
    ))
    assert words.result_lines(EN, results) == [
        "1. <@11> +40 chips",
        "2. <@12> -40 chips — cóng (never played a card: pays double)",
        "3. Computer 1 (hard) — left the game (pays as last)",
    ]
    assert words.result_lines(VI, results)[1:] == [
        "2. <@12> -40 chip — bị cóng (chưa đánh lá nào: trả gấp đôi)",
        "3. Máy 1 (khó) — bỏ cuộc (trả như về bét)",
    ]
    line = words.describe_event(EN, Frozen(seats=(2, 3), places=(3, 4)), lambda s: f"P{s}")
    assert line == "Cóng: P2, P3 never played a card (last places, payments doubled)"


def test_results_saved_as_lines_are_shown_as_they_were() -> None:
    old = ["1. <@1> +10 chips", "2. <@2> -10 chips"]
    assert words.result_lines(EN, results_from_json(old)) == old


SAMPLES: list[table_errors.TableError] = [
    table_errors.TableGone(), table_errors.TableClosed(), table_errors.BadStake(1),
    table_errors.BadStake(1, 50), table_errors.NotHost(for_stake=True),
    table_errors.BadSeatCount(2, 8), table_errors.NotEnoughChips(3, 10),
    table_errors.ShortOfChips(7, {11: 3, 12: 0}, 10), table_errors.ChannelHasTable(7),
    table_errors.GameInProgress(), table_errors.GameInProgress(starting=True),
    table_errors.AlreadySeated(), table_errors.TableFull(), table_errors.NotSeated(),
    table_errors.NotSeated(for_computers=True), table_errors.UnknownLevel("wizard"),
    table_errors.NotHost(), table_errors.NotHost(or_manager=True), table_errors.GameNotOver(),
    table_errors.TooFewSeats(2), table_errors.NoGame(), table_errors.NoGame(over=True),
    table_errors.CardsGone(parse_cards("7H")), table_errors.TableChanged(),
    table_errors.StoreRefused("the store is read-only"),
    table_errors.ActionRefused(NotYourTurn("not your turn"), ANN),
    table_errors.TableClosed(7, idle=True), table_errors.AlreadyReady(),
    table_errors.AlreadyLeft(), table_errors.AlreadyOut(), table_errors.NoPreviousGame(),
    table_errors.NotHost(for_close=True),
]


def test_every_refusal_has_its_own_sentence() -> None:
    covered = {type(e) for e in SAMPLES}
    every = {c for c in vars(table_errors).values()
             if isinstance(c, type) and issubclass(c, table_errors.TableError)}
    assert every - {table_errors.TableError} == covered
    for w in (EN, VI):
        sentences = [words.refusal(w, e) for e in SAMPLES]
        assert len(set(sentences)) == len(sentences)  # no two causes read the same
        assert all(s and s != w.marked(words.SOMETHING_WENT_WRONG) for s in sentences)
    for e in SAMPLES:
        assert words.refusal(EN, e) != words.refusal(VI, e), e


@pytest.mark.parametrize(("error", "text"), [
    (table_errors.NotEnoughChips(3, 10),
     "You hold 3 chips, less than the stake of 10. Try `/daily`."),
    (table_errors.ShortOfChips(7, {11: 3}, 10),
     "The table waits: <@11> holds less than the stake of 10 chips (`/daily`, or leave the "
     "table)."),
    (table_errors.ChannelHasTable(7, guild_id=1, channel_id=2, board_message_id=3),
     "This channel already has a table (#7): use its buttons, or `/tienlen stop` it first. "
     "https://discord.com/channels/1/2/3"),
    (table_errors.ActionRefused(NotYourTurn("x"), ANN),
     "It is not your turn — waiting for <@11>."),
    (table_errors.UnknownLevel("wizard"),
     "Unknown level wizard: choose easy, normal, hard, expert."),
])
def test_refusals_carry_their_data_into_the_sentence(error: table_errors.TableError,
                                                     text: str) -> None:
    assert words.refusal(EN, error) == text


@pytest.mark.parametrize(("error", "text"), [
    (table_errors.NotEnoughChips(3, 1000),
     "Bạn có 3 chip, ít hơn mức cược 1.000. Thử `/daily`."),
    (table_errors.ActionRefused(NotYourTurn("x"), ANN), "Chưa đến lượt bạn — đang chờ <@11>."),
    (table_errors.UnknownLevel("wizard"), "Không có mức wizard: chọn dễ, thường, khó, cao thủ."),
])
def test_refusals_in_vietnamese(error: table_errors.TableError, text: str) -> None:
    assert words.refusal(VI, error) == text


def test_the_table_layer_writes_no_mentions() -> None:
    root = Path(cogs.tables.__file__).parent
    for path in root.glob("*.py"):
        assert "<@" not in path.read_text(encoding="utf-8"), path


def test_the_direct_message_to_a_player_short_of_chips() -> None:
    assert words.short_of_chips_message(VI, 7, 5, 1000) == (
        "Bàn #7 đang chờ bạn: bạn có 5 chip, ít hơn mức cược 1.000. Hãy nhận `/daily` ở đó, "
        "hoặc rời bàn.")
    assert words.short_of_chips_message(EN, 7, 1, 10) == (
        "Table #7 is waiting for you: you hold 1 chip, less than its stake of 10. Claim `/daily` "
        "there, or leave the table.")


def test_computer_players_are_named_in_the_readers_language() -> None:
    assert words.player(VI, CPU) == "Máy 1 (khó)"
    assert words.player(EN, CPU) == "Computer 1 (hard)"
    assert words.player(VI, Player("Lan")) == "Lan"  # any other name stays as it is


def test_missing_permissions_are_named_as_discords_client_names_them() -> None:
    from cogs.tienlen._cog import IN_THREADS, NEEDED_PERMISSIONS, PICTURE_PERMISSIONS

    names = [name for _, name in NEEDED_PERMISSIONS + PICTURE_PERMISSIONS] + [IN_THREADS[1]]
    en = words.missing_permissions(EN, names)
    assert "View Channel, Send Messages, Embed Links, Read Message History" in en
    assert "Send Messages in Threads" in en
    vi = words.missing_permissions(VI, names)
    assert ("Xem kênh, Gửi tin nhắn, Nhúng liên kết, Đọc lịch sử tin nhắn, Đính kèm tệp, "
            "Sử dụng emoji bên ngoài, Gửi tin nhắn trong chủ đề") in vi
    assert "Embed" not in vi and "Channel" not in vi


def test_a_persons_own_hand_at_the_end_says_place_change_and_chips_held() -> None:
    bob = Player("Bob", 12)
    results = GameResults((PlaceResult(1, ANN, 30, balance=1030),
                           PlaceResult(2, CPU, 0),
                           PlaceResult(3, bob, 0, balance=1000)))
    assert words.game_over_hand_line(EN, results, 11) == (
        "**Game over** — you finished 1st: +30 chips. You hold **1,030** chips.")
    assert words.game_over_hand_line(VI, results, 11) == (
        "**Hết ván** — bạn về nhất: +30 chip. Bạn đang có **1.030** chip.")
    assert words.game_over_hand_line(EN, results, 12) == (
        "**Game over** — you finished last: no chips won or lost. You hold **1,000** chips.")
    assert words.game_over_hand_line(VI, results, 12) == (
        "**Hết ván** — bạn về bét: hoà vốn. Bạn đang có **1.000** chip.")


def test_a_stake_change_says_the_stake_as_players_do() -> None:
    assert words.stake_changed(EN, 3, 20) == (
        "Table #3: from the next game the stake is **20** chips.")
    assert words.stake_changed(EN, 3, 1) == "Table #3: from the next game the stake is **1** chip."
    assert words.stake_changed(VI, 3, 2000) == "Bàn #3: từ ván sau mức cược là **2.000** chip."
    for text in (words.stake_changed(EN, 3, 20), words.stake_changed(VI, 3, 20)):
        assert "unit" not in text and "đơn vị" not in text
