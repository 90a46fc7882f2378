"""benchmarks.normal_fit: how often opponents' decisions can all be `normal`'s, by count."""

from __future__ import annotations

import pytest

from benchmarks import normal_fit


def _share(seen: dict[int, list[bool]]) -> float:
    flags = [f for v in seen.values() for f in v]
    return sum(flags) / len(flags)


def test_normal_opponents_keep_fitting_and_hard_ones_stop() -> None:
    hard = normal_fit.fits_by_decisions("hard", games=3, seed=500, budget_ms=20, cap=5)
    normal = normal_fit.fits_by_decisions("normal", games=3, seed=500, budget_ms=20, cap=5)
    assert set(hard) <= set(range(6)) and set(normal) <= set(range(6))
    assert all(hard[0]) and all(normal[0])  # nothing decided yet: every hand explains it
    assert _share(normal) > _share(hard) + 0.2
    assert sum(hard[5]) < len(hard[5])  # some hard seat stopped fitting normal


def test_the_command_prints_a_row_per_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert normal_fit.main(["--games", "1", "--budget", "20", "--cap", "3"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if " | " in line and not line.startswith("dec")]
    assert [r.split("|")[0].strip() for r in rows] == ["0", "1", "2", "3+"]


def test_the_command_refuses_no_games() -> None:
    with pytest.raises(SystemExit):
        normal_fit.main(["--games", "0"])
