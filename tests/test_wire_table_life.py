"""A table's life on the wire: the real bot (`python -m bot`, a subprocess) against the loopback
fake Discord. A game, then a spectator joins the finished board and plays the next one, then
two of the three press Play again and the host starts without the third; and a
person leaves a running game, the bot is SIGKILLed right after, and the restarted bot lets a
computer finish the seat and settles the leaver as the last place, exactly once."""

from __future__ import annotations

import asyncio
import re
import secrets
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

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

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL"),
              pytest.mark.slow]


def data_check(db_path: Path) -> str:
    check = subprocess.run([sys.executable, "-m", "data.check", str(db_path)], cwd=REPO_ROOT,
                           capture_output=True, text=True, timeout=60, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
    return check.stdout


def chips(db_path: Path) -> dict[int, int]:
    with sqlite3.connect(db_path) as db:
        return {int(u): int(c) for u, c in db.execute("SELECT user_id, chips FROM players")}


async def play_to_the_end(fake: FakeDiscord, channel: int, table: int, people: list[Any],
                          timeout: float = 240) -> str:  # noqa: ASYNC109
    """The people play their turns from the board and their hands until the game is over."""
    ids = {p.id: p for p in people}
    deadline = time.monotonic() + timeout
    while True:
        board, view = await until_board(
            fake, channel, lambda v: v.phase in ("over", "lobby") or v.turn_user in ids,
            timeout=30)
        if view.phase in ("over", "lobby"):  # a lobby again when someone left the game
            return board.text()
        assert view.turn_user is not None
        edits = board.edit_count  # before the play: its board edit may land before its answer
        await play_turn(fake, ids[view.turn_user], board, view, table)
        assert time.monotonic() < deadline, "the game did not end in time"
        try:  # the board moves on; if not (a busy CI, a play the table refused), play again
            await fake.wait_until(
                lambda b=board, e=edits: (
                    newest_board(fake, channel) is not b or b.edit_count > e), 15)
        except TimeoutError:
            continue


async def click(fake: FakeDiscord, who: Any, message: Any, custom_id: str) -> Any:
    return await (await fake.click(who, message, custom_id)).response(5)


async def open_with(fake: FakeDiscord, host: Any, channel: int) -> int:
    opened = await (await fake.slash(host, "tienlen", "start", channel=channel)).response(5)
    assert opened.ephemeral, opened.callback_data
    found = re.search(r"Table #(\d+)", opened.callback_data["content"])
    assert found is not None
    return int(found.group(1))


async def test_a_spectator_joins_the_finished_board_and_plays_the_next_game(
        tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    alice, bob, carol = fake.user("alice"), fake.user("bob"), fake.user("carol")
    db_path = tmp_path / "wire.sqlite3"
    proc = await start_bot(tmp_path, bot_env(fake, db_path, token))
    try:
        await connected(fake)
        table = await open_with(fake, alice, channel)
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        joined = await click(fake, bob, board, f"tl:b:{table}:join")
        assert joined.callback_type == 7, joined.callback_data
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 2)
        started = await click(fake, alice, board, f"tl:b:{table}:start")
        assert refusal(started) is None, started.callback_data
        await play_to_the_end(fake, channel, table, [alice, bob])
        board, _ = await until_board(fake, channel, lambda v: v.phase == "over")
        ids = board.custom_ids()
        for action in ("join", "leave", "addai", "again", "start", "rules"):
            assert f"tl:b:{table}:{action}" in ids, ids

        # Carol watched; she sits down on the finished board.
        joined = await click(fake, carol, board, f"tl:b:{table}:join")
        assert refusal(joined) is None, joined.callback_data
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 3)
        twice = await click(fake, carol, board, f"tl:b:{table}:join")
        assert "already seated" in (refusal(twice) or ""), twice.callback_data
        # Play again by all three: a ready check that deals once everyone is ready.
        for who in (alice, bob):
            ready = await click(fake, who, board, f"tl:b:{table}:again")
            assert refusal(ready) is None, ready.callback_data
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        assert "ready" in board.text()
        ready = await click(fake, carol, board, f"tl:b:{table}:again")
        assert refusal(ready) is None, ready.callback_data
        await until_board(fake, channel, lambda v: v.phase == "playing")
        text = await play_to_the_end(fake, channel, table, [alice, bob, carol])
        assert f"<@{carol.id}>" in text and "Game over" in text
        assert sum(chips(db_path).values()) == 3 * 1000

        # Play again by two of the three; the host starts: Carol is unseated, charged nothing.
        board, _ = await until_board(fake, channel, lambda v: v.phase == "over")
        for who in (bob, alice):
            ready = await click(fake, who, board, f"tl:b:{table}:again")
            assert refusal(ready) is None, ready.callback_data
        before = chips(db_path)[carol.id]
        started = await click(fake, alice, board, f"tl:b:{table}:start")
        assert refusal(started) is None, started.callback_data
        board, _ = await until_board(fake, channel, lambda v: v.phase == "playing")
        assert f"<@{carol.id}>" not in board.text()
        await play_to_the_end(fake, channel, table, [alice, bob])
        assert chips(db_path)[carol.id] == before
        assert sum(chips(db_path).values()) == 3 * 1000
        assert not fake.errors, fake.errors

        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
        assert "3 finished" in data_check(db_path)
    finally:
        await kill(proc)
        await fake.stop()


