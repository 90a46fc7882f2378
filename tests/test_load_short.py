"""Short versions of the load and fault benchmarks (`python -m benchmarks.load`), so that the
transport path (the real bot as a subprocess, the unmodified discord.py, the loopback fake
Discord) cannot silently break. The long runs and their figures live in docs/BENCHMARKS.md."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

from benchmarks.load import LoadConfig, LoadResult, run_load
from tests.data.pg_server import NOT_INSTALLED, TempPostgres, find_bindir

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
        drain=70.0,  # the wait ends when the games do; a loaded CI machine with faults needs more
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


async def test_short_load_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With no ``workdir``, the run's database and log go to a temporary directory of its own,
    removed after a clean run."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = await run_load(_fast(tmp_path, workdir=None))
    _assert_sound(result)
    assert "tienlen-bench-" in result.log_path
    assert not [n for n in os.listdir(tmp_path) if n.startswith("tienlen-bench-")]
    assert result.board_edits > 0
    assert result.hand_edits > 0  # the live hands follow the table
    assert result.late_answers == 0
    assert result.cpu_seconds > 0 and result.rss_load_kb > 0


async def test_short_load_run_on_postgresql(tmp_path: Path) -> None:
    """`--database postgresql://…`: the bot runs on a throwaway PostgreSQL (started from the
    installed binaries), games finish, and the database is counted and checked there."""
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(NOT_INSTALLED)
    server = TempPostgres(bindir)
    server.start()
    try:
        url = server.create_database("load")
        result = await run_load(_fast(tmp_path, database=url))
        _assert_sound(result)
        assert result.dialect == "postgresql"
        assert "store postgresql" in result.report()
        assert not (tmp_path / "load.sqlite3").exists()  # nothing went to a SQLite file
    finally:
        server.stop()


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


async def test_fifty_tables_on_the_limited_fake_stay_within_discords_limits(
    tmp_path: Path,
) -> None:
    """50 busy tables against the fake enforcing Discord's limits (50 requests/s, 5 edits per
    5 s a channel) for about 10 s of play: the bot's REST budget (40/s) keeps every 1-s window
    under it, no 429 and no invalid request; then the bot stops (SIGTERM) in the middle of the
    games, exits 0 and leaves a sound store. Whole games, latency and the longer runs are in
    docs/BENCHMARKS.md (`python -m benchmarks.load`); test_short_load_run plays games to their
    end. Text boards: pictures double the bot's CPU and change nothing the budget decides
    (tests/test_wire_pictures.py plays a game with them)."""
    result = await run_load(
        _fast(tmp_path, tables=50, seconds=2.0, think=0.2, ai_delay=0.1, board_interval=0.5,
              images=False, drain=10.0)
    )
    report = result.report()
    assert result.limits, report
    assert result.rate_limited == 0 and result.invalid_requests == 0, report
    # As the bot sent them: at most its budget in any 1-s window (its own count, in its log).
    assert 0 < result.staleness.get("sent_peak", 0) <= 40, report
    # As the fake counted them on arrival: a loaded machine can stamp a few late, together, up
    # to Discord's 50 in a second (the fake refuses the 51st with a 429: none, above).
    assert 0 < result.rest_peak_per_s <= 50, report
    assert result.staleness.get("count", 0) > 0, report
    assert result.db_games.get("playing", 0) > 0, report  # stopped mid-game, games kept
    assert result.check_rc == 0 and result.exit_code == 0, report
    # Errors are not asserted here: on a quiet machine every game finishes without one, but a
    # loaded CI machine makes some callbacks miss the 3 s deadline (the scripted person of that
    # table then gives up). test_short_load_run asserts a clean run at a size CI can afford.


def test_each_run_with_pictures_is_compared_with_the_text_runs_beside_it() -> None:
    from benchmarks.load.cli import neighbour_ratios

    # off 0.4, on 0.6, off 0.5, on 0.7, off 0.3: the machine drifted between runs
    assert neighbour_ratios([0.6, 0.7], [0.4, 0.5, 0.3]) == pytest.approx([0.6 / 0.45, 0.7 / 0.4])
    with pytest.raises(ValueError):
        neighbour_ratios([0.6, 0.7], [0.4, 0.5])  # a run with pictures lacks a neighbour
