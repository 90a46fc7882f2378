"""Fonts for the pictures, with fallbacks so a bad or missing font never stops the bot.

The package ships DejaVu Sans (regular and bold, free licence in ``assets/LICENSE-DejaVu.txt``),
which covers Vietnamese, and a subset of Symbola (``assets/Symbola-emoji.ttf``, free for any use,
``assets/LICENSE-Symbola.txt``): the emoji and symbols DejaVu lacks, drawn in one colour. A line
of text is cut into runs, each drawn with the first of the two fonts that has its characters.

Names come from Discord as anything a person typed, so a line is cleaned first
(:func:`clean`): NFC (precomposed Vietnamese letters render correctly with Pillow's basic layout),
no zero-width or control characters, no emoji variation selectors or skin tones; it is
measured and cut in logical order and drawn with right-to-left text in visual order
(:func:`visual`). If a font file cannot be read,
:class:`Fonts` falls back to Pillow's built-in scalable font (``ImageFont.load_default(size=...)``),
then to its tiny bitmap font, and logs one line saying why.
"""

from __future__ import annotations

import logging
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

__all__ = ["ASSETS", "BOLD", "EMOJI", "REGULAR", "Font", "Fonts", "Text", "clean", "fit_text",
           "visual"]

log = logging.getLogger(__name__)

ASSETS = Path(__file__).with_name("assets")
REGULAR = ASSETS / "DejaVuSans.ttf"
BOLD = ASSETS / "DejaVuSans-Bold.ttf"
EMOJI = ASSETS / "Symbola-emoji.ttf"
ELLIPSIS = "…"
EMOJI_SCALE = 1.15  # the emoji font's pictographs are drawn a little larger than the letters
EMPTY_NAME = "?"
"""What a line that is empty once cleaned (only invisible characters) shows."""

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont | ImageFont.TransposedFont

# Characters that draw nothing or that Pillow's basic layout cannot use: dropped from a line.
_INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800", "\u034f"}
_SKIN_TONES = range(0x1F3FB, 0x1F400)
_RTL = {"R", "AL"}


def _dropped(char: str) -> bool:
    category = unicodedata.category(char)
    code = ord(char)
    return (category in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or char in _INVISIBLE
            or 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF or code in _SKIN_TONES)


def visual(text: str) -> str:
    """``text`` in the order it is seen: runs of right-to-left letters (Hebrew, Arabic) reversed,
    and a line whose first strong letter is right-to-left read from the right. A simplified
    Unicode bidirectional algorithm, enough for a name: numbers and Latin words inside
    right-to-left text keep their own order."""
    if not any(unicodedata.bidirectional(c) in _RTL for c in text):
        return text
    kinds = []
    for c in text:
        kind = unicodedata.bidirectional(c)
        kinds.append("R" if kind in _RTL else "L" if kind in ("L", "EN", "AN") else "N")
    base = next((k for k in kinds if k != "N"), "L")
    # A neutral between two letters of one direction takes it; otherwise the line's.
    resolved = list(kinds)
    i = 0
    while i < len(kinds):
        if kinds[i] != "N":
            i += 1
            continue
        j = i
        while j < len(kinds) and kinds[j] == "N":
            j += 1
        before = kinds[i - 1] if i > 0 else base
        after = kinds[j] if j < len(kinds) else base
        for k in range(i, j):
            resolved[k] = before if before == after else base
        i = j
    runs: list[tuple[str, str]] = []
    for c, kind in zip(text, resolved, strict=True):
        if runs and runs[-1][0] == kind:
            runs[-1] = (kind, runs[-1][1] + c)
        else:
            runs.append((kind, c))
    shown = [run[::-1] if kind == "R" else run for kind, run in runs]
    return "".join(reversed(shown) if base == "R" else shown)


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """A line in logical order as it is measured and cut: NFC, one space between words, no
    invisible characters (drawing then puts it in :func:`visual` order). Cached: every board
    cleans its names again."""
    text = unicodedata.normalize("NFC", text)
    text = "".join(c for c in text if not _dropped(c))
    return " ".join(text.split())


