"""Commands synced where the admin expects, through the loopback fake Discord: a start with
DEV_GUILD_ID syncs to that server only; a later start without it syncs globally and warns once
that the server's copies remain, naming the fix; `python -m bot --clear-guild-commands ID`
removes exactly that server's copies (the global commands stay) and nothing else."""

from __future__ import annotations

import asyncio
import secrets
import signal
import sys
import time
from pathlib import Path

import pytest

from tests.support.fake_discord import FakeDiscord
from tests.support.wire import REPO_ROOT, bot_env, kill, start_bot

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM")


async def run_until_synced(fake: FakeDiscord, tmp_path: Path, env: dict[str, str], *,
                           sync: bool = True) -> str:
    """Start the bot, wait for its next command sync (unless `sync` is False: the commands did
    not change) and the gateway, stop it; its log."""
    syncs = len(fake.command_syncs)
    proc = await start_bot(tmp_path, env)
    try:
        deadline = time.monotonic() + 60
        while (sync and len(fake.command_syncs) == syncs) or not fake.connected:
            assert proc.returncode is None, (tmp_path / "bot.log").read_text()
            assert time.monotonic() < deadline, (tmp_path / "bot.log").read_text()
            await asyncio.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 30) == 0
    finally:
        await kill(proc)
    await fake.wait_until(lambda: not fake.connected, 10)
    return (tmp_path / "bot.log").read_text()


async def test_guild_copies_warned_about_and_cleared(tmp_path: Path) -> None:
    token = f"guild.{secrets.token_hex(8)}"
    async with FakeDiscord(allowed_tokens={token}) as fake:
        env = bot_env(fake, tmp_path / "bot.sqlite3", token)
        gid = fake.guild_id
        run = await run_until_synced(fake, tmp_path, env)
        names = {c["name"] for c in fake.commands[gid]}
        assert {"tienlen", "leaderboard", "daily"} <= names
        assert fake.commands.get(None, []) == []  # nothing global with DEV_GUILD_ID
        assert "WARNING" not in run

        env_global = {**env, "DEV_GUILD_ID": ""}
        log = await run_until_synced(fake, tmp_path, env_global)
        assert {c["name"] for c in fake.commands[None]} == names
        warnings = [line for line in log.splitlines() if "--clear-guild-commands" in line]
        assert len(warnings) == 1, log
        assert "WARNING" in warnings[0] and f"--clear-guild-commands {gid}" in warnings[0]
        global_before = [dict(c) for c in fake.commands[None]]

        cleared = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--clear-guild-commands", str(gid), cwd=tmp_path,
            env=env_global, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        out, _ = await asyncio.wait_for(cleared.communicate(), 60)
        assert cleared.returncode == 0, out.decode()
        assert f"removed {len(names)} commands from server {gid}" in out.decode()
        assert fake.commands[gid] == []
        assert fake.commands[None] == global_before  # exactly the guild copies went
        assert token not in out.decode()

        log = await run_until_synced(fake, tmp_path, env_global, sync=False)
        assert "--clear-guild-commands" not in log  # no copies left: no warning

        unknown = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "--clear-guild-commands", "12345", cwd=tmp_path,
            env=env_global, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT)
        out, _ = await asyncio.wait_for(unknown.communicate(), 60)
        assert unknown.returncode == 2
        assert "--clear-guild-commands 12345" in out.decode()
        assert fake.commands[None] == global_before


def test_repo_root_is_the_checkout() -> None:
    assert (REPO_ROOT / "bot" / "guild_copies.py").is_file()
