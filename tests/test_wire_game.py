"""A whole game on the wire: the real bot (`python -m bot`, a subprocess, unmodified discord.py)
against the loopback fake Discord. One person opens a table with `/tienlen start`, adds three
computer players through the board's buttons, starts, and plays every turn from the board and their
ephemeral hand message (card buttons, then Play or Pass) until the board says "Game over"; then
SIGTERM and a clean exit (status 0), and `python -m data.check` finds the database sound."""

from __future__ import annotations

import asyncio
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.fake_discord import FakeDiscord
from tests.support.wire import (
    REPO_ROOT,
    bot_env,
    connected,
    kill,
    newest_board,
    play_turn,
    refusal,
    start_bot,
    until_board,
)

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM"), pytest.mark.slow]


async def test_one_person_and_three_computers_play_a_game_over_the_wire(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    db_path = tmp_path / "wire.sqlite3"
    env = bot_env(fake, db_path, token)
    log_path = tmp_path / "bot.log"
    proc = await start_bot(tmp_path, env)
    try:
        await connected(fake)

        opened = await (await fake.slash(me, "tienlen", "start", channel=channel)).response(5)
        assert opened.ephemeral, opened.callback_data
        table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")

        for seats in (2, 3, 4):
            await asyncio.sleep(0.3)  # longer than the board interval: nothing pending
            chooser = await (await fake.click(me, board, f"tl:b:{table}:addai")).response(5)
            assert chooser.ephemeral and chooser.original is not None
            added = await (
                await fake.click(me, chooser.original, f"tl:ai:{table}:normal")
            ).response(5)
            assert added.callback_type == 7, added.callback_data
            board, _ = await until_board(  # the board lists the new seat by itself
                fake, channel, lambda v, n=seats: v.phase == "lobby" and v.seats == n
            )
        assert "Computer 3 (normal)" in board.text()

        started = await (await fake.click(me, board, f"tl:b:{table}:start")).response(5)
        assert started.callback_type == 7 and refusal(started) is None, started.callback_data

        deadline = time.monotonic() + 60
        turns = 0
        while True:
            board, view = await until_board(
                fake, channel, lambda v: v.phase == "over" or v.turn_user == me.id, timeout=20
            )
            if view.phase == "over":
                break
            await play_turn(fake, me, board, view, table)
            turns += 1
            assert time.monotonic() < deadline, "the game did not end within 60 s"
            await fake.wait_until(  # my move shows on the board before I look again
                lambda b=board, e=board.edit_count: (
                    newest_board(fake, channel) is not b or b.edit_count > e
                ),
                10,
            )
        text = board.text()
        assert turns >= 1 or "wins at once" in text, text  # an instant win deal has no turns
        assert "Game over" in text and "chips" in text, text
        assert f"tl:b:{table}:again" in board.custom_ids()
        assert not fake.errors, fake.errors
        assert not fake.unknown_routes, fake.unknown_routes
        # every request, interaction answers and webhook edits included, says DiscordBot (…)
        assert "interaction_callback" in {route for route, _ in fake.user_agents}
        assert all(a.startswith("DiscordBot (") for _, a in fake.user_agents), fake.user_agents
        assert all(lat < 3 for lat in fake.latencies)

        proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), 15)
        output = log_path.read_text(errors="replace")
        assert code == 0, output
        assert " ERROR " not in output and "Traceback" not in output, output
        assert "finished and settled" in output
        check = subprocess.run(
            [sys.executable, "-m", "data.check", str(db_path)],
            cwd=REPO_ROOT,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert check.returncode == 0, check.stdout + check.stderr
        assert "1 finished" in check.stdout, check.stdout
    finally:
        await kill(proc)
        await fake.stop()
