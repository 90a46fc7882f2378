"""Short versions of the load and fault benchmarks (`python -m benchmarks.load`), so that the
transport path (the real bot as a subprocess, the unmodified discord.py, the loopback fake
Discord) cannot silently break. The long runs and their figures live in docs/BENCHMARKS.md."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from benchmarks.load import LoadConfig, LoadResult, run_load

pytestmark = [
    pytest.mark.skipif(sys.platform != "linux", reason="reads /proc; uses SIGKILL"),
    pytest.mark.slow,
]


def _fast(tmp_path: Path, **overrides: object) -> LoadConfig:
    config = LoadConfig(
        tables=3,
        seconds=3.0,
        think=0.0,
        ai_delay=0.05,
        board_interval=0.2,
        turn_seconds=30,
        drain=40.0,
        lag_log=0.5,
        workdir=tmp_path,
        quiet=True,
    )
    for name, value in overrides.items():
        setattr(config, name, value)
    return config


def _assert_sound(result: LoadResult) -> None:
    report = result.report()
    assert not result.errors, report
    assert result.games_finished >= result.config.tables, report
    assert result.all_games_finished, report
    assert result.db_games.get("finished") == result.games_finished, report
    assert result.check_rc == 0, report
    assert result.exit_code == 0, report
    assert result.loop_lag_max_ms is not None, report
    assert result.latency["count"] == result.interactions > 0, report


async def test_short_load_run(tmp_path: Path) -> None:
    result = await run_load(_fast(tmp_path))
    _assert_sound(result)
    assert result.board_edits > 0
    assert result.hand_edits > 0  # the live hands follow the table
    assert result.late_answers == 0
    assert result.cpu_seconds > 0 and result.rss_load_kb > 0


async def test_short_fault_run(tmp_path: Path) -> None:
    result = await run_load(
        _fast(
            tmp_path,
            seconds=6.0,
            faults=True,
            rate_limit_fraction=0.2,
            server_error_fraction=0.05,
            retry_after=0.1,
            disconnect_every=2.5,
            kills=1,
        )
    )
    _assert_sound(result)
    report = result.report()
    assert result.kills_done == 1, report
    assert result.injected_429 > 0 and result.injected_500 > 0, report
    assert result.disconnects >= 1 and result.resumes >= 1, report
    # The first start and the restart after the kill; on a machine loaded enough for discord.py
    # to give up on a session (late heartbeats), it may identify once more, which is also sound.
    assert result.identifies >= 2, report
