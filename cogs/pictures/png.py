"""PNG encoding of a board that maps and compresses each band of rows once, however often the
same rows are shown again.

Consecutive boards of a table differ in a few places (a plate, the play in the middle): most of
their rows show what the board before showed, or what another table's shows (the felt). Mapping
the whole picture onto the palette and compressing it every time was most of a board's cost.
Here the picture is cut into bands of :data:`BAND_ROWS` rows. A band is known by the parts drawn
across its rows (:data:`Part`: the rows a drawing step painted and its exact arguments), in
drawing order: two boards whose bands have the same parts have the same pixels there. Each band
is mapped onto the palette and compressed once (a raw deflate stream ended at a byte boundary,
so bands can be put side by side) and kept; a picture is its bands' bytes joined into one zlib
stream with the checksum combined from theirs. The result is an ordinary PNG (palette, 8 bits,
no filter) that any decoder reads.
"""

from __future__ import annotations

import contextlib
import itertools
import struct
import threading
import types
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import NamedTuple

from PIL import Image

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
of bytes for the felt, a few KB for a row of cards): about 6 MB once full, 12 MB with the
steps' numbers and keys."""
MAX_PARTS = 16384
"""Parts kept with their number (a band's key names its parts by number)."""

Part = tuple[int, int, Hashable]
"""What a drawing step painted: its rows (first, last + 1) and everything it drew with."""
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
            + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind))))


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
    """A band cache's size and use (each drawing process reports its own)."""

    bands: int
    bytes: int
    hits: int
    misses: int


NO_BANDS = BandFigures(0, 0, 0, 0)
"""The figures of an empty cache (a drawing process that has drawn nothing yet)."""


class BandCache:
    """Compressed bands by key and parts by number, both bounded; safe to share between
    threads. A part's number is never given to another part, so a band whose part was
    forgotten is only missed, never mistaken."""

    def __init__(self, max_bands: int = MAX_BANDS, max_parts: int = MAX_PARTS) -> None:
        self.max_bands, self.max_parts = max_bands, max_parts
        self._bands: OrderedDict[Hashable, Band] = OrderedDict()
        self._parts: OrderedDict[Hashable, int] = OrderedDict()
        self._numbers = itertools.count()
        self._lock = threading.Lock()
        self._bytes = 0
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._bands)

    @property
    def bytes(self) -> int:
        """Memory held by the compressed bands."""
        return self._bytes

    def figures(self) -> BandFigures:
        """What the bot's figures line reports of this cache."""
        return BandFigures(len(self._bands), self._bytes, self.hits, self.misses)

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
        found: list[Band | None] = []
        with self._lock:
            bands, hits = self._bands, 0
            for key in keys:
                band = bands.get(key)
                if band is not None:
                    bands.move_to_end(key)
                    hits += 1
                found.append(band)
            self.hits += hits
            self.misses += len(keys) - hits
        return found

    def put(self, key: Hashable, band: Band) -> None:
        with self._lock:
            old = self._bands.pop(key, None)
            self._bands[key] = band
            self._bytes += len(band[0]) - (0 if old is None else len(old[0]))
            while len(self._bands) > self.max_bands:
                self._bytes -= len(self._bands.popitem(last=False)[1][0])


shared = BandCache()
"""The bands of this process (a drawing process draws every board it is given through it)."""


Draw = Callable[[Sequence[int], int, int], Image.Image]
"""``draw(indices, top, bottom)``: the picture's rows ``top`` to ``bottom`` (an RGB image that
tall): the background with the parts ``indices`` drawn over it, in order. ``top`` is a
multiple of :data:`BAND_ROWS`."""


def encode_parts(size: tuple[int, int], parts: Sequence[Part], draw: Draw,
                 palette: Image.Image, salt: Hashable, cache: BandCache = shared) -> bytes:
    """PNG bytes of a picture of ``size`` made of ``parts`` over a background that ``salt``
    determines, mapped onto ``palette``: bands seen before, with the same parts over them, come
    from ``cache``; for the others ``draw`` draws the parts over them (:data:`Draw`), whose
    rows are then mapped and compressed."""
    width, height = size
    numbers = cache.numbers([part[2] for part in parts])
    count = -(-height // BAND_ROWS)
    over: list[list[int]] = [[] for _ in range(count)]  # the parts over each band, in order
    for index, (first, last, _) in enumerate(parts):
        for band in range(max(0, first // BAND_ROWS), min(count, -(-last // BAND_ROWS))):
            over[band].append(index)
    keys: list[Hashable] = [(salt, width, band, height, tuple(numbers[i] for i in indices))
                            for band, indices in enumerate(over)]
    bands = cache.get_many(keys)
    missing = [band for band, found in enumerate(bands) if found is None]
    if missing:
        runs: list[list[int]] = []  # missing bands next to each other, drawn and mapped at once
        for band in missing:
            if runs and runs[-1][-1] == band - 1:
                runs[-1].append(band)
            else:
                runs.append([band])
        step = (width + 1) * BAND_ROWS
        for run in runs:
            top, bottom = run[0] * BAND_ROWS, min(height, (run[-1] + 1) * BAND_ROWS)
            img = draw(sorted({index for band in run for index in over[band]}), top, bottom)
            mapped = img.quantize(palette=palette, dither=Image.Dither.NONE)
            pixels = memoryview(_unfiltered_rows(mapped))
            for offset, band in enumerate(run):
                made = compress_band(pixels[offset * step:(offset + 1) * step])
                cache.put(keys[band], made)
                bands[band] = made
    colours = bytes(palette.getpalette() or [])
    return assemble(width, height, colours, [band for band in bands if band is not None])
