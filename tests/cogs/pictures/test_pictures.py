"""What the pictures show, the caches, drawing off the event loop, and font fallbacks."""

from __future__ import annotations

import asyncio
import io
import logging
import threading
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFont

from cogs.pictures import (
    BoardView,
    Fonts,
    HandView,
    Pictures,
    SeatView,
    board_view,
    emoji_name,
    emoji_names,
    hand_view,
)
from cogs.pictures import render as render_mod
from cogs.pictures.render import HAND_CARD_W, HAND_LIFT, HAND_PAD, PLATE_TURN, _slots
from engine import Card, Game, Rank, Rules, Suit, parse_cards

from .samples import BOARDS, HANDS


def _image(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


@pytest.fixture(scope="module")
def pictures() -> Pictures:
    return Pictures()


# ----------------------------------------------------------------- what the pictures show


@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_the_seat_to_play_has_the_gold_plate(pictures: Pictures, turn: int) -> None:
    seats = tuple(SeatView(f"P{i}", 13, turn=i == turn) for i in range(4))
    img = _image(pictures.board_png(BoardView(1, 10, seats)))
    for i, (x, y) in enumerate(_slots(4)):
        pixel = img.getpixel((x + 120, y + 8))
        assert (pixel == PLATE_TURN) == (i == turn), (i, pixel)


def test_every_seat_count_from_one_to_eight_draws(pictures: Pictures) -> None:
    for n in range(1, 9):
        seats = tuple(SeatView(f"Seat {i}", i + 1) for i in range(n))
        img = _image(pictures.board_png(BoardView(1, 10, seats, tuple(parse_cards("3S")), 0)))
        assert img.size == render_mod.BOARD_SIZE
        corners = _slots(n)
        assert len(set(corners)) == n
        for ax, ay in corners:  # no two plates overlap
            for bx, by in corners:
                if (ax, ay) != (bx, by):
                    assert (abs(ax - bx) >= render_mod.PLATE_W
                            or abs(ay - by) >= render_mod.PLATE_H)


def test_what_changes_changes_the_picture(pictures: Pictures) -> None:
    base = BOARDS["board_four"]
    variants = [
        BoardView(base.table, base.stake, base.seats, tuple(parse_cards("8D 8H")), 2),
        BoardView(base.table, base.stake,
                  (base.seats[0].__class__("Nguyễn Thị Ánh", 8, turn=True), *base.seats[1:]),
                  base.to_beat, 2),
        BoardView(base.table, 20, base.seats, base.to_beat, 2),
    ]
    pngs = {pictures.board_png(v) for v in [base, *variants]}
    assert len(pngs) == 4


def test_selected_cards_are_raised(pictures: Pictures) -> None:
    cards = tuple(parse_cards("3S 4S 5S 6S 7S"))
    flat = _image(pictures.hand_png(HandView(cards)))
    raised = _image(pictures.hand_png(HandView(cards, (False, False, True, False, False))))
    # Just above the resting top edge, the middle card's column shows card in one only.
    step = HAND_CARD_W * 2 // 3
    x = HAND_PAD + 2 * step + HAND_CARD_W // 2
    y = HAND_PAD + HAND_LIFT - 8
    assert flat.getpixel((x, y)) == render_mod.FELT_DARK
    assert raised.getpixel((x, y)) != render_mod.FELT_DARK
    assert raised.getpixel((HAND_PAD + HAND_CARD_W // 4, y)) == render_mod.FELT_DARK


def test_hand_sorted_with_two_decks_raises_one_copy() -> None:
    view = HandView.sorted(parse_cards("7H 3S 7H 2C"), parse_cards("7H"))
    assert [c.code for c in view.cards] == ["3S", "7H", "7H", "2C"]
    assert view.raised == (False, True, False, False)
    order = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
    view = HandView.sorted(parse_cards("3S 3H 3D"), suit_order=order)
    assert [c.code for c in view.cards] == ["3H", "3D", "3S"]


def test_bad_views_are_refused() -> None:
    with pytest.raises(ValueError, match="seats"):
        BoardView(1, 10, ())
    with pytest.raises(ValueError, match="no seat 4"):
        BoardView(1, 10, (SeatView("a", 1),) * 4, tuple(parse_cards("3S")), 4)
    with pytest.raises(ValueError, match="one flag per card"):
        HandView(tuple(parse_cards("3S 4S")), (True,))
    with pytest.raises(ValueError):
        SeatView("a", -1)


def test_vietnamese_names_render_their_letters() -> None:
    fonts = Fonts()
    font = fonts.get(22, bold=True)
    assert isinstance(font, ImageFont.FreeTypeFont)
    missing = font.getmask("\U000e0fff").getbbox()  # not in the font: the empty-box glyph
    for plain, marked in (("E", "Ễ"), ("a", "ặ"), ("D", "Đ"), ("u", "ử"), ("o", "ợ")):
        glyph = font.getmask(marked)
        assert glyph.getbbox() != missing
        assert bytes(glyph) != bytes(font.getmask(plain)), marked
    # Decomposed input (e + combining marks) is drawn as the composed letter.
    assert fonts.fit("Nguye\u0302\u0303n", 22, True, 500) == "Nguyễn"


def test_long_names_are_shortened_to_fit() -> None:
    fonts = Fonts()
    short = fonts.fit("Phạm Quốc Bảo Long the Magnificent", 21, True, 150)
    assert short.endswith("…")
    assert fonts.get(21, bold=True).getlength(short) <= 150
    assert fonts.fit("Ánh", 21, True, 150) == "Ánh"


def test_board_view_of_a_game() -> None:
    game = Game.new(Rules(), 4, seed=7)
    seat = game.current
    assert seat is not None
    lowest = min(game.legal_plays(seat), key=lambda c: (len(c.cards), c.top))
    game.play(seat, list(lowest.cards))
    view = board_view(game, ["A", "B", "C", "D"], table=9, stake=10, away=[False, True])
    assert view.to_beat == tuple(lowest.cards)
    assert view.to_beat_by == seat
    assert [s.cards for s in view.seats] == game.card_counts
    assert [s.turn for s in view.seats] == [i == game.current for i in range(4)]
    assert view.seats[1].away and not view.seats[2].away
    assert not view.finished
    hand = hand_view(game, 0, [True])
    assert hand.cards == tuple(game.hand(0)) and hand.raised[0] and not any(hand.raised[1:])


def test_board_view_of_a_finished_game() -> None:
    game = Game.new(Rules(), 2, hands=["3S", "4S 5H"], leader=0)
    game.play(0, ["3S"])
    assert game.is_over
    view = board_view(game, ["A", "B"], table=1, stake=10, chips=[10, -10])
    assert view.finished and view.to_beat == ()
    assert [s.place for s in view.seats] == [1, 2]
    assert [s.chips for s in view.seats] == [10, -10]


# ----------------------------------------------------------------- emoji


def test_one_emoji_per_card_and_a_back() -> None:
    names = emoji_names()
    assert len(names) == 53
    assert names["tl_10h"] == Card(Rank.TEN, Suit.HEARTS)
    assert names["tl_back"] is None
    assert emoji_name(Card(Rank.TWO, Suit.SPADES)) == "tl_2s"
    assert all(2 <= len(n) <= 32 and n.replace("_", "").isalnum() for n in names)


def test_emoji_images_fit_discords_limits(pictures: Pictures) -> None:
    seen = set()
    for card in (Card(Rank.TEN, Suit.HEARTS), Card(Rank.QUEEN, Suit.SPADES), None):
        data = pictures.emoji_png(card)
        assert len(data) <= 256 * 1024
        img = Image.open(io.BytesIO(data))
        assert img.size == (128, 128) and img.mode == "RGBA"
        seen.add(data)
    assert len(seen) == 3


# ----------------------------------------------------------------- caching and threads


def test_identical_pictures_are_cached_and_the_cache_is_bounded() -> None:
    pics = Pictures(cache_size=2)
    a, b, c = (BOARDS[n] for n in ("board_four", "board_lead", "board_finished"))
    first = pics.board_png(a)
    same = BoardView(a.table, a.stake, tuple(a.seats), a.to_beat, a.to_beat_by)  # equal, new
    assert pics.board_png(same) is first
    assert pics.cache_info()["board"].hits == 1
    pics.board_png(b)
    pics.board_png(c)
    info = pics.cache_info()["board"]
    assert info.currsize == 2 and info.misses == 3
    pics.hand_png(HANDS["hand_13"])
    pics.hand_png(HANDS["hand_13"])
    assert pics.cache_info()["hand"].hits == 1


async def test_async_drawing_runs_off_the_event_loop() -> None:
    threads: list[threading.Thread] = []

    class Spy(Pictures):
        def _draw_board(self, view: BoardView) -> bytes:
            threads.append(threading.current_thread())
            return super()._draw_board(view)

    pics = Spy()
    try:
        data = await pics.board(BOARDS["board_lead"])
        again = await pics.board(BOARDS["board_lead"])
    finally:
        pics.close()
    assert data is not None and data.startswith(b"\x89PNG")
    assert again is data  # from the cache, drawn once
    assert len(threads) == 1 and threads[0] is not threading.current_thread()


async def test_drawing_concurrently_gives_the_same_pictures() -> None:
    pics = Pictures()
    try:
        views = [*BOARDS.values()] * 3
        results = await asyncio.gather(*(pics.board(v) for v in views))
    finally:
        pics.close()
    reference = Pictures()
    assert results == [reference.board_png(v) for v in views]


async def test_a_failed_drawing_gives_none_and_one_log_line(
        caplog: pytest.LogCaptureFixture) -> None:
    class Broken(Pictures):
        def _draw_board(self, view: BoardView) -> bytes:
            raise OSError("disk on fire")

    pics = Broken()
    caplog.set_level(logging.DEBUG, "cogs.pictures")
    try:
        assert await pics.board(BOARDS["board_lead"]) is None
        assert await pics.board(BOARDS["board_four"]) is None
    finally:
        pics.close()
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(errors) == 1 and "text only" in errors[0].getMessage()


# ----------------------------------------------------------------- bad or missing fonts


def test_missing_and_broken_fonts_fall_back(tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    broken = tmp_path / "broken.ttf"
    broken.write_bytes(b"this is not a font")
    fonts = Fonts(regular=tmp_path / "missing.ttf", bold=broken)
    with caplog.at_level(logging.WARNING, "cogs.pictures"):
        pics = Pictures(fonts)
        data = pics.board_png(BOARDS["board_four"])
        hand = pics.hand_png(HANDS["hand_17"])
        emoji = pics.emoji_png(Card(Rank.ACE, Suit.SPADES))
    assert not fonts.ok and fonts.fallback_reason
    assert _image(data).size == render_mod.BOARD_SIZE
    assert _image(hand).width > 0 and _image(emoji).size == (128, 128)
    assert len([r for r in caplog.records if "plain font" in r.getMessage()]) == 1
    assert data != Pictures().board_png(BOARDS["board_four"])  # really another font


def test_without_freetype_the_bitmap_font_still_draws(monkeypatch: pytest.MonkeyPatch,
                                                      tmp_path: Path) -> None:
    def no_scalable(size: float | None = None) -> ImageFont.ImageFont | ImageFont.FreeTypeFont:
        raise ImportError("The _imagingft C module is not installed")

    monkeypatch.setattr(ImageFont, "load_default", no_scalable)
    fonts = Fonts(regular=tmp_path / "none.ttf", bold=tmp_path / "none.ttf")
    pics = Pictures(fonts)
    assert not isinstance(fonts.get(22, bold=True), ImageFont.FreeTypeFont)
    for name in ("board_finished", "board_four"):
        assert _image(pics.board_png(BOARDS[name])).size == render_mod.BOARD_SIZE
    assert fonts.fit("Phạm Quốc Bảo Long the Magnificent", 21, True, 80).startswith("Pham Q")
    assert _image(pics.hand_png(HANDS["hand_two_decks"])).width > 0


def test_the_shipped_emoji_images_are_the_drawn_ones() -> None:
    """`assets/emoji/` holds every emoji image, pre-drawn (regenerate with
    ``python -m tests.cogs.pictures.samples --emoji``); they match the drawing code."""
    from cogs.pictures.cards import EMOJI_DIR
    from cogs.pictures.cards import emoji_png as draw_emoji

    fonts = Fonts.shared()
    for name, card in emoji_names().items():
        shipped = Image.open(EMOJI_DIR / f"{name}.png").convert("RGBA")
        drawn = Image.open(io.BytesIO(draw_emoji(card, fonts))).convert("RGBA")
        assert shipped.size == drawn.size == (128, 128)
        diff = ImageChops.difference(shipped, drawn).getextrema()
        assert max(hi for _, hi in diff) <= 48, name


def test_the_game_over_picture_shows_the_held_cards_face_up(pictures: Pictures) -> None:
    game = next(g for seed in range(50)
                if not (g := Game.new(Rules(), ["a", "b", "c"], seed=seed)).is_over)
    with pytest.raises(ValueError, match="once the game is over"):  # never during a game
        BoardView(1, 10, (SeatView("a", 2, revealed=tuple(parse_cards("3S 4S"))),))
    with pytest.raises(ValueError, match="exactly the cards"):
        SeatView("a", 3, revealed=tuple(parse_cards("3S 4S")))
    assert all(not seat.revealed for seat in board_view(game, ["a", "b", "c"], table=1,
                                                        stake=10, reveal=True).seats)
    held = (tuple(parse_cards("3S 4S 9H")), (), tuple(parse_cards("2H")))
    seats = tuple(SeatView(n, len(h), place=i + 1, chips=5 - 5 * i)
                  for i, (n, h) in enumerate(zip("abc", held, strict=True)))
    hidden = BoardView(1, 10, seats, finished=True)
    shown = BoardView(1, 10, tuple(SeatView(s.name, s.cards, place=s.place, chips=s.chips,
                                            revealed=h) for s, h in zip(seats, held, strict=True)),
                      finished=True)
    plain, faces = _image(pictures.board_png(hidden)), _image(pictures.board_png(shown))
    assert ImageChops.difference(plain, faces).getbbox() is not None  # the cards are drawn


def test_a_card_pasted_in_pieces_is_pasted_exactly_as_through_its_alpha(
        pictures: Pictures) -> None:
    """Every card face at both sizes, in both decks, over a background that is not flat (so a
    blended pixel would show): its opaque middle copied and its rounded ends blended give the
    same pixels as the whole sprite pasted through its alpha."""
    from cogs.pictures.cards import card_pieces, card_sprite, paste_pieces
    from cogs.pictures.render import BOARD_CARD_W
    from engine.cards import full_deck

    background = Image.linear_gradient("L").resize((140, 190)).convert("RGB")
    for width in (BOARD_CARD_W, HAND_CARD_W):
        for four in (False, True):
            for card in full_deck():
                pieces = card_pieces(card, width, pictures.fonts, four)
                assert len(pieces) == 3  # rounded ends blended, the middle copied
                assert [masked for _, _, masked in pieces] == [True, False, True]
                sprite = card_sprite(card, width, pictures.fonts, four)
                whole, cut = background.copy(), background.copy()
                whole.paste(sprite, (7, 9), sprite)
                paste_pieces(cut, pieces, 7, 9)
                assert whole.tobytes() == cut.tobytes(), (card, width, four)


def test_staleness_percentiles_follow_every_new_delay() -> None:
    from cogs.pictures.service import _Delays

    delays = _Delays(kept=5)
    assert delays.percentile(50) == 0.0
    for seconds in (5, 1, 3):
        delays.add(seconds)
    assert (delays.percentile(0), delays.percentile(50), delays.percentile(100)) == (1, 3, 5)
    delays.add(0.5)  # sorted again: the new delay counts
    assert delays.percentile(0) == 0.5
    for seconds in range(10, 20):  # only the last five are kept
        delays.add(seconds)
    assert (delays.percentile(0), delays.percentile(95), delays.count) == (15, 19, 14)
