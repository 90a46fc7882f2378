"""`/tienlen prefs` through SimCord (issue 32): a person's four-colour deck, hand order and hand
pictures change their own hand only (its buttons' order and its picture), never what others
see; values the command does not declare and forged option names are refused, nothing stored."""

from __future__ import annotations

import io
import logging
import random
from typing import Any

import pytest
from PIL import Image, ImageChops

from cogs.pictures import HandView, Pictures
from cogs.tienlen import _pictures
from cogs.tienlen import selection as sel
from data import HandPrefs, StoreError
from engine import Card, Rank, Suit

from .forge import forge_slash, opt, reply_text
from .tablekit import board, labels, open_hand, open_table, said, seat_people
from .test_languages import VI_LOCALE, locales  # noqa: F401 - a fixture
from .test_table_flow import people

STRING, INTEGER, BOOLEAN = 3, 4, 5


@pytest.fixture(autouse=True)
def _no_errors(caplog: pytest.LogCaptureFixture) -> Any:
    caplog.set_level(logging.INFO)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


async def _start_two(world: Any) -> list[Any]:
    ps = people(world, 2)
    await open_table(world, ps[0])
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    return ps


def _cards_shown(message: Any, hand: list[Card]) -> list[str]:
    """The card buttons' labels, in the order they are shown."""
    names = {str(card) for card in hand}
    return [label for label in labels(message) if label in names]


async def _picture(message: Any) -> Image.Image:
    (attachment,) = message.attachments
    assert attachment.filename == "hand.png"
    return Image.open(io.BytesIO(await attachment.read())).convert("RGB")


def _same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


async def test_prefs_are_shown_saved_and_kept(world: Any) -> None:
    (alice,) = people(world, 1)
    r = await alice.slash(world.channel, "tienlen prefs")
    assert r.ephemeral
    assert "Your preferences:" in r.response.content and "by rank" in r.response.content
    r = await alice.slash(world.channel, "tienlen prefs", four_colour="on", sort="suit")
    text = r.response.content
    assert r.ephemeral and "**Saved.**" in text, text
    assert "Four-colour deck (♣ green, ♦ blue): on" in text and "by suit" in text, text
    assert "Pictures of your hand: on" in text, text
    assert await world.store.get_prefs(alice.id) == HandPrefs(four_colour=True, sort_by="suit")
    r = await alice.slash(world.channel, "tienlen prefs", pictures="off")
    assert await world.store.get_prefs(alice.id) == HandPrefs(True, "suit", False)
    assert "Pictures of your hand: off" in r.response.content


async def test_a_vietnamese_client_reads_its_prefs_in_vietnamese(world: Any,
        locales: dict[int, str]) -> None:  # noqa: F811 - the imported fixture
    (alice,) = people(world, 1)
    locales[alice.id] = VI_LOCALE
    r = await alice.slash(world.channel, "tienlen prefs", sort="suit")
    text = r.response.content
    assert "Đã lưu" in text and "theo chất" in text, text


async def test_the_hand_follows_its_owners_prefs_and_no_one_elses(world: Any) -> None:
    alice, bob = await _start_two(world)
    live = next(iter(world.bot.table_service.tables.values()))
    game = live.game
    suits = live.rules.suit_order
    board_before = await board(world).attachments[0].read()
    # Before: both hands by rank, two colours, with pictures.
    hand = await open_hand(world, alice)
    alice_cards = game.hand(live.seat_of(alice.id))
    by_rank = [str(c) for c in HandPrefs().arrange(alice_cards, suits)]
    assert _cards_shown(hand, alice_cards) == by_rank
    plain = await _picture(hand)

    await alice.slash(world.channel, "tienlen prefs", four_colour="on", sort="suit")
    hand = await open_hand(world, alice)
    mine = HandPrefs(four_colour=True, sort_by="suit")
    by_suit = mine.arrange(alice_cards, suits)
    assert by_suit != HandPrefs().arrange(alice_cards, suits)  # a deal where the orders differ
    assert _cards_shown(hand, alice_cards) == [str(c) for c in by_suit]
    drawn = await _picture(hand)
    expected = Image.open(io.BytesIO(Pictures().hand_png(
        HandView(tuple(by_suit), four_colour=True)))).convert("RGB")
    assert _same(drawn, expected)
    assert not _same(drawn, plain)
    # A card pressed in Alice's order selects that card (the selection follows her order); the
    # picture shows the cards held, not the selection, so it is the same picture.
    pressed = await alice.click(hand, label=str(by_suit[0]))
    selected = world.bot.hands.get(live.id, alice.id).mask
    assert sel.selected_cards(by_suit, selected) == [by_suit[0]]
    assert _pictures.hand_view(live, live.seat_of(alice.id), mine) == HandView(
        tuple(by_suit), four_colour=True)
    assert _cards_shown(pressed.response, alice_cards) == [str(c) for c in by_suit]

    # Bob's hand and the public board are as before.
    bob_cards = game.hand(live.seat_of(bob.id))
    bob_hand = await open_hand(world, bob)
    assert _cards_shown(bob_hand, bob_cards) == [
        str(c) for c in HandPrefs().arrange(bob_cards, suits)]
    bob_picture = await _picture(bob_hand)
    assert _same(bob_picture, Image.open(io.BytesIO(Pictures().hand_png(
        HandView(tuple(HandPrefs().arrange(bob_cards, suits)))))).convert("RGB"))
    assert await board(world).attachments[0].read() == board_before


