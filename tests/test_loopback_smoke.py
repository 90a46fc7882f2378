"""Issue 2 smoke test: the real bot (`python -m bot`, a subprocess) against the loopback fake.

It must log in, sync its slash commands to DEV_GUILD_ID, connect to the gateway, and exit 0 on
SIGTERM, without ever printing its token.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import signal
import sys
from pathlib import Path

import pytest

from tests.support.fake_discord import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parent.parent
EXPECTED_COMMANDS = {"tienlen", "leaderboard", "daily"}

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM")


async def _drain(stream: asyncio.StreamReader | None, sink: list[bytes]) -> None:
    if stream is None:
        return
    while chunk := await stream.read(65536):
        sink.append(chunk)


async def test_bot_logs_in_syncs_commands_and_stops_cleanly(tmp_path: Path) -> None:
    token = f"smoke.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    env = {
        **os.environ,
        "DISCORD_TOKEN": token,
        "DATABASE_PATH": str(tmp_path / "x.sqlite3"),
        "DISCORD_API_BASE_URL": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DEV_GUILD_ID": str(fake.guild_id),
        "LOG_LEVEL": "INFO",
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p
        ),
    }
    out: list[bytes] = []
    err: list[bytes] = []
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        cwd=tmp_path,  # no stray .env from the developer's checkout
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    readers = [
        asyncio.ensure_future(_drain(proc.stdout, out)),
        asyncio.ensure_future(_drain(proc.stderr, err)),
    ]

    def output() -> str:
        return (b"".join(out) + b"\n--- stderr ---\n" + b"".join(err)).decode(errors="replace")

    try:

        async def synced_and_connected() -> None:
            await fake.commands_synced.wait()
            await fake.ready_sent.wait()

        waiter = asyncio.ensure_future(synced_and_connected())
        exited = asyncio.ensure_future(proc.wait())
        done, _ = await asyncio.wait(
            {waiter, exited}, timeout=30, return_when=asyncio.FIRST_COMPLETED
        )
        waiter.cancel()
        exited.cancel()
        if exited in done or proc.returncode is not None:
            await asyncio.wait_for(asyncio.gather(*readers), 5)
            pytest.fail(f"bot exited early with status {proc.returncode}\n{output()}")
        if waiter not in done:
            pytest.fail(f"bot did not sync commands and connect within 30 s\n{output()}")

        guild_syncs = [cmds for key, cmds in fake.command_syncs if key == fake.guild_id]
        assert guild_syncs, f"commands were not synced to DEV_GUILD_ID: {fake.command_syncs}"
        names = {c["name"] for c in guild_syncs[-1]}
        assert names >= EXPECTED_COMMANDS, f"synced {sorted(names)}"
        assert fake.identify_count == 1

        proc.send_signal(signal.SIGTERM)
        try:
            code = await asyncio.wait_for(proc.wait(), 15)
        except TimeoutError:
            pytest.fail(f"bot did not exit within 15 s of SIGTERM\n{output()}")
        await asyncio.wait_for(asyncio.gather(*readers), 5)
        assert code == 0, f"exit status {code}\n{output()}"
        assert token not in output(), "the token leaked into the bot's output"
        assert token.split(".", 1)[1] not in output()
        assert "voice will NOT be supported" not in output(), "the bot has no voice: no warning"
        assert not fake.unknown_routes, f"bot called routes the fake lacks: {fake.unknown_routes}"
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        for r in readers:
            r.cancel()
        await fake.stop()
