"""Draw a board or a hand from its view-model into an image (no caching here, see ``service``).

The board is 840×560 pixels: seat plates around a green table (seat 0 at the bottom, the others
placed so that play goes round counter-clockwise, as Tiến Lên is played), the play to beat in
the middle with who played it (a long play spreads across the table below the side plates), or
"New lead" and who won the trick. A plate shows the seat number, the name, the cards held as a
small stack of backs with the count beside it, and a mark (1 or 2 cards left, passed, away, or
the place once out) and, at the end, the chip change; the seat whose turn it is has a gold
plate, a passed seat a grey one, a seat on 1 or 2 cards a thick red or orange ring. Sizes are
chosen for a phone, where Discord shows an image about 360-400 points wide: the header is 32 px
bold, names 21 px (18 px for long ones), counts 30 px, card ranks about 26 px on the board and
33 px in a hand.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from engine import Card, Rank, Suit

from .cards import back_sprite, card_pieces, card_sprite, paste_pieces
from .fonts import EMPTY_NAME, Fonts, clean
from .model import BoardView, BoardWords, HandView, SeatView
from .png import BandCache, encode_parts, encode_picture, shared

__all__ = ["BOARD_SIZE", "board_png", "encode", "palette", "render_board", "render_hand"]

BOARD_SIZE = (840, 560)
FELT = (21, 92, 58)
FELT_DARK = (16, 74, 46)
TABLE_EDGE = (14, 60, 38)
PLATE = (12, 48, 31)
PLATE_DIM = (34, 52, 44)
PLATE_PASSED = (62, 66, 72)  # a passed seat: grey, plainly not the table's green
PASSED_EDGE = (120, 126, 134)
PLATE_EDGE = (70, 120, 92)
PLATE_TURN = (246, 196, 62)
TEXT = (240, 244, 240)
TEXT_DIM = (168, 190, 176)
TEXT_DARK = (28, 28, 24)
GREEN_UP = (110, 226, 128)
RED_DOWN = (255, 128, 120)
MARK_PASSED = (96, 104, 112)
MARK_AWAY = (222, 130, 40)
PLACE_COLOURS = ((246, 196, 62), (196, 204, 212), (205, 140, 82))
MARK_OUT = (92, 150, 220)
MARK_LAST = (214, 48, 49)
MARK_TWO = (240, 140, 30)

PLATE_W, PLATE_H = 220, 100
NAME_SIZE = 21
NAME_MIN = 18  # a long name is drawn smaller, down to this, before it is cut
HEADER_SIZE = 32  # "Table #1 · stake 10": capitals about 10 px tall when shown 360 px wide
PILL_SIZE = 17
PILL_H = 30
BACKS_W = 60  # the widest a stack of backs gets
MIN_STEP = 34  # the least of a card left visible when cards overlap
BOARD_CARD_W = 76
HAND_CARD_W = 96
HAND_LIFT = 24
HAND_PAD = 12
HAND_MAX_W = 840
BACK_W = 26
REVEAL_W = 32  # a card held at the end, face up on its seat's plate
BACK_H = round(BACK_W * 1.4)


@lru_cache(maxsize=32)
def _slots(n: int, direction: int = 1) -> tuple[tuple[int, int], ...]:
    """Top-left corners of the seat plates for ``n`` seats, seat 0 at the bottom, placed so that
    play goes counter-clockwise: with ``direction`` 1 seat 1 sits on seat 0's right, with -1
    (play goes 0, n-1, …) on its left. Worked out once for each (a board asks every time)."""
    w, h = BOARD_SIZE
    x_mid = (w - PLATE_W) // 2
    bottom, top, side_y = h - PLATE_H - 10, 10, (h - PLATE_H) // 2 - 5
    left, right = 10, w - PLATE_W - 10
    thirds = [(w * k) // 6 - PLATE_W // 2 for k in (1, 3, 5)]  # x of 3 plates in a row
    halves = [(w * k) // 4 - PLATE_W // 2 + (1 if k == 1 else -1) * 30 for k in (1, 3)]
    b, t = (x_mid, bottom), (x_mid, top)
    lft, rgt = (left, side_y), (right, side_y)
    layouts: dict[int, list[tuple[int, int]]] = {
        1: [b],
        2: [b, t],
        3: [b, (halves[0], top), (halves[1], top)],
        4: [b, lft, t, rgt],
        5: [b, lft, (halves[0], top), (halves[1], top), rgt],
        6: [b, lft, *((x, top) for x in thirds), rgt],
        7: [(halves[1], bottom), (halves[0], bottom), lft, *((x, top) for x in thirds), rgt],
        8: [*((x, bottom) for x in reversed(thirds)), lft, *((x, top) for x in thirds), rgt],
    }
    clockwise = layouts[n]
    if direction == -1:
        return tuple(clockwise)
    return tuple((w - PLATE_W - x, y) for x, y in clockwise)  # mirrored: counter-clockwise


@lru_cache(maxsize=4)
def _felt(size: tuple[int, int]) -> Image.Image:
    """The empty table: felt with a darker oval."""
    img = Image.new("RGB", size, FELT_DARK)
    w, h = size
    ImageDraw.Draw(img).rounded_rectangle([40, 60, w - 40, h - 60], radius=150, fill=FELT,
                                          outline=TABLE_EDGE, width=6)
    return img


def _label(img: Image.Image, fonts: Fonts, x: float, y: float, text: str, size: int,
           fill: tuple[int, int, int], anchor: str = "la", *, bold: bool = True,
           within: tuple[int, int] | None = None,
           across: tuple[int, int] | None = None) -> float:
    """Draw a line of text (cached mask), only in the rows ``within`` and the columns
    ``across`` if given; returns its width."""
    line = fonts.text(text, size, bold)
    line.draw(img, x, y, fill, anchor, within, across)
    return line.width


def _pill(img: Image.Image, fonts: Fonts, right: int, top: int,
          text: str, fill: tuple[int, int, int], ink: tuple[int, int, int]) -> int:
    """Draw a rounded label ending at ``right``; returns its left edge."""
    line = fonts.text(text, PILL_SIZE, True)
    left = right - round(line.width) - 18
    img.paste(fill, (left, top), _pill_shape(right - left))
    line.draw(img, left + 9, top + PILL_H / 2, ink, "lm")
    return left


@lru_cache(maxsize=64)
def _pill_shape(width: int) -> Image.Image:
    """The mask of a label's rounded shape ``width`` pixels wide (made once per width: the
    same pixels as drawing the rounded rectangle in place, at a tenth of the cost)."""
    mask = Image.new("L", (width + 1, PILL_H + 1), 0)
    ImageDraw.Draw(mask).rounded_rectangle([0, 0, width, PILL_H], radius=PILL_H // 2,
                                           fill=255)
    return mask


def _place_colour(place: int) -> tuple[int, int, int]:
    return PLACE_COLOURS[place - 1] if place <= len(PLACE_COLOURS) else MARK_OUT


def _mark(view: BoardView, seat: SeatView) -> tuple[str, tuple[int, int, int],
                                                    tuple[int, int, int]] | None:
    words = view.words
    if seat.place is not None:
        return words.place(seat.place), _place_colour(seat.place), TEXT_DARK
    if seat.cards == 0:
        return words.out, MARK_OUT, TEXT
    if seat.cards == 1 and not view.finished:
        return words.last_card, MARK_LAST, TEXT
    if seat.away:
        return words.away, MARK_AWAY, TEXT_DARK
    if seat.passed and not view.finished:
        return words.passed, MARK_PASSED, TEXT
    if seat.cards == 2 and not view.finished:  # (its ring says so when passed or away)
        return words.two_cards, MARK_TWO, TEXT_DARK
    return None


def _chips(chips: int, words: BoardWords) -> tuple[str, tuple[int, int, int]]:
    if chips > 0:
        return f"+{words.num(chips)}", GREEN_UP
    if chips < 0:
        return f"−{words.num(-chips)}", RED_DOWN
    return "±0", TEXT_DIM


@lru_cache(maxsize=32)
def _back_stack(count: int, widest: int = BACKS_W) -> Image.Image:
    """``count`` card backs fanned slightly (at most 20 drawn), as one RGBA sprite."""
    back = back_sprite(BACK_W)
    shown = min(count, 20)
    step = 0.0 if shown == 1 else min(5.0, (max(BACK_W, widest) - BACK_W) / (shown - 1))
    stack = Image.new("RGBA", (BACK_W + round((shown - 1) * step), back.height), (0, 0, 0, 0))
    for i in range(shown):
        stack.alpha_composite(back, (round(i * step), 0))
    return stack


RING = 3  # how far the 1- or 2-card ring reaches outside a plate


@lru_cache(maxsize=256)
def _plate(x: int, y: int, fill: tuple[int, int, int], outline: tuple[int, int, int],
           flag: tuple[int, int, int] | None, circle: tuple[int, int, int]) -> Image.Image:
    """A seat plate's background at (x, y) with the felt around it: the plate and its edge,
    the 1- or 2-card ring (báo 1 lá / báo 2 lá, a thick ring in the flag's colour) and the seat
    number's circle. Drawn once per place and look (a few dozen in all) and pasted by every
    board: the same pixels as drawing it on the table (plates never overlap), without the
    rounded shapes' cost each time."""
    tile = _felt(BOARD_SIZE).crop((x - RING, y - RING, x + PLATE_W + RING + 1,
                                   y + PLATE_H + RING + 1))
    draw = ImageDraw.Draw(tile)
    draw.rounded_rectangle([RING, RING, RING + PLATE_W, RING + PLATE_H], radius=14, fill=fill,
                           outline=outline, width=3)
    if flag is not None:
        draw.rounded_rectangle([0, 0, 2 * RING + PLATE_W, 2 * RING + PLATE_H], radius=16,
                               outline=flag, width=5)
    cx, cy = RING + 22, RING + 25
    draw.ellipse([cx - 13, cy - 13, cx + 13, cy + 13], fill=circle)
    return tile


def _draw_seat(fonts: Fonts, view: BoardView, index: int, seat: SeatView, x: int, y: int,
               img: Image.Image, dx: int, dy: int) -> None:
    """Draw a seat's plate (its top left corner at column ``x`` and row ``y`` of the board) on
    ``img``, whose first column and row are the board's ``dx`` and ``dy``: nothing outside the
    rows of :func:`_plate_rows` and the columns of :func:`_plate_columns`. The canvas comes
    last, so that a board's step (:data:`Paint`) is this function with the rest given."""
    turn = seat.turn and not view.finished
    dim = seat.passed and not turn and not view.finished
    flag = (MARK_LAST if seat.cards == 1 else MARK_TWO if seat.cards == 2 else None
            ) if not view.finished and seat.place is None else None
    outline = (255, 236, 160) if turn else PASSED_EDGE if dim else PLATE_EDGE
    if seat.away and not view.finished:
        outline = MARK_AWAY
    plate = _plate(x, y, PLATE_TURN if turn else (PLATE_PASSED if dim else PLATE), outline,
                   flag, TEXT_DARK if turn else PLATE_EDGE)
    x, y = x - dx, y - dy  # the plate's felt is the board's; the rest is drawn where img has it
    img.paste(plate, (x - RING, y - RING))
    ink = TEXT_DARK if turn else (TEXT_DIM if dim else TEXT)
    # Row 1: seat number and name (and the chip change at the end, right-aligned). A name's
    # letters are kept to the plate's rows (only a name could reach further: tests show that
    # none does; the rows a part paints must be known before it is drawn, see board_png).
    cx, cy = x + 22, y + 25
    _label(img, fonts, cx, cy, str(index + 1), 16, PLATE_TURN if turn else TEXT, "mm")
    name_right = x + PLATE_W - 10
    if seat.chips is not None:
        text, colour = _chips(seat.chips, view.words)
        width = _label(img, fonts, name_right, cy, text, 21, TEXT_DARK if turn else colour, "rm")
        name_right -= round(width) + 8
    name, size = _fit_name(fonts, seat, name_right - (cx + 20))
    _label(img, fonts, cx + 20, cy, name, size, ink, "lm", within=_plate_rows(y),
           across=_plate_columns(x))
    # Row 2: the cards held as a stack of backs, the count, and a mark; at the end of a game
    # shown face up (lật bài) across the plate instead.
    row_y = y + 50
    if seat.revealed:
        _draw_cards(img, fonts, seat.revealed, REVEAL_W, x + 10, x + PLATE_W - 10, row_y - 2)
        return
    mark = _mark(view, seat)
    pill_left = x + PLATE_W - 10
    if mark is not None:
        pill_left = _pill(img, fonts, x + PLATE_W - 10, row_y + 3, *mark)
    count_x = x + 14
    if seat.cards:  # the stack gives way to the count and the mark
        count_w = fonts.text(str(seat.cards), 30, True).width
        stack = _back_stack(seat.cards, min(BACKS_W, round(pill_left - 8 - count_w - 8
                                                            - (x + 12))))
        img.paste(stack, (x + 12, row_y), stack)
        count_x = x + 12 + stack.width + 8
    _label(img, fonts, count_x, row_y + BACK_H / 2 + 1, str(seat.cards), 30, ink, "lm")


def _plate_rows(y: int) -> tuple[int, int]:
    """The rows (first, last + 1) of a plate whose top is at ``y``, its ring included."""
    return y - RING, y + PLATE_H + RING + 1


def _plate_columns(x: int) -> tuple[int, int]:
    """The columns (first, last + 1) of a plate whose left edge is at ``x``, its ring
    included."""
    return x - RING, x + PLATE_W + RING + 1


def _with_name(fonts: Fonts, text: str, seat: SeatView, size: int, room: float) -> str:
    """``text`` with its ``{name}`` replaced by the seat's name, the name (not the words
    around it) cut so that the whole fits ``room`` pixels, keeping ``seat.keep``."""
    rest = fonts.measure(text.replace("{name}", ""), size, True) + 1
    name = fonts.fit(seat.name, size, True, max(40.0, room - rest), seat.keep)
    return fonts.fit(text.replace("{name}", name), size, True, room)


def _fit_name(fonts: Fonts, seat: SeatView, room: float) -> tuple[str, int]:
    """The name as drawn in ``room`` pixels and its size: whole at 21 px, else smaller down to
    18 px, else cut by width at 18 px (keeping ``seat.keep``)."""
    whole = clean(seat.name) or EMPTY_NAME
    for size in range(NAME_SIZE, NAME_MIN, -1):
        text = fonts.fit(seat.name, size, True, room, seat.keep)
        if text == whole:
            return text, size
    return fonts.fit(seat.name, NAME_MIN, True, room, seat.keep), NAME_MIN


def _draw_cards(img: Image.Image, fonts: Fonts, cards: tuple[Card, ...], width: int,
                x0: float, x1: float, y: int, raised: tuple[bool, ...] = (), lift: int = 0,
                four_colour: bool = False) -> None:
    """Cards overlapping left to right, centred between x0 and x1."""
    n = len(cards)
    if not n:
        return
    room = x1 - x0
    step = min(width + 6, (room - width) / (n - 1)) if n > 1 else 0
    left = x0 + (room - width - step * (n - 1)) / 2
    for i, card in enumerate(cards):
        dy = -lift if raised and raised[i] else 0
        paste_pieces(img, card_pieces(card, width, fonts, four_colour), round(left + i * step),
                     y + dy)


Paint = Callable[[Image.Image, int, int], None]
"""``paint(img, dx, dy)``: a step drawn on ``img``, whose first column and row are the board's
``dx`` and ``dy`` (a canvas of some of the board's rows and columns: what falls outside it is
not drawn). Both are multiples of 2, so that Python's rounding (half to even) places everything
as on the whole board."""
Step = tuple[int, int, Hashable, int, int, Paint]
"""A drawing step of a board: its rows (first, last + 1), its exact arguments, its columns
(first, last + 1), and the drawing."""
COLUMNS = (10 + PLATE_W + 10, BOARD_SIZE[0] - (10 + PLATE_W + 10))
"""Where a board's bands are cut into columns (:func:`.png.encode_parts`): between the side
plates of four to eight seats and the table (the play, the top and bottom plates of four)."""
BOARD_ROWS = (6, 114, 160, 222, 266, 296, 334, 446, 554)
"""Where a board is cut into bands (:func:`.png.encode_parts`): at the edges of what changes
apart. The top plates (rows 7-113 with their rings), the header (to 159), the bare felt above
the side plates, the side plates (222-328) in three bands that they share with the centre's
lines ("New lead" from 266, the title over the play from 296), the play (334-439), the bottom
plates (447-553), and the felt's edge above and below. A plate that changes is then drawn and
compressed once, its own rows and no more. Against bands of 16 rows everywhere, the boards of 50
tables in a server's order drew 0.6 columns a board instead of 4.4 and took 0.24 against 0.45 ms
of CPU (caches warm), 0.28-0.30 against 0.52-0.53 ms (8 MB copied before each), the same
pixels in 6 % fewer bytes (18.1 against 19.2 KB a board); boards of 2 to 8 seats, 0.80 against
1.25 ms."""


def board_parts(view: BoardView, fonts: Fonts) -> list[Step]:
    """The board's drawing steps in order, each with the rows it paints (first, last + 1),
    known before it is drawn, its exact arguments and its columns (:data:`.png.Part`): two
    boards with the same steps over some rows and columns have the same pixels there (the rest
    is the bare felt)."""
    parts: list[Step] = []

    def label(x: float, y: float, text: str, size: int, fill: tuple[int, int, int],
              anchor: str) -> None:
        line = fonts.text(text, size, True)

        def paint(img: Image.Image, dx: int, dy: int) -> None:
            line.draw(img, x - dx, y - dy, fill, anchor)

        parts.append((*line.rows(y, anchor), ("label", x, y, text, size, fill, anchor),
                      *line.columns(x, anchor), paint))

    n = len(view.seats)
    for index, (seat, (x, y)) in enumerate(zip(view.seats, _slots(n, view.direction),
                                               strict=True)):
        parts.append((*_plate_rows(y), ("seat", index, x, y, seat, view.finished, view.words),
                      *_plate_columns(x), partial(_draw_seat, fonts, view, index, seat, x, y)))
    w, h = BOARD_SIZE
    sides = n >= 4
    x0 = 10 + PLATE_W + 12 if sides else 50
    x1 = w - x0
    y0 = 10 + PLATE_H + 10 if n >= 2 else 50
    y1 = h - PLATE_H - 20  # the play to beat sits just above the bottom plates
    mid = w // 2
    words = view.words
    header = words.header.format(table=view.table, stake=words.num(view.stake))
    header = fonts.fit(header, HEADER_SIZE, True, w - 100)
    label(mid, y0 + 2, header, HEADER_SIZE, TEXT, "ma")
    card_h = round(BOARD_CARD_W * 1.4)
    centre_y = (y0 + 40 + y1) // 2
    if view.finished:
        label(mid, centre_y, words.game_over, 34, TEXT, "mm")
    elif view.to_beat:
        title = words.to_beat
        if view.to_beat_by is not None:
            title = _with_name(fonts, f"{title} — {words.played_by}",
                               view.seats[view.to_beat_by], 22, x1 - x0 - 8)
        cards_y = y1 - card_h
        title = fonts.fit(title, 22, True, x1 - x0 - 8)
        label(mid, cards_y - 10, title, 22, TEXT, "md")
        # Between the side plates when the play fits there, else across the whole table.
        n_cards = len(view.to_beat)
        fits = n_cards == 1 or (x1 - x0 - BOARD_CARD_W) / (n_cards - 1) >= MIN_STEP
        lo, hi = (x0, x1) if fits else (50, w - 50)
        played = view.to_beat
        tall = max(card_sprite(card, BOARD_CARD_W, fonts).height for card in played)
        parts.append((cards_y, cards_y + tall, ("cards", played, lo, hi, cards_y), lo - 1, hi + 2,
                      lambda img, dx, dy: _draw_cards(img, fonts, played, BOARD_CARD_W, lo - dx,
                                                         hi - dx, cards_y - dy)))
    else:
        text = fonts.fit(view.note or words.new_lead, 34, True, x1 - x0 - 8)
        if view.note is None and view.lead_by is not None:  # who won the trick (and leads)
            label(mid, centre_y - 20, text, 34, TEXT, "mm")
            won = _with_name(fonts, words.won_trick, view.seats[view.lead_by], 24, x1 - x0 - 8)
            label(mid, centre_y + 22, won, 24, PLATE_TURN, "mm")
        else:
            label(mid, centre_y, text, 34, TEXT, "mm")
    return parts


def _paint(parts: list[Step], wanted: Sequence[int]) -> Image.Image:
    img = _felt(BOARD_SIZE).copy()
    for index in wanted:
        parts[index][5](img, 0, 0)
    return img


def _paint_rows(parts: list[Step], wanted: Sequence[int], top: int, bottom: int, left: int,
                right: int) -> Image.Image:
    """The board's rows ``top`` to ``bottom`` and columns ``left`` to ``right`` with the steps
    ``wanted`` drawn over the felt (:data:`.png.Draw`): a canvas of those alone, so that a step
    crossing them (a side plate beside a changed play) is drawn only where they are, not
    whole."""
    img = _felt(BOARD_SIZE).crop((left, top, right, bottom))
    for index in wanted:
        parts[index][5](img, left, top)
    return img


def render_board(view: BoardView, fonts: Fonts) -> Image.Image:
    """The board picture (RGB)."""
    parts = board_parts(view, fonts)
    return _paint(parts, range(len(parts)))


def render_hand(view: HandView, fonts: Fonts) -> Image.Image:
    """The hand picture (RGB): cards left to right, selected ones raised."""
    n = len(view.cards)
    card_h = round(HAND_CARD_W * 1.4)
    natural = 2 * HAND_PAD + HAND_CARD_W + max(0, n - 1) * (HAND_CARD_W * 2 // 3)
    width = max(2 * HAND_PAD + HAND_CARD_W, min(HAND_MAX_W, natural))
    img = Image.new("RGB", (width, card_h + HAND_LIFT + 2 * HAND_PAD), FELT_DARK)
    _draw_cards(img, fonts, view.cards, HAND_CARD_W, HAND_PAD, width - HAND_PAD,
                HAND_PAD + HAND_LIFT, view.raised, HAND_LIFT, view.four_colour)
    return img


def _reference(fonts: Fonts) -> Image.Image:
    """A board and a hand that use every colour of the design (the palette is taken from it):
    every mark, the 1- and 2-card rings, a passed and an away plate, and a clubs and a diamonds
    card of the four-colour deck (kept small: the warm-up draws this once, before any picture)."""
    suits = list(Suit)
    seats = (
        SeatView("Ánh", 5, turn=True), SeatView("Bảo", 7, passed=True),
        SeatView("Châu", 0, place=1, chips=20), SeatView("Dũng", 3, away=True),
        SeatView("Em", 2, place=2, chips=-10), SeatView("Giang", 0, place=3, chips=0),
        SeatView("Hà", 2), SeatView("Khoa", 1),
    )
    play = tuple(Card(rank, suits[i % 4]) for i, rank in enumerate(Rank))
    board = render_board(BoardView(1, 10, seats, play, 1), fonts)
    hand = render_hand(HandView(play, (True, False) * 6 + (True,)), fonts)
    four = render_hand(HandView((Card(Rank.THREE, Suit.CLUBS), Card(Rank.KING, Suit.DIAMONDS)),
                                four_colour=True), fonts)
    ref = Image.new("RGB", (board.width, board.height + hand.height), FELT_DARK)
    ref.paste(board, (0, 0))
    ref.paste(hand, (0, board.height))
    ref.paste(four, (board.width - four.width, board.height))
    return ref


@lru_cache(maxsize=8)
def palette(fonts: Fonts) -> Image.Image:
    """A fixed 255-colour palette for every picture, taken once from a reference drawing:
    mapping a picture onto a known palette is far faster than finding one per picture."""
    return _reference(fonts).quantize(255, method=Image.Quantize.MEDIANCUT)


def encode(img: Image.Image, fonts: Fonts) -> bytes:
    """PNG bytes of the picture mapped onto the fixed palette (small, and fast to compress)."""
    return encode_picture(img.quantize(palette=palette(fonts), dither=Image.Dither.NONE))


def board_png(view: BoardView, fonts: Fonts, cache: BandCache = shared) -> bytes:
    """The board's PNG bytes, the same pixels as ``encode(render_board(view, fonts), fonts)``,
    with the rows that an earlier board showed the same way taken from ``cache`` (:mod:`.png`):
    about a third of the cost."""
    parts = board_parts(view, fonts)
    return encode_parts(BOARD_SIZE, [part[:5] for part in parts], partial(_paint_rows, parts),
                        palette(fonts), fonts, cache, COLUMNS, BOARD_ROWS)
