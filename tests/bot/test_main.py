"""`python -m bot` start-up failures: one line naming the setting, exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[2]


def run_bot(env_extra: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env.update(env_extra)
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "bot"], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60, check=False)


def test_no_token_exits_2_naming_it(tmp_path: Path) -> None:
    result = run_bot({}, tmp_path)
    assert result.returncode == 2
    assert "DISCORD_TOKEN" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_malformed_setting_exits_2(tmp_path: Path) -> None:
    result = run_bot({"DISCORD_TOKEN": "x.y.z", "DEFAULT_TURN_SECONDS": "soon"}, tmp_path)
    assert result.returncode == 2
    assert "DEFAULT_TURN_SECONDS" in result.stderr
    assert "Traceback" not in result.stderr


def test_help(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", "bot", "--help"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0
    assert "python -m bot" in result.stdout
    assert ".env" in result.stdout
    assert "DISCORD_TOKEN" in result.stdout
    assert "python -m bot play" in result.stdout


def test_unknown_word_is_rejected_with_status_2(tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), DISCORD_TOKEN="x.y.z")
    result = subprocess.run([sys.executable, "-m", "bot", "plya"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    assert "plya" in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "tienlen.sqlite3").exists()  # nothing was started


def test_bad_shard_settings_exit_2_in_one_line(tmp_path: Path) -> None:
    result = run_bot({"DISCORD_TOKEN": "x.y.z", "SHARD_COUNT": "4", "SHARD_IDS": "2,4"}, tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "configuration error: SHARD_IDS is invalid: 4 outside 0..3 (SHARD_COUNT=4)")
    assert not (tmp_path / "tienlen.sqlite3").exists()


def test_a_refused_shard_names_the_shard_settings() -> None:
    import discord

    from bot.main import describe_failure
    from bot.settings import load_settings

    settings = load_settings(DISCORD_TOKEN="x.y.z", SHARD_COUNT=2, SHARD_IDS="1")
    closed = discord.ConnectionClosed(None, shard_id=1, code=4010)  # type: ignore[arg-type]
    assert describe_failure(closed, settings) == (
        "SHARD_IDS=1 / SHARD_COUNT=2: Discord refused the shard (4010 Invalid shard)")
    required = discord.ConnectionClosed(None, shard_id=None, code=4011)  # type: ignore[arg-type]
    assert "4011 Sharding required" in str(describe_failure(required, settings))