class Fonts:
    """Sized fonts from the font files, cached; falls back instead of raising."""

    def __init__(self, regular: Path | str = REGULAR, bold: Path | str = BOLD,
                 emoji: Path | str | None = EMOJI) -> None:
        self.regular = Path(regular)
        self.bold = Path(bold)
        self.emoji = Path(emoji) if emoji is not None else None
        self.fallback_reason: str | None = None
        self.emoji_reason: str | None = None
        self._get = lru_cache(maxsize=64)(self._load)
        self._get_emoji = lru_cache(maxsize=32)(self._load_emoji)
        self._has = lru_cache(maxsize=4096)(self._has_glyph)
        self.text = lru_cache(maxsize=1024)(self._text)
        self.fit = lru_cache(maxsize=1024)(self._fit)
        self.measure = lru_cache(maxsize=4096)(self._measure)

    @staticmethod
    def shared() -> Fonts:
        """The shipped fonts, one instance per process (so card sprites are drawn once)."""
        return _shared()

    def get(self, size: int, *, bold: bool = False) -> Font:
        """The font at ``size`` pixels (bold or regular); never raises."""
        return self._get(size, bold)

    @property
    def ok(self) -> bool:
        """False once a font file could not be used (the pictures then use a plain font)."""
        return self.fallback_reason is None

    def _load(self, size: int, bold: bool) -> Font:
        path = self.bold if bold else self.regular
        try:
            return ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
        except (OSError, ValueError) as exc:
            self._fell_back(f"font {path.name} unusable ({exc})")
        try:
            return ImageFont.load_default(size=size)
        except (OSError, ValueError, ImportError) as exc:  # Pillow built without FreeType
            self._fell_back(f"Pillow's scalable default font unusable ({exc})")
        return ImageFont.load_default_imagefont()

    def _load_emoji(self, size: int) -> ImageFont.FreeTypeFont | None:
        if self.emoji is None:
            return None
        try:
            return ImageFont.truetype(str(self.emoji), size,
                                      layout_engine=ImageFont.Layout.BASIC)
        except (OSError, ValueError) as exc:
            if self.emoji_reason is None:
                log.warning("card pictures: emoji font %s unusable (%s); emoji show as boxes",
                            self.emoji.name, exc)
            self.emoji_reason = self.emoji_reason or str(exc)
            return None

    def _has_glyph(self, char: str, bold: bool, emoji: bool) -> bool:
        """Whether the font draws ``char`` as itself (not as its missing-glyph box)."""
        font = self._get_emoji(20) if emoji else self.get(20, bold=bold)
        if not isinstance(font, ImageFont.FreeTypeFont):
            return not emoji
        mask = _mask_key(font, char)
        return mask != _mask_key(font, "\uffff") and (not emoji or any(mask[1]))

    def font_for(self, char: str, size: int, bold: bool) -> Font:
        """The font that draws ``char``: the text font, else the emoji font when it has the
        character, else the text font (a box)."""
        text_font = self.get(size, bold=bold)
        if (ord(char) < 0x2000 or not isinstance(text_font, ImageFont.FreeTypeFont)
                or self._has(char, bold, False) or not self._has(char, bold, True)):
            return text_font
        emoji = self._get_emoji(round(size * EMOJI_SCALE))
        return emoji if emoji is not None else text_font

    def runs(self, text: str, size: int, bold: bool) -> list[tuple[str, Font]]:
        """``text`` (already cleaned) cut into runs drawn with one font each."""
        runs: list[tuple[str, Font]] = []
        for char in text:
            font = self.font_for(char, size, bold)
            if runs and runs[-1][1] is font:
                runs[-1] = (runs[-1][0] + char, font)
            else:
                runs.append((char, font))
        return runs

    def _measure(self, text: str, size: int, bold: bool) -> float:
        """The advance width of ``text`` (already cleaned) in pixels (cached: the words around
        a name are measured on every board)."""
        font = self.get(size, bold=bold)
        if not isinstance(font, ImageFont.FreeTypeFont):  # the bitmap font: Latin-1 only
            return font.getlength(_latin1(text))
        return sum(font.getlength(run) for run, font in self.runs(text, size, bold))

    def _text(self, text: str, size: int, bold: bool) -> Text:
        """``text`` rendered once as a grey-scale mask (cached: names repeat on every board)."""
        font = self.get(size, bold=bold)
        if not isinstance(font, ImageFont.FreeTypeFont):
            # Pillow's bitmap font: Latin-1 only, no metrics, drawn from its top-left corner
            text = _latin1(clean(text))
            left, top, right, bottom = font.getbbox(text)
            ascent = int(bottom)
            mask = Image.new("L", (max(1, int(right)), max(1, int(bottom))), 0)
            ImageDraw.Draw(mask).text((0, 0), text, font=font, fill=255)
            return Text(mask, 0, -ascent, font.getlength(text), ascent, 0)
        text = visual(clean(text))
        ascent, descent = font.getmetrics()
        runs = self.runs(text, size, bold)
        placed = []  # (run, font, x of its origin)
        x = 0.0
        x0, y0, x1, y1 = 0.0, 0.0, 1.0, 1.0
        for run, run_font in runs:
            box = run_font.getbbox(run, anchor="ls")
            x0, y0 = min(x0, x + box[0]), min(y0, float(box[1]))
            x1, y1 = max(x1, x + box[2]), max(y1, float(box[3]))
            placed.append((run, run_font, x))
            x += run_font.getlength(run)
        left, top = int(x0), int(y0)
        mask = Image.new("L", (max(1, int(x1) - left + 1), max(1, int(y1) - top + 1)), 0)
        draw = ImageDraw.Draw(mask)
        for run, run_font, run_x in placed:
            draw.text((run_x - left, -top), run, font=run_font, fill=255, anchor="ls")
        return Text(mask, left, top, x, ascent, descent)

    def _fit(self, text: str, size: int, bold: bool, width: float, keep: str = "") -> str:
        """``text`` cleaned and cut with an ellipsis to fit ``width`` pixels; ``keep``: a tail of
        ``text`` (a computer's level, "(khó)") kept whole, the cut made before it."""
        font = self.get(size, bold=bold)
        if not isinstance(font, ImageFont.FreeTypeFont):
            return fit_text(text, font, width)
        text = clean(text)
        keep = clean(keep)
        if self.measure(text, size, bold) <= width:
            return text or EMPTY_NAME
        head, tail = text, ""
        at = text.rfind(keep) if keep else -1
        if at > 0:
            head, tail = text[:at].rstrip(), " " + text[at:]
        room = width - self.measure(tail, size, bold)
        if tail and room < self.measure(ELLIPSIS, size, bold):
            head, tail, room = text, "", width  # too narrow to keep it: cut the whole line
        lo, hi = 0, len(head)  # the longest prefix that fits with the ellipsis
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.measure(head[:mid].rstrip() + ELLIPSIS, size, bold) <= room:
                lo = mid
            else:
                hi = mid - 1
        return head[:lo].rstrip() + ELLIPSIS + tail

    def _fell_back(self, reason: str) -> None:
        if self.fallback_reason is None:
            log.warning("card pictures: %s; using a plain font", reason)
        self.fallback_reason = self.fallback_reason or reason


