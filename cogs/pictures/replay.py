"""Replay pictures: the board with every hand face up (the game is over, nothing is secret), one
still per step of the viewer, and the whole game as one animated GIF for sharing.

A face-up board is the ordinary board picture (:func:`~cogs.pictures.render.render_board`) with
a strip below it: one row per seat, its number and name, then its cards face up. The animation
is one such frame per step (the deal, then every play, pass or exchange), drawn at half size so
that a four-person game stays well under 300 KB; frames after the first store only the region
that changed (Pillow's GIF writer does that), and every frame is mapped onto the pictures' fixed
palette, which keeps both the encoding and the file small.
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageChops

from engine import Card, Game

from .cards import card_sprite
from .convert import board_view
from .fonts import Fonts
from .model import MAX_HAND, BoardView, BoardWords
from .render import BOARD_SIZE, FELT_DARK, TEXT, TEXT_DIM, encode, palette, render_board

__all__ = ["FaceUpView", "animation_gif", "face_up_png", "face_up_view", "render_face_up"]

ROW_H = 70
REVEAL_CARD_W = 44
NAME_W = 190
FRAME_MS = 900
LAST_FRAME_MS = 4000
TRANSPARENT = 255  # the fixed palette has 255 colours: index 255 is free


@dataclass(frozen=True, slots=True)
class FaceUpView:
    """A board with every seat's hand shown: ``hands[i]`` is seat ``i``'s cards, in order."""

    board: BoardView
    hands: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        if len(self.hands) != len(self.board.seats):
            raise ValueError("a face-up board needs one hand per seat")
        if any(len(h) > MAX_HAND for h in self.hands):
            raise ValueError(f"a hand shows at most {MAX_HAND} cards")


def _draw_hands(img: Image.Image, fonts: Fonts, view: FaceUpView, top: int) -> None:
    """The strip of face-up hands, one row per seat, below the board."""
    width = img.width
    for i, (seat, cards) in enumerate(zip(view.board.seats, view.hands, strict=True)):
        y = top + i * ROW_H
        name = fonts.fit(f"{i + 1}. {seat.name}", 19, True, NAME_W - 16)
        fonts.text(name, 19, True).draw(img, 12, y + ROW_H / 2, TEXT if cards else TEXT_DIM,
                                        "lm")
        if not cards:
            continue
        room = width - NAME_W - 12
        n = len(cards)
        step = min(REVEAL_CARD_W + 4, (room - REVEAL_CARD_W) / (n - 1)) if n > 1 else 0
        for k, card in enumerate(cards):
            sprite = card_sprite(card, REVEAL_CARD_W, fonts)
            img.paste(sprite, (round(NAME_W + k * step), y + (ROW_H - sprite.height) // 2),
                      sprite)


def render_face_up(view: FaceUpView, fonts: Fonts) -> Image.Image:
    """The board picture with every hand face up below it (RGB)."""
    board = render_board(view.board, fonts)
    w, h = BOARD_SIZE
    img = Image.new("RGB", (w, h + ROW_H * len(view.hands) + 8), FELT_DARK)
    img.paste(board, (0, 0))
    _draw_hands(img, fonts, view, h + 4)
    return img


def face_up_png(view: FaceUpView, fonts: Fonts) -> bytes:
    """One step of a replay as PNG bytes (on the fixed palette)."""
    return encode(render_face_up(view, fonts), fonts)


def _unchanged_transparent(frame: Image.Image, previous: Image.Image) -> Image.Image:
    """``frame`` (palette indices) with every pixel that equals ``previous`` made transparent:
    long runs of one index, which the GIF's LZW compression stores in a few bytes."""
    now = Image.frombytes("L", frame.size, frame.tobytes())
    before = Image.frombytes("L", frame.size, previous.tobytes())
    changed = ImageChops.difference(now, before).point(lambda v: 255 if v else 0)
    blank = Image.new("L", frame.size, TRANSPARENT)
    out = Image.frombytes("P", frame.size, Image.composite(now, blank, changed).tobytes())
    out.putpalette(frame.getpalette() or [])
    return out


def animation_gif(views: Sequence[FaceUpView], fonts: Fonts) -> bytes:
    """The whole game as an animated GIF: one frame per step, the last one held longer, looping.
    Frames are drawn at half size (Discord shows an attachment about 400 points wide anyway);
    after the first, a frame stores only the pixels that changed (the others are transparent and
    the previous frame shows through)."""
    if not views:
        raise ValueError("an animation needs at least one frame")
    pal = palette(fonts)
    frames = [render_face_up(v, fonts).reduce(2).quantize(palette=pal, dither=Image.Dither.NONE)
              for v in views]
    stored = [frames[0], *(_unchanged_transparent(f, p) for p, f in itertools.pairwise(frames))]
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    stored[0].save(out, "GIF", save_all=True, append_images=stored[1:], duration=durations,
                   loop=0, optimize=False, disposal=1, transparency=TRANSPARENT)
    return out.getvalue()

def face_up_view(game: Game, names: Sequence[str], *, table: int, stake: int,
                 chips: Sequence[int] | None = None, words: BoardWords | None = None
                 ) -> FaceUpView:
    """What a replay step shows of ``game``: its board, and every seat's hand face up."""
    board = board_view(game, names, table=table, stake=stake, chips=chips, words=words)
    return FaceUpView(board, tuple(tuple(h) for h in game.hands))
