"""A whole game on the wire: the real bot (`python -m bot`, a subprocess, unmodified discord.py)
against the loopback fake Discord. One person opens a table with `/tienlen start`, adds three
computer players through the board's buttons, starts, and plays every turn from the board and their
ephemeral hand message (card buttons, then Play or Pass) until the board says "Game over"; then
SIGTERM and a clean exit (status 0), and `python -m data.check` finds the database sound."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from benchmarks.load import (
    BoardView,
    board_table_id,
    choose_play,
    hand_button,
    hand_cards,
    read_board,
)
from tests.support.fake_discord import FakeDiscord, InteractionHandle, StoredMessage

REPO_ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM"), pytest.mark.slow]


def _board(fake: FakeDiscord, channel: int) -> StoredMessage | None:
    boards = [m for m in fake.channel_messages(channel) if board_table_id(m) is not None]
    return boards[-1] if boards else None


async def _until_board(
    fake: FakeDiscord,
    channel: int,
    ok: object,
    timeout: float = 15,  # noqa: ASYNC109
) -> tuple[StoredMessage, BoardView]:
    """Wait until the newest board satisfies `ok(view)`."""
    deadline = time.monotonic() + timeout
    while True:
        board = _board(fake, channel)
        if board is not None:
            view = read_board(board)
            if ok(view):  # type: ignore[operator]
                return board, view
        if time.monotonic() > deadline:
            shown = board.text() if board is not None else "no board"
            raise AssertionError(f"board not as expected within {timeout}s:\n{shown}")
        await asyncio.sleep(0.02)


def _refusal(handle: InteractionHandle) -> str | None:
    data = handle.callback_data or {}
    if handle.callback_type == 4 and handle.ephemeral and not data.get("components"):
        return str(data.get("content"))
    return None


async def _play_turn(
    fake: FakeDiscord, me: object, board: StoredMessage, view: BoardView, table: int
) -> None:
    """Open my hand; play the lowest card(s) that beat the table, else pass."""
    opened = await (await fake.click(me, board, f"tl:b:{table}:hand")).response(5)  # type: ignore[arg-type]
    if _refusal(opened) is not None:
        return
    hand = opened.original
    assert hand is not None and hand.ephemeral, opened.callback_data
    status = hand.content
    if "Your turn" not in status and "Your lead" not in status:
        return  # the board was a moment behind
    held = [card for card, _ in hand_cards(hand)]
    first = hand_cards(hand)[0][1]
    answer = await (await fake.click(me, hand, first["custom_id"])).response(5)  # type: ignore[arg-type]
    assert answer.callback_type == 7 and first["custom_id"] not in hand.custom_ids()
    clear = hand_button(hand, "clear")
    assert clear is not None and not clear.get("disabled"), hand.text()
    answer = await (await fake.click(me, hand, clear["custom_id"])).response(5)  # type: ignore[arg-type]
    assert answer.callback_type == 7, answer.callback_data  # `Clear` empties the selection
    assert hand_button(
        hand,
        "clear",
    ).get("disabled"), hand.text()  # type: ignore[union-attr]
    choice = choose_play(held, None if "Your lead" in status else view.to_beat)
    if choice is not None:
        for card in choice:
            button = next(c for k, c in hand_cards(hand) if k == card)
            answer = await (await fake.click(me, hand, button["custom_id"])).response(5)  # type: ignore[arg-type]
            assert answer.callback_type == 7, answer.callback_data  # the hand, updated in place
        play = hand_button(hand, "play")
        assert play is not None and not play.get("disabled"), hand.text()
        answer = await (await fake.click(me, hand, play["custom_id"])).response(5)  # type: ignore[arg-type]
        if _refusal(answer) is None:
            assert "You played" in hand.content, hand.content
            return
    passing = hand_button(hand, "pass")
    if passing is not None and not passing.get("disabled"):
        answer = await (await fake.click(me, hand, passing["custom_id"])).response(5)  # type: ignore[arg-type]
        assert _refusal(answer) is None or "out of date" in str(_refusal(answer))


async def test_one_person_and_three_computers_play_a_game_over_the_wire(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    db_path = tmp_path / "wire.sqlite3"
    env = {
        **os.environ,
        "DISCORD_TOKEN": token,
        "DATABASE_PATH": str(db_path),
        "DISCORD_API_BASE_URL": fake.api_base,
        "DISCORD_GATEWAY_URL": fake.gateway_url,
        "DEV_GUILD_ID": str(fake.guild_id),
        "LOG_LEVEL": "INFO",
        "AI_DELAY_SECONDS": "0.05",
        "BOARD_EDIT_INTERVAL": "0.2",
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p
        ),
    }
    log_path = tmp_path / "bot.log"
    with open(log_path, "wb") as log:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=log, stderr=log
        )
    try:
        await asyncio.wait_for(fake.commands_synced.wait(), 30)
        await fake.wait_ready(30)
        await fake.wait_until(lambda: fake.connected, 10)

        opened = await (await fake.slash(me, "tienlen", "start", channel=channel)).response(5)
        assert opened.ephemeral, opened.callback_data
        table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]
        board, _ = await _until_board(fake, channel, lambda v: v.phase == "lobby")

        for seats in (2, 3, 4):
            await asyncio.sleep(0.3)  # longer than the board interval: nothing pending
            chooser = await (await fake.click(me, board, f"tl:b:{table}:addai")).response(5)
            assert chooser.ephemeral and chooser.original is not None
            added = await (
                await fake.click(me, chooser.original, f"tl:ai:{table}:normal")
            ).response(5)
            assert added.callback_type == 7, added.callback_data
            board, _ = await _until_board(  # the board lists the new seat by itself
                fake, channel, lambda v, n=seats: v.phase == "lobby" and v.seats == n
            )
        assert "Computer 3 (normal)" in board.text()

        started = await (await fake.click(me, board, f"tl:b:{table}:start")).response(5)
        assert started.callback_type == 7 and _refusal(started) is None, started.callback_data

        deadline = time.monotonic() + 60
        turns = 0
        while True:
            board, view = await _until_board(
                fake, channel, lambda v: v.phase == "over" or v.turn_user == me.id, timeout=20
            )
            if view.phase == "over":
                break
            await _play_turn(fake, me, board, view, table)
            turns += 1
            assert time.monotonic() < deadline, "the game did not end within 60 s"
            await fake.wait_until(  # my move shows on the board before I look again
                lambda b=board, e=board.edit_count: (
                    _board(fake, channel) is not b or b.edit_count > e
                ),
                10,
            )
        text = board.text()
        assert turns >= 1 or "wins at once" in text, text  # an instant win deal has no turns
        assert "Game over" in text and "chips" in text, text
        assert f"tl:b:{table}:again" in board.custom_ids()
        assert not fake.errors, fake.errors
        assert not fake.unknown_routes, fake.unknown_routes
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
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        await fake.stop()
