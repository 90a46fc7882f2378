"""Both READMEs list every slash command and every option of the synced command tree, and
nothing else: the command tables (rows whose first cell starts with `/`) are read generically and
compared with the tree the bot syncs (every extension loaded), so a new command or option fails
here until both tables name it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from discord import app_commands

from bot.app import EXTENSIONS, TienLenBot
from bot.settings import Settings
from data import Store

ROOT = Path(__file__).resolve().parent.parent
READMES = ("README.md", "README.vi.md")
_FIRST_CELL = re.compile(r"^\|\s*`(/[^`]+)`\s*\|", re.MULTILINE)
_OPTION = re.compile(r"\[([a-z_][a-z0-9_-]*)[^\]]*\]|([a-z_][a-z0-9_-]*)(?::\S*)?")


async def synced_tree(tmp_path: Path) -> dict[str, set[str]]:
    """Every leaf slash command (`tienlen admin chips`) -> its option names."""
    store = await Store.open(tmp_path / "t.sqlite3")
    bot = TienLenBot(Settings(DISCORD_TOKEN="unused"), store,  # type: ignore[call-arg]
                     sync_commands=False)
    try:
        for name in EXTENSIONS:
            await bot.load_extension(name)
        leaves: dict[str, set[str]] = {}
        for top in bot.tree.get_commands():
            if isinstance(top, app_commands.Group):
                commands = [c for c in top.walk_commands() if isinstance(c, app_commands.Command)]
            elif isinstance(top, app_commands.Command):
                commands = [top]
            else:
                continue
            for command in commands:
                leaves[command.qualified_name] = {p.display_name for p in command.parameters}
        return leaves
    finally:
        await bot.close()
        await store.close()


def readme_table(path: Path, known: set[str]) -> dict[str, set[str]]:
    """The README's command rows: the longest known command each first cell starts with, and
    the options written after it (`[name]`, `[name: a|b]` or a bare `name` when required)."""
    found: dict[str, set[str]] = {}
    for cell in _FIRST_CELL.findall(path.read_text(encoding="utf-8")):
        words = cell.lstrip("/").replace("\\|", "|").split()
        for cut in range(len(words), 0, -1):
            name = " ".join(words[:cut])
            if name in known:
                rest = " ".join(words[cut:])
                found[name] = {a or b for a, b in _OPTION.findall(rest)}
                break
        else:
            found[" ".join(words)] = set()  # a command the bot does not have
    return found


@pytest.mark.parametrize("readme", READMES)
async def test_readme_lists_every_command_and_option(readme: str, tmp_path: Path) -> None:
    tree = await synced_tree(tmp_path)
    table = readme_table(ROOT / readme, set(tree))
    assert set(table) == set(tree), (
        f"{readme}: missing {sorted(set(tree) - set(table))}, "
        f"unknown {sorted(set(table) - set(tree))}")
    for name, options in tree.items():
        assert table[name] == options, f"{readme}: /{name} lists {sorted(table[name])}, " \
                                       f"the bot has {sorted(options)}"


def test_the_reader_sees_options_and_choices() -> None:
    cell = "| `/leaderboard [by: chips\\|wins] [page]` | x |\n| `/tienlen stake amount` | y |"
    path = ROOT / "tests" / "_readme_probe.md"
    try:
        path.write_text(cell, encoding="utf-8")
        table = readme_table(path, {"leaderboard", "tienlen stake"})
    finally:
        path.unlink()
    assert table == {"leaderboard": {"by", "page"}, "tienlen stake": {"amount"}}
