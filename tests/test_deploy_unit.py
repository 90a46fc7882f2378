"""The shipped systemd unit (deploy/tienlen-bot.service): it restarts the bot on failure but not
for a setting to fix, stops it with SIGTERM, logs to the journal, and `systemd-analyze verify`
accepts it (with this checkout's paths put in, since /opt/tienlen-bot does not exist here;
skipped with one line where systemd is not installed)."""

from __future__ import annotations

import configparser
import getpass
import grp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "deploy" / "tienlen-bot.service"


def service() -> configparser.SectionProxy:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    parser.read_string(UNIT.read_text(encoding="utf-8"))
    return parser["Service"]


def test_unit_restarts_on_failure_and_stops_cleanly() -> None:
    s = service()
    assert s["ExecStart"].endswith("/.venv/bin/python -m bot")
    assert s["Restart"] == "on-failure"
    assert s["RestartPreventExitStatus"] == "2"  # a setting to fix: no restart loop
    assert s["KillSignal"] == "SIGTERM"
    assert s["StandardError"] == "journal"
    assert s["WorkingDirectory"] in s["ExecStart"] and s["WorkingDirectory"] in s["ReadWritePaths"]


@pytest.mark.skipif(sys.platform == "win32" or shutil.which("systemd-analyze") is None,
                    reason="systemd-analyze is not installed")
def test_systemd_analyze_verifies_the_unit(tmp_path: Path) -> None:
    user, group = getpass.getuser(), grp.getgrgid(os.getgid()).gr_name
    text = (UNIT.read_text(encoding="utf-8")
            .replace("/opt/tienlen-bot/.venv/bin/python", sys.executable)
            .replace("/opt/tienlen-bot", str(ROOT))
            .replace("User=tienlen", f"User={user}").replace("Group=tienlen", f"Group={group}"))
    unit = tmp_path / "tienlen-bot.service"
    unit.write_text(text, encoding="utf-8")
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True, check=False, timeout=60)
    ours = [line for line in (result.stdout + result.stderr).splitlines()
            if "tienlen-bot" in line]
    assert result.returncode == 0 and not ours, result.stdout + result.stderr
