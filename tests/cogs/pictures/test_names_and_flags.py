"""What a board says at a glance (issue 32): names of any kind drawn inside their plate, a
computer's level kept, emoji drawn with the shipped emoji font, numbers grouped per language, a
header legible on a phone, loud 1- and 2-card flags, plain passed and away seats, who won the
trick, seats in the order of play, and the four-colour deck."""

from __future__ import annotations

import io
import math

import pytest
from PIL import Image, ImageChops, ImageFont

from cogs.pictures import BoardView, BoardWords, Fonts, HandView, Pictures, SeatView, board_view
from cogs.pictures import render as render_mod
from cogs.pictures.cards import BLACK, BLUE, GREEN, RED, card_sprite
from cogs.pictures.fonts import clean, visual
from cogs.pictures.render import (
    BOARD_SIZE,
    HEADER_SIZE,
    MARK_LAST,
    MARK_TWO,
    PLATE_H,
    PLATE_PASSED,
    PLATE_W,
    _mark,
    _slots,
)
from engine import Card, Game, Rank, Rules, Suit, parse_cards

PHONE_WIDTH = 360  # how wide a phone shows the board picture, in points

HOSTILE_NAMES = {
    "hundred": "Nguyễn Thị Thanh Hương " * 4 + "Ng",  # 100 characters, Discord's longest
    "no_spaces": "W" * 100,
    "hebrew": "שלום עולם מרים כהן",
    "arabic": "محمد عبد الله الأحمد",
    "mixed_direction": "Ali علي 2024 😀",
    "zero_width": "\u200b\u200c\u200d\u2060\ufeffAn\u200bh\u200d",
    "only_invisible": "\u200b\u200d\u3164\u2060",
    "only_emoji": "🐉🔥🎉👑❤️🏳️‍🌈👍🏽",
    "emoji_run": "🔥" * 40,
    "combining": "Z\u0351\u0352\u0353a\u0354\u0355l\u0356\u0357g\u0358o" * 6,
    "controls": "Bob\x00\x07\t\nSmith",
}


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.fixture(scope="module")
def pictures() -> Pictures:
    return Pictures()


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts.shared()


def _four(name: str, **seat0: object) -> BoardView:
    seats = (SeatView(name, 7, **seat0),  # type: ignore[arg-type]
             SeatView("B", 8), SeatView("C", 9), SeatView("D", 10))
    return BoardView(1, 10, seats, tuple(parse_cards("5S")), 1)


def _outside(img: Image.Image, box: tuple[int, int, int, int]) -> Image.Image:
    out = img.copy()
    out.paste((0, 0, 0), box)
    return out


# ----------------------------------------------------------------- names


@pytest.mark.parametrize("kind", list(HOSTILE_NAMES))
def test_any_name_draws_inside_its_plate(pictures: Pictures, kind: str) -> None:
    """Each hostile name draws without error, and the picture outside seat 0's plate is the
    same as with a one-letter name: nothing spills over."""
    name = HOSTILE_NAMES[kind]
    got = _image(pictures.board_png(_four(name)))
    plain = _image(pictures.board_png(_four("A")))
    x, y = _slots(4)[0]
    plate = (x - 6, y - 6, x + PLATE_W + 7, y + PLATE_H + 7)
    assert ImageChops.difference(_outside(got, plate), _outside(plain, plate)).getbbox() is None
    if kind != "only_invisible":  # the name did change the plate
        assert ImageChops.difference(got.crop(plate), plain.crop(plate)).getbbox() is not None


@pytest.mark.parametrize("kind", list(HOSTILE_NAMES))
def test_a_cut_name_fits_its_width(fonts: Fonts, kind: str) -> None:
    for width in (60.0, 150.0, 170.0):
        for size in (18, 21):
            text = fonts.fit(HOSTILE_NAMES[kind], size, True, width)
            assert fonts.measure(text, size, True) <= width
            assert fonts.text(text, size, True).mask.width <= width + 4  # drawn, not only measured
            assert text


def test_invisible_characters_are_dropped_and_an_empty_name_shows_a_mark(fonts: Fonts) -> None:
    assert clean("\u200bA\u200dn\u2060h\ufeff  \u00a0 B") == "Anh B"
    assert clean("👍🏽❤️") == "👍❤"  # skin tone and variation selector dropped
    assert fonts.fit("\u200b\u3164\u200d", 21, True, 150) == "?"


