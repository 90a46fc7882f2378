"""Every cog module imports, and every extension loads into a bot that never logs in."""

from __future__ import annotations

import importlib
import pkgutil
from pathlib import Path

import cogs
from bot.app import EXTENSIONS, TienLenBot
from bot.settings import Settings
from data import Store


def test_every_cog_module_imports() -> None:
    names = [m.name for m in pkgutil.walk_packages(cogs.__path__, "cogs.")]
    assert "cogs.tienlen._cog" in names
    for name in names:
        importlib.import_module(name)


async def test_every_extension_loads_without_login(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "t.sqlite3")
    settings = Settings(DISCORD_TOKEN="unused")  # type: ignore[call-arg]
    bot = TienLenBot(settings, store, sync_commands=False)
    try:
        for name in EXTENSIONS:
            await bot.load_extension(name)
        assert set(bot.extensions) == set(EXTENSIONS)
        top = {c.name for c in bot.tree.get_commands()}
        assert {"tienlen", "leaderboard", "daily"} <= top
        group = bot.tree.get_command("tienlen")
        subs = {c.name for c in group.commands}  # type: ignore[union-attr]
        assert subs == {"start", "stake", "hand", "rules", "stop", "settings", "stats", "tables",
                        "admin", "history", "rank", "help", "prefs"}
        admin = group.get_command("admin")  # type: ignore[union-attr]
        assert {c.name for c in admin.commands} == {"chips", "reset-leaderboard",
                                                         "end-season", "log"}  # type: ignore[union-attr]
        assert "admin" not in top
        assert bot.user is None  # never logged in
    finally:
        await bot.close()
        await store.close()
