"""Classification, beating rules and legal-play generation."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    Card,
    Combo,
    ComboKind,
    InvalidCards,
    Rank,
    Rules,
    Suit,
    can_beat,
    classify,
    parse_cards,
)
from engine.cards import full_deck
from engine.combos import legal_leads, legal_responses
from tests.support.volume import volume


def subsets(cards: list[Card]) -> Iterable[tuple[Card, ...]]:
    """Every distinct sub-multiset of the cards (as sorted tuples)."""
    seen: set[tuple[Card, ...]] = set()
    ordered = sorted(cards)
    for k in range(1, len(ordered) + 1):
        for sub in itertools.combinations(ordered, k):
            if sub not in seen:
                seen.add(sub)
                yield sub


def all_combos(cards: list[Card] | str, rules: Rules, decks: int = 1) -> set[Combo]:
    hand = parse_cards(cards) if isinstance(cards, str) else cards
    out: set[Combo] = set()
    for sub in subsets(hand):
        combo = classify(sub, rules, decks=decks)
        if combo is not None:
            out.add(combo)
    return out


def combo(text: str, rules: Rules | None = None, decks: int = 1) -> Combo:
    c = classify(text, rules or Rules(), decks=decks)
    assert c is not None, text
    return c


SOUTHERN = Rules()
PAGAT = Rules.preset("pagat")
VC = Rules.preset("vc")
ONLINE = Rules.preset("online")
PRESETS = {"southern": SOUTHERN, "pagat": PAGAT, "vc": VC, "online": ONLINE}

# ----------------------------------------------------------------------------- classify

CLASSIFY_GOLDEN = [
    ("3S", ComboKind.SINGLE),
    ("2H", ComboKind.SINGLE),
    ("7S 7H", ComboKind.PAIR),
    ("7S 7H 7D", ComboKind.TRIPLE),
    ("7S 7H 7D 7C", ComboKind.QUAD),
    ("2S 2H 2D 2C", ComboKind.QUAD),
    ("3S 4H 5D", ComboKind.SEQUENCE),
    ("QS KH AD", ComboKind.SEQUENCE),
    ("3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS", ComboKind.SEQUENCE),
    ("3S 3H 4S 4D 5C 5H", ComboKind.DOUBLE_SEQUENCE),
    ("5S 5H 6S 6D 7C 7H 8S 8C", ComboKind.DOUBLE_SEQUENCE),
    ("QS QH KS KD AC AH", ComboKind.DOUBLE_SEQUENCE),
    ("AS 2H 3D", None),  # no wrap
    ("KS AH 2D", None),  # no 2 inside a sequence
    ("3S 4H", None),
    ("3S 5H 6D", None),
    ("7S 8H", None),
    ("7S 7H 8S", None),
    ("3S 3H 4S 4D", None),  # two pairs are not a double sequence
    ("AS AH 2S 2D KS KC", None),
    ("3S 3H 4S 4D 5C", None),
    ("3S 3H 3C 4S 4D 4H 5C 5H 5S", None),
]


@pytest.mark.parametrize(("text", "kind"), CLASSIFY_GOLDEN)
@pytest.mark.parametrize("preset", list(PRESETS))
def test_classify_golden(preset: str, text: str, kind: ComboKind | None) -> None:
    result = classify(text, PRESETS[preset])
    if kind is None:
        assert result is None
    else:
        assert result is not None
        assert result.kind is kind
        assert len(result) == len(text.split())
        assert sorted(result.cards) == sorted(parse_cards(text))


def test_classify_duplicates_one_deck_is_an_error() -> None:
    with pytest.raises(InvalidCards, match="7♠"):
        classify("7S 7S", SOUTHERN)
    with pytest.raises(ValueError, match="twice"):
        classify("7S 7S")
    pair = classify("7S 7S", SOUTHERN, decks=2)
    assert pair is not None
    assert pair.kind is ComboKind.PAIR
    five = classify("7S 7S 7H 7H 7D", SOUTHERN, decks=2)
    assert five is None  # five of a kind is no combination
    with pytest.raises(InvalidCards):
        classify("7S 7S 7S", SOUTHERN, decks=2)


def test_classify_empty_is_none() -> None:
    assert classify([], SOUTHERN) is None


def test_top_and_describe() -> None:
    pair = combo("7S 7H")
    assert pair.top == Card(Rank.SEVEN, Suit.HEARTS)
    assert pair.describe() == "pair of 7s, 7♥ high"
    seq = combo("8S 9S 10D")
    assert seq.describe() == "sequence 8-9-10, 10♦ high"
    assert seq.top == Card(Rank.TEN, Suit.DIAMONDS)
    ds = combo("3S 3H 4S 4D 5C 5H")
    assert ds.describe().startswith("3 consecutive pairs")
    assert combo("9D").describe() == "single 9♦"
    assert combo("KS KH KD KC").describe() == "four Kings"
    assert str(pair) == "7♠ 7♥"
    # online suit order: ♥ < ♦ < ♣ < ♠, so the spade is the top
    online_pair = combo("7S 7H", ONLINE)
    assert online_pair.top == Card(Rank.SEVEN, Suit.SPADES)
    assert [str(c) for c in online_pair.cards] == ["7♥", "7♠"]


def test_combo_is_immutable_and_hashable() -> None:
    a = combo("7S 7H")
    b = classify(parse_cards("7H 7S"), SOUTHERN)
    assert a == b
    assert hash(a) == hash(b)
    with pytest.raises(AttributeError):
        a.kind = ComboKind.SINGLE  # type: ignore[misc, unused-ignore]


# ----------------------------------------------------------------------------- beating


def beats(play: str, table: str, rules: Rules = SOUTHERN, ctx: bool = False) -> bool:
    return can_beat(combo(play, rules), combo(table, rules), rules, chop_context=ctx)


def test_rules_md_examples() -> None:
    assert beats("8S", "7H")  # rank first
    assert not beats("7H", "8S")
    assert beats("7H 7S", "7D 7C")  # the heart is the top
    assert not beats("7D 7C", "7H 7S")
    assert beats("8S 9S 10D", "8H 9H 10C")  # the tens are compared
    assert not beats("8H 9H 10C", "8S 9S 10D")
    assert classify("AS 2H 3D", SOUTHERN) is None
    assert beats("2H", "2S")  # a 2 on a lower 2 is an ordinary play
    assert not beats("2S", "2H")


def test_same_type_and_length_only() -> None:
    assert not beats("4S 5S 6S 7S", "3H 4H 5H")  # a 4-card sequence beats only a 4-card one
    assert not beats("3H 4H 5H", "4S 5S 6S 7S")
    assert not beats("9S 9H 9D", "8S 8H")
    assert not beats("9S 9H", "8S")
    assert beats("4S 5S 6S 7S", "3H 4H 5H 6H")


def test_identical_cards_never_beat() -> None:
    two = Rules()
    assert not can_beat(combo("7H", two, 2), combo("7H", two, 2), two)
    assert not can_beat(combo("7H 7S", two, 2), combo("7H 7D", two, 2), two)
    assert can_beat(combo("7H 7D", two, 2), combo("7S 7S", two, 2), two)
    assert not can_beat(combo("7S 7S", two, 2), combo("7C 7S", two, 2), two)


def test_leading_allows_anything_but_three_pairs_online() -> None:
    ds3 = combo("3S 3H 4S 4D 5C 5H")
    assert can_beat(ds3, None, SOUTHERN)
    assert not can_beat(combo("3S 3H 4S 4D 5C 5H", ONLINE), None, ONLINE)
    assert can_beat(combo("3S 3H 4S 4D 5C 5H 6S 6H", ONLINE), None, ONLINE)


DS3 = "5S 5H 6S 6H 7S 7H"
DS3_LOW = "3S 3H 4S 4H 5D 5C"
DS3_HIGH = "9S 9H 10S 10H JS JH"
DS4 = "5S 5H 6S 6H 7S 7H 8S 8H"
DS4_LOW = "3S 3H 4S 4H 5D 5C 6D 6C"
DS4_HIGH = "9S 9H 10S 10H JS JH QS QH"
DS5 = "5S 5H 6S 6H 7S 7H 8S 8H 9S 9H"
DS5_LOW = "3S 3H 4S 4H 5D 5C 6D 6C 7D 7C"
DS5_HIGH = "9S 9H 10S 10H JS JH QS QH KS KH"
DS6 = "5S 5H 6S 6H 7S 7H 8S 8H 9S 9H 10S 10H"
QUAD = "8S 8C 8D 8H"
QUAD_LOW = "4S 4C 4D 4H"
QUAD_HIGH = "KS KC KD KH"

# (play, table, southern, pagat/vc, online); chop context off
CHOP_GOLDEN: list[tuple[str, str, bool, bool, bool]] = [
    # single 2
    (DS3, "2H", True, True, True),
    (QUAD, "2H", True, True, True),
    (DS4, "2H", True, False, True),
    (DS5, "2H", True, False, False),
    ("2S 2C 2D 2H", "2H", True, True, True),
    # pair of 2s
    (DS3, "2S 2H", False, False, False),
    (QUAD, "2S 2H", True, False, False),
    (DS4, "2S 2H", True, True, True),
    (DS5, "2S 2H", True, False, False),
    # three 2s
    (QUAD, "2S 2C 2H", False, False, False),
    (DS4, "2S 2C 2H", False, False, False),
    (DS5, "2S 2C 2H", True, True, False),
    (DS6, "2S 2C 2H", True, False, False),
    # three pairs
    (DS3_HIGH, DS3, True, True, True),
    (DS3_LOW, DS3, False, False, False),
    (QUAD_LOW, DS3, True, False, True),
    (DS4_LOW, DS3, True, False, True),
    (DS5_LOW, DS3, True, False, False),
    # quad
    (QUAD_HIGH, QUAD, True, True, True),
    (QUAD_LOW, QUAD, False, False, False),
    (DS4_LOW, QUAD, True, False, True),
    (DS5_LOW, QUAD, True, False, False),
    (DS3_HIGH, QUAD, False, False, False),
    # n pairs, n >= 4
    (DS4_HIGH, DS4, True, True, True),
    (DS4_LOW, DS4, False, False, False),
    (DS5_LOW, DS4, True, False, False),
    (QUAD_HIGH, DS4, False, False, False),
    (DS5_HIGH, DS5, True, True, True),
    (DS6, DS5_HIGH, True, False, False),
    # four 2s: nothing
    (DS6, "2S 2C 2D 2H", False, False, False),
    (DS4, "2S 2C 2D 2H", False, False, False),
    # bombs never beat a non-2 that is not a bomb
    (QUAD, "AH", False, False, False),
    (DS3, "AH", False, False, False),
    (DS4, "AS AH", False, False, False),
    (DS5, "AS AH AD", False, False, False),
    (QUAD, "3S 4S 5S", False, False, False),
]


@pytest.mark.parametrize(("play", "table", "southern", "narrow", "online"), CHOP_GOLDEN)
def test_chop_tables(play: str, table: str, southern: bool, narrow: bool, online: bool) -> None:
    assert beats(play, table, SOUTHERN) is southern
    assert beats(play, table, PAGAT) is narrow
    assert beats(play, table, VC) is narrow
    assert beats(play, table, ONLINE) is online


def test_pagat_ace_cannot_be_chopped_but_the_two_on_it_can() -> None:
    assert not beats(QUAD, "AH", PAGAT)
    assert beats("2S", "AH", PAGAT)
    assert beats(QUAD, "2S", PAGAT)


def test_bombs_need_chop_context() -> None:
    rules = SOUTHERN.model_copy(update={"bombs_need_chop_context": True})
    assert not beats(QUAD_LOW, DS3, rules)  # three pairs simply led
    assert beats(QUAD_LOW, DS3, rules, ctx=True)
    assert not beats(DS4_LOW, QUAD, rules)
    assert beats(DS4_LOW, QUAD, rules, ctx=True)
    assert not beats(DS5_LOW, DS4, rules)
    assert beats(DS5_LOW, DS4, rules, ctx=True)
    # a higher bomb of its own type always beats; chopping 2s needs no context
    assert beats(QUAD_HIGH, QUAD, rules)
    assert beats(DS3_HIGH, DS3, rules)
    assert beats(DS3, "2H", rules)
    assert beats(DS4, "2S 2H", rules)


def _ref_key(card: Card, rules: Rules) -> tuple[int, int]:
    return (card.rank, list(rules.suit_order).index(card.suit))


def _ref_kind(cards: list[Card]) -> str | None:
    """An independent, naive classifier."""
    ranks = sorted(c.rank for c in cards)
    distinct = sorted(set(ranks))
    n = len(cards)
    if n == 0:
        return None
    if len(distinct) == 1:
        return {1: "single", 2: "pair", 3: "triple", 4: "quad"}.get(n)
    consecutive = distinct == list(range(distinct[0], distinct[0] + len(distinct)))
    if not consecutive or Rank.TWO in distinct or len(distinct) < 3:
        return None
    per = {r: ranks.count(r) for r in distinct}
    if all(v == 1 for v in per.values()):
        return "sequence"
    if all(v == 2 for v in per.values()):
        return "double_sequence"
    return None


def _ref_beats(play: list[Card], table: list[Card], rules: Rules, ctx: bool) -> bool:
    """Can_beat re-encoded from the chop tables in docs/RULES_ENGINE.md."""
    pk, tk = _ref_kind(play), _ref_kind(table)
    top_p = max(_ref_key(c, rules) for c in play)
    top_t = max(_ref_key(c, rules) for c in table)
    if pk == tk and len(play) == len(table):
        return top_p > top_t
    if pk not in ("quad", "double_sequence"):
        return False
    pairs = len(play) // 2 if pk == "double_sequence" else 0
    quad = pk == "quad"
    twos = tk in ("single", "pair", "triple") and table[0].rank == Rank.TWO
    table_name = rules.chop_table
    if twos:
        c = len(table)
        rows = {
            "default": {1: quad or pairs >= 3, 2: quad or pairs >= 4, 3: pairs >= 5},
            "narrow": {1: quad or pairs == 3, 2: pairs == 4, 3: pairs == 5},
            "online": {1: quad or pairs in (3, 4), 2: pairs == 4, 3: False},
        }
        return rows[table_name][c]
    if tk not in ("quad", "double_sequence"):
        return False
    if tk == "quad" and table[0].rank == Rank.TWO:
        return False
    if rules.bombs_need_chop_context and not ctx:
        return False
    tpairs = len(table) // 2 if tk == "double_sequence" else 0
    if table_name == "narrow":
        return False
    if table_name == "default":
        if tk == "quad":
            return pairs >= 4
        if tpairs == 3:
            return quad or pairs >= 4
        return pairs > tpairs
    if tk == "quad":
        return pairs == 4
    if tpairs == 3:
        return quad or pairs == 4
    return False


def _random_combo_cards(rng: random.Random) -> list[Card]:
    deck = full_deck()
    kind = rng.choice(["single", "pair", "triple", "quad", "seq", "ds", "ds", "two"])
    if kind == "two":
        twos = [c for c in deck if c.rank == Rank.TWO]
        return rng.sample(twos, rng.randint(1, 4))
    if kind in ("single", "pair", "triple", "quad"):
        k = ["single", "pair", "triple", "quad"].index(kind) + 1
        r = rng.randrange(13)
        return rng.sample([c for c in deck if c.rank == r], k)
    per = 1 if kind == "seq" else 2
    length = rng.randint(3, 7 if per == 2 else 12)
    start = rng.randint(0, 12 - length)
    out: list[Card] = []
    for r in range(start, start + length):
        out += rng.sample([c for c in deck if c.rank == r], per)
    return out


@pytest.mark.no_cover  # checked against a slow reference: the unit tests cover these lines
@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("context_rule", [False, True])
def test_can_beat_matches_reference(preset: str, context_rule: bool) -> None:
    rules = PRESETS[preset].model_copy(update={"bombs_need_chop_context": context_rule})
    rng = random.Random(hash((preset, context_rule)) & 0xFFFF)
    for _ in range(volume(1000, 3000)):
        a, b = _random_combo_cards(rng), _random_combo_cards(rng)
        ca, cb = classify(a, rules), classify(b, rules)
        assert ca is not None
        assert cb is not None
        ctx = rng.random() < 0.5
        assert can_beat(ca, cb, rules, chop_context=ctx) is _ref_beats(a, b, rules, ctx), (a, b)


@pytest.mark.no_cover  # checked against a slow reference: the unit tests cover these lines
@settings(max_examples=volume(100, 300), deadline=None)
@given(st.lists(st.sampled_from(full_deck()), min_size=0, max_size=9, unique=True))
def test_classify_matches_reference(cards: list[Card]) -> None:
    result = classify(cards, SOUTHERN)
    expected = _ref_kind(cards)
    assert (None if result is None else result.kind.value) == expected
    if result is not None:
        assert result.top == max(cards, key=lambda c: _ref_key(c, SOUTHERN))


@pytest.mark.no_cover  # checked against a slow reference: the unit tests cover these lines
@settings(max_examples=volume(70, 200), deadline=None)
@given(st.lists(st.sampled_from(full_deck()), min_size=1, max_size=10))
def test_classify_two_decks_matches_reference(cards: list[Card]) -> None:
    if max(cards.count(c) for c in cards) > 2:
        with pytest.raises(InvalidCards):
            classify(cards, SOUTHERN, decks=2)
        return
    result = classify(cards, SOUTHERN, decks=2)
    assert (None if result is None else result.kind.value) == _ref_kind(cards)


# ----------------------------------------------------------------------------- generation

WORST = "6S 6C 6D 7S 7C 7D 7H 8S 8D 8H 9S 9D 9H"


def test_worst_hand_has_486_leads() -> None:
    plays = legal_leads(SOUTHERN.layout.to_mask(parse_cards(WORST)), SOUTHERN.layout)
    assert len(plays) == 486
    assert len(set(plays)) == 486
    assert set(plays) == all_combos(WORST, SOUTHERN)


def _check_generation(hand: list[Card], rules: Rules, decks: int, rng: random.Random) -> None:
    layout = rules.layout
    mask = layout.to_mask(hand, decks)
    everything = all_combos(hand, rules, decks)
    leads = legal_leads(mask, layout, rules.double_seq3_may_lead, rules.double_quad)
    assert len(leads) == len(set(leads))
    assert set(leads) == {c for c in everything if can_beat(c, None, rules)}
    tables: list[Combo | None] = [classify(_random_combo_cards(rng), rules) for _ in range(12)]
    ordered: list[Combo] = sorted(everything, key=lambda c: c.mask)
    tables += rng.sample(ordered, min(4, len(ordered)))
    for table in tables:
        assert table is not None
        for ctx in (False, True):
            got = legal_responses(mask, table, rules, ctx)
            assert len(got) == len(set(got))
            want = {c for c in everything if can_beat(c, table, rules, chop_context=ctx)}
            assert set(got) == want, (table, ctx)


@pytest.mark.no_cover  # checked against a slow reference: the unit tests cover these lines
@pytest.mark.parametrize("preset", list(PRESETS))
def test_generation_matches_brute_force(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(len(preset))
    deck = full_deck()
    for _ in range(volume(8, 25)):
        _check_generation(rng.sample(deck, 10), rules, 1, rng)
    # bomb-rich hands
    for _ in range(volume(4, 10)):
        start = rng.randint(0, 6)
        hand = [c for c in deck if start <= c.rank < start + 5 and rng.random() < 0.7]
        hand = hand[:12]
        if hand:
            _check_generation(hand, rules, 1, rng)


@pytest.mark.no_cover  # checked against a slow reference: the unit tests cover these lines
@pytest.mark.parametrize("preset", list(PRESETS))
def test_generation_with_double_quads_matches_brute_force(preset: str) -> None:
    rng = random.Random(7 + len(preset))
    deck = full_deck()
    for context_rule in (False, True):
        rules = PRESETS[preset].model_copy(
            update={"double_quad": True, "bombs_need_chop_context": context_rule})
        for _ in range(volume(2, 4)):
            low = rng.randint(0, 10)  # two quads of consecutive ranks below the 2
            hand = [c for c in deck if c.rank in (low, low + 1)]
            rest = [c for c in deck if c not in hand]
            hand += rng.sample(rest, 4)
            _check_generation(hand, rules, 1, rng)
            two_quads = classify(hand[:8], rules)
            assert two_quads is not None and two_quads.kind is ComboKind.DOUBLE_QUAD


def test_generation_two_decks() -> None:
    rng = random.Random(5)
    deck = full_deck() * 2
    for _ in range(25):
        hand = rng.sample(deck, 9)
        _check_generation(hand, SOUTHERN, 2, rng)
    hand = parse_cards("5S 5S 5H 6S 6S 7H 7D 2H 2H")
    _check_generation(hand, SOUTHERN, 2, rng)
