"""The command payloads the bot syncs (bot/command_sync.py) and its User-Agent: what the issue's
check of the bot's traffic against Discord's description found, fixed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from aiohttp import web

from bot.app import EXTENSIONS, TienLenBot
from bot.command_sync import USER_AGENT, tidy, user_agent_trace
from bot.settings import Settings
from cogs.translator import CatalogueTranslator
from data import Store
from tests.support.fake_discord import validate


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[TienLenBot]:
    store = await Store.open(tmp_path / "t.sqlite3")
    settings = Settings(DISCORD_TOKEN="unused")  # type: ignore[call-arg]
    made = TienLenBot(settings, store, sync_commands=False)
    try:
        await made.tree.set_translator(CatalogueTranslator())
        for name in EXTENSIONS:
            await made.load_extension(name)
        yield made
    finally:
        await made.close()
        await store.close()


def _localised(obj: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(default, locale, text) of every name and description localisation, nested included."""
    found = [(obj.get(key, ""), lang, text)
             for key in ("name", "description")
             for lang, text in (obj.get(f"{key}_localizations") or {}).items()]
    for child in (obj.get("options") or []) + (obj.get("choices") or []):
        found += _localised(child)
    return found


async def test_guild_commands_carry_no_contexts_nor_dm_permission(bot: TienLenBot) -> None:
    guild = discord.Object(id=1234)
    bot.tree.copy_global_to(guild=guild)
    payload = await bot.command_payload(guild)
    assert {c["name"] for c in payload} >= {"tienlen", "daily", "leaderboard"}
    for command in payload:
        assert "contexts" not in command, command["name"]
        assert "dm_permission" not in command, command["name"]


async def test_global_commands_say_servers_only_with_contexts(bot: TienLenBot) -> None:
    payload = await bot.command_payload(None)
    by_name = {c["name"]: c for c in payload}
    for name in ("tienlen", "daily", "leaderboard"):
        assert by_name[name]["contexts"] == [0], name
        assert "dm_permission" not in by_name[name], name


async def test_no_localisation_repeats_the_default(bot: TienLenBot) -> None:
    payload = await bot.command_payload(None)
    localised = [entry for c in payload for entry in _localised(c)]
    assert any(lang == "vi" for _, lang, _ in localised)  # the Vietnamese is there
    echoes = [entry for entry in localised if entry[0] == entry[2]]
    assert echoes == []  # "pagat", "vc": Discord drops them


async def test_the_synced_payload_meets_discords_rules(bot: TienLenBot) -> None:
    spec = validate.load_spec()
    for guild in (None, discord.Object(id=1234)):
        if guild is not None:
            bot.tree.copy_global_to(guild=guild)
        payload = await bot.command_payload(guild)
        path = ("/applications/1/commands" if guild is None
                else "/applications/1/guilds/1234/commands")
        assert validate.documented_limits("PUT", path, payload) == []
        if spec is not None:
            op = spec.operation("PUT", path)
            assert op is not None
            assert spec.check(op, "application/json", payload) == []


def test_tidy_keeps_what_it_should() -> None:
    raw = [{"name": "x", "description": "d", "dm_permission": False, "contexts": None,
            "options": [{"name": "p", "description": "d", "type": 3,
                         "choices": [{"name": "pagat", "value": "pagat",
                                      "name_localizations": {"vi": "pagat", "fr": "Pagat!"}}]}]}]
    glob = tidy(raw, guild_scoped=False)
    assert glob[0]["contexts"] == [0] and "dm_permission" not in glob[0]
    assert glob[0]["options"][0]["choices"][0]["name_localizations"] == {"fr": "Pagat!"}
    assert raw[0]["contexts"] is None  # a copy
    guild = tidy(raw, guild_scoped=True)
    assert "contexts" not in guild[0] and "dm_permission" not in guild[0]


async def test_every_request_to_the_api_says_discordbot(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []

    async def echo(request: web.Request) -> web.Response:
        seen.append(request.headers.get("User-Agent", ""))
        return web.Response(status=204)

    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", echo)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    base = f"http://127.0.0.1:{port}/api/v10"
    monkeypatch.setattr(discord.http.Route, "BASE", base)
    try:
        trace = user_agent_trace(aiohttp.TraceConfig())
        async with aiohttp.ClientSession(trace_configs=[trace]) as session:
            # how discord.py's webhook adapter answers an interaction: no User-Agent of its own
            async with session.post(f"{base}/interactions/1/tok/callback", json={"type": 6}):
                pass
            async with session.get(f"{base}/users/@me",
                                   headers={"User-Agent": "DiscordBot (x, 1)"}):
                pass
            async with session.get(f"http://127.0.0.1:{port}/elsewhere"):
                pass
    finally:
        await runner.cleanup()
    assert seen[0] == USER_AGENT
    assert USER_AGENT.startswith("DiscordBot (https://github.com/Rapptz/discord.py ")
    assert seen[1] == "DiscordBot (x, 1)"  # discord.py's own stays
    assert seen[2].startswith("Python/")  # not a request to Discord: untouched
