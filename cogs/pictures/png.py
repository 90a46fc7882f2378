"""PNG encoding of a board that maps and compresses each band of rows once, however often the
same rows are shown again.

Consecutive boards of a table differ in a few places (a plate, the play in the middle): most of
their rows show what the board before showed, or what another table's shows (the felt). Mapping
the whole picture onto the palette and compressing it every time was most of a board's cost.
Here the picture is cut into bands of rows (where its drawer says: a board at its plates' edges,
``render.BOARD_ROWS``; else every :data:`BAND_ROWS` rows). A band is known by the parts drawn
across its rows (:data:`Part`: the rows a drawing step painted, its exact arguments and its
columns), in drawing order: two boards whose bands have the same parts have the same pixels
there. Each band is mapped onto the palette and compressed once (a raw deflate stream ended at
a byte boundary, so bands can be put side by side) and kept; a picture is its bands' bytes
joined into one zlib stream with the checksum combined from theirs. The result is an ordinary
PNG (palette, 8 bits, no filter) that any decoder reads.

A band that changed is not drawn whole either: its width is cut into columns (a board's side
plates, and the table between them), each known by the parts drawn across it, and each kept
mapped onto the palette (uncompressed: a band's rows are compressed together). Only the columns
that changed are drawn and mapped; the band's rows are then put together from its columns and
compressed. When a side plate's turn ends, the rows it shares with the other side plate and the
table are not drawn again.
"""

from __future__ import annotations

import bisect
import contextlib
import functools
import itertools
import struct
import threading
import types
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple, TypeVar

from PIL import Image

T = TypeVar("T")

deflate: types.ModuleType = zlib
"""What compresses the bands: Intel's ISA-L (``isal``, a dependency) where it is installed,
else Python's zlib. Both write the same format (raw deflate, each band ended by a full flush at
a byte boundary, no band referring to the one before); ISA-L at level 1 took 13 µs a band
against zlib's 33 µs at its level 1, for 8 % fewer bytes (613 against 662 a band, the bands of
20 tables' boards), with the CPU's caches warm or cold."""
with contextlib.suppress(ImportError):  # a platform without its wheel: zlib (tests use both)
    from isal import isal_zlib as deflate

BAND_ROWS = 16
"""Rows per band: smaller bands are reused more often but each costs a lookup and a join."""
LEVEL = 1
"""Level of a band (each band is compressed once, then reused), ISA-L's or zlib's. zlib's level
1 against 3, the boards of 50 tables in a server's order (``benchmarks.pictures
--interleave``): 1.62-1.64 against 1.75-1.88 ms of CPU a board with the CPU's caches cold, for
7 % more bytes (20.9 against 19.6 KB a board). ISA-L's level 0 is twice as fast again but
writes 45 % more bytes than its level 1."""
WINDOW_BITS = 13
MEMORY_LEVEL = 5
"""zlib's window (8 KB: a row is under 1 KB, and a band's matches are in the rows just above)
and hash tables kept small: 40 KB of the compressor's memory touched per band instead of
260 KB, for the same bytes. Under load a drawing starts with the CPU's caches full of the
bot's work, and memory touched is most of its cost."""
MAX_BANDS = 8192
"""Bands kept, the least recently used dropped first: a band keeps its compressed bytes (tens
of bytes for the felt, a few KB for a plate or the play)."""
MAX_BAND_BYTES = 12 * 1024 * 1024
"""Memory for the compressed bands, the least recently used dropped first (whichever of this
and :data:`MAX_BANDS` is reached first: a board's bands are a plate's rows or more, 1-3 KB
each). The boards of 50 tables, two games each, in a server's order: 77 % of bands reused with
2 MB, 83 % with 4 MB, 86 % with 8 MB, 89 % with 16 MB (all they needed: 17 MB)."""
MAX_PARTS = 16384
"""Parts kept with their number (a band's key names its parts by number)."""
MAX_TILE_BYTES = 8 * 1024 * 1024
"""Memory for the columns of bands kept mapped (palette indices, a byte a pixel: 4-6 KB a
column of a board's band), the least recently used dropped first. The boards of 50 tables in
a server's order (``benchmarks.pictures --interleave 50``) drew 5.5 of a board's 21.6 columns
of changed bands with 4 MB, 4.4 with 8 MB, 4.2 with 12 MB and 4.1 with 24 MB."""