async def test_pictures_off_for_one_person_only(world: Any) -> None:
    alice, bob = await _start_two(world)
    await alice.slash(world.channel, "tienlen prefs", pictures="off")
    hand = await open_hand(world, alice)
    assert hand.attachments == []
    assert "Your hand" in said(hand)  # the text carries the hand
    assert [a.filename for a in (await open_hand(world, bob)).attachments] == ["hand.png"]
    assert [a.filename for a in board(world).attachments] == ["board.png"]
    await alice.slash(world.channel, "tienlen prefs", pictures="on")
    assert [a.filename for a in (await open_hand(world, alice)).attachments] == ["hand.png"]


@pytest.mark.parametrize(("options", "named"), [
    ([opt("sort", "colour", STRING)], "sort"),
    ([opt("sort", "SUIT", STRING)], "sort"),
    ([opt("four_colour", "yes", STRING)], "four_colour"),
    ([opt("four_colour", True, BOOLEAN)], "four_colour"),
    ([opt("pictures", 1)], "pictures"),
    ([opt("pictures", "off\u200b", STRING)], "pictures"),
    ([opt("theme", "dark", STRING)], "theme"),  # a forged preference
    ([opt("sort_by", "suit", STRING)], "sort_by"),  # the store's name is not an option
    ([opt("sort", "suit", STRING), opt("sort", "rank", STRING)], "sort"),
])
async def test_undeclared_values_and_forged_preferences_are_refused(
        world: Any, options: list[dict[str, Any]], named: str) -> None:
    (alice,) = people(world, 1)
    await alice.slash(world.channel, "tienlen prefs", four_colour="on")
    result = await forge_slash(alice, world.channel, "tienlen prefs", options)
    assert result.acknowledged and result.ephemeral
    assert named in reply_text(result), reply_text(result)
    assert "Saved" not in reply_text(result)
    assert await world.store.get_prefs(alice.id) == HandPrefs(four_colour=True)


async def test_a_value_that_gets_past_the_options_is_not_stored(world: Any) -> None:
    """Belt and braces: the store refuses what the command would never pass on."""
    (alice,) = people(world, 1)
    cog = world.bot.get_cog("Prefs")
    with pytest.raises(Exception, match="sort_by"):
        await cog.cache.change(alice.id, sort_by="colour")
    assert await world.store.get_prefs(alice.id) == HandPrefs()
    assert cog.cache.known(alice.id) == HandPrefs()


@pytest.mark.parametrize("seed", range(30))
def test_a_card_pressed_in_either_order_selects_the_same_card(seed: int) -> None:
    """The buttons carry card codes computed over the hand in its owner's order; the table reads
    them over the game's order. With two decks (twins) every code still means the same card."""
    rng = random.Random(seed)
    deck = [Card(r, s) for r in Rank for s in Suit] * 2
    game_order = HandPrefs().arrange(rng.sample(deck, 20), tuple(Suit))
    for prefs in (HandPrefs(sort_by="suit"), HandPrefs()):
        shown = prefs.arrange(game_order, tuple(Suit))
        codes = sel.hand_codes(shown)
        assert len(set(codes)) == len(shown)
        for card, code in zip(shown, codes, strict=True):
            assert sel.selected_cards(game_order, 1 << code) == [card]
        chosen = rng.sample(range(len(shown)), 5)
        mask = sel.to_mask(codes[i] for i in chosen)
        assert sorted(map(str, sel.selected_cards(game_order, mask))) == sorted(
            str(shown[i]) for i in chosen)


async def test_a_store_that_cannot_read_prefs_still_shows_the_hand(
        world: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, _ = await _start_two(world)

    async def broken(user_id: int) -> HandPrefs:
        raise StoreError("the database is away")

    monkeypatch.setattr(world.store, "get_prefs", broken)
    hand = await open_hand(world, alice)
    live = next(iter(world.bot.table_service.tables.values()))
    cards = live.game.hand(live.seat_of(alice.id))
    assert _cards_shown(hand, cards) == [str(c) for c in HandPrefs().arrange(
        cards, live.rules.suit_order)]
    assert [a.filename for a in hand.attachments] == ["hand.png"]
