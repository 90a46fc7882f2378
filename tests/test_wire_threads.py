"""A table in its own thread on the wire: the real bot (`python -m bot`, a subprocess) against the
loopback fake Discord, whose thread routes follow Discord's API description. One person starts a
table with `thread: on`: a public thread of the channel named after the table holds the board as
its first message; a computer player joins, the game plays through in the thread, the game-over
post goes there, `/tienlen stop` closes the table and the thread is archived. A channel where the
bot lacks Create Public Threads gets that permission named, and no thread."""

from __future__ import annotations

import asyncio
import re
import secrets
import sys
import time
from pathlib import Path

import pytest

from tests.support.fake_discord import FakeDiscord
from tests.support.wire import (
    bot_env,
    connected,
    kill,
    newest_board,
    play_turn,
    refusal,
    start_bot,
    until_board,
)

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses signals"), pytest.mark.slow]

CREATE_PUBLIC_THREADS = 1 << 35


async def test_a_table_in_a_thread_over_the_wire(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    closed = fake.add_channel("nothreads").id
    fake.deny(closed, CREATE_PUBLIC_THREADS)
    me = fake.user("alice")
    proc = await start_bot(tmp_path, bot_env(fake, tmp_path / "wire.sqlite3", token))
    try:
        await connected(fake)
        refused = await (await fake.slash(me, "tienlen", "start", channel=closed,
                                          options={"thread": "on"})).response(5)
        assert "Create Public Threads" in str(refusal(refused)), refused.callback_data
        assert fake.threads_of(closed) == []

        opened = await (await fake.slash(me, "tienlen", "start", channel=channel,
                                         options={"thread": "on"})).response(5)
        content = str(opened.callback_data["content"])  # type: ignore[index]
        assert opened.ephemeral and "is open in its thread" in content, content
        table = int(re.search(r"Table #(\d+)", content).group(1))  # type: ignore[union-attr]
        (thread,) = fake.threads_of(channel)
        assert thread.type == 11 and thread.name == f"Tiến Lên #{table}"
        assert f"<#{thread.id}>" in content
        board, _ = await until_board(fake, thread.id, lambda v: v.phase == "lobby")
        assert fake.channel_messages(thread.id)[0] is board  # the thread's first message
        assert newest_board(fake, channel) is None  # nothing in the channel itself

        await asyncio.sleep(0.3)
        chooser = await (await fake.click(me, board, f"tl:b:{table}:addai")).response(5)
        assert chooser.original is not None
        await (await fake.click(me, chooser.original, f"tl:ai:{table}:normal")).response(5)
        board, _ = await until_board(fake, thread.id, lambda v: v.seats == 2)
        started = await (await fake.click(me, board, f"tl:b:{table}:start")).response(5)
        assert refusal(started) is None, started.callback_data
        deadline = time.monotonic() + 60
        while True:
            board, view = await until_board(
                fake, thread.id, lambda v: v.phase == "over" or v.turn_user == me.id, timeout=20)
            if view.phase == "over":
                break
            await play_turn(fake, me, board, view, table)
            assert time.monotonic() < deadline, "the game did not end within 60 s"
            try:  # the board moves on; if not (a busy CI, the board a moment behind), look again
                await fake.wait_until(
                    lambda b=board, e=board.edit_count: (
                        newest_board(fake, thread.id) is not b or b.edit_count > e), 10)
            except TimeoutError:
                continue
        await fake.wait_until(lambda: any(
            str((m.embeds or [{}])[0].get("title") or "").startswith("Game over — table")
            for m in fake.channel_messages(thread.id)), 10)
        assert not thread.archived
        stopped = await (await fake.slash(me, "tienlen", "stop", channel=thread.id)).response(5)
        assert "is closed" in str(stopped.callback_data["content"])  # type: ignore[index]
        await fake.wait_until(lambda: thread.archived, 15)  # archived once the table closed
        assert "Closed" in board.text() or "closed" in board.text()
        assert not fake.errors, fake.errors
        assert not fake.unknown_routes, fake.unknown_routes
        assert fake.mention_deletions == []
    finally:
        await kill(proc)
        await fake.stop()