def test_names_are_cut_by_width_not_by_characters(fonts: Fonts) -> None:
    narrow, wide = "i" * 60, "W" * 60
    cut_narrow = fonts.fit(narrow, 21, True, 150)
    cut_wide = fonts.fit(wide, 21, True, 150)
    assert cut_narrow.endswith("…") and cut_wide.endswith("…")
    assert len(cut_narrow) > 2 * len(cut_wide)  # narrow letters: many more of them fit
    assert fonts.measure(cut_narrow, 21, True) > 130  # the room is used, not cut early
    name = "Nguyễn Thị Ánh"
    assert fonts.fit(name, 21, True, fonts.measure(name, 21, True)) == name


@pytest.mark.parametrize(("name", "keep"), [
    ("Máy 2 (khó)", "(khó)"), ("Computer 12 (expert)", "(expert)"),
    ("Máy 3 (cao thủ)", "(cao thủ)"),
])
def test_a_computers_level_is_kept_when_its_name_is_cut(fonts: Fonts, name: str,
                                                        keep: str) -> None:
    whole = fonts.measure(name, 21, True)
    for width in (whole - 1, whole * 0.8, fonts.measure("M… " + keep, 21, True)):
        text = fonts.fit(name, 21, True, width, keep)
        assert text.endswith(" " + keep) and "…" in text, (width, text)
        assert fonts.measure(text, 21, True) <= width
    assert fonts.fit(name, 21, True, whole, keep) == name


def test_a_long_name_is_drawn_smaller_before_it_is_cut(fonts: Fonts) -> None:
    seat = SeatView("Nguyễn Thị Thanh Hương", 5)
    room = fonts.measure(seat.name, 21, True) - 10
    text, size = render_mod._fit_name(fonts, seat, room)
    assert text == seat.name and size < 21
    text, size = render_mod._fit_name(fonts, seat, 60)
    assert text.endswith("…") and size == render_mod.NAME_MIN


def test_emoji_are_drawn_with_the_emoji_font_not_as_boxes(fonts: Fonts) -> None:
    box = fonts.text("\U0010fffd", 21, True).mask  # a character no font has: the box
    text_font = fonts.get(21, bold=True)
    for emoji in "🐉🔥🎉👑👍🌈🦄":
        font = fonts.font_for(emoji, 21, True)
        assert font is not text_font, emoji
        assert isinstance(font, ImageFont.FreeTypeFont)
        mask = fonts.text(emoji, 21, True).mask
        assert mask.getbbox() is not None
        assert mask.tobytes() != box.tobytes(), emoji
    assert fonts.font_for("A", 21, True) is text_font
    assert fonts.font_for("ệ", 21, True) is text_font


def test_without_the_emoji_font_names_still_draw(tmp_path: object) -> None:
    fonts = Fonts(emoji="/nonexistent/emoji.ttf")
    assert fonts.font_for("🐉", 21, True) is fonts.get(21, bold=True)
    assert fonts.text("🐉 Ánh", 21, True).mask.getbbox() is not None
    assert fonts.emoji_reason is not None and fonts.ok


def test_right_to_left_names_are_drawn_in_visual_order() -> None:
    assert visual("abc") == "abc"
    assert visual("שלום") == "םולש"
    assert visual("שלום עולם") == "םלוע םולש"
    assert visual("Ali علي") == "Ali يلع"  # a left-to-right line keeps its start on the left
    assert visual("علي 2024") == "2024 يلع"  # digits keep their order


# ----------------------------------------------------------------- numbers and header


def test_numbers_are_grouped_in_the_pictures_language(pictures: Pictures) -> None:
    assert BoardWords().num(10_000) == "10,000"
    assert BoardWords(group=".").num(10_000) == "10.000"
    assert BoardWords(group=".").num(999) == "999"
    seats = (SeatView("A", 0, place=1, chips=12_500), SeatView("B", 3, place=2, chips=-12_500))
    en = _image(pictures.board_png(BoardView(1, 10_000, seats, finished=True)))
    vi = _image(pictures.board_png(BoardView(1, 10_000, seats, finished=True,
                                             words=BoardWords(group="."))))
    assert ImageChops.difference(en, vi).getbbox() is not None


def test_the_words_of_a_vietnamese_board_group_with_dots() -> None:
    from cogs.i18n import words
    from cogs.tienlen._pictures import board_words

    assert board_words(words("vi")).group == "."
    assert board_words(words("en")).group == ","
    assert board_words(words("vi")).num(10_000) == "10.000"
    assert board_words(words("vi")).last_card != board_words(words("en")).last_card


