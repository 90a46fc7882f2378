"""Golden images: fixed boards and hands compared pixel by pixel with a tolerance.

After an intended change to the drawing, regenerate with
``.venv/bin/python -m tests.cogs.pictures.samples --goldens`` and look at the files.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from cogs.pictures import Pictures

from .samples import BOARDS, GOLDENS, HANDS

# A pixel "differs" when a channel is off by more than CHANNEL_TOLERANCE; a picture matches
# when at most MAX_DIFFERING of its pixels differ (anti-aliasing varies between FreeType builds).
CHANNEL_TOLERANCE = 48
MAX_DIFFERING = 0.003


def _differing(a: Image.Image, b: Image.Image) -> float:
    red, green, blue = ImageChops.difference(a.convert("RGB"), b.convert("RGB")).split()
    worst = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    hist = worst.histogram()
    return sum(hist[CHANNEL_TOLERANCE + 1 :]) / (a.width * a.height)


@pytest.fixture(scope="module")
def pictures() -> Pictures:
    return Pictures()


@pytest.mark.parametrize("name", [*BOARDS, *HANDS])
def test_picture_matches_golden(pictures: Pictures, name: str, tmp_path: Path) -> None:
    view = BOARDS.get(name) or HANDS[name]
    data = pictures.board_png(view) if name in BOARDS else pictures.hand_png(view)  # type: ignore[arg-type]
    got = Image.open(io.BytesIO(data))
    assert got.format == "PNG"
    golden = Image.open(GOLDENS / f"{name}.png")
    assert got.size == golden.size
    share = _differing(got, golden)
    if share > MAX_DIFFERING:
        (tmp_path / f"{name}.png").write_bytes(data)
    assert share <= MAX_DIFFERING, f"{name}: {share:.2%} of pixels differ; see {tmp_path}"


def test_tolerance_catches_a_real_change(pictures: Pictures) -> None:
    """The comparison is not blind: another play to beat is far outside the tolerance."""
    a = Image.open(io.BytesIO(pictures.board_png(BOARDS["board_four"])))
    b = Image.open(io.BytesIO(pictures.board_png(BOARDS["board_lead"])))
    assert _differing(a, b) > 0.05
    golden = Image.open(GOLDENS / "board_four.png")
    moved = golden.transform(golden.size, Image.Transform.AFFINE, (1, 0, 3, 0, 1, 0))
    assert _differing(golden, moved) > MAX_DIFFERING


@pytest.mark.parametrize("name", list(BOARDS))
def test_board_is_small(pictures: Pictures, name: str) -> None:
    assert len(pictures.board_png(BOARDS[name])) <= 60_000
