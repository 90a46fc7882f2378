"""The real bot (`python -m bot`, a subprocess) against the fake Discord in its limits mode:
missing permissions refuse `/tienlen start`; a board that cannot be posted or edited closes its
table (no chips move), tells the host and frees the channel; an old board refused with 30046 is
posted afresh; first-run failures name the setting to fix (exit 2, one line, no traceback);
commands are synced only when they changed (or with `--sync`)."""

from __future__ import annotations

import asyncio
import secrets
import signal
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_discord import FakeDiscord, InteractionHandle, StoredMessage
from tests.support.fake_discord.limits import LimitConfig
from tests.support.fake_discord.models import (
    ATTACH_FILES,
    EMBED_LINKS,
    INTENT_DIRECT_MESSAGES,
    INTENT_GUILD_MESSAGES,
    INTENT_GUILDS,
    SEND_MESSAGES,
    VIEW_CHANNEL,
)
from tests.support.wire import bot_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM")


class Bot:
    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.out: list[bytes] = []
        self.readers = [asyncio.ensure_future(self._drain(proc.stdout)),
                        asyncio.ensure_future(self._drain(proc.stderr))]

    async def _drain(self, stream: asyncio.StreamReader | None) -> None:
        while stream is not None and (chunk := await stream.read(65536)):
            self.out.append(chunk)

    def output(self) -> str:
        return b"".join(self.out).decode(errors="replace")

    async def finish(self, within: float = 20) -> int:
        code = await asyncio.wait_for(self.proc.wait(), within)
        await asyncio.wait_for(asyncio.gather(*self.readers), 5)
        return code


async def _spawn(env: dict[str, str], cwd: Path, *args: str) -> Bot:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", *args, cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    return Bot(proc)


@asynccontextmanager
async def running_bot(fake: FakeDiscord, tmp_path: Path, *args: str,
                      db: Path | None = None) -> AsyncIterator[Bot]:
    token = f"limits.{secrets.token_hex(8)}"
    assert fake.allowed_tokens is None
    bot = await _spawn(bot_env(fake, db or tmp_path / "bot.sqlite3", token), tmp_path, *args)
    try:
        await fake.wait_until(lambda: fake.connected and fake.ready_sent.is_set(), timeout=30)
        await asyncio.sleep(0.3)  # the guild reaches the bot's cache
        yield bot
        bot.proc.send_signal(signal.SIGTERM)
        code = await bot.finish()
        assert code == 0, bot.output()
        assert "Traceback" not in bot.output(), bot.output()
    finally:
        if bot.proc.returncode is None:
            bot.proc.kill()
            await bot.proc.wait()


def _boards(fake: FakeDiscord, channel: str) -> list[StoredMessage]:
    return [m for m in fake.channel_messages(channel) if not m.ephemeral
            and "Tiến Lên — table #" in m.text().split("\n", 1)[0]]


def _table_of(board: StoredMessage) -> int:
    """The table number in a board's first line ("### Tiến Lên — table #3")."""
    return int(board.text().split("\n", 1)[0].rsplit("#", 1)[1].split()[0])


async def _start(fake: FakeDiscord, channel: str, user: str = "alice") -> InteractionHandle:
    handle = await fake.slash(user, "tienlen", subcommand="start", channel=channel)
    return await handle.response(10)


def _text(handle: InteractionHandle) -> str:
    return str((handle.callback_data or {}).get("content") or "")


async def _until(predicate: Callable[[], Any], what: str, fake: FakeDiscord, bot: Bot,
                 within: float = 15) -> None:
    try:
        await fake.wait_until(lambda: bool(predicate()), timeout=within)
    except TimeoutError:
        pytest.fail(f"{what} within {within} s\n{bot.output()[-3000:]}")