Part = tuple[int, int, Hashable, int, int]
"""What a drawing step painted: its rows (first, last + 1), everything it drew with, and its
columns (first, last + 1). Nothing is painted outside those rows and columns."""
Tile = tuple[bytes, ...]
"""A column of a band mapped onto the palette: its rows of palette indices (a byte a pixel),
kept apart so that a band's rows are joined from its columns' in one pass of ``bytes.join``
(2.3 against 8.2 µs a band for Pillow's new image, three pastes and ``tobytes``)."""
Band = tuple[bytes, int, int]
"""A band compressed: raw deflate bytes ending at a byte boundary, the Adler-32 and the length
of the rows compressed."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x01"  # deflate, 32 KB window; (0x78 * 256 + 0x01) % 31 == 0
_FINAL_BLOCK = b"\x03\x00"  # an empty, final block of fixed codes: ends the deflate stream
_ADLER_BASE = 65521


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of two byte strings joined, from each one's Adler-32 and the second's
    length (zlib's ``adler32_combine``, which Python's zlib does not offer)."""
    rem = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (rem * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - rem) % _ADLER_BASE
    return low | (high << 16)


_packers = threading.local()


def compress_band(rows: bytes | memoryview) -> Band:
    """Whole rows of palette indices, each after PNG's "no filter" byte (0), compressed. One
    compressor per thread serves every band: a full flush ends each band at a byte boundary and
    resets the compressor, so that no band refers to bytes of the one before (a new compressor
    for each band cost as much as compressing the band)."""
    packer = getattr(_packers, "packer", None)
    if packer is None or _packers.module is not deflate:
        packer = _packers.packer = deflate.compressobj(LEVEL, deflate.DEFLATED, -WINDOW_BITS,
                                                       MEMORY_LEVEL)
        _packers.module = deflate
    packed: bytes = packer.compress(rows) + packer.flush(deflate.Z_FULL_FLUSH)
    checksum: int = deflate.adler32(rows)
    return packed, checksum, len(rows)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", deflate.crc32(data, deflate.crc32(kind))))


def assemble(width: int, height: int, colours: bytes, bands: Sequence[Band]) -> bytes:
    """A PNG file (8-bit palette of ``colours``, RGB triples) of the bands, top to bottom."""
    checksum = 1  # the Adler-32 of nothing
    for _, adler, length in bands:
        checksum = adler32_combine(checksum, adler, length)
    stream = b"".join((_ZLIB_HEADER, *(band[0] for band in bands), _FINAL_BLOCK,
                       struct.pack(">I", checksum)))
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    return b"".join((_SIGNATURE, _chunk(b"IHDR", header), _chunk(b"PLTE", colours),
                     _chunk(b"IDAT", stream), _chunk(b"IEND", b"")))


def encode_picture(mapped: Image.Image) -> bytes:
    """A palette picture's PNG (8 bits, no filter), all its rows compressed as one band: a
    hand's writing took 0.11 ms where Pillow's own PNG writer at zlib level 3 took 0.48 ms, for
    3-7 % more bytes (``benchmarks.pictures --parts``; the same pixels and palette)."""
    width, height = mapped.size
    return assemble(width, height, bytes(mapped.getpalette() or []),
                    [compress_band(_unfiltered_rows(mapped))])


def _unfiltered_rows(mapped: Image.Image) -> bytes:
    """A palette picture's rows, each after PNG's "no filter" byte (0): the picture drawn one
    column to the right of a column of zeros."""
    width, height = mapped.size
    filtered = Image.new("P", (width + 1, height), 0)
    filtered.paste(mapped, (1, 0))
    return filtered.tobytes()


class BandFigures(NamedTuple):
    """A band cache's size and use (each drawing process reports its own): ``bytes`` is the
    memory of the compressed bands and of the columns kept mapped together."""

    bands: int
    bytes: int
    hits: int
    misses: int
    tiles: int = 0
    """Columns of bands kept mapped."""
    tile_hits: int = 0
    tile_misses: int = 0


NO_BANDS = BandFigures(0, 0, 0, 0, 0, 0, 0)
"""The figures of an empty cache (a drawing process that has drawn nothing yet)."""


