"""What the bot's `setup_hook` sets up in its own process."""

from __future__ import annotations

from pathlib import Path

from bot.app import PLANNER_MEMO, TienLenBot
from bot.settings import Settings
from data import Store
from engine.ai import planner


async def test_the_bot_keeps_the_planners_memo_small(tmp_path: Path) -> None:
    """The bot's own process plans only hints and `hard` turns: its setup bounds the memos."""
    was = planner.memo_limit()
    planner.limit_memo()  # the engine's default (another bot of this process may have set it)
    store = await Store.open(tmp_path / "m.sqlite3")
    bot = TienLenBot(Settings(DISCORD_TOKEN="unused"), store,
                     sync_commands=False)
    try:
        assert planner.MEMO_LIMIT > PLANNER_MEMO
        await bot.setup_hook()
        assert planner.memo_limit() == PLANNER_MEMO
    finally:
        planner.limit_memo(was)
        await bot.close()
        await store.close()
