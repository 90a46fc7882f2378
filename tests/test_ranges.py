"""One definition of each range (`engine.limits`): the environment settings, the slash commands
and the server settings must all agree with it; this fails when any of them differs."""

from __future__ import annotations

from pathlib import Path

import pytest
from discord import app_commands
from pydantic import ValidationError

from bot.app import EXTENSIONS, TienLenBot
from bot.settings import Settings
from cogs.tienlen._cog import server_defaults
from data import GuildSettings, Store
from engine import limits
from engine.limits import Bounds

ROOT = Path(__file__).resolve().parent.parent
#: slash option (command, or any command when None) -> its range
OPTIONS: dict[tuple[str | None, str], Bounds] = {
    (None, "stake"): limits.STAKE,
    (None, "turn_seconds"): limits.TURN_SECONDS,
    (None, "turn_reminder"): limits.TURN_REMINDER,
    ("tienlen stake", "amount"): limits.STAKE,
}
ENV = {"DEFAULT_TURN_SECONDS": limits.TURN_SECONDS, "DEFAULT_TURN_REMINDER": limits.TURN_REMINDER}


def settings(**values: object) -> Settings:
    return Settings(DISCORD_TOKEN="x", **values)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "bounds"), ENV.items())
def test_environment_settings_take_exactly_the_range(name: str, bounds: Bounds) -> None:
    for good in (bounds.low, bounds.high):
        assert getattr(settings(**{name: good}), name) == good
    for bad in (bounds.low - 1, bounds.high + 1):
        with pytest.raises(ValidationError):
            settings(**{name: bad})


def test_env_example_states_the_ranges() -> None:
    text = (ROOT / ".env.example").read_text(encoding="utf-8")
    assert f"({limits.TURN_SECONDS.low}-{limits.TURN_SECONDS.high}," in text
    assert f"({limits.TURN_REMINDER.low}-{limits.TURN_REMINDER.high};" in text


async def test_slash_options_declare_the_ranges(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "t.sqlite3")
    bot = TienLenBot(settings(), store, sync_commands=False)
    seen: set[tuple[str | None, str]] = set()
    try:
        for name in EXTENSIONS:
            await bot.load_extension(name)
        for command in bot.tree.walk_commands():
            if not isinstance(command, app_commands.Command):
                continue
            for param in command.parameters:
                key = next((k for k in ((command.qualified_name, param.name), (None, param.name))
                            if k in OPTIONS), None)
                if key is None:
                    continue
                seen.add(key)
                bounds = OPTIONS[key]
                assert (param.min_value, param.max_value) == bounds, (
                    f"/{command.qualified_name} {param.name}: {param.min_value}-"
                    f"{param.max_value}, not {bounds.low}-{bounds.high}")
    finally:
        await bot.close()
        await store.close()
    assert seen == set(OPTIONS)


@pytest.mark.parametrize(("field", "bounds"), [
    ("stake", limits.STAKE), ("turn_seconds", limits.TURN_SECONDS),
    ("turn_reminder", limits.TURN_REMINDER)])
def test_server_settings_keep_exactly_the_range(field: str, bounds: Bounds) -> None:
    for good in (bounds.low, bounds.high):
        assert getattr(server_defaults(GuildSettings(1, **{field: good})), field) == good
    for bad in (bounds.low - 1, bounds.high + 1):
        assert getattr(server_defaults(GuildSettings(1, **{field: bad})), field) is None
