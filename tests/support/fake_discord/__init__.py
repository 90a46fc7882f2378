"""A loopback fake Discord: REST API + gateway websocket on 127.0.0.1 (aiohttp).

The unmodified discord.py client talks to it when pointed at it by the two process-wide URL
settings (``discord.http.Route.BASE = fake.api_base`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)``), or, for the
real bot, by ``DISCORD_API_BASE_URL`` / ``DISCORD_GATEWAY_URL``.

It serves login, command sync, the gateway (HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE,
RESUME -> replay + RESUMED, REQUEST_GUILD_MEMBERS), channel messages, interaction callbacks
(types 4, 5, 6, 7, 9), followups and ``@original`` edits, files sent with any of them, and the
application's emoji. It injects slash commands and component
clicks as INTERACTION_CREATE and measures the time until the bot's callback arrives. It stores every
message with who may see it (ephemeral messages: only the interacting user), and injects faults
(429 with ``Retry-After`` + ``Via``, 500, gateway disconnects) from a seeded RNG.

Usage in an asyncio test::

    fake = FakeDiscord()
    await fake.start()
    ...  # start a bot pointed at fake.api_base / fake.gateway_url
    await asyncio.wait_for(fake.commands_synced.wait(), 10)
    ix = await fake.slash("alice", "tienlen", subcommand="new")
    await ix.response(timeout=5)      # -> ix.callback_type, ix.callback_data, ix.latency
    await fake.stop()

Sharding: ``GET /gateway/bot`` recommends ``recommended_shards``; an IDENTIFY with ``shard: [id,
count]`` is accepted (an id outside 0..count-1 is closed with 4010 Invalid shard, as Discord
does) and that session gets only the guilds of its shard: READY, GUILD_CREATE, every event with a
``guild_id`` and every interaction go to the connection of the guild's shard.
``add_guild(name, shard=(id, count))`` makes a guild on a given shard. Several bot processes can
share one fake: each takes its own REST base, ``fake.api_base_for("p0")``, and
``fake.client_requests`` tells which process called which route about which guild.

Threads (``threads``): starting one with or without a message, renaming and archiving it
(``PATCH /channels/{id}``), thread channel objects and THREAD_CREATE / THREAD_UPDATE, with
Discord's limits and permissions (see that module); ``fake.threads_of(channel)``. A message
sent with ``enforce_nonce`` and a nonce seen in the last five minutes answers the first message
again; ``fake.mention_deletions`` lists every deleted message that had notified someone (a
ghost ping); ``fake.lose_answer_next(route)`` does a request and then answers 500, as if the
answer were lost.

Standalone: ``python -m tests.support.fake_discord --port 8765`` prints its URLs and serves until
SIGINT/SIGTERM.

The package: ``models`` (the world and its messages), ``server`` (``FakeDiscord``: life cycle and
inspection), ``rest`` (REST routes), ``gateway`` (the websocket), ``interactions`` (injected
commands and clicks, their callbacks), ``threads`` (thread routes), ``faults`` (429s, 500s,
disconnects, lost answers), ``media`` (multipart uploads, ``attachment://`` references in
embeds, application emoji), ``validate`` (every request checked against Discord's OpenAPI
description and documented limits: a refused body gets 400 50035 with the ``errors`` tree and
fails the test that sent it; docs/TESTING.md).
"""

from tests.support.fake_discord.faults import FaultConfig
from tests.support.fake_discord.interactions import InteractionHandle
from tests.support.fake_discord.models import (
    ADMINISTRATOR,
    DEFAULT_EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    ClientRequest,
    FakeChannel,
    FakeGuild,
    FakeUser,
    StoredMessage,
)
from tests.support.fake_discord.server import FakeDiscord

__all__ = [
    "ADMINISTRATOR",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "MANAGE_GUILD",
    "MANAGE_MESSAGES",
    "ClientRequest",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeUser",
    "FaultConfig",
    "InteractionHandle",
    "StoredMessage",
]