def _mask_key(font: ImageFont.FreeTypeFont, char: str) -> tuple[tuple[int, int], bytes]:
    mask = font.getmask(char)
    return mask.size, Image.Image()._new(mask).tobytes()


@lru_cache(maxsize=1)
def _shared() -> Fonts:
    return Fonts()


class Text:
    """A rendered line of text: a mask and where its baseline origin lies in it."""

    __slots__ = ("ascent", "descent", "left", "mask", "top", "width")

    def __init__(self, mask: Image.Image, left: int, top: int, width: float, ascent: int,
                 descent: int) -> None:
        self.mask, self.left, self.top, self.width = mask, left, top, width
        self.ascent, self.descent = ascent, descent

    def draw(self, img: Image.Image, x: float, y: float, fill: tuple[int, int, int],
             anchor: str = "la", within: tuple[int, int] | None = None,
             across: tuple[int, int] | None = None) -> None:
        """Paste the text in ``fill`` at (x, y) with a Pillow-style anchor: horizontal ``l``,
        ``m`` or ``r``; vertical ``a`` (ascender), ``m`` (middle), ``s`` (baseline) or ``d``;
        ``within``: only the rows from the first to before the last are painted; ``across``:
        likewise the columns."""
        top, mask = self._top(y, anchor), self.mask
        left = self._left(x, anchor)
        if within is not None and (top < within[0] or top + mask.height > within[1]):
            first, last = _inside(top, mask.height, within)
            top, mask = top + first, mask.crop((0, first, mask.width, last))
        if across is not None and (left < across[0] or left + mask.width > across[1]):
            first, last = _inside(left, mask.width, across)
            left, mask = left + first, mask.crop((first, 0, last, mask.height))
        img.paste(fill, (left, top), mask)

    def rows(self, y: float, anchor: str = "la") -> tuple[int, int]:
        """The rows (first, last + 1) that :meth:`draw` at ``y`` with ``anchor`` paints."""
        top = self._top(y, anchor)
        return top, top + self.mask.height

    def columns(self, x: float, anchor: str = "la") -> tuple[int, int]:
        """The columns (first, last + 1) that :meth:`draw` at ``x`` with ``anchor`` paints."""
        left = self._left(x, anchor)
        return left, left + self.mask.width

    def _left(self, x: float, anchor: str) -> int:
        return round(x - {"l": 0.0, "m": self.width / 2, "r": self.width}[anchor[0]]) + self.left

    def _top(self, y: float, anchor: str) -> int:
        baseline = {"a": y + self.ascent, "m": y + (self.ascent - self.descent) / 2,
                    "s": y, "d": y - self.descent}[anchor[1]]
        return round(baseline) + self.top


