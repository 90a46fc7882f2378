"""The expert replaces ``hard``'s choice only by a play that is ahead by more than
``search.Z_MARGIN`` standard errors of the paired difference on the deals both were played on: the
margin changes only the final pick (the deals and rollouts are the same), so a decision is either
the one the search would make without it or ``hard``'s own (a ``hard`` choice that fell far
behind and stopped being played is not kept by any margin). The expert's own unsearched play
is set to ``hard``'s here (``search.OWN``), so that the play a margin keeps is the ``hard``
level's."""

from __future__ import annotations

import pytest

from engine import Game
from engine.ai import belief, core, decide, search
from tests.engine._expert import hard_points

BUDGET = 30


@pytest.fixture(autouse=True)
def _no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(search.time, "perf_counter", lambda: 0.0)  # the work decides, not time
    monkeypatch.setattr(search, "OWN", core.HARD)  # the first candidate: hard's own choice
    belief.clear()


def _expert(points: list[Game], z: float, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    monkeypatch.setattr(search, "Z_MARGIN", z)
    belief.clear()
    return [decide(g, 0, "expert", seed=i, budget_ms=BUDGET, levels=["hard"] * 4)
            for i, g in enumerate(points)]


def test_the_margin_keeps_hards_choice_unless_another_play_is_clearly_ahead(
        monkeypatch: pytest.MonkeyPatch) -> None:
    points = [g for seed in range(901, 906) for g in hard_points(seed)]
    hard = [decide(g, 0, "hard") for g in points]
    free = _expert(points, 0.0, monkeypatch)
    margin = _expert(points, 1.0, monkeypatch)
    never = _expert(points, 1e9, monkeypatch)
    assert any(f != h for f, h in zip(free, hard, strict=True))  # the search does depart
    # With a margin a decision is the free search's or hard's, and it departs less often.
    assert all(m in (f, h) for m, f, h in zip(margin, free, hard, strict=True))
    departs = sum(m != h for m, h in zip(margin, hard, strict=True))
    assert departs < sum(f != h for f, h in zip(free, hard, strict=True))
    # An endless margin departs only where hard's choice fell so far behind that the search
    # stopped playing it (``PRUNE_GAP``): there any margin departs alike.
    for m, f, h, v in zip(margin, free, hard, never, strict=True):
        assert v == h or v == m == f
