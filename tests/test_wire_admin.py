"""The admin tools over the wire: the real bot (`python -m bot`) against the loopback fake
Discord. An admin grants and takes chips with `/tienlen admin chips`, each followed by
`/leaderboard`, `/tienlen stats` and `data.check`; a member without Manage Server is refused."""

from __future__ import annotations

import asyncio
import secrets
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from data.check import check_path
from tests.support.fake_discord import FakeDiscord
from tests.support.wire import bot_env, connected, kill, start_bot

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM")


async def answer(fake: FakeDiscord, user: Any, name: str, sub: str | None,
                 options: dict[str, Any], channel: int, group: str | None = None) -> Any:
    handle = await fake.slash(user, name, sub, options, group=group, channel=channel)
    return await handle.response(10)


async def test_admin_chips_over_the_wire(tmp_path: Path) -> None:
    token = f"admin.{secrets.token_hex(8)}"
    async with FakeDiscord(allowed_tokens={token}) as fake:
        channel = fake.channel("tienlen").id
        boss, alice, bob = fake.user("admin"), fake.user("alice"), fake.user("bob")
        db = tmp_path / "wire.sqlite3"
        proc = await start_bot(tmp_path, bot_env(fake, db, token))
        try:
            await connected(fake)
            granted = await answer(fake, boss, "tienlen", "chips",
                                   {"user": alice, "action": "grant", "amount": 250,
                                    "reason": "event prize"}, channel, group="admin")
            assert granted.ephemeral, granted.callback_data
            assert "Granted **250** chips" in granted.callback_data["content"]
            board = await answer(fake, bob, "leaderboard", None, {}, channel)
            assert "1,250 chips" in board.callback_data["embeds"][0]["description"]
            stats = await answer(fake, bob, "tienlen", "stats", {"user": alice}, channel)
            chips = {f["name"]: f["value"] for f in stats.callback_data["embeds"][0]["fields"]}
            assert chips["Chips"] == "1,250"

            taken = await answer(fake, boss, "tienlen", "chips",
                                 {"user": alice, "action": "take", "amount": 50,
                                  "reason": "dispute"}, channel, group="admin")
            assert "they now hold **1,200**" in taken.callback_data["content"]
            refused = await answer(fake, bob, "tienlen", "chips",
                                   {"user": bob, "action": "grant", "amount": 5,
                                    "reason": "me"}, channel, group="admin")
            assert refused.ephemeral and "Manage Server" in refused.callback_data["content"]
            logged = await answer(fake, boss, "tienlen", "log", {}, channel, group="admin")
            lines = logged.callback_data["embeds"][0]["description"].splitlines()
            assert len(lines) == 2 and "took 50" in lines[0] and "granted 250" in lines[1]
            report = await asyncio.to_thread(check_path, db)
            assert report.ok, report.faults
            assert any("admin grants 250 - admin takes 50" in f for f in report.facts)
            proc.send_signal(signal.SIGTERM)
            assert await asyncio.wait_for(proc.wait(), 30) == 0
        finally:
            await kill(proc)
    log = (tmp_path / "bot.log").read_text()
    assert token not in log and "Traceback" not in log
