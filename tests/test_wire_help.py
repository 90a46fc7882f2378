"""`/tienlen help` and the rules answer on the wire: the real bot (`python -m bot`, a subprocess)
against the loopback fake Discord, which checks the payloads as Discord does (embeds, selects,
attachments and their descriptions)."""

from __future__ import annotations

import asyncio
import re
import secrets
import sys
from pathlib import Path

import pytest

from tests.support.fake_discord import FakeDiscord
from tests.support.wire import bot_env, kill, start_bot

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM"), pytest.mark.slow]


async def test_help_pages_and_rules_over_the_wire(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    proc = await start_bot(tmp_path, bot_env(fake, tmp_path / "wire.sqlite3", token))
    try:
        await asyncio.wait_for(fake.commands_synced.wait(), 30)
        await fake.wait_ready(30)
        shown = await (await fake.slash(me, "tienlen", "help", channel=channel)).response(5)
        page = shown.original
        assert page is not None and page.ephemeral
        assert page.embeds[0]["title"] == "How to play Tiến Lên — Goal and combinations"
        assert page.custom_ids() == ["tl:help"]
        # A fresh bot warms its card sprites first (a few seconds in the drawing thread): until
        # the help pictures are drawn the page goes out as text; then it carries its picture.
        for _ in range(20):
            if page.data["attachments"]:
                break
            await asyncio.sleep(0.5)
            turned = await (await fake.click(me, page, "tl:help", values=["basics"])).response(5)
            assert turned.original is not None
            page = turned.original
        (picture,) = page.data["attachments"]
        assert picture["filename"] == "help.png"
        assert str(picture.get("description", "")).startswith("Examples: single 7♥")
        assert page.embeds[0]["image"]["url"].endswith("help.png")
        turned = await (await fake.click(me, page, "tl:help", values=["chops"])).response(5)
        page = turned.original
        assert page is not None
        assert page.embeds[0]["title"] == "How to play Tiến Lên — Chops"
        turned = await (await fake.click(me, page, "tl:help", values=["buttons"])).response(5)
        page = turned.original
        assert page is not None and page.data["attachments"] == []  # no examples, no picture

        opened = await (await fake.slash(me, "tienlen", "start", {"options": "cong=on"},
                                         channel=channel)).response(5)
        table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]
        rules = (await (await fake.slash(me, "tienlen", "rules", channel=channel)).response(5))
        answer = rules.original
        assert answer is not None and answer.ephemeral
        assert answer.embeds[0]["description"] == "Preset **southern**, with 1 change:"
        (every,) = answer.custom_ids()
        assert every.startswith("tl:rules:") and every.endswith(f":{table}")
        full = (await (await fake.click(me, answer, every)).response(5)).original
        assert full is not None and len(full.embeds[0]["fields"]) == 20
        assert not fake.errors, fake.errors
        assert not fake.unknown_routes, fake.unknown_routes
    finally:
        await kill(proc)
        await fake.stop()
