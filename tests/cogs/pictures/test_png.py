"""A board's PNG with its bands of rows mapped and compressed once (issue 28): the same pixels
as the whole picture mapped and compressed by Pillow, for every board a game shows, with any
names, whether its bands come from the cache or not (and after the cache forgot some); an
unchanged band is not compressed again. The bands are compressed by ISA-L (``isal``) where it is
installed, else by zlib: both are checked, and a hand written by the bot's own writer is the
picture Pillow's writer gives."""

from __future__ import annotations

import io
import random
import zlib
from collections.abc import Hashable

import pytest
from PIL import Image, ImageChops

from benchmarks.engine import random_action
from cogs.pictures import BoardView, Fonts, HandView, SeatView, board_view
from cogs.pictures import png as png_mod
from cogs.pictures import render as render_module
from cogs.pictures.png import BAND_ROWS, BandCache, adler32_combine
from cogs.pictures.render import (
    BOARD_ROWS,
    BOARD_SIZE,
    COLUMNS,
    PLATE_H,
    RING,
    board_parts,
    board_png,
    encode,
    palette,
    render_board,
    render_hand,
)
from engine import Game, Rules, parse_cards

from .test_names_and_flags import HOSTILE_NAMES


@pytest.fixture(scope="module")
def fonts() -> Fonts:
    return Fonts.shared()


def _pixels(data: bytes) -> bytes:
    picture = Image.open(io.BytesIO(data))
    assert picture.mode == "P" and picture.size == BOARD_SIZE
    return picture.tobytes()


def _pillows(img: Image.Image, fonts: Fonts) -> bytes:
    """The picture mapped onto the palette and written by Pillow's own PNG writer: the
    reference the bot's own writer is held to."""
    out = io.BytesIO()
    img.quantize(palette=palette(fonts), dither=Image.Dither.NONE).save(out, "PNG")
    return out.getvalue()


def _games(seed: int) -> list[BoardView]:
    """Every board of short games of 2 to 8 seats, in both directions of play, random names
    (the hostile ones too), to the end with the cards left face up."""
    rng = random.Random(seed)
    names = [*HOSTILE_NAMES.values(), "Ánh", "Máy 2 (khó)", "Bảo"]
    boards: list[BoardView] = []
    for n in range(2, 9):
        game = Game.new(Rules(three_player_17=n == 3, reverse_order_each_game=n % 2 == 0),
                        n, seed=seed * 10 + n)
        seat_names = [rng.choice(names) for _ in range(n)]
        away = [rng.random() < 0.2 for _ in range(n)]
        stake = rng.choice([10, 50_000])
        while not game.is_over:
            boards.append(board_view(game, seat_names, table=n, stake=stake, away=away))
            random_action(game, rng)
        chips = [rng.randint(-30_000, 30_000) for _ in range(n)]
        boards.append(board_view(game, seat_names, table=n, stake=stake, chips=chips))
        boards.append(board_view(game, seat_names, table=n, stake=stake, chips=chips,
                                 reveal=True))
    return boards


def test_adler32_combine_is_zlibs() -> None:
    rng = random.Random(5)
    for _ in range(200):
        first = rng.randbytes(rng.randint(0, 3000))
        second = rng.randbytes(rng.choice([0, 1, 65521, rng.randint(0, 200_000)]))
        assert adler32_combine(zlib.adler32(first), zlib.adler32(second),
                               len(second)) == zlib.adler32(first + second)