def test_the_header_is_legible_on_a_phone(pictures: Pictures, fonts: Fonts) -> None:
    """Capital letters of the header are at least 9 px tall when the board is shown 360 px wide
    (they were about 6 px): measured on the drawn picture, scaled as a phone shows it."""
    scale = PHONE_WIDTH / BOARD_SIZE[0]
    cap = fonts.get(HEADER_SIZE, bold=True).getbbox("T")
    assert (cap[3] - cap[1]) * scale >= 9
    view = BoardView(1, 10, (SeatView("A", 5), SeatView("B", 5)), words=BoardWords(
        header="TTTT", new_lead=""))
    img = _image(pictures.board_png(view))
    small = img.resize((PHONE_WIDTH, round(BOARD_SIZE[1] * scale)), Image.Resampling.LANCZOS)
    band = small.crop((100, 40, 260, 80)).convert("L").point(lambda v: 255 if v > 160 else 0)
    box = band.getbbox()
    assert box is not None
    assert box[3] - box[1] >= 9, box


# ----------------------------------------------------------------- flags and marks


def _pixels(img: Image.Image, box: tuple[int, int, int, int]) -> set[tuple[int, int, int]]:
    return {tuple(p) for p in img.crop(box).get_flattened_data()}  # type: ignore[misc]


@pytest.mark.parametrize(("cards", "ring"), [(1, MARK_LAST), (2, MARK_TWO)])
def test_one_and_two_cards_are_flagged_loudly(pictures: Pictures, cards: int,
                                              ring: tuple[int, int, int]) -> None:
    words = BoardWords()
    seats = (SeatView("A", 5, turn=True), SeatView("B", cards))
    view = BoardView(1, 10, seats)
    assert _mark(view, seats[1]) is not None
    assert _mark(view, seats[1])[0] == (words.last_card if cards == 1 else words.two_cards)
    img = _image(pictures.board_png(view))
    x, y = _slots(2)[1]
    assert ring in _pixels(img, (x - 4, y + 40, x, y + 60))  # the ring around the plate
    quiet = _image(pictures.board_png(BoardView(1, 10, (seats[0], SeatView("B", 3)))))
    assert ring not in _pixels(quiet, (x - 4, y + 40, x, y + 60))
    over = BoardView(1, 10, (SeatView("A", 0, place=1), SeatView("B", cards, place=2)),
                     finished=True)
    assert _mark(over, over.seats[1]) == (words.place(2), *_mark(over, over.seats[1])[1:])


def test_one_card_outranks_passed_and_passed_outranks_two_cards() -> None:
    words = BoardWords()
    view = BoardView(1, 10, (SeatView("A", 5), SeatView("B", 1, passed=True),
                             SeatView("C", 2, passed=True)))
    assert _mark(view, view.seats[1])[0] == words.last_card  # type: ignore[index]
    assert _mark(view, view.seats[2])[0] == words.passed  # type: ignore[index]


def test_a_passed_seat_has_a_grey_plate(pictures: Pictures) -> None:
    view = BoardView(1, 10, (SeatView("A", 5, turn=True), SeatView("B", 7, passed=True)))
    img = _image(pictures.board_png(view))
    x, y = _slots(2)[1]
    assert img.getpixel((x + 120, y + 8)) == PLATE_PASSED
    x0, y0 = _slots(2)[0]
    assert img.getpixel((x0 + 120, y0 + 8)) != PLATE_PASSED


def test_the_new_lead_names_who_won_the_trick(pictures: Pictures) -> None:
    game = Game.new(Rules(), 3, hands=["3S 9H", "4S 5H", "6C 7C"], leader=0)
    game.play(0, ["3S"])
    game.play(1, ["4S"])
    game.play(2, ["6C"])
    game.pass_turn(0)
    game.pass_turn(1)
    assert game.table is None
    view = board_view(game, ["Ánh", "Bình", "Chi"], table=1, stake=10)
    assert view.lead_by == 2
    assert view.to_beat == ()
    named = _image(pictures.board_png(view))
    words = BoardWords(won_trick="")
    unnamed = _image(pictures.board_png(BoardView(view.table, view.stake, view.seats,
                                                  lead_by=None, words=words)))
    assert ImageChops.difference(named, unnamed).getbbox() is not None
    game.play(2, ["7C"])
    assert board_view(game, ["A", "B", "C"], table=1, stake=10).lead_by is None


# ----------------------------------------------------------------- order of play


def _angle(corner: tuple[int, int]) -> float:
    """The angle of a plate's centre around the table's centre, counter-clockwise on screen."""
    x, y = corner[0] + PLATE_W / 2 - BOARD_SIZE[0] / 2, corner[1] + PLATE_H / 2 - BOARD_SIZE[1] / 2
    return math.atan2(-y, x)