def _inside(start: int, length: int, bounds: tuple[int, int]) -> tuple[int, int]:
    """The part (first, last + 1) of ``length`` pixels from ``start`` that lies in ``bounds``
    (first, last + 1), counted from ``start``."""
    first = min(max(0, bounds[0] - start), length)
    return first, max(first, min(length, bounds[1] - start))


def fit_text(text: str, font: Font, width: float) -> str:
    """``text`` cleaned, shortened with an ellipsis so that it fits ``width`` pixels in one
    ``font`` (no emoji fallback: :meth:`Fonts.fit` measures with it)."""
    text = clean(text)
    ellipsis = ELLIPSIS
    if not isinstance(font, ImageFont.FreeTypeFont):
        text, ellipsis = _latin1(text), "~"
    if font.getlength(text) <= width:
        return text
    lo, hi = 0, len(text)  # the longest prefix that fits with the ellipsis
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if font.getlength(text[:mid].rstrip() + ellipsis) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ellipsis


def _latin1(text: str) -> str:
    """``text`` with what Latin-1 lacks spelt without accents (Đ as D), else as ``?``."""
    text = text.replace("Đ", "D").replace("đ", "d").replace("−", "-").replace("…", "...")
    out = []
    for char in unicodedata.normalize("NFC", text):
        if ord(char) < 256:
            out.append(char)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char)
                       if not unicodedata.combining(c))
        out.append(base if base and all(ord(c) < 256 for c in base) else "?")
    return "".join(out)
