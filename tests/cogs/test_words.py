"""The wording of the table layer's structured data: events, results, refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cogs.tables
from cogs import words
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

ANN = Player("Ann", 11)
CPU = Player("Computer 1 (hard)")


def _name(seat: int) -> str:
    return ["Ann", "Bo"][seat]


def test_every_shown_event_has_one_line() -> None:
    cards = tuple(parse_cards("3S 4S 5S"))
    twos = tuple(parse_cards("2H"))
    assert words.describe_event(Played(0, cards, ComboKind.SEQUENCE, 1), _name) == (
        "Ann played 3♠ 4♠ 5♠")
    assert words.describe_event(Played(1, twos, ComboKind.SINGLE, 1, out_of_turn=True), _name) \
        == "Bo played 2♥ (out of turn)"
    assert words.describe_event(Passed(1, 1), _name) == "Bo passed"
    assert words.describe_event(Chopped(0, 1, 2, twos, cards), _name) == "Ann chopped Bo!"
    assert words.describe_event(TrickWon(0, 2), _name) == "Ann won the trick"
    assert words.describe_event(WentOut(1, 1), _name) == "Bo went out (place 1)"
    assert words.describe_event(InstantWin(0, InstantWinKind.FOUR_TWOS, 3), _name) == (
        "Ann wins instantly: four_twos")
    assert words.describe_event(GameOver((0, 1)), _name) is None


def test_results_are_worded_as_before() -> None:
    results = GameResults(
        places=(
            PlaceResult(1, ANN, 15, (Charge("place", 10, 10, payer=False),
                                     Charge("chop", 5, 8, payer=False))),
            PlaceResult(2, CPU, 0, (Charge("place", 0, 10, payer=True),)),
        ),
        instant_win=InstantWinKind.DRAGON, winner=ANN, multiplier=4,
    )
    assert words.result_lines(results) == [
        "Instant win for <@11>: dragon (×4).",
        "1. <@11> +15 chips (place +10; chop +5 (owed 8))",
        "2. Computer 1 (hard) +0 chips (place -0 (owed 10))",
    ]
    assert words.result_lines(TableClosedResults(CloseReason.CANCELLED)) == [
        "Table closed (cancelled). No chips moved for an unfinished game."]
    assert words.result_lines(None) == []


@pytest.mark.parametrize("results", [
    GameResults((PlaceResult(1, ANN, 3, (Charge("place", 3, 3, payer=False),)),
                 PlaceResult(2, CPU, -3))),
    GameResults((PlaceResult(1, CPU, 0),), InstantWinKind.SIX_PAIRS, CPU, 2),
    TableClosedResults(CloseReason.EVERYONE_LEFT),
    LegacyResults(("1. <@1> +10 chips",)),
    None,
])
def test_results_survive_the_store(results: object) -> None:
    saved = json.loads(json.dumps(results_to_json(results)))  # type: ignore[arg-type]
    assert results_from_json(saved) == results


def test_results_saved_as_lines_are_shown_as_they_were() -> None:
    old = ["1. <@1> +10 chips", "2. <@2> -10 chips"]
    assert words.result_lines(results_from_json(old)) == old


SAMPLES: list[table_errors.TableError] = [
    table_errors.TableGone(), table_errors.TableClosed(), table_errors.BadStake(1),
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
]


def test_every_refusal_has_its_own_sentence() -> None:
    covered = {type(e) for e in SAMPLES}
    every = {c for c in vars(table_errors).values()
             if isinstance(c, type) and issubclass(c, table_errors.TableError)}
    assert every - {table_errors.TableError} == covered
    sentences = [words.refusal(e) for e in SAMPLES]
    assert len(set(sentences)) == len(sentences)  # no two causes read the same
    assert all(s and s != words.SOMETHING_WENT_WRONG for s in sentences)


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
     "Unknown level 'wizard': choose easy, normal, hard, expert."),
])
def test_refusals_carry_their_data_into_the_sentence(error: table_errors.TableError,
                                                     text: str) -> None:
    assert words.refusal(error) == text


def test_the_table_layer_writes_no_mentions() -> None:
    root = Path(cogs.tables.__file__).parent
    for path in root.glob("*.py"):
        assert "<@" not in path.read_text(encoding="utf-8"), path
