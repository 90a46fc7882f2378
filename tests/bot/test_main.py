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