@pytest.mark.parametrize("n", range(3, 9))
@pytest.mark.parametrize("direction", [1, -1])
def test_seats_go_round_counter_clockwise_in_the_order_of_play(n: int, direction: int) -> None:
    corners = _slots(n, direction)
    order = [(i * direction) % n for i in range(n)]  # seats in the order they play
    angles = [_angle(corners[seat]) for seat in order]
    turns = [(b - a) % (2 * math.pi) for a, b in zip(angles, angles[1:] + angles[:1], strict=True)]
    assert all(0 < t < math.pi * 1.01 for t in turns), turns  # each step turns left
    assert math.isclose(sum(turns), 2 * math.pi)  # once round the table
    assert corners[0][1] == max(y for _, y in corners)  # seat 0 at the bottom


def test_a_game_in_reverse_order_is_laid_out_the_other_way() -> None:
    game = Game.new(Rules(), 4, seed=3, direction=-1)
    assert board_view(game, ["A", "B", "C", "D"], table=1, stake=10).direction == -1
    assert _slots(4, 1)[1][0] > _slots(4, 1)[0][0]  # seat 1 on seat 0's right
    assert _slots(4, -1)[1][0] < _slots(4, -1)[0][0]


# ----------------------------------------------------------------- four colours


def _colours(sprite: Image.Image) -> set[tuple[int, int, int]]:
    return {p[:3] for p in sprite.get_flattened_data() if p[3] == 255}  # type: ignore[index]


def test_the_four_colour_deck_has_green_clubs_and_blue_diamonds(fonts: Fonts) -> None:
    for rank in (Rank.THREE, Rank.TEN, Rank.ACE):
        clubs = card_sprite(Card(rank, Suit.CLUBS), 96, fonts, True)
        diamonds = card_sprite(Card(rank, Suit.DIAMONDS), 96, fonts, True)
        assert GREEN in _colours(clubs) and BLACK not in _colours(clubs)
        assert BLUE in _colours(diamonds) and RED not in _colours(diamonds)
        assert BLACK in _colours(card_sprite(Card(rank, Suit.CLUBS), 96, fonts))
        for suit in (Suit.SPADES, Suit.HEARTS):  # unchanged
            card = Card(rank, suit)
            assert (card_sprite(card, 96, fonts, True).tobytes()
                    == card_sprite(card, 96, fonts).tobytes())


def test_a_hand_sorted_by_suit_and_in_four_colours(pictures: Pictures) -> None:
    cards = parse_cards("3S 5D 5H 6C 7H 9S 2H")
    by_suit = HandView.sorted(cards, by_suit=True, four_colour=True)
    assert [str(c) for c in by_suit.cards] == ["3♠", "9♠", "6♣", "5♦", "5♥", "7♥", "2♥"]
    by_rank = HandView.sorted(cards)
    assert [str(c) for c in by_rank.cards] == ["3♠", "5♦", "5♥", "6♣", "7♥", "9♠", "2♥"]
    plain = _image(pictures.hand_png(HandView(by_suit.cards)))
    four = _image(pictures.hand_png(by_suit))
    assert ImageChops.difference(plain, four).getbbox() is not None
    assert by_suit != HandView(by_suit.cards)  # the preference is part of the cache key


@pytest.mark.parametrize("template", ["To beat — by {name}", "{name} won the trick",
                                      "{name} thắng vòng"])
def test_a_name_inside_a_sentence_is_cut_not_the_sentence(fonts: Fonts, template: str) -> None:
    seat = SeatView("Computer 3 (hard)", 4, keep="(hard)")
    for room in (290.0, 348.0):  # 348: between the side plates
        text = render_mod._with_name(fonts, template, seat, 22, room)
        assert fonts.measure(text, 22, True) <= room
        head, tail = template.split("{name}")
        assert text.startswith(head) and text.endswith(tail), text
        assert "(hard)" in text and "…" in text, text
    whole = render_mod._with_name(fonts, template, SeatView("Ánh", 4), 22, 300.0)
    assert whole == template.replace("{name}", "Ánh")


def test_a_sprite_is_cached_once_however_it_is_asked_for(fonts: Fonts) -> None:
    """The warm-up asks for `card_sprite(card, width, fonts)`, the pictures pass four_colour:
    both must reach the same cached sprite (else the first picture draws every sprite again)."""
    card = Card(Rank.FIVE, Suit.CLUBS)
    assert card_sprite(card, 76, fonts) is card_sprite(card, 76, fonts, False)
    assert card_sprite(card, 76, fonts, four_colour=True) is card_sprite(card, 76, fonts, True)
    assert card_sprite(card, 76, fonts, True) is not card_sprite(card, 76, fonts)
