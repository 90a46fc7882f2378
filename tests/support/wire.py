"""Helpers of the tests that run the real bot (`python -m bot`, a subprocess) against the loopback
fake Discord: the bot's environment, starting and stopping it, and waiting for its board."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.load import (
    BoardView,
    board_table_id,
    choose_play,
    hand_button,
    hand_cards,
    read_board,
    to_beat_of,
)
from tests.support.fake_discord import FakeDiscord, InteractionHandle, StoredMessage

REPO_ROOT = Path(__file__).resolve().parents[2]


def bot_env(fake: FakeDiscord | None, db: Path, token: str, **extra: str) -> dict[str, str]:
    """The environment of a bot process talking to ``fake`` (none: Discord's own addresses),
    with its SQLite file at ``db``; quick computers and board edits unless ``extra`` says
    otherwise."""
    env = {
        **os.environ,
        "DISCORD_TOKEN": token,
        "DATABASE_PATH": str(db),
        "LOG_LEVEL": "INFO",
        "AI_DELAY_SECONDS": "0.05",
        "BOARD_EDIT_INTERVAL": "0.2",
        # seeded deals: a test's games repeat (seed 1's first deal is no instant win for 2 to 4
        # seats in any preset, so a test never meets a game that ended as it was dealt)
        "GAME_SEED": "1",
        "PYTHONPATH": os.pathsep.join(
            p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p
        ),
    }
    if fake is not None:
        env |= {
            "DISCORD_API_BASE_URL": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DEV_GUILD_ID": str(fake.guild_id),
        }
    return env | extra


async def start_bot(tmp_path: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    """`python -m bot` in ``tmp_path`` with ``env``; its output goes to ``tmp_path / "bot.log"``."""
    with open(tmp_path / "bot.log", "wb") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", cwd=tmp_path, env=env, stdout=log, stderr=log
        )


async def connected(fake: FakeDiscord) -> None:
    """Wait until the bot synced its commands, got READY and holds its gateway connection."""
    await asyncio.wait_for(fake.commands_synced.wait(), 30)
    await fake.wait_ready(30)
    await fake.wait_until(lambda: fake.connected, 10)


async def kill(proc: asyncio.subprocess.Process) -> None:
    """Kill the bot if it still runs (a test that failed before stopping it)."""
    if proc.returncode is None:
        proc.kill()
        await proc.wait()


def newest_board(fake: FakeDiscord, channel: int) -> StoredMessage | None:
    """The newest board message in ``channel`` (None before the first)."""
    boards = [m for m in fake.channel_messages(channel) if board_table_id(m) is not None]
    return boards[-1] if boards else None


async def until_board(
    fake: FakeDiscord,
    channel: int,
    ok: Callable[[BoardView], bool],
    timeout: float = 15,  # noqa: ASYNC109
) -> tuple[StoredMessage, BoardView]:
    """Wait until the newest board satisfies ``ok(view)``; the board and its view."""
    deadline = time.monotonic() + timeout
    while True:
        board = newest_board(fake, channel)
        if board is not None:
            view = read_board(board)
            if ok(view):
                return board, view
        if time.monotonic() > deadline:
            shown = board.text() if board is not None else "no board"
            raise AssertionError(f"board not as expected within {timeout}s:\n{shown}")
        await asyncio.sleep(0.02)


def refusal(handle: InteractionHandle) -> str | None:
    data = handle.callback_data or {}
    if handle.callback_type == 4 and handle.ephemeral and not data.get("components"):
        return str(data.get("content"))
    return None


async def play_turn(
    fake: FakeDiscord, me: object, board: StoredMessage, view: BoardView, table: int
) -> None:
    """Open my hand; play the lowest card(s) that beat the table, else pass."""
    opened = await (await fake.click(me, board, f"tl:b:{table}:hand")).response(5)  # type: ignore[arg-type]
    if refusal(opened) is not None:
        return
    hand = opened.original
    assert hand is not None and hand.ephemeral, opened.callback_data
    status = hand.text()
    if "Your turn" not in status:
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
    # the hand says what to beat (the board may be a moment behind it)
    choice = choose_play(held, None if "you lead" in status else to_beat_of(status))
    if choice is not None:
        for card in choice:
            button = next(c for k, c in hand_cards(hand) if k == card)
            answer = await (await fake.click(me, hand, button["custom_id"])).response(5)  # type: ignore[arg-type]
            assert answer.callback_type == 7, answer.callback_data  # the hand, updated in place
        play = hand_button(hand, "play")
        assert play is not None and not play.get("disabled"), hand.text()
        answer = await (await fake.click(me, hand, play["custom_id"])).response(5)  # type: ignore[arg-type]
        if refusal(answer) is None:
            assert "You played" in hand.text(), hand.text()
            return
    passing = hand_button(hand, "pass")
    if passing is not None and not passing.get("disabled"):
        answer = await (await fake.click(me, hand, passing["custom_id"])).response(5)  # type: ignore[arg-type]
        assert refusal(answer) is None or "out of date" in str(refusal(answer))
