"""Helpers of the tests that run the real bot (`python -m bot`, a subprocess) against the loopback
fake Discord: the bot's environment, and waiting for its board."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path

from benchmarks.load import BoardView, board_table_id, read_board
from tests.support.fake_discord import FakeDiscord, StoredMessage

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
