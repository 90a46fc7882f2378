"""Pictures as PNG bytes: cached by what they show, drawn off the event loop.

:class:`Pictures` is what the rest of the bot uses. Identical view-models give identical pictures,
so each kind of picture has a bounded LRU cache keyed by its (frozen, hashable) view-model. The
async methods draw in a one-thread executor, so the event loop never waits on Pillow, and they
return ``None`` instead of raising when a picture cannot be drawn: the caller then sends text only.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from functools import _CacheInfo, lru_cache
from typing import TypeVar

from engine import Card
from engine.cards import full_deck

from .cards import EMOJI_DIR, card_sprite, emoji_name, emoji_png
from .fonts import Fonts
from .model import BoardView, HandView
from .render import BOARD_CARD_W, HAND_CARD_W, encode, palette, render_board, render_hand
from .replay import FaceUpView, animation_gif, face_up_png

__all__ = ["Pictures"]

log = logging.getLogger(__name__)

V = TypeVar("V", BoardView, HandView, FaceUpView)
ANIMATIONS_KEPT = 16


class Pictures:
    """Draws boards, hands and card emoji; thread-safe; one per bot."""

    def __init__(self, fonts: Fonts | None = None, *, cache_size: int = 64,
                 executor: Executor | None = None) -> None:
        self.fonts = fonts if fonts is not None else Fonts.shared()
        self._lock = threading.Lock()  # FreeType faces are not safe to share between threads
        self._board = lru_cache(maxsize=cache_size)(self._draw_board)
        self._hand = lru_cache(maxsize=cache_size)(self._draw_hand)
        self._face_up = lru_cache(maxsize=cache_size)(self._draw_face_up)
        self._animations: OrderedDict[Hashable, asyncio.Future[bytes | None]] = OrderedDict()
        self._executor = executor
        self._own_executor: ThreadPoolExecutor | None = None
        self._failed = False

    def board_png(self, view: BoardView) -> bytes:
        """The board picture as PNG bytes (cached; raises if it cannot be drawn)."""
        return self._board(view)

    def hand_png(self, view: HandView) -> bytes:
        """The hand picture as PNG bytes (cached; raises if it cannot be drawn)."""
        return self._hand(view)

    def emoji_png(self, card: Card | None) -> bytes:
        """The 128×128 emoji image of a card, or of the back for ``None``: the file shipped in
        ``assets/emoji/`` (drawn by :func:`~cogs.pictures.cards.emoji_png`), else drawn now."""
        shipped = EMOJI_DIR / f"{emoji_name(card)}.png"
        if self.fonts is Fonts.shared() and shipped.is_file():
            return shipped.read_bytes()
        with self._lock:
            return emoji_png(card, self.fonts)

    def start_warm_up(self) -> None:
        """:meth:`warm_up` in the drawing thread, without waiting for it (pictures asked for
        meanwhile are drawn after it)."""
        self._drawing_executor().submit(self.warm_up)

    def warm_up(self) -> None:
        """Prepare the palette, fonts and card sprites, so the first real picture is fast."""
        with self._lock:
            palette(self.fonts)
            for card in full_deck():
                for width in (BOARD_CARD_W, HAND_CARD_W):
                    card_sprite(card, width, self.fonts)

    async def board(self, view: BoardView) -> bytes | None:
        """The board PNG drawn off the event loop, or ``None`` (logged) if it cannot be drawn."""
        return await self._off_loop(self._board, view)

    async def hand(self, view: HandView) -> bytes | None:
        """The hand PNG drawn off the event loop, or ``None`` (logged) if it cannot be drawn."""
        return await self._off_loop(self._hand, view)

    async def face_up(self, view: FaceUpView) -> bytes | None:
        """A replay step (every hand face up) as PNG, drawn off the event loop, or ``None``."""
        return await self._off_loop(self._face_up, view)

    async def animation(self, key: Hashable,
                        frames: Callable[[], Sequence[FaceUpView]]) -> bytes | None:
        """The animated GIF of a replay, drawn once per ``key`` (a game and a language) and
        kept for the last few keys; ``frames`` builds the frames' views (it runs in the drawing
        thread too). Callers asking for a key being drawn wait for that drawing. ``None``
        (logged) if it cannot be drawn; a failure is not kept."""
        known = self._animations.get(key)
        if known is not None:
            self._animations.move_to_end(key)
            return await asyncio.shield(known)
        future: asyncio.Future[bytes | None] = asyncio.get_running_loop().create_future()
        self._animations[key] = future
        while len(self._animations) > ANIMATIONS_KEPT:
            self._animations.popitem(last=False)
        try:
            data = await asyncio.get_running_loop().run_in_executor(
                self._drawing_executor(), self._draw_animation, frames)
        except Exception:
            log.exception("card pictures: a replay animation could not be drawn")
            data = None
        if data is None and self._animations.get(key) is future:
            del self._animations[key]
        future.set_result(data)
        return data

    def cache_info(self) -> dict[str, _CacheInfo]:
        return {"board": self._board.cache_info(), "hand": self._hand.cache_info()}

    def close(self) -> None:
        """Stop the drawing thread (if this object started one)."""
        if self._own_executor is not None:
            self._own_executor.shutdown(wait=False, cancel_futures=True)
            self._own_executor = None

    def _drawing_executor(self) -> Executor:
        if self._executor is not None:
            return self._executor
        if self._own_executor is None:
            self._own_executor = ThreadPoolExecutor(1, thread_name_prefix="pictures")
        return self._own_executor

    async def _off_loop(self, draw: Callable[[V], bytes], view: V) -> bytes | None:
        executor = self._drawing_executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, draw, view)
        except Exception:
            if not self._failed:
                self._failed = True
                log.exception("card pictures: drawing failed; sending text only")
            else:
                log.debug("card pictures: drawing failed again", exc_info=True)
            return None

    def _draw_board(self, view: BoardView) -> bytes:
        with self._lock:
            return encode(render_board(view, self.fonts), self.fonts)

    def _draw_face_up(self, view: FaceUpView) -> bytes:
        with self._lock:
            return face_up_png(view, self.fonts)

    def _draw_animation(self, frames: Callable[[], Sequence[FaceUpView]]) -> bytes:
        views = frames()
        with self._lock:
            return animation_gif(views, self.fonts)

    def _draw_hand(self, view: HandView) -> bytes:
        with self._lock:
            return encode(render_hand(view, self.fonts), self.fonts)
