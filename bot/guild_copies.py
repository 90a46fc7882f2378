"""Where the slash commands live, for the self-hoster: `python -m bot --clear-guild-commands ID`
removes the copies synced to one server (`DEV_GUILD_ID`), and a start without `DEV_GUILD_ID`
warns once when such copies remain (the server then lists every command twice).

The bot remembers every target it synced to (a hash per target in the store's `bot_meta`,
`commands_hash:guild:<id>`); clearing a server's copies marks that target `cleared`, so a later
`DEV_GUILD_ID` of that server syncs again."""

from __future__ import annotations

import logging

from bot.settings import Settings, StartupError
from data import Store

log = logging.getLogger("bot")

GUILD_PREFIX = "commands_hash:guild:"
CLEARED = "cleared"


def guild_key(guild_id: int) -> str:
    return f"{GUILD_PREFIX}{guild_id}"


async def guilds_with_copies(store: Store) -> list[int]:
    """The servers the bot synced its commands to (DEV_GUILD_ID) and never cleared."""
    found = await store.meta_with_prefix(GUILD_PREFIX)
    return sorted(int(k[len(GUILD_PREFIX):]) for k, v in found.items()
                  if v != CLEARED and k[len(GUILD_PREFIX):].isdigit())


async def warn_if_guild_copies(store: Store) -> bool:
    """One warning, naming the fix, when DEV_GUILD_ID is unset but guild copies remain."""
    left = await guilds_with_copies(store)
    if not left:
        return False
    ids = " ".join(str(g) for g in left)
    log.warning("DEV_GUILD_ID is unset, but the commands synced earlier to server %s are still "
                "there, so that server lists every command twice: remove them with "
                "`python -m bot --clear-guild-commands %s`", ids, left[0])
    return True


async def clear_guild_commands(settings: Settings, guild_id: int) -> int:
    """Remove the bot's commands synced to one server (its global commands stay); returns how
    many there were. Talks to Discord's REST API only (no gateway), at the address the caller
    pointed discord.py at (`bot.app.point_at`)."""
    import discord

    client = discord.Client(intents=discord.Intents.none())
    try:
        try:
            await client.login(settings.DISCORD_TOKEN.get_secret_value())
        except discord.LoginFailure:
            raise StartupError("DISCORD_TOKEN was rejected by Discord (401 Unauthorized)") from None
        app_id = client.application_id
        if app_id is None:
            app_id = (await client.application_info()).id
        try:
            there = await client.http.get_guild_commands(app_id, guild_id)
            await client.http.bulk_upsert_guild_commands(app_id, guild_id, [])
        except discord.Forbidden:
            raise StartupError(
                f"--clear-guild-commands {guild_id}: the bot is not in that server or may not "
                "manage its commands there") from None
        except discord.NotFound:
            raise StartupError(
                f"--clear-guild-commands {guild_id}: Discord knows no such server") from None
    finally:
        await client.close()
    try:
        store = await Store.open(settings.database_url, starting_chips=settings.STARTING_CHIPS,
                                 daily_chips=settings.DAILY_CHIPS)
    except Exception as failed:  # the commands are gone; only the bot's note of it is not kept
        reason = str(failed).splitlines()[0] if str(failed) else type(failed).__name__
        raise StartupError(f"the commands of server {guild_id} were removed, but the store "
                           f"cannot be opened to note it ({reason}); a later "
                           f"DEV_GUILD_ID={guild_id} start needs `python -m bot --sync`") from None
    try:
        await store.set_meta(guild_key(guild_id), CLEARED)
    finally:
        await store.close()
    log.info("removed %d commands synced to server %s; the global commands stay",
             len(there), guild_id)
    return len(there)
