"""Replay pictures: golden images of a replay's first and last steps (every hand face up), and
the shared animation: one frame per play, each frame the step it stands for, small.

Regenerate the goldens after an intended change with
``.venv/bin/python -m tests.cogs.pictures.test_replay_pictures``.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from benchmarks.engine import random_action
from cogs.pictures import FaceUpView, Pictures, face_up_view
from cogs.pictures.render import palette
from cogs.pictures.replay import animation_gif, render_face_up
from engine import Game, Played, Rules
from engine.replay import Replay

from .samples import GOLDENS
from .test_goldens import MAX_DIFFERING, _differing

NAMES = ["Nguyễn Thị Ánh", "Trần Văn Đức", "Computer 1 (hard)", "Phạm Quốc Bảo Long"]


def _game(seed: int = 6) -> Game:
    rng = random.Random(1)
    game = Game.new(Rules(), 4, seed=seed)
    while not game.is_over:
        random_action(game, rng)
    return game


def _views(game: Game) -> list[FaceUpView]:
    replay = Replay(game.events)
    last = len(replay) - 1
    return [face_up_view(s.game, NAMES, table=3, stake=10,
                         chips=[30, -10, 0, -20] if s.game.is_over else None)
            for s in replay if s.index in (0, last) or isinstance(s.events[0], Played)]


def samples() -> dict[str, FaceUpView]:
    views = _views(_game())
    return {"replay_first": views[0], "replay_last": views[-1]}


@pytest.fixture(scope="module")
def pictures() -> Pictures:
    return Pictures()


@pytest.mark.parametrize("name", ["replay_first", "replay_last"])
def test_replay_step_matches_golden(pictures: Pictures, name: str, tmp_path: Path) -> None:
    data = pictures._draw_face_up(samples()[name])
    got = Image.open(io.BytesIO(data))
    golden = Image.open(GOLDENS / f"{name}.png")
    assert got.size == golden.size
    share = _differing(got, golden)
    if share > MAX_DIFFERING:
        (tmp_path / f"{name}.png").write_bytes(data)
    assert share <= MAX_DIFFERING, f"{name}: {share:.2%} of pixels differ; see {tmp_path}"


def test_first_and_last_steps_differ_where_hands_are_shown() -> None:
    first, last = samples()["replay_first"], samples()["replay_last"]
    assert all(len(h) == 13 for h in first.hands)
    assert sum(len(h) for h in last.hands) < 52 and any(not h for h in last.hands)


def test_animation_has_one_frame_per_play_and_each_frame_is_its_step() -> None:
    game = _game()
    views = _views(game)
    plays = sum(1 for e in game.events if isinstance(e, Played))
    replay = Replay(game.events)
    last_is_play = isinstance(replay.step_events(len(replay) - 1)[0],
                              Played)
    assert len(views) == 1 + plays + (0 if last_is_play else 1)  # the deal, every play, the end
    pictures = Pictures()
    data = animation_gif(views, pictures.fonts)
    assert len(data) <= 300_000
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.n_frames == len(views)
    pal = palette(pictures.fonts)
    for k in (0, 1, len(views) // 2, len(views) - 1):
        gif.seek(k)
        want = render_face_up(views[k], pictures.fonts).reduce(2).quantize(
            palette=pal, dither=Image.Dither.NONE).convert("RGB")
        assert ImageChops.difference(gif.convert("RGB"), want).getbbox() is None, k


async def test_animation_is_drawn_once_per_key() -> None:
    pictures = Pictures()
    calls = []

    def frames() -> list[FaceUpView]:
        calls.append(1)
        return _views(_game())[:3]

    first = await pictures.animation(("replay", 1, "en"), frames)
    again = await pictures.animation(("replay", 1, "en"), frames)
    assert first is not None and first == again and len(calls) == 1
    pictures.close()


if __name__ == "__main__":
    shared = Pictures()
    for name, view in samples().items():
        (GOLDENS / f"{name}.png").write_bytes(shared._draw_face_up(view))
        print("wrote", GOLDENS / f"{name}.png")
