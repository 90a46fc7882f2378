"""A whole game on the wire: the real bot (`python -m bot`, a subprocess, unmodified discord.py)
against the loopback fake Discord. One person opens a table with `/tienlen start`, adds three
computer players through the board's buttons, starts, and plays every turn from the board and their
ephemeral hand message (card buttons, then Play or Pass) until the board says "Game over"; then
SIGTERM and a clean exit (status 0), and `python -m data.check` finds the database sound. The
game-over post is one new message (even though the fake loses the answer to its first send, so
the bot sends it again with the same nonce) that notifies exactly the seated person and shows
every card still held, as the database has them."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import Game
from tests.support.fake_discord import FakeDiscord, StoredMessage
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


def _is_post(message: StoredMessage) -> bool:
    return bool(message.embeds) and str(message.embeds[0].get("title") or "").startswith(
        "Game over — table")


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
        # The next post is the game-over post: Discord makes it, but its answer is lost. The
        # bot sends it again with the same nonce, and Discord keeps one message.
        fake.lose_answer_next("channel_message_create", 500)

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
            try:  # the board moves on; if not (a busy CI, the board a moment behind), look again
                await fake.wait_until(  # my move shows on the board before I look again
                    lambda b=board, e=board.edit_count: (
                        newest_board(fake, channel) is not b or b.edit_count > e
                    ),
                    10,
                )
            except TimeoutError:
                continue
        text = board.text()
        assert turns >= 1 or "wins at once" in text, text  # an instant win deal has no turns
        assert "Game over" in text and "chips" in text, text
        assert f"tl:b:{table}:again" in board.custom_ids()
        # The game-over post: a new message (the board stays the board) that notifies exactly
        # the seated people (here alice alone), and no reminder mention was ever deleted.
        await fake.wait_until(lambda: any(_is_post(m) for m in fake.channel_messages(channel)), 10)
        (post,) = [m for m in fake.channel_messages(channel) if _is_post(m)]
        assert post.id != board.id and post.edit_count == 0
        assert getattr(fake, "lost_answers", 0) == 1  # its first answer was lost, yet one post
        assert str(post.data.get("nonce")).startswith("tl-over-")
        assert [m["id"] for m in post.data["mentions"]] == [str(me.id)]
        assert post in fake.notified(me)
        assert fake.mention_deletions == []
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
        # Every card still held, of every seat, is on the post (lật bài).
        with sqlite3.connect(db_path) as db:
            (state,) = db.execute("SELECT state_json FROM games").fetchone()
        game = Game.from_json(json.loads(state)["engine"])
        text = str(post.embeds[0].get("description"))
        held = [card for seat in range(game.seat_count) for card in game.hand(seat)]
        assert all(str(card) in text for card in held), (held, text)
    finally:
        await kill(proc)
        await fake.stop()
