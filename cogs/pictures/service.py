"""Pictures as PNG bytes: keyed by what they show, cached, drawn off the event loop.

:class:`Pictures` is what the rest of the bot uses. A picture's key (:func:`picture_key`) is a
hash of its kind and its view-model (the view-model holds everything drawn: the cards, the names,
the words in the reader's language, the viewer's picture preferences), so identical pictures
share one key, one drawing and one cache entry (:class:`PictureCache`, bounded in entries and
bytes and reported by :meth:`Pictures.figures`).

Two ways to ask:
- :meth:`Pictures.want` never waits: the picture if it is ready (or known not to draw), else it
  queues the drawing in the pool of processes (:mod:`.pool`; ``workers=0``: drawn at once in the
  caller's thread, for tiny installs) and calls ``ready`` once it is done; :meth:`Pictures.wait`
  waits a bounded time for a wanted picture.
- ``await board(view)`` / ``await hand(view)`` wait for the picture (``None`` if it cannot be
  drawn); ``board_png`` / ``hand_png`` draw in the caller's thread.
A drawing that fails (raises, runs past the time limit, its process dies twice) is remembered
for its key with one log line: the message that wanted it shows text.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import pickle
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable, Hashable, Sequence
from concurrent.futures import Executor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import _CacheInfo, lru_cache
from typing import TypeVar

from engine import Card
from engine.cards import full_deck

from .cards import EMOJI_DIR, card_pieces, emoji_name, emoji_png
from .fonts import Fonts
from .model import BoardView, HandView, pack
from .png import shared as band_cache
from .pool import DrawingPool
from .render import BOARD_CARD_W, HAND_CARD_W, board_png, encode, palette, render_hand
from .replay import FaceUpView, animation_gif, face_up_png

__all__ = ["PictureCache", "Pictures", "Wanted", "picture_job", "picture_key"]

log = logging.getLogger(__name__)

V = TypeVar("V", BoardView, HandView, FaceUpView)
ANIMATIONS_KEPT = 16
FAILURES_KEPT = 256
SLOTS_KEPT = 20_000
TIME_LIMIT = 5.0
"""Seconds a drawing may take in the pool before it is abandoned (its message shows text)."""


def picture_job(kind: str, view: BoardView | HandView, extra: str = "") -> tuple[str, bytes]:
    """A picture's key and its view as a drawing process is sent it: the view packed
    (:func:`.model.pack`) and pickled. The key is a short hash of those bytes with ``kind`` and
    ``extra`` (anything else that belongs to the picture: the language of its description):
    equal for equal view-models (whatever process computes it), different for any change that
    is drawn (the bytes unpickle to the view)."""
    job = pickle.dumps(pack(view), protocol=pickle.HIGHEST_PROTOCOL)
    digest = hashlib.blake2b(f"{kind}|{extra}|".encode(), digest_size=12)
    digest.update(job)
    return digest.hexdigest(), job


def picture_key(kind: str, view: BoardView | HandView, extra: str = "") -> str:
    """What a picture shows, as a short hash (see :func:`picture_job`)."""
    return picture_job(kind, view, extra)[0]


@dataclass(frozen=True, slots=True)
class Wanted:
    """A picture asked for: its key and its bytes when ready; ``failed``: it cannot be drawn
    (the message shows text)."""

    key: str
    png: bytes | None = None
    failed: bool = False

    @property
    def ready(self) -> bool:
        return self.png is not None or self.failed


class PictureCache:
    """PNG bytes by key, least recently used first out, bounded in entries and in bytes."""

    def __init__(self, max_entries: int = 512, max_bytes: int = 16 * 1024 * 1024) -> None:
        self.max_entries, self.max_bytes = max_entries, max_bytes
        self._data: OrderedDict[str, tuple[str, bytes]] = OrderedDict()
        self.bytes = 0
        self.hits: dict[str, int] = {}
        self.misses: dict[str, int] = {}

    def get(self, key: str, kind: str) -> bytes | None:
        entry = self._data.get(key)
        if entry is None:
            self.misses[kind] = self.misses.get(kind, 0) + 1
            return None
        self._data.move_to_end(key)
        self.hits[kind] = self.hits.get(kind, 0) + 1
        return entry[1]

    def peek(self, key: str) -> bytes | None:
        entry = self._data.get(key)
        return None if entry is None else entry[1]

    def put(self, key: str, kind: str, png: bytes) -> None:
        if self.max_entries <= 0 or len(png) > self.max_bytes:
            return
        old = self._data.pop(key, None)
        if old is not None:
            self.bytes -= len(old[1])
        self._data[key] = (kind, png)
        self.bytes += len(png)
        while len(self._data) > self.max_entries or self.bytes > self.max_bytes:
            _, (_, dropped) = self._data.popitem(last=False)
            self.bytes -= len(dropped)

    def __len__(self) -> int:
        return len(self._data)

    def count(self, kind: str) -> int:
        return sum(1 for k, _ in self._data.values() if k == kind)


class _Delays:
    """The last few thousand delays (seconds), for percentiles."""

    def __init__(self, kept: int = 4096) -> None:
        self._values: deque[float] = deque(maxlen=kept)
        self.count = 0
        self._ordered: list[float] = []
        self._ordered_at = 0  # the count when they were sorted

    def add(self, seconds: float) -> None:
        self._values.append(max(0.0, seconds))
        self.count += 1

    def percentile(self, p: float) -> float:
        if not self._values:
            return 0.0
        if self._ordered_at != self.count:  # sorted once for every percentile of a line
            self._ordered, self._ordered_at = sorted(self._values), self.count
        ordered = self._ordered
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


class Pictures:
    """Draws boards, hands and card emoji; one per bot. ``workers``: drawing processes (0: draw
    in the caller's thread); ``cache_size``: pictures kept (and ``cache_bytes`` at most);
    ``queue_size``: the drawing queue's bound (see :mod:`.pool`); ``delay``: seconds each pooled
    drawing waits first (a test hook)."""

    def __init__(self, fonts: Fonts | None = None, *, cache_size: int = 512,
                 cache_bytes: int = 16 * 1024 * 1024, executor: Executor | None = None,
                 workers: int = 0, queue_size: int = 64, time_limit: float = TIME_LIMIT,
                 delay: float = 0.0) -> None:
        self.fonts = fonts if fonts is not None else Fonts.shared()
        self._lock = threading.Lock()  # FreeType faces are not safe to share between threads
        self.cache = PictureCache(cache_size, cache_bytes)
        self._face_up = lru_cache(maxsize=64)(self._draw_face_up)
        self._animations: OrderedDict[Hashable, asyncio.Future[bytes | None]] = OrderedDict()
        self._executor = executor
        self._own_executor: ThreadPoolExecutor | None = None
        self._failed_once = False
        self._failures: OrderedDict[str, str] = OrderedDict()  # key -> why it cannot be drawn
        self._ready: dict[str, list[Callable[[str], None]]] = {}
        self._waiters: dict[str, list[asyncio.Future[None]]] = {}
        self._wanted_since: dict[Hashable, tuple[str, float]] = {}
        self.staleness = _Delays()
        """From a message first wanting a picture to an edit carrying it (seconds)."""
        self.pool = (DrawingPool(workers, self._pool_done, queue_size=queue_size,
                                 time_limit=time_limit, delay=delay, dropped=self._pool_dropped)
                     if workers > 0 else None)
        self.inline_kinds: Counter[str] = Counter()
        """Pictures drawn in the caller's thread, by kind."""
        self.inline_seconds = 0.0
        self._started = time.monotonic()

    # ----------------------------------------------------------------- keyed, never waiting
    def want(self, kind: str, view: BoardView | HandView, slot: Hashable,
             extra: str = "") -> Wanted:
        """The picture of ``view`` for the message ``slot``, if it is ready; else its drawing is
        queued (:meth:`on_ready` says when it is done). With no pool it is drawn now."""
        key, job = picture_job(kind, view, extra)
        since = self._wanted_since.get(slot)
        if slot is not None and (since is None or since[0] != key):
            self._wanted_since.pop(slot, None)
            self._wanted_since[slot] = (key, time.monotonic())
            if len(self._wanted_since) > SLOTS_KEPT:  # messages long gone
                del self._wanted_since[next(iter(self._wanted_since))]
        png = self.cache.get(key, kind)
        if png is not None:
            return Wanted(key, png)
        if key in self._failures:
            return Wanted(key, failed=True)
        if self.pool is None:
            try:
                png = self._draw_inline(kind, view)
            except Exception as error:
                self._fail(key, kind, f"drawing raised {type(error).__name__}", error)
                return Wanted(key, failed=True)
            self.cache.put(key, kind, png)
            return Wanted(key, png)
        # (a picture awaited for no message is its own "message": never dropped for another)
        self.pool.submit(key, kind, job, slot if slot is not None else ("awaited", key))
        return Wanted(key)

    def on_ready(self, wanted: Wanted, ready: Callable[[str], None]) -> None:
        """Call ``ready(key)`` on the event loop once ``wanted`` is drawn or failed (soon, if it
        is already)."""
        if self.known(wanted).ready or self.pool is None or not self.pool.pending(wanted.key):
            asyncio.get_running_loop().call_soon(ready, wanted.key)
        else:
            self._ready.setdefault(wanted.key, []).append(ready)

    def known(self, wanted: Wanted) -> Wanted:
        """``wanted`` as it stands now (the cache or the failures may know it by now)."""
        if wanted.ready:
            return wanted
        png = self.cache.peek(wanted.key)
        if png is not None:
            return Wanted(wanted.key, png)
        return Wanted(wanted.key, failed=wanted.key in self._failures)

    async def wait(self, wanted: Wanted, seconds: float) -> Wanted:
        """``wanted`` once it is ready, or as it stands after ``seconds``."""
        wanted = self.known(wanted)
        if wanted.ready or seconds <= 0 or self.pool is None or not self.pool.pending(wanted.key):
            return wanted
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiters.setdefault(wanted.key, []).append(future)
        try:
            await asyncio.wait_for(asyncio.shield(future), seconds)
        except TimeoutError:
            pass
        finally:
            waiting = self._waiters.get(wanted.key)
            if waiting is not None and future in waiting:
                waiting.remove(future)
                if not waiting:
                    del self._waiters[wanted.key]
        return self.known(wanted)

    def shown(self, slot: Hashable, key: str | None) -> None:
        """The message ``slot`` now shows the picture ``key`` (None: none): counts how long it
        waited for it since it first wanted it."""
        since = self._wanted_since.get(slot)
        if since is not None and since[0] == key:
            self.staleness.add(time.monotonic() - since[1])
            del self._wanted_since[slot]

    def forget(self, slot: Hashable) -> None:
        """The message ``slot`` is gone (its table closed)."""
        self._wanted_since.pop(slot, None)

    def _pool_done(self, key: str, kind: str, png: bytes | None, reason: str) -> None:
        if png is not None:
            self.cache.put(key, kind, png)
        else:
            self._fail(key, kind, reason, None)
        for future in self._waiters.pop(key, []):
            if not future.done():
                future.set_result(None)
        for ready in self._ready.pop(key, []):
            try:
                ready(key)
            except Exception:
                log.exception("card pictures: a picture's follow-up failed")

    def _pool_dropped(self, key: str) -> None:
        """A drawing dropped from the full queue: its message has a newer one queued (which
        brings its own follow-up); whoever waits for it stops waiting."""
        self._ready.pop(key, None)
        for future in self._waiters.pop(key, []):
            if not future.done():
                future.set_result(None)

    def _fail(self, key: str, kind: str, reason: str, error: BaseException | None) -> None:
        """One log line per picture that cannot be drawn (its message is sent as text): the
        first as a warning (with the error), later ones at info level (a broken font fails
        every picture)."""
        self._failures[key] = reason
        while len(self._failures) > FAILURES_KEPT:
            self._failures.popitem(last=False)
        level = logging.INFO if self._failed_once else logging.WARNING
        self._failed_once = True
        log.log(level, "card pictures: a %s could not be drawn (%s); sending text only",
                kind, reason, exc_info=error if level == logging.WARNING else None)

    def _draw_inline(self, kind: str, view: BoardView | HandView) -> bytes:
        start = time.perf_counter()
        try:
            if kind == "board":
                assert isinstance(view, BoardView)
                return self._draw_board(view)
            assert isinstance(view, HandView)
            return self._draw_hand(view)
        finally:
            self.inline_kinds[kind] += 1
            self.inline_seconds += time.perf_counter() - start

    def figures(self) -> str:
        """One line for the bot's periodic log: drawings, cache, queue, staleness."""
        pool = self.pool
        elapsed = max(time.monotonic() - self._started, 1e-9)
        kinds = (pool.drawn_kinds if pool is not None else self.inline_kinds)
        drawn = kinds.total()
        seconds = (pool.draw_seconds if pool is not None else self.inline_seconds)
        parts = [
            f"pictures: {drawn} drawn ({drawn / elapsed:.1f}/s, "
            f"{seconds / max(drawn, 1) * 1000:.1f} ms each; {kinds['board']} boards, "
            f"{kinds['hand']} hands)",
            f"cache {len(self.cache)} pictures, {self.cache.bytes / 1024:.0f} KB, "
            f"{sum(self.cache.hits.values())} hits, {sum(self.cache.misses.values())} misses",
            f"{len(self._failures)} failed",
            f"staleness p50 {self.staleness.percentile(50) * 1000:.0f} ms, p95 "
            f"{self.staleness.percentile(95) * 1000:.0f} ms over {self.staleness.count}",
        ]
        if pool is not None:
            parts.append(f"pool {pool.size} workers, queue {pool.queued} (peak "
                         f"{pool.queue_peak}), {pool.dropped} dropped, {pool.replaced} "
                         f"replaced, {pool.retried} retried")
        bands = pool.bands if pool is not None else band_cache.figures()
        parts.append(f"bands {bands.bands} ({bands.bytes / 1024:.0f} KB, "
                     f"{bands.hits / max(1, bands.hits + bands.misses):.0%} reused), "
                     f"columns {bands.tiles} ("
                     f"{bands.tile_hits / max(1, bands.tile_hits + bands.tile_misses):.0%} "
                     "reused)")
        return "; ".join(parts)

    # ----------------------------------------------------------------- waiting, or here
    def board_png(self, view: BoardView) -> bytes:
        """The board picture as PNG bytes, drawn here if not cached (raises if it cannot)."""
        return self._here("board", view)

    def hand_png(self, view: HandView) -> bytes:
        """The hand picture as PNG bytes, drawn here if not cached (raises if it cannot)."""
        return self._here("hand", view)

    def _here(self, kind: str, view: BoardView | HandView) -> bytes:
        key = picture_key(kind, view)
        png = self.cache.get(key, kind)
        if png is None:
            png = self._draw_board(view) if isinstance(view, BoardView) else self._draw_hand(view)
            self.cache.put(key, kind, png)
        return png

    def emoji_png(self, card: Card | None) -> bytes:
        """The 128×128 emoji image of a card, or of the back for ``None``: the file shipped in
        ``assets/emoji/`` (drawn by :func:`~cogs.pictures.cards.emoji_png`), else drawn now."""
        shipped = EMOJI_DIR / f"{emoji_name(card)}.png"
        if self.fonts is Fonts.shared() and shipped.is_file():
            return shipped.read_bytes()
        with self._lock:
            return emoji_png(card, self.fonts)

    def start_warm_up(self) -> None:
        """Start the drawing processes (each warms up by itself), or :meth:`warm_up` in the
        drawing thread without a pool; without waiting (pictures asked for meanwhile are drawn
        after it)."""
        if self.pool is not None:
            self.pool.start()
        else:
            self._drawing_executor().submit(self.warm_up)

    def warm_up(self) -> None:
        """Prepare the palette, fonts and card sprites, so the first real picture is fast."""
        with self._lock:
            palette(self.fonts)
            for card in full_deck():
                for width in (BOARD_CARD_W, HAND_CARD_W):
                    card_pieces(card, width, self.fonts)  # the sprite, and its pieces

    async def board(self, view: BoardView) -> bytes | None:
        """The board PNG, waiting for it (drawn off the event loop), or ``None`` (logged) if it
        cannot be drawn."""
        return await self._drawn("board", view)

    async def hand(self, view: HandView) -> bytes | None:
        """The hand PNG, waiting for it (drawn off the event loop), or ``None`` (logged)."""
        return await self._drawn("hand", view)

    async def _drawn(self, kind: str, view: BoardView | HandView) -> bytes | None:
        if self.pool is not None:
            wanted = self.want(kind, view, None)
            if not wanted.ready:
                wanted = await self.wait(wanted, self.pool.time_limit * 3)
            return wanted.png
        key = picture_key(kind, view)
        png = self.cache.get(key, kind)
        if png is not None or key in self._failures:
            return png
        try:
            png = await asyncio.get_running_loop().run_in_executor(
                self._drawing_executor(), self._draw_inline, kind, view)
        except Exception as error:
            self._fail(key, kind, f"drawing raised {type(error).__name__}", error)
            return None
        self.cache.put(key, kind, png)
        return png

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
        cache = self.cache
        return {kind: _CacheInfo(cache.hits.get(kind, 0), cache.misses.get(kind, 0),
                                 cache.max_entries, cache.count(kind))
                for kind in ("board", "hand")}

    def close(self) -> None:
        """Stop the drawing processes and the drawing thread (if this object started one)."""
        if self.pool is not None:
            self.pool.close()
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
            if not self._failed_once:
                self._failed_once = True
                log.exception("card pictures: drawing failed; sending text only")
            else:
                log.debug("card pictures: drawing failed again", exc_info=True)
            return None

    def _draw_board(self, view: BoardView) -> bytes:
        with self._lock:
            return board_png(view, self.fonts)

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