@pytest.fixture(params=["isal", "zlib"])
def compressor(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The bands compressed by ISA-L (the dependency) or by zlib (where it is not installed)."""
    if request.param == "zlib":
        monkeypatch.setattr(png_mod, "deflate", zlib)
    else:
        monkeypatch.setattr(png_mod, "deflate", pytest.importorskip("isal.isal_zlib"))
    return str(request.param)


def test_bands_are_compressed_by_isa_l_where_installed() -> None:
    pytest.importorskip("isal")
    assert png_mod.deflate.__name__ == "isal.isal_zlib"


def test_a_board_from_bands_is_the_whole_board(fonts: Fonts, compressor: str) -> None:
    # A small cache forgets bands, parts and columns while the games go on: a band is then
    # drawn again, never mistaken for another.
    cache = BandCache(max_bands=60, max_parts=40, max_tile_bytes=120_000)
    boards = _games(1)
    for view in boards + boards[::5]:  # and again, mostly from the cache
        data = board_png(view, fonts, cache)
        zlib.decompress(_idat(data))  # a strict decoder: the checksum combined right
        assert _pixels(data) == _pixels(_pillows(render_board(view, fonts), fonts)), view
    assert cache.hits > 0 and cache.misses > 0
    assert cache.tile_hits > 0 and cache.tile_misses > 0
    assert cache.tile_bytes <= 120_000


def test_bands_of_both_compressors_join_into_one_picture(fonts: Fonts,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    isal_zlib = pytest.importorskip("isal.isal_zlib")
    cache = BandCache()
    seats = tuple(SeatView(name, 13) for name in ("An", "Bình", "Chi", "Dũng"))
    before = BoardView(3, 10, seats, tuple(parse_cards("3s 3c")), 1)
    after = BoardView(3, 10, (*seats[:2], SeatView("Chi", 11), seats[3]),
                      tuple(parse_cards("3s 3c")), 1)
    monkeypatch.setattr(png_mod, "deflate", zlib)
    board_png(before, fonts, cache)
    monkeypatch.setattr(png_mod, "deflate", isal_zlib)
    data = board_png(after, fonts, cache)  # zlib's bands, and ISA-L's for the plate's rows
    zlib.decompress(_idat(data))
    assert _pixels(data) == _pixels(_pillows(render_board(after, fonts), fonts))


def test_a_hand_is_the_picture_pillow_writes(fonts: Fonts, compressor: str) -> None:
    rng = random.Random(3)
    for n in (1, 2, 13, 17, 26):
        cards = tuple(parse_cards("3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd Ah 2s")) * 2
        view = HandView(cards[:n], tuple(rng.random() < 0.3 for _ in range(n)),
                        four_colour=n % 2 == 0)
        img = render_hand(view, fonts)
        ours, theirs = Image.open(io.BytesIO(encode(img, fonts))), Image.open(
            io.BytesIO(_pillows(img, fonts)))
        ours.load()
        assert ours.size == theirs.size and ours.tobytes() == theirs.tobytes()
        assert ours.getpalette() == theirs.getpalette()


def _idat(data: bytes) -> bytes:
    at = data.index(b"IDAT")
    length = int.from_bytes(data[at - 4:at], "big")
    return data[at + 4:at + 4 + length]


class _Rows(BandCache):
    """A band cache that remembers the rows (first, last + 1) of each band compressed."""

    def __init__(self) -> None:
        super().__init__()
        self.compressed: list[tuple[int, int]] = []

    def put(self, key: Hashable, band: png_mod.Band) -> None:
        assert isinstance(key, tuple)
        self.compressed.append((key[2], key[3]))
        super().put(key, band)


def test_only_the_rows_that_changed_are_compressed_again(fonts: Fonts) -> None:
    cache = _Rows()
    seats = tuple(SeatView(name, 13) for name in ("An", "Bình", "Chi", "Dũng"))
    before = BoardView(3, 10, seats, tuple(parse_cards("3s 3c")), 1)
    board_png(before, fonts, cache)
    bands = len(BOARD_ROWS) + 1
    assert cache.misses == bands and cache.hits == 0
    assert sum(last - first for first, last in cache.compressed) == BOARD_SIZE[1]
    board_png(before, fonts, cache)  # the same board: nothing compressed
    assert cache.misses == bands and cache.hits == bands
    # The top seat played (and passed its count on): only its plate's rows are new, in one
    # band that starts a row above its ring.
    after = BoardView(3, 10, (*seats[:2], SeatView("Chi", 11), seats[3]),
                      tuple(parse_cards("3s 3c")), 1)
    data = board_png(after, fonts, cache)
    assert cache.misses == bands + 1
    assert cache.compressed[-1] == (6, 10 + PLATE_H + RING + 1)
    assert _pixels(data) == _pixels(_pillows(render_board(after, fonts), fonts))


@pytest.mark.parametrize("seats", range(1, 9))
def test_a_plate_that_changes_alone_compresses_its_own_rows(fonts: Fonts, seats: int) -> None:
    # The board's bands are cut at the plates' edges: whichever seat's plate changes (at any
    # number of seats, either way round), the rows compressed again are that plate's (a side
    # plate's band reaches 5 rows further, to the play's top), not the bands of 16 rows around it.
    for direction in (1, -1):
        cache = _Rows()
        people = tuple(SeatView(f"P{i}", 13) for i in range(seats))
        board_png(BoardView(1, 10, people, direction=direction), fonts, cache)
        for seat in range(seats):
            del cache.compressed[:]
            changed = (*people[:seat], SeatView(f"P{seat}", 12), *people[seat + 1:])
            data = board_png(BoardView(1, 10, changed, direction=direction), fonts, cache)
            rows = sum(last - first for first, last in cache.compressed)
            assert PLATE_H + 2 * RING <= rows <= PLATE_H + 2 * RING + 6, (seat, cache.compressed)
            if seat == seats - 1:
                view = BoardView(1, 10, changed, direction=direction)
                assert _pixels(data) == _pixels(_pillows(render_board(view, fonts), fonts))


def test_board_band_edges_are_even_and_inside_the_board() -> None:
    edges = png_mod.band_edges(BOARD_SIZE[1], BOARD_ROWS)
    assert edges[0] == 0 and edges[-1] == BOARD_SIZE[1] and list(edges) == sorted(set(edges))
    assert png_mod.band_edges(64) == (0, BAND_ROWS, 2 * BAND_ROWS, 3 * BAND_ROWS, 64)
    for wrong in ((7,), (100, 50), (0,), (BOARD_SIZE[1],), (50, 50)):
        with pytest.raises(ValueError, match="band edges"):
            png_mod.band_edges(BOARD_SIZE[1], wrong)


def test_the_shared_cache_is_bounded() -> None:
    cache = BandCache(max_bands=3, max_parts=2)
    for key in range(10):
        cache.put(key, (b"x" * key, 1, key))
    assert len(cache) == 3 and cache.bytes == 7 + 8 + 9
    cache.put(9, (b"xx", 1, 2))  # a band put again is counted once
    assert cache.figures() == (3, 7 + 8 + 2, 0, 0, 0, 0, 0)
    tile = (bytes(100),) * 16  # 1,600 bytes
    for key in range(5):
        cache.put_tile(key, tile)
    assert cache.tile_bytes == 5 * 1600
    cache.max_tile_bytes = 3_500
    cache.put_tile(5, tile)  # the oldest columns go until the rest fit
    assert cache.tile_bytes == 2 * 1600 and cache.get_tiles([3, 4, 5]) == [None, tile, tile]
    assert cache.figures() == (3, 17 + 3200, 0, 0, 2, 2, 1)
    by_bytes = BandCache(max_bands=100, max_band_bytes=10)
    for key in range(1, 6):
        by_bytes.put(key, (b"x" * key, 1, key))  # 1 + ... + 5 bytes: the oldest go
    assert len(by_bytes) == 2 and by_bytes.bytes == 4 + 5
    assert by_bytes.get_many([3, 4, 5]) == [None, (b"xxxx", 1, 4), (b"xxxxx", 1, 5)]
    numbers = cache.numbers(["a", "b", "c", "a"])
    assert numbers[:3] == [0, 1, 2] and numbers[3] == 3  # "a" was forgotten: a new number
    assert png_mod.shared.max_bands == png_mod.MAX_BANDS


def test_only_the_columns_that_changed_are_drawn_again(fonts: Fonts) -> None:
    # Four seats: the side plates sit in columns of their own. Seat 2 (on the left) played a
    # card: its plate's bands are new, but of each only the left column is drawn; the table
    # and the other side plate in those rows come from the cache.
    cache = BandCache()
    seats = tuple(SeatView(name, 13) for name in ("An", "Bình", "Chi", "Dũng"))
    before = BoardView(3, 10, seats, tuple(parse_cards("3s 3c")), 1)
    board_png(before, fonts, cache)
    across = len(COLUMNS) + 1
    bands = len(BOARD_ROWS) + 1
    assert cache.tile_misses == across * bands and cache.tile_hits == 0
    after = BoardView(3, 10, (seats[0], SeatView("Bình", 12), *seats[2:]),
                      tuple(parse_cards("3s 3c")), 1)
    data = board_png(after, fonts, cache)
    new = cache.misses - bands
    assert new == 3  # the side plate's rows, cut where the centre's lines start
    assert cache.tile_misses == across * bands + new  # one column of each new band
    assert cache.tile_hits == (across - 1) * new
    assert _pixels(data) == _pixels(_pillows(render_board(after, fonts), fonts))


def test_each_step_paints_only_its_rows_and_columns(fonts: Fonts) -> None:
    # What a band's columns are known by holds only if no step paints outside the rows and
    # columns it gives: each step of every fifth board, alone on the bare felt.
    felt = render_module._felt(BOARD_SIZE)
    boards = _games(2)[::5]
    checked = 0
    for view in boards:
        for first, last, _, left, right, paint in board_parts(view, fonts):
            img = felt.copy()
            paint(img, 0, 0)
            box = ImageChops.difference(img, felt).getbbox()
            if box is not None:
                assert left <= box[0] and box[2] <= right, view
                assert first <= box[1] and box[3] <= last, view
                checked += 1
    assert checked > 5 * len(boards)