async def test_permissions_and_boards_that_cannot_be_shown(tmp_path: Path) -> None:
    fake = FakeDiscord(limits=LimitConfig(old_edit_budget=0))
    await fake.start()
    try:
        async with running_bot(fake, tmp_path) as bot:
            alice = fake.user("alice").id
            # 1. Missing permissions: named in a private refusal; no table, no board.
            fake.deny("casino", EMBED_LINKS | ATTACH_FILES)
            refused = await _start(fake, "casino")
            assert refused.ephemeral, refused.callback_data
            assert "Embed Links" in _text(refused) and "Attach Files" in _text(refused)
            assert "Send Messages" not in _text(refused)
            assert not fake.channel_messages("casino")
            fake.allow("casino", EMBED_LINKS | ATTACH_FILES)
            opened = await _start(fake, "casino")
            assert "is open" in _text(opened), opened.callback_data
            await _until(lambda: _boards(fake, "casino"), "no board in casino", fake, bot)

            # 2. The board post is refused (403): the table closes, the host is told by direct
            #    message, and the channel is free again.
            fake.fail_next("channel_message_create", status=403)
            opened = await _start(fake, "general")
            assert "is open" in _text(opened)
            await _until(lambda: fake.direct_messages, "no message to the host", fake, bot)
            assert fake.direct_messages[0][0] == alice
            assert "closed" in fake.direct_messages[0][1]
            again = await _start(fake, "general")
            assert "is open" in _text(again), again.callback_data
            await _until(lambda: _boards(fake, "general"), "no board in general", fake, bot)

            # 3. A board edit fails for good later (the bot lost access to the channel).
            board = _boards(fake, "general")[-1]
            table = _table_of(board)
            chooser = await (await fake.click("alice", board, f"tl:b:{table}:addai")).response(10)
            assert chooser.ephemeral
            fake.deny("general", VIEW_CHANNEL | SEND_MESSAGES)
            level_msg = chooser.original
            assert level_msg is not None
            await (await fake.click("alice", level_msg, f"tl:ai:{table}:easy")).response(10)
            await _until(lambda: len(fake.direct_messages) == 2, "host not told twice",
                         fake, bot)
            assert f"#{table}" in fake.direct_messages[1][1]
            fake.allow("general", VIEW_CHANNEL | SEND_MESSAGES)
            third = await _start(fake, "general")
            assert "is open" in _text(third), third.callback_data

            # 4. Editing a board older than an hour is refused (30046): a fresh board is posted.
            first = _boards(fake, "casino")[-1]
            table = _table_of(first)
            fake.advance(3700)
            chooser = await (await fake.click("alice", first, f"tl:b:{table}:addai")).response(10)
            assert chooser.original is not None
            await (await fake.click("alice", chooser.original, f"tl:ai:{table}:easy")
                   ).response(10)
            await _until(lambda: _boards(fake, "casino")[-1].id != first.id,
                         "no fresh board after 30046", fake, bot)
            assert fake.old_edit_refusals >= 1
            assert "Computer 1 (easy)" in _boards(fake, "casino")[-1].text()
        assert fake.route_429 == 0 and fake.global_429 == 0
    finally:
        await fake.stop()


async def test_first_run_failures_name_the_setting(tmp_path: Path) -> None:
    fake = FakeDiscord(allowed_tokens={"good.token"})
    await fake.start()
    try:
        cases = {
            "DISCORD_TOKEN": bot_env(fake, tmp_path / "a.sqlite3", "bad.token"),
            "DEV_GUILD_ID": bot_env(fake, tmp_path / "b.sqlite3", "good.token",
                                 DEV_GUILD_ID="424242424242"),
            "DATABASE_PATH": bot_env(fake, tmp_path / "no" / "such" / "dir" / "c.sqlite3",
                                  "good.token"),
            "DISCORD_GATEWAY_URL": bot_env(fake, tmp_path / "d.sqlite3", "good.token",
                                        DISCORD_GATEWAY_URL="ws://127.0.0.1:9/gateway"),
            "DISCORD_API_BASE_URL": bot_env(fake, tmp_path / "e.sqlite3", "good.token",
                                         DISCORD_API_BASE_URL="http://127.0.0.1:9/api/v10"),
        }
        bots = {name: await _spawn(env, tmp_path) for name, env in cases.items()}
        for name, bot in bots.items():
            code = await bot.finish(within=40)
            out = bot.output()
            assert code == 2, f"{name}: exit {code}\n{out}"
            errors = [line for line in out.splitlines() if line.startswith("startup error:")]
            assert len(errors) == 1 and name in errors[0], f"{name}:\n{out}"
            assert "Traceback" not in out, out
            assert "good.token" not in out and "bad.token" not in out
        dev = bots["DEV_GUILD_ID"].output()
        assert "applications.commands" in dev
    finally:
        await fake.stop()


async def test_commands_are_synced_only_when_changed(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    db = tmp_path / "bot.sqlite3"
    try:
        async with running_bot(fake, tmp_path, db=db):
            await fake.wait_until(lambda: len(fake.command_syncs) == 1, timeout=10)
        async with running_bot(fake, tmp_path, db=db) as bot:
            await asyncio.sleep(0.5)
            assert len(fake.command_syncs) == 1, bot.output()
        async with running_bot(fake, tmp_path, "--sync", db=db):
            await fake.wait_until(lambda: len(fake.command_syncs) == 2, timeout=10)
    finally:
        await fake.stop()


async def test_the_bot_asks_for_no_message_events(tmp_path: Path) -> None:
    """The bot listens to no message: it identifies without the message intents, so Discord
    sends it none of its own board posts and edits (each was parsed and cached before)."""
    fake = FakeDiscord()
    await fake.start()
    try:
        async with running_bot(fake, tmp_path) as bot:
            opened = await _start(fake, "general")
            assert "is open" in _text(opened), opened.callback_data
            await _until(lambda: _boards(fake, "general"), "no board in general", fake, bot)
            sessions = fake.gateway_sessions()
            assert sessions
            for session in sessions:
                assert session.intents & INTENT_GUILDS  # servers and channels: still known
                assert not session.intents & (INTENT_GUILD_MESSAGES | INTENT_DIRECT_MESSAGES)
                assert session.events["INTERACTION_CREATE"] >= 1
                assert not [e for e in session.events if e.startswith("MESSAGE_")]
    finally:
        await fake.stop()