async def test_a_leaver_is_settled_last_across_a_sigkill(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    alice, bob = fake.user("alice"), fake.user("bob")
    db_path = tmp_path / "wire.sqlite3"
    env = bot_env(fake, db_path, token)
    proc = await start_bot(tmp_path, env)
    again = None
    try:
        await connected(fake)
        table = await open_with(fake, alice, channel)
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        await click(fake, bob, board, f"tl:b:{table}:join")
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 2)
        started = await click(fake, alice, board, f"tl:b:{table}:start")
        assert refusal(started) is None, started.callback_data
        board, _ = await until_board(fake, channel, lambda v: v.phase == "playing")

        asked = await click(fake, bob, board, f"tl:b:{table}:leave")
        assert asked.ephemeral and asked.original is not None, asked.callback_data
        confirm = [c for c in asked.original.custom_ids() if c.startswith(f"tl:q:{table}:")]
        assert len(confirm) == 1, asked.original.custom_ids()
        left = await click(fake, bob, asked.original, confirm[0])
        assert "You left the game" in str((left.callback_data or {}).get("content")), left
        proc.send_signal(signal.SIGKILL)  # between the leave and the end of the game
        assert await asyncio.wait_for(proc.wait(), 15) == -signal.SIGKILL

        (tmp_path / "again").mkdir()
        again = await start_bot(tmp_path / "again", env)
        log = tmp_path / "again" / "bot.log"
        deadline = time.monotonic() + 60
        while "resumed" not in log.read_text(errors="replace"):
            assert time.monotonic() < deadline, log.read_text(errors="replace")
            await asyncio.sleep(0.1)
        await fake.wait_until(lambda: fake.connected, 30)
        text = await play_to_the_end(fake, channel, table, [alice])
        results = text.split("Seats", 1)[0]
        places = [line for line in results.splitlines() if re.match(r"\d\. ", line)]
        assert places and f"<@{bob.id}>" in places[-1] and "left the game" in places[-1], text
        held = chips(db_path)
        assert held[bob.id] < 1000 < held[alice.id]  # he paid Alice as the last place
        assert sum(held.values()) == 2 * 1000
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby", timeout=10)
        assert f"<@{bob.id}>" not in board.text().split("Seats", 1)[1]  # unseated after it
        again.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(again.wait(), 15) == 0
        output = log.read_text(errors="replace")
        assert "Traceback" not in output, output
        assert "1 finished" in data_check(db_path)
        with sqlite3.connect(db_path) as db:  # settled once: one result row per seat
            assert db.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 2
    finally:
        await kill(proc)
        if again is not None:
            await kill(again)
        await fake.stop()
