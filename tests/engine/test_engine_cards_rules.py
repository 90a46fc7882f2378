"""Cards, parsing and the rule set."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError

from engine import Card, InvalidCards, Rank, Rules, Suit, format_cards, parse_cards
from engine.cards import full_deck


def test_parse_examples() -> None:
    cards = parse_cards("3S 4h 10D TD JC 2H")
    assert [str(c) for c in cards] == ["3♠", "4♥", "10♦", "10♦", "J♣", "2♥"]
    assert parse_cards("3♠, q♦,A♣") == [
        Card(Rank.THREE, Suit.SPADES),
        Card(Rank.QUEEN, Suit.DIAMONDS),
        Card(Rank.ACE, Suit.CLUBS),
    ]
    assert parse_cards("") == []
    assert format_cards(parse_cards("3S 4H 10D")) == "3♠ 4♥ 10♦"
    assert str(Card(Rank.QUEEN, Suit.DIAMONDS)) == "Q♦"
    assert Card(Rank.TEN, Suit.HEARTS).code == "10H"


@pytest.mark.parametrize("bad", ["1S", "11H", "3X", "S3", "10", "♠", "3SS", "Z", "0D"])
def test_parse_bad_token_names_it(bad: str) -> None:
    with pytest.raises(InvalidCards, match=bad.replace("♠", ".")):
        parse_cards(f"3S {bad} 4H")
    with pytest.raises(ValueError):
        parse_cards(bad)


def test_card_order_and_identity() -> None:
    assert Card(Rank.EIGHT, Suit.SPADES) > Card(Rank.SEVEN, Suit.HEARTS)
    assert min(full_deck()) == Card(Rank.THREE, Suit.SPADES)
    assert max(full_deck()) == Card(Rank.TWO, Suit.HEARTS)
    assert Card(Rank.SEVEN, Suit.SPADES) == parse_cards("7s")[0]
    assert len(set(full_deck())) == 52


@given(st.lists(st.sampled_from(full_deck()), max_size=20), st.booleans(), st.booleans())
def test_parse_format_round_trip(cards: list[Card], lower: bool, symbols: bool) -> None:
    text = " ".join(str(c) if symbols else c.code for c in cards)
    if lower:
        text = text.lower()
    assert parse_cards(text) == cards
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards(",".join(c.code for c in cards)) == cards


@given(st.text(max_size=6))
def test_parse_never_crashes_unexpectedly(text: str) -> None:
    with contextlib.suppress(InvalidCards):
        parse_cards(text)


def test_presets_match_rules_md() -> None:
    assert Rules.preset("southern") == Rules()
    assert Rules.preset_names() == ["southern", "pagat", "vc", "online", "vn_house"]
    pagat = Rules.preset("pagat")
    assert (pagat.chop_table, pagat.chop_after_pass, pagat.end, pagat.scoring) == (
        "narrow", "off", "first_out", "cards_left")
    assert not pagat.instant_wins
    vc = Rules.preset("vc")
    assert (vc.chop_table, vc.chop_after_pass, vc.end, vc.scoring, vc.instant_wins) == (
        "narrow", "off", "to_last", "loser_pays", False)
    online = Rules.preset("online")
    assert online.suit_order == (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
    assert online.first_lead == "any"
    assert online.chop_table == "online"
    assert online.chop_after_pass == "pairs"
    assert not online.double_seq3_may_lead
    assert (online.end, online.scoring) == ("first_out", "pot")
    assert online.chop_bonus
    assert online.deuce_penalty
    assert online.instant_wins
    assert online.reverse_order_each_game
    vn = Rules.preset("vn_house")
    assert vn == Rules(anti_feed="on", no_two_last=True, cong=True, chop_bonus=True,
                       deuce_penalty=True)
    for name in Rules.preset_names():
        rules = Rules.preset(name)
        assert rules.preset_name() == name
        if name == "vn_house":
            continue
        assert rules.anti_feed == "off" and not rules.no_two_last
        assert rules.card_exchange == "off"
        assert not rules.three_player_17
        assert not rules.double_quad
        assert not rules.cong
        assert rules.winner_leads_next
        assert rules.pass_locks_out
        assert not rules.bombs_need_chop_context
        assert rules.preset_name() == name
    southern = Rules()
    assert southern.suit_order == (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
    assert (southern.first_lead, southern.chop_table, southern.end) == (
        "lowest_card", "default", "to_last")
    assert southern.chop_after_pass == "pairs"
    assert southern.instant_wins
    assert southern.double_seq3_may_lead
    with pytest.raises(ValueError, match="unknown preset"):
        Rules.preset("nope")


def test_model_copy_validates() -> None:
    rules = Rules()
    changed = rules.model_copy(update={"end": "first_out"})
    assert changed.end == "first_out"
    assert rules.end == "to_last"
    assert changed.preset_name() is None
    with pytest.raises(ValidationError):
        rules.model_copy(update={"end": "bogus"})
    with pytest.raises(ValidationError):
        rules.model_copy(update={"nonsense": 1})
    with pytest.raises(ValidationError):
        rules.model_copy(update={"suit_order": "SSDH"})
    with pytest.raises(ValidationError):
        Rules(chop_table="wide")  # type: ignore[arg-type, unused-ignore]
    assert rules.model_copy(update={"suit_order": "♥♦♣♠"}).suit_order[0] is Suit.HEARTS
    with pytest.raises(ValidationError):
        rules.end = "first_out"  # type: ignore[misc, unused-ignore]


def test_rules_json_round_trip_and_describe() -> None:
    for name in Rules.preset_names():
        rules = Rules.preset(name)
        assert Rules.model_validate_json(rules.model_dump_json()) == rules
        described = rules.describe()
        assert len(described) == len(Rules.model_fields)
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in described)
    assert Rules.preset("online").model_dump(mode="json")["suit_order"] == "HDCS"
