"""Fonts for the pictures, with fallbacks so a bad or missing font never stops the bot.

The package ships DejaVu Sans (regular and bold, free licence in ``assets/LICENSE-DejaVu.txt``),
which covers Vietnamese. If a font file cannot be read, :class:`Fonts` falls back to Pillow's
built-in scalable font (``ImageFont.load_default(size=...)``), then to its tiny bitmap font, and
logs one line saying why. Text is drawn with Pillow's basic layout (no text shaping library), so
names are normalised to NFC first: precomposed Vietnamese letters render correctly.
"""

from __future__ import annotations

import logging
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

__all__ = ["ASSETS", "BOLD", "REGULAR", "Font", "Fonts", "Text", "fit_text"]

log = logging.getLogger(__name__)

ASSETS = Path(__file__).with_name("assets")
REGULAR = ASSETS / "DejaVuSans.ttf"
BOLD = ASSETS / "DejaVuSans-Bold.ttf"

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont | ImageFont.TransposedFont


class Fonts:
    """Sized fonts from two font files, cached; falls back instead of raising."""

    def __init__(self, regular: Path | str = REGULAR, bold: Path | str = BOLD) -> None:
        self.regular = Path(regular)
        self.bold = Path(bold)
        self.fallback_reason: str | None = None
        self._get = lru_cache(maxsize=64)(self._load)
        self.text = lru_cache(maxsize=1024)(self._text)
        self.fit = lru_cache(maxsize=1024)(self._fit)

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

    def _text(self, text: str, size: int, bold: bool) -> Text:
        """``text`` rendered once as a grey-scale mask (cached: names repeat on every board)."""
        font = self.get(size, bold=bold)
        text = unicodedata.normalize("NFC", text)
        if isinstance(font, ImageFont.FreeTypeFont):
            ascent, descent = font.getmetrics()
            left, top, right, bottom = font.getbbox(text, anchor="ls")
            origin = (-left, -top)
            anchor: str | None = "ls"
        else:  # Pillow's bitmap font: Latin-1 only, no metrics, drawn from its top-left corner
            text = _latin1(text)
            left, top, right, bottom = font.getbbox(text)
            ascent, descent = int(bottom), 0
            origin, anchor = (0, 0), None
            left, top = 0, -ascent
        mask = Image.new("L", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
        ImageDraw.Draw(mask).text(origin, text, font=font, fill=255, anchor=anchor)
        return Text(mask, int(left), int(top), font.getlength(text), ascent, descent)

    def _fit(self, text: str, size: int, bold: bool, width: float) -> str:
        return fit_text(text, self.get(size, bold=bold), width)

    def _fell_back(self, reason: str) -> None:
        if self.fallback_reason is None:
            log.warning("card pictures: %s; using a plain font", reason)
        self.fallback_reason = self.fallback_reason or reason


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
             anchor: str = "la") -> None:
        """Paste the text in ``fill`` at (x, y) with a Pillow-style anchor: horizontal ``l``,
        ``m`` or ``r``; vertical ``a`` (ascender), ``m`` (middle), ``s`` (baseline) or ``d``."""
        h, v = anchor[0], anchor[1]
        x -= {"l": 0.0, "m": self.width / 2, "r": self.width}[h]
        baseline = {"a": y + self.ascent, "m": y + (self.ascent - self.descent) / 2,
                    "s": y, "d": y - self.descent}[v]
        img.paste(fill, (round(x) + self.left, round(baseline) + self.top), self.mask)


def fit_text(text: str, font: Font, width: float) -> str:
    """``text`` in NFC, shortened with an ellipsis so that it fits ``width`` pixels."""
    text = unicodedata.normalize("NFC", " ".join(text.split()))
    ellipsis = "…"
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
