"""What the bot sends Discord when it syncs its application commands, tidied, and the
User-Agent on every request to Discord.

* A guild's commands carry no ``contexts`` and no ``dm_permission``: Discord ignores both for
  guild-scoped commands.
* Global commands say where they may run with ``contexts`` alone; the deprecated
  ``dm_permission`` (what discord.py's ``guild_only`` group sends, with ``contexts: null``) becomes
  ``contexts: [0]`` (servers only), as the ``@guild_only()`` commands already send.
* A localisation equal to the default name or description is dropped (Discord drops it too).
* discord.py sends interaction callbacks and webhook edits with aiohttp's default User-Agent;
  :func:`user_agent_trace` gives every request to the API discord.py's ``DiscordBot (url,
  version)`` one.
"""

from __future__ import annotations

import copy
import sys
from typing import Any

import aiohttp
import discord
from discord import app_commands

from cogs import guard

GUILD_CONTEXT = 0
USER_AGENT = (f"DiscordBot (https://github.com/Rapptz/discord.py {discord.__version__}) "
              f"Python/{sys.version_info[0]}.{sys.version_info[1]} aiohttp/{aiohttp.__version__}")


def _drop_echoes(obj: dict[str, Any]) -> None:
    for key, loc in (("name", "name_localizations"), ("description", "description_localizations")):
        localised = obj.get(loc)
        if isinstance(localised, dict):
            kept = {lang: text for lang, text in localised.items() if text != obj.get(key)}
            if kept:
                obj[loc] = kept
            else:
                obj.pop(loc)
    for child in (obj.get("options") or []) + (obj.get("choices") or []):
        if isinstance(child, dict):
            _drop_echoes(child)


def tidy(payload: list[dict[str, Any]], *, guild_scoped: bool) -> list[dict[str, Any]]:
    """The commands as the bot sends them (a copy; see the module docstring)."""
    out = copy.deepcopy(payload)
    for command in out:
        if guild_scoped:
            command.pop("contexts", None)
            command.pop("dm_permission", None)
        else:
            if command.get("contexts") is None and command.get("dm_permission") is False:
                command["contexts"] = [GUILD_CONTEXT]
            if command.get("contexts") is not None:
                command.pop("dm_permission", None)
        _drop_echoes(command)
    return out


class BotTree(guard.GuardedTree):
    """The bot's command tree: syncs the tidied payload (:func:`tidy`)."""

    async def payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
        commands_ = self.get_commands(guild=guild)
        translator = self.translator
        if translator is not None:
            raw = [await c.get_translated_payload(self, translator) for c in commands_]
        else:
            raw = [c.to_dict(self) for c in commands_]
        return tidy(raw, guild_scoped=guild is not None)

    async def sync(self, *, guild: discord.abc.Snowflake | None = None
                   ) -> list[app_commands.AppCommand]:
        application_id = self.client.application_id
        if application_id is None:
            raise app_commands.MissingApplicationID
        payload = await self.payload(guild)
        http = self.client.http
        try:
            if guild is None:
                data = await http.bulk_upsert_global_commands(application_id, payload=payload)
            else:
                data = await http.bulk_upsert_guild_commands(application_id, guild.id,
                                                             payload=payload)
        except discord.HTTPException as error:
            if error.status == 400 and error.code == 50035:
                commands_ = self.get_commands(guild=guild)
                raise app_commands.CommandSyncFailure(error, commands_) from None
            raise
        return [app_commands.AppCommand(data=d, state=self._state) for d in data]


def user_agent_trace(trace: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
    """Add to ``trace`` a start hook that gives every request to the API discord.py's
    User-Agent (its interaction and webhook calls go out with aiohttp's default one)."""

    async def on_start(session: aiohttp.ClientSession, context: Any,
                       params: aiohttp.TraceRequestStartParams) -> None:
        if str(params.url).startswith(discord.http.Route.BASE):
            agent = params.headers.get("User-Agent", "")
            if not agent.startswith("DiscordBot "):
                params.headers["User-Agent"] = USER_AGENT

    trace.on_request_start.insert(0, on_start)
    return trace