class BandCache:
    """Compressed bands by key, the columns of bands mapped onto the palette by key, and parts
    by number, all bounded; safe to share between threads. A part's number is never given to
    another part, so a band or a column whose part was forgotten is only missed, never
    mistaken."""

    def __init__(self, max_bands: int = MAX_BANDS, max_parts: int = MAX_PARTS,
                 max_tile_bytes: int = MAX_TILE_BYTES,
                 max_band_bytes: int = MAX_BAND_BYTES) -> None:
        self.max_bands, self.max_parts = max_bands, max_parts
        self.max_band_bytes = max_band_bytes
        self.max_tile_bytes = max_tile_bytes
        self._bands: OrderedDict[Hashable, Band] = OrderedDict()
        self._parts: OrderedDict[Hashable, int] = OrderedDict()
        self._tiles: OrderedDict[Hashable, Tile] = OrderedDict()
        self._numbers = itertools.count()
        self._lock = threading.Lock()
        self._bytes = 0
        self._tile_bytes = 0
        self.hits = 0
        self.misses = 0
        self.tile_hits = 0
        self.tile_misses = 0

    def __len__(self) -> int:
        return len(self._bands)

    @property
    def bytes(self) -> int:
        """Memory held by the compressed bands."""
        return self._bytes

    @property
    def tile_bytes(self) -> int:
        """Memory held by the columns kept mapped."""
        return self._tile_bytes

    def figures(self) -> BandFigures:
        """What the bot's figures line reports of this cache."""
        return BandFigures(len(self._bands), self._bytes + self._tile_bytes, self.hits,
                           self.misses, len(self._tiles), self.tile_hits, self.tile_misses)

    def get_tiles(self, keys: Sequence[Hashable]) -> list[Tile | None]:
        """Each key's column of a band mapped onto the palette (None: not kept), under one
        lock (:data:`Tile`: its rows)."""
        with self._lock:
            found, hits = _found(self._tiles, keys)
            self.tile_hits += hits
            self.tile_misses += len(keys) - hits
        return found

    def put_tile(self, key: Hashable, tile: Tile) -> None:
        with self._lock:
            old = self._tiles.pop(key, None)
            self._tiles[key] = tile
            self._tile_bytes += _pixels(tile) - (0 if old is None else _pixels(old))
            while self._tile_bytes > self.max_tile_bytes and len(self._tiles) > 1:
                self._tile_bytes -= _pixels(self._tiles.popitem(last=False)[1])

    def numbers(self, keys: Sequence[Hashable]) -> list[int]:
        """Each part's number (a new one for a part not seen, or forgotten)."""
        found: list[int] = []
        with self._lock:
            for key in keys:
                number = self._parts.get(key)
                if number is None:
                    number = self._parts[key] = next(self._numbers)
                    if len(self._parts) > self.max_parts:
                        self._parts.popitem(last=False)
                else:
                    self._parts.move_to_end(key)
                found.append(number)
        return found

    def get_many(self, keys: Sequence[Hashable]) -> list[Band | None]:
        """Each key's band (None: not kept), under one lock."""
        with self._lock:
            found, hits = _found(self._bands, keys)
            self.hits += hits
            self.misses += len(keys) - hits
        return found

    def put(self, key: Hashable, band: Band) -> None:
        with self._lock:
            old = self._bands.pop(key, None)
            self._bands[key] = band
            self._bytes += len(band[0]) - (0 if old is None else len(old[0]))
            while len(self._bands) > self.max_bands or (self._bytes > self.max_band_bytes
                                                        and len(self._bands) > 1):
                self._bytes -= len(self._bands.popitem(last=False)[1][0])


def _found(kept: OrderedDict[Hashable, T],
           keys: Sequence[Hashable]) -> tuple[list[T | None], int]:
    """Each key's entry in ``kept`` (None: not kept), each found made the most recently used;
    and how many were found."""
    found: list[T | None] = []
    hits = 0
    for key in keys:
        entry = kept.get(key)
        if entry is not None:
            kept.move_to_end(key)
            hits += 1
        found.append(entry)
    return found, hits


def _rows(columns: Sequence[Tile | None]) -> bytes:
    """A band's rows from its columns' (all kept), each row after its filter byte (0)."""
    assert all(column is not None for column in columns)
    return b"\0" + b"\0".join(map(b"".join, zip(*columns, strict=True)))


def _pixels(tile: Tile) -> int:
    return sum(map(len, tile))


shared = BandCache()
"""The bands of this process (a drawing process draws every board it is given through it)."""


