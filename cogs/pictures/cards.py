"""Card faces and the card back, drawn with Pillow from shapes (suits) and the shipped font (ranks).

Every sprite is drawn once at four times its size and scaled down (smooth edges), then kept: a
picture of a table is a few pastes of ready sprites. :func:`emoji_png` draws the 128×128 images
used as application emoji on the card buttons.
"""

from __future__ import annotations

import io
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw

from engine import Card, Rank, Suit

from .fonts import Fonts

__all__ = [
    "BLACK",
    "BLUE",
    "GREEN",
    "RED",
    "back_sprite",
    "card_pieces",
    "card_sprite",
    "draw_suit",
    "emoji_name",
    "emoji_names",
    "emoji_png",
    "paste_pieces",
    "sprite_pieces",
]

RED = (206, 29, 37)
BLACK = (24, 24, 28)
GREEN = (22, 128, 58)  # clubs in the four-colour deck
BLUE = (28, 84, 196)  # diamonds in the four-colour deck
FACE = (252, 252, 250)
EDGE = (120, 126, 134)
BACK = (32, 78, 150)
BACK_LINE = (92, 138, 204)
SS = 4  # supersampling factor

Box = tuple[float, float, float, float]
Colour = tuple[int, int, int]


def draw_suit(draw: ImageDraw.ImageDraw, suit: Suit, box: Box, fill: Colour) -> None:
    """Draw a suit symbol filling ``box`` (x0, y0, x1, y1) from circles and polygons."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    cx = (x0 + x1) / 2
    if suit is Suit.DIAMONDS:
        dx = w * 0.42
        draw.polygon([(cx, y0), (cx + dx, y0 + h / 2), (cx, y1), (cx - dx, y0 + h / 2)], fill=fill)
        return
    if suit is Suit.HEARTS:
        r = w * 0.27
        cy = y0 + r
        for ox in (-0.23, 0.23):
            _circle(draw, cx + w * ox, cy, r, fill)
        top = cy + r * 0.35
        draw.polygon([(x0 + w * 0.005, top), (x1 - w * 0.005, top), (cx, y1)], fill=fill)
        draw.rectangle([cx - w * 0.25, cy, cx + w * 0.25, top + 1], fill=fill)
        return
    stem_top = y0 + h * 0.55
    draw.polygon([(cx, stem_top), (cx + w * 0.17, y1), (cx - w * 0.17, y1)], fill=fill)
    if suit is Suit.SPADES:
        r = w * 0.25
        cy = y0 + h * 0.56
        for ox in (-0.23, 0.23):
            _circle(draw, cx + w * ox, cy, r, fill)
        base = cy - r * 0.35
        draw.polygon([(x0 + w * 0.02, base), (x1 - w * 0.02, base), (cx, y0)], fill=fill)
        draw.rectangle([cx - w * 0.25, base - 1, cx + w * 0.25, cy], fill=fill)
        return
    r = w * 0.235  # clubs
    _circle(draw, cx, y0 + r, r, fill)
    _circle(draw, cx - w * 0.265, y0 + h * 0.54, r, fill)
    _circle(draw, cx + w * 0.265, y0 + h * 0.54, r, fill)
    _circle(draw, cx, y0 + h * 0.47, r * 0.6, fill)


def _circle(draw: ImageDraw.ImageDraw, x: float, y: float, r: float, fill: Colour) -> None:
    draw.ellipse([x - r, y - r, x + r, y + r], fill=fill)


def _colour(card: Card, four_colour: bool = False) -> Colour:
    """Red and black; in the four-colour deck ♣ green and ♦ blue (♠ black, ♥ red)."""
    if four_colour and card.suit is Suit.CLUBS:
        return GREEN
    if four_colour and card.suit is Suit.DIAMONDS:
        return BLUE
    return RED if card.suit.is_red else BLACK


def _rank_image(fonts: Fonts, label: str, height: int, max_width: int, fill: Colour
                ) -> Image.Image:
    """The rank label as an RGBA image ``height`` pixels tall, squeezed to ``max_width``."""
    font = fonts.get(max(6, round(height * 1.32)), bold=True)
    left, top, right, bottom = font.getbbox(label)
    width, tall = max(1, int(right - left)), max(1, int(bottom - top))
    img = Image.new("RGBA", (width, tall), (*fill, 0))
    ImageDraw.Draw(img).text((-left, -top), label, font=font, fill=(*fill, 255))
    scale = height / tall
    new_w = max(1, min(max_width, round(width * scale)))
    return img.resize((new_w, height), Image.Resampling.LANCZOS)


def _card_base(w: int, h: int, fill: Colour, outline: Colour, ss: int = SS
               ) -> tuple[Image.Image, float]:
    img = Image.new("RGBA", (w * ss, h * ss), (0, 0, 0, 0))
    radius = max(2.0, w * ss * 0.09)
    stroke = max(ss, round(w * ss * 0.025))
    ImageDraw.Draw(img).rounded_rectangle(
        [0, 0, w * ss - 1, h * ss - 1], radius=radius, fill=fill, outline=outline, width=stroke
    )
    return img, stroke


def card_sprite(card: Card, width: int, fonts: Fonts, four_colour: bool = False) -> Image.Image:
    """The face of ``card``, ``width`` pixels wide (height 1.4 × width), RGBA with round corners
    (``four_colour``: ♣ green, ♦ blue); cached, however the arguments are passed.

    The rank and a small suit sit in the top-left corner (the part left visible when cards
    overlap), a large suit in the lower right.
    """
    return _card_sprite(card, width, fonts, bool(four_colour))


@lru_cache(maxsize=512)
def _card_sprite(card: Card, width: int, fonts: Fonts, four_colour: bool) -> Image.Image:
    h = round(width * 1.4)
    img, _ = _card_base(width, h, FACE, EDGE)
    colour = _colour(card, four_colour)
    big_w, big_h = width * SS, h * SS
    pad = big_w * 0.07
    rank_h = round(big_w * 0.34)
    rank = _rank_image(fonts, card.rank.label, rank_h, round(big_w * 0.42), colour)
    corner_w = big_w * 0.42
    img.alpha_composite(rank, (round(pad + (corner_w - rank.width) / 2), round(pad)))
    draw = ImageDraw.Draw(img)
    sy = pad + rank_h + big_w * 0.06
    sw = big_w * 0.28
    draw_suit(draw, card.suit, (pad + (corner_w - sw) / 2, sy, pad + (corner_w + sw) / 2,
                                sy + sw * 1.05), colour)
    bw = big_w * 0.44
    bx, by = big_w - pad - bw, big_h - pad - bw * 1.08
    draw_suit(draw, card.suit, (bx, by, bx + bw, by + bw * 1.08), colour)
    return img.resize((width, h), Image.Resampling.LANCZOS)


Piece = tuple[Image.Image, int, bool]
"""A part of a sprite: its rows as an image, their first row in the sprite, and whether they
are pasted through their alpha (else copied: every pixel opaque)."""


def sprite_pieces(sprite: Image.Image) -> tuple[Piece, ...]:
    """``sprite`` (RGBA) cut into the rows above, in and below its longest run of fully opaque
    rows: pasting the middle without its mask is a copy, where a paste through the alpha blends
    every pixel (a hand's 13 cards: 0.5 ms blended, 0.1 ms copied), and a pixel of alpha 255
    blends to itself, so the picture is the same."""
    alpha = sprite.getchannel("A")
    width, height = sprite.size
    opaque = [alpha.crop((0, y, width, y + 1)).getextrema()[0] == 255 for y in range(height)]
    best, start = (0, 0), None
    for y, full in enumerate([*opaque, False]):
        if full and start is None:
            start = y
        elif not full and start is not None:
            if y - start > best[1] - best[0]:
                best = (start, y)
            start = None
    first, last = best
    if last - first < height // 2:
        return ((sprite, 0, True),)
    pieces: list[Piece] = []
    if first > 0:
        pieces.append((sprite.crop((0, 0, width, first)), 0, True))
    pieces.append((sprite.crop((0, first, width, last)), first, False))
    if last < height:
        pieces.append((sprite.crop((0, last, width, height)), last, True))
    return tuple(pieces)


def card_pieces(card: Card, width: int, fonts: Fonts, four_colour: bool = False
                ) -> tuple[Piece, ...]:
    """:func:`card_sprite` cut by :func:`sprite_pieces`; cached."""
    return _card_pieces(card, width, fonts, bool(four_colour))


@lru_cache(maxsize=512)
def _card_pieces(card: Card, width: int, fonts: Fonts, four_colour: bool) -> tuple[Piece, ...]:
    return sprite_pieces(_card_sprite(card, width, fonts, four_colour))


def paste_pieces(img: Image.Image, pieces: tuple[Piece, ...], x: int, y: int) -> None:
    """Paste a sprite cut by :func:`sprite_pieces` at (x, y), as ``img.paste(sprite, (x, y),
    sprite)`` would."""
    for piece, dy, masked in pieces:
        if masked:
            img.paste(piece, (x, y + dy), piece)
        else:
            img.paste(piece, (x, y + dy))


@lru_cache(maxsize=64)
def back_sprite(width: int) -> Image.Image:
    """The card back, ``width`` pixels wide: a blue card with a light lattice and a white rim."""
    h = round(width * 1.4)
    img, stroke = _card_base(width, h, (255, 255, 255), EDGE)
    big_w, big_h = width * SS, h * SS
    inset = max(stroke * 2, round(big_w * 0.09))
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle([inset, inset, big_w - inset, big_h - inset],
                           radius=big_w * 0.05, fill=BACK)
    pattern = Image.new("RGBA", img.size, (0, 0, 0, 0))
    pd = ImageDraw.Draw(pattern)
    step = max(SS * 3, round(big_w * 0.16))
    line = max(SS, round(big_w * 0.02))
    for off in range(-big_h, big_w + big_h, step):
        pd.line([(off, 0), (off + big_h, big_h)], fill=(*BACK_LINE, 255), width=line)
        pd.line([(off, big_h), (off + big_h, 0)], fill=(*BACK_LINE, 255), width=line)
    mask = Image.new("L", img.size, 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        [inset + line, inset + line, big_w - inset - line, big_h - inset - line],
        radius=big_w * 0.04, fill=255)
    img.paste(pattern, (0, 0), Image.composite(pattern.getchannel("A"), mask, mask))
    return img.resize((width, h), Image.Resampling.LANCZOS)


EMOJI_SIZE = 128
EMOJI_DIR = Path(__file__).with_name("assets") / "emoji"  # the 53 emoji images, pre-drawn
EMOJI_SS = 2  # an emoji is shown about 22 pixels tall: less supersampling is plenty


def emoji_name(card: Card | None) -> str:
    """The application emoji name of a card (``tl_10h``) or of the back (``tl_back``)."""
    return "tl_back" if card is None else "tl_" + card.code.lower()


def emoji_names() -> dict[str, Card | None]:
    """Every emoji the bot needs: the 52 faces and the back, by name."""
    names: dict[str, Card | None] = {
        emoji_name(Card(r, s)): Card(r, s) for r in Rank for s in Suit
    }
    names[emoji_name(None)] = None
    return names


@lru_cache(maxsize=64)
def emoji_png(card: Card | None, fonts: Fonts) -> bytes:
    """A 128×128 PNG for an application emoji: a card with a large rank above a large suit."""
    h = EMOJI_SIZE
    w = round(h / 1.4)
    canvas = Image.new("RGBA", (h, h), (0, 0, 0, 0))
    if card is None:
        canvas.alpha_composite(back_sprite(w), ((h - w) // 2, 0))
    else:
        img, _ = _card_base(w, h, FACE, EDGE, EMOJI_SS)
        colour = _colour(card)
        big_w, big_h = w * EMOJI_SS, h * EMOJI_SS
        rank = _rank_image(fonts, card.rank.label, round(big_h * 0.36), round(big_w * 0.84),
                           colour)
        img.alpha_composite(rank, ((big_w - rank.width) // 2, round(big_h * 0.08)))
        sw = big_w * 0.56
        sy = big_h * 0.52
        draw_suit(ImageDraw.Draw(img), card.suit,
                  ((big_w - sw) / 2, sy, (big_w + sw) / 2, sy + sw * 1.05), colour)
        canvas.alpha_composite(img.resize((w, h), Image.Resampling.LANCZOS), ((h - w) // 2, 0))
    out = io.BytesIO()
    canvas.save(out, "PNG")
    return out.getvalue()
