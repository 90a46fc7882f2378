"""The payload the bot syncs: Vietnamese descriptions and choice names, names unchanged."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands

from bot.app import TienLenBot
from bot.settings import Settings
from cogs.translator import CatalogueTranslator
from data import Store


@pytest_asyncio.fixture
async def payload(tmp_path: Path) -> AsyncIterator[list[dict[str, Any]]]:
    """What `tree.sync()` would send, built by the bot's own setup_hook (never logged in)."""
    store = await Store.open(tmp_path / "t.sqlite3")
    bot = TienLenBot(Settings(DISCORD_TOKEN="unused"), store,  # type: ignore[call-arg]
                     sync_commands=False)
    try:
        await bot.setup_hook()
        translator = bot.tree.translator
        assert isinstance(translator, CatalogueTranslator)
        yield [await c.get_translated_payload(bot.tree, translator)
               for c in bot.tree.get_commands()]
    finally:
        await bot.close()
        await store.close()


def _walk(items: list[dict[str, Any]], path: str = "") -> Iterator[tuple[str, dict[str, Any]]]:
    """Every command, subcommand and option of the payload, with its path."""
    for item in items:
        where = f"{path} {item['name']}".strip()
        yield where, item
        yield from _walk(item.get("options") or [], where)


async def test_every_command_and_option_has_a_vietnamese_description(
        payload: list[dict[str, Any]]) -> None:
    seen = 0
    for where, item in _walk(payload):
        seen += 1
        vi = (item.get("description_localizations") or {}).get("vi")
        assert vi, f"{where}: no Vietnamese description"
        assert vi != item["description"], where
        assert 1 <= len(vi) <= 100, (where, vi)  # Discord's limit
        assert set(item["description_localizations"]) == {"vi"}, where  # English is the base
        assert not item.get("name_localizations"), f"{where}: names stay as they are"
    assert seen >= 20  # tienlen + 6 subcommands + their options, leaderboard, daily


async def test_choices_have_vietnamese_names_and_the_same_values(
        payload: list[dict[str, Any]]) -> None:
    choices = [(where, c) for where, item in _walk(payload) for c in item.get("choices") or []]
    assert len(choices) >= 10
    for where, choice in choices:
        vi = (choice.get("name_localizations") or {}).get("vi")
        assert vi, (where, choice)
    by = {c["value"]: c["name_localizations"]["vi"] for where, c in choices
          if where == "leaderboard by"}
    assert by == {"chips": "chip", "wins": "số ván thắng", "winrate": "tỉ lệ thắng",
                  "rating": "điểm xếp hạng"}
    start_rules = {c["value"]: c for where, c in choices if where == "tienlen start rules"}
    assert start_rules["southern"]["name"] == "southern"
    assert start_rules["southern"]["name_localizations"]["vi"] == "miền Nam (mặc định)"


async def test_the_group_description_is_translated(payload: list[dict[str, Any]]) -> None:
    group = next(c for c in payload if c["name"] == "tienlen")
    assert group["description_localizations"] == {"vi": "Chơi Tiến Lên ở kênh này"}


async def test_the_translator_leaves_english_and_unknown_strings_alone() -> None:
    translator = CatalogueTranslator()
    context = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.command_description, data=None)
    text = app_commands.locale_str("Open a table in this channel")
    assert await translator.translate(text, discord.Locale.american_english, context) is None
    assert await translator.translate(text, discord.Locale.vietnamese, context) == (
        "Mở một bàn ở kênh này")
    unknown = app_commands.locale_str("A description nobody translated")
    assert await translator.translate(unknown, discord.Locale.vietnamese, context) is None
    name = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.command_name, data=None)
    assert await translator.translate(app_commands.locale_str("southern"),
                                      discord.Locale.vietnamese, name) is None


@pytest.mark.parametrize("locale", [discord.Locale.french, discord.Locale.british_english])
async def test_other_locales_get_no_localization(locale: discord.Locale) -> None:
    context = app_commands.TranslationContext(
        location=app_commands.TranslationContextLocation.choice_name, data=None)
    text = app_commands.locale_str("southern")
    assert await CatalogueTranslator().translate(text, locale, context) is None