Draw = Callable[[Sequence[int], int, int, int, int], Image.Image]
"""``draw(indices, top, bottom, left, right)``: the picture's rows ``top`` to ``bottom`` and
columns ``left`` to ``right`` (an RGB image that size): the background with the parts
``indices`` drawn over it, in order. ``top`` is one of the picture's band edges and ``left``
one of its column edges (both even)."""


@functools.lru_cache(maxsize=16)
def band_edges(height: int, rows: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The rows where a picture ``height`` rows tall is cut into bands: 0, the inner edges
    ``rows`` (each even, rising) and ``height``; no inner edges given: every :data:`BAND_ROWS`
    rows."""
    inner = rows or tuple(range(BAND_ROWS, height, BAND_ROWS))
    if any(row % 2 or not 0 < row < height for row in inner) or list(inner) != sorted(
            set(inner)):
        raise ValueError(f"band edges must be even, rising and inside the picture: {inner}")
    return (0, *inner, height)


def encode_parts(size: tuple[int, int], parts: Sequence[Part], draw: Draw,
                 palette: Image.Image, salt: Hashable, cache: BandCache = shared,
                 columns: Sequence[int] = (), rows: Sequence[int] = ()) -> bytes:
    """PNG bytes of a picture of ``size`` made of ``parts`` over a background that ``salt``
    determines, mapped onto ``palette``. The picture is cut into bands at ``rows`` (the inner
    edges, each even; none: every :data:`BAND_ROWS` rows): bands seen before, with the same
    parts over them, come from ``cache``; a band not seen before is put together from its
    columns (cut at ``columns``, the inner edges, each even; none: one column), each column of
    it seen before with the same parts over it coming from ``cache`` too and the others drawn by
    ``draw`` (:data:`Draw`) and mapped onto the palette; the band is then compressed."""
    width, height = size
    edges = band_edges(height, tuple(rows))
    spans = list(itertools.pairwise((0, *columns, width)))
    numbers = cache.numbers([part[2] for part in parts])
    count = len(edges) - 1
    over: list[list[int]] = [[] for _ in range(count)]  # the parts over each band, in order
    for index, part in enumerate(parts):
        first = max(0, bisect.bisect_right(edges, part[0]) - 1)
        last = min(count, bisect.bisect_left(edges, part[1]))
        for band in range(first, last):
            over[band].append(index)
    keys: list[Hashable] = [(salt, width, edges[band], edges[band + 1], height,
                             tuple(numbers[i] for i in indices))
                            for band, indices in enumerate(over)]
    bands = cache.get_many(keys)
    missing = [band for band, found in enumerate(bands) if found is None]
    if missing:
        # each missing band's columns: the parts over them, in order, and their keys
        inside: list[list[list[int]]] = []
        tile_keys: list[Hashable] = []
        for band in missing:
            row: list[list[int]] = []
            for left, right in spans:
                indices = [i for i in over[band] if parts[i][3] < right and parts[i][4] > left]
                row.append(indices)
                tile_keys.append((salt, width, height, edges[band], edges[band + 1], left,
                                  right, tuple(numbers[i] for i in indices)))
            inside.append(row)
        tiles = cache.get_tiles(tile_keys)
        across = len(spans)
        for column, (left, right) in enumerate(spans):
            # this column's missing tiles, drawn and mapped at once where their bands are next
            # to each other
            runs: list[list[int]] = []  # indices into ``missing``
            for at, band in enumerate(missing):
                if tiles[at * across + column] is not None:
                    continue
                if runs and missing[runs[-1][-1]] == band - 1:
                    runs[-1].append(at)
                else:
                    runs.append([at])
            for run in runs:
                top = edges[missing[run[0]]]
                bottom = edges[missing[run[-1]] + 1]
                wanted = sorted({i for at in run for i in inside[at][column]})
                pixels = draw(wanted, top, bottom, left, right).quantize(
                    palette=palette, dither=Image.Dither.NONE).tobytes()
                across_px = right - left
                for at in run:
                    band = missing[at]
                    tile = tuple(pixels[row * across_px:(row + 1) * across_px]
                                 for row in range(edges[band] - top, edges[band + 1] - top))
                    cache.put_tile(tile_keys[at * across + column], tile)
                    tiles[at * across + column] = tile
        for at, band in enumerate(missing):
            made = compress_band(_rows(tiles[at * across:(at + 1) * across]))
            cache.put(keys[band], made)
            bands[band] = made
    colours = bytes(palette.getpalette() or [])
    return assemble(width, height, colours, [band for band in bands if band is not None])
