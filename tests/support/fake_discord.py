"""A loopback fake Discord: REST API + gateway websocket on 127.0.0.1 (aiohttp).

The unmodified discord.py client talks to it when pointed at it by the two process-wide URL
settings (``discord.http.Route.BASE = fake.api_base`` and
``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)``), or, for the
real bot, by ``DISCORD_API_BASE_URL`` / ``DISCORD_GATEWAY_URL``.

It serves login, command sync, the gateway (HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE,
RESUME -> replay + RESUMED, REQUEST_GUILD_MEMBERS), channel messages, interaction callbacks
(types 4, 5, 6, 7, 9), followups and ``@original`` edits. It injects slash commands and component
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

Standalone: ``python -m tests.support.fake_discord --port 8765`` prints its URLs and serves until
SIGINT/SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import collections
import contextlib
import dataclasses
import datetime as _dt
import itertools
import json
import logging
import random
import re
import secrets
import signal
import time
from collections.abc import Awaitable, Callable, Collection, Generator, Iterable, Mapping
from typing import Any

from aiohttp import WSMsgType, web

__all__ = [
    "ADMINISTRATOR",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "MANAGE_GUILD",
    "MANAGE_MESSAGES",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeUser",
    "FaultConfig",
    "InteractionHandle",
    "StoredMessage",
]

log = logging.getLogger("fake_discord")

API_VERSION = 10
DISCORD_EPOCH_MS = 1420070400000

# --- permission bits (https://discord.com/developers/docs/topics/permissions) ----------------
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
CONNECT = 1 << 20
SPEAK = 1 << 21
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | CONNECT
    | SPEAK
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | SEND_MESSAGES_IN_THREADS
)
BOT_ROLE_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | MANAGE_MESSAGES

# --- gateway intents used to filter events -------------------------------------------------
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9

# --- message flags ---------------------------------------------------------------------------
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7

# --- Discord JSON error codes ----------------------------------------------------------------
UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNAUTHORIZED = 0
INVALID_WEBHOOK_TOKEN = 50027
ALREADY_ACKNOWLEDGED = 40060

JSON_HEADERS = {"Content-Type": "application/json"}


def _dumps(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _iso(ts: float | None = None) -> str:
    moment = _dt.datetime.fromtimestamp(time.time() if ts is None else ts, tz=_dt.UTC)
    return moment.isoformat()


class _Snowflakes:
    """Monotonic, unique, time-based snowflakes."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        value = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        value = max(value, self._last + 1)
        self._last = value
        return value


# =============================================================================================
# Model
# =============================================================================================


@dataclasses.dataclass
class FakeUser:
    id: int
    username: str
    bot: bool = False
    global_name: str | None = None

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name if self.global_name is not None else self.username,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclasses.dataclass
class FakeRole:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    bot_id: int | None = None

    def payload(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclasses.dataclass
class FakeChannel:
    id: int
    guild_id: int
    name: str
    position: int = 0
    type: int = 0  # GUILD_TEXT

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        }


@dataclasses.dataclass
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = dataclasses.field(default_factory=dict)
    channels: dict[int, FakeChannel] = dataclasses.field(default_factory=dict)
    # user id -> (role ids, joined_at ISO)
    members: dict[int, tuple[list[int], str]] = dataclasses.field(default_factory=dict)

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[self.id]

    def channel_by_name(self, name: str) -> FakeChannel:
        for channel in self.channels.values():
            if channel.name == name:
                return channel
        raise LookupError(f"no channel named {name!r} in guild {self.id}")

    def permissions_of(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ALL_PERMISSIONS
        role_ids, _ = self.members.get(user_id, ([], ""))
        perms = self.everyone_role.permissions
        for rid in role_ids:
            role = self.roles.get(rid)
            if role is not None:
                perms |= role.permissions
        if perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def member_payload(self, user: FakeUser, *, with_user: bool = True) -> dict[str, Any]:
        role_ids, joined = self.members[user.id]
        data: dict[str, Any] = {
            "roles": [str(r) for r in role_ids],
            "nick": None,
            "avatar": None,
            "banner": None,
            "premium_since": None,
            "joined_at": joined,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = user.payload()
        return data


@dataclasses.dataclass
class StoredMessage:
    """A message the server holds. ``data`` is the full Discord message object."""

    data: dict[str, Any]
    ephemeral_user_id: int | None = None
    interaction_id: int | None = None
    deleted: bool = False
    edit_count: int = 0
    created_at: float = dataclasses.field(default_factory=time.perf_counter)
    updated_at: float = dataclasses.field(default_factory=time.perf_counter)

    @property
    def id(self) -> int:
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        return int(self.data["channel_id"])

    @property
    def content(self) -> str:
        return str(self.data.get("content") or "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        return list(self.data.get("embeds") or [])

    @property
    def components(self) -> list[dict[str, Any]]:
        return list(self.data.get("components") or [])

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return self.ephemeral_user_id is not None

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    def visible_to(self, user_id: int) -> bool:
        if self.deleted:
            return False
        return self.ephemeral_user_id is None or self.ephemeral_user_id == user_id

    def iter_components(self) -> Iterable[dict[str, Any]]:
        return _walk_components(self.components)

    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    def find_component(self, custom_id: str) -> dict[str, Any] | None:
        for comp in self.iter_components():
            if comp.get("custom_id") == custom_id:
                return comp
        return None

    def text(self) -> str:
        """Content plus embed titles/descriptions/fields, for easy assertions."""
        parts = [self.content]
        for embed in self.embeds:
            parts.extend(str(embed.get(k) or "") for k in ("title", "description"))
            for field in embed.get("fields") or []:
                parts.extend((str(field.get("name", "")), str(field.get("value", ""))))
            footer = embed.get("footer") or {}
            parts.append(str(footer.get("text") or ""))
        for comp in self.iter_components():
            if comp.get("type") == 10:  # text display (components v2)
                parts.append(str(comp.get("content") or ""))
        return "\n".join(p for p in parts if p)


def _walk_components(components: Iterable[Mapping[str, Any]]) -> Iterable[dict[str, Any]]:
    for comp in components:
        yield dict(comp) if not isinstance(comp, dict) else comp
        children = comp.get("components")
        if isinstance(children, list):
            yield from _walk_components(children)
        accessory = comp.get("accessory")
        if isinstance(accessory, dict):
            yield from _walk_components([accessory])


def _number_components(components: list[dict[str, Any]]) -> None:
    """Give components Discord's numeric ``id`` when they have none (as Discord does)."""
    counter = itertools.count(1)
    used = {c.get("id") for c in _walk_components(components) if isinstance(c.get("id"), int)}
    for comp in _walk_components(components):
        if "id" not in comp or comp["id"] is None:
            n = next(counter)
            while n in used:
                n = next(counter)
            comp["id"] = n


@dataclasses.dataclass
class FaultConfig:
    """Injected faults; all off by default. ``routes`` names the route keys they apply to."""

    rate_limit_fraction: float = 0.0
    server_error_fraction: float = 0.0
    retry_after: float = 0.05
    seed: int = 0
    routes: frozenset[str] = frozenset({"channel_message_edit"})
    disconnect_every: float | None = None  # seconds between forced gateway disconnects


class InteractionHandle:
    """One injected interaction. ``await handle`` (or ``await handle.response(timeout)``) waits for
    the bot's callback and returns the handle, now carrying ``callback_type``, ``callback_data`` and
    ``latency`` (seconds from dispatch to the callback's arrival)."""

    def __init__(
        self,
        fake: FakeDiscord,
        payload: dict[str, Any],
        user: FakeUser,
        kind: str,
        name: str,
    ) -> None:
        self.fake = fake
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.kind = kind  # "slash" | "click"
        self.name = name  # command name or custom_id
        self.user = user
        self.guild_id = int(payload["guild_id"])
        self.channel_id = int(payload["channel_id"])
        self.source_message_id: int | None = (
            int(payload["message"]["id"]) if "message" in payload else None
        )
        self.dispatched_at: float = 0.0
        self.created_mono: float = 0.0
        self.callback_type: int | None = None
        self.callback_data: dict[str, Any] | None = None
        self.latency: float | None = None
        self.late = False
        self.original_message_id: int | None = None
        self.followup_ids: list[int] = []
        self._future: asyncio.Future[InteractionHandle] = asyncio.get_running_loop().create_future()

    def __repr__(self) -> str:
        return (
            f"<InteractionHandle {self.kind} {self.name!r} id={self.id} user={self.user.username}"
            f" callback={self.callback_type} latency={self.latency}>"
        )

    def done(self) -> bool:
        return self._future.done()

    async def response(self, timeout: float = 5.0) -> InteractionHandle:  # noqa: ASYNC109
        """Wait for the callback; raises ``TimeoutError`` if none arrives in time."""
        try:
            return await asyncio.wait_for(asyncio.shield(self._future), timeout)
        except TimeoutError:
            raise TimeoutError(f"no callback within {timeout}s for {self!r}") from None

    def __await__(self) -> Generator[Any, None, InteractionHandle]:
        return self.response().__await__()

    @property
    def original(self) -> StoredMessage | None:
        if self.original_message_id is None:
            return None
        return self.fake.messages.get(self.original_message_id)

    @property
    def followups(self) -> list[StoredMessage]:
        return [self.fake.messages[m] for m in self.followup_ids if m in self.fake.messages]

    @property
    def ephemeral(self) -> bool:
        data = self.callback_data or {}
        return bool(int(data.get("flags") or 0) & FLAG_EPHEMERAL)


class _Connection:
    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.session: _Session | None = None
        self.writer: asyncio.Task[None] | None = None

    def send(self, text: str) -> None:
        self.queue.put_nowait(text)


class _Session:
    def __init__(self, session_id: str, token: str, intents: int, max_log: int) -> None:
        self.session_id = session_id
        self.token = token
        self.intents = intents
        self.seq = 0
        self.log: collections.deque[tuple[int, str]] = collections.deque(maxlen=max_log)
        self.conn: _Connection | None = None
        self.disconnected_at: float | None = None
        self.invalid = False
        self.identified_at = time.monotonic()

    def dispatch(self, event: str, data: Any) -> int:
        self.seq += 1
        text = _dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.log.append((self.seq, text))
        if self.conn is not None:
            self.conn.send(text)
        return self.seq


_Handler = Callable[[web.Request, dict[str, str]], Awaitable[web.StreamResponse]]


class _HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


# =============================================================================================
# The server
# =============================================================================================


class FakeDiscord:
    """Loopback fake Discord. See the module docstring."""

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        guild_name: str = "Fake Guild",
        channel_names: Iterable[str] = ("general", "tienlen", "casino"),
        user_names: Iterable[str] = ("alice", "bob", "carol", "dave"),
        admin_name: str | None = "admin",
        allowed_tokens: Collection[str] | None = None,
        bot_name: str = "TienLenBot",
        heartbeat_interval_ms: int = 41250,
        callback_deadline: float | None = 3.0,
        token_ttl: float = 15 * 60,
        faults: FaultConfig | None = None,
        strict: bool = True,
        max_replay: int = 20000,
        session_timeout: float = 120.0,
        keep_payloads: bool = True,
    ) -> None:
        self.host = host
        self._requested_port = port
        self.port: int | None = None
        self.allowed_tokens = set(allowed_tokens) if allowed_tokens is not None else None
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.callback_deadline = callback_deadline
        self.token_ttl = token_ttl
        self.faults = faults or FaultConfig()
        self.strict = strict
        self.max_replay = max_replay
        self.session_timeout = session_timeout
        self.keep_payloads = keep_payloads
        self._rng = random.Random(self.faults.seed)
        self._snowflake = _Snowflakes()
        self._clock_offset = 0.0

        self.application_id = self._snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}

        # REST state
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.commands_synced = asyncio.Event()
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, InteractionHandle] = {}
        self._by_token: dict[str, InteractionHandle] = {}
        self._handle_order: collections.deque[InteractionHandle] = collections.deque()
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.unknown_routes: list[str] = []
        self.route_counts: collections.Counter[str] = collections.Counter()
        self.status_counts: collections.Counter[int] = collections.Counter()
        self.injected_429 = 0
        self.injected_500 = 0
        self._forced: dict[str, list[int]] = {}
        # Called with each message right after it is created or edited (load harnesses watch
        # boards this way instead of polling).
        self.message_listeners: list[Callable[[StoredMessage], None]] = []
        # Uploaded files by attachment id, and the application's emoji (id -> object, image).
        self.attachment_bytes: dict[int, bytes] = {}
        self.application_emojis: dict[int, dict[str, Any]] = {}
        self.emoji_images: dict[int, bytes] = {}

        # Gateway state
        self._sessions: dict[str, _Session] = {}
        self._connections: set[_Connection] = set()
        self.identify_count = 0
        self.resume_count = 0
        self.disconnect_count = 0
        self.invalid_session_count = 0
        self.heartbeat_count = 0
        self.ready_sent = asyncio.Event()
        self.last_identify: dict[str, Any] | None = None

        # One default guild; more via add_guild().
        self.guilds: dict[int, FakeGuild] = {}
        owner = FakeUser(self._snowflake(), "owner")
        self.users[owner.id] = owner
        self.guild = self.add_guild(guild_name, owner=owner, channel_names=channel_names)
        for name in user_names:
            self.add_user(name)
        if admin_name:
            self.add_user(admin_name, manage_guild=True)

        self._runner: web.AppRunner | None = None
        self._bg_tasks: set[asyncio.Task[Any]] = set()
        self._routes: list[tuple[str, re.Pattern[str], str, _Handler]] = []
        self._build_routes()

    # ------------------------------------------------------------------ lifecycle / properties

    @property
    def api_base(self) -> str:
        self._require_started()
        return f"http://{self.host}:{self.port}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        self._require_started()
        return f"ws://{self.host}:{self.port}/gateway"

    @property
    def guild_id(self) -> int:
        return self.guild.id

    def _require_started(self) -> None:
        if self.port is None:
            raise RuntimeError("FakeDiscord not started; await fake.start() first")

    async def start(self) -> None:
        app = web.Application(client_max_size=32 * 1024 * 1024)
        app.router.add_route("GET", "/gateway", self._gateway_handler)
        app.router.add_route("*", "/{tail:.*}", self._dispatch_rest)
        self._runner = web.AppRunner(app, handle_signals=False, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self._requested_port)
        await site.start()
        server = site._server
        assert server is not None
        sockets = getattr(server, "sockets", None) or []
        self.port = int(sockets[0].getsockname()[1])
        if self.faults.disconnect_every:
            self._spawn(self._periodic_disconnects())
        log.info("fake discord on %s and %s", self.api_base, self.gateway_url)

    async def stop(self) -> None:
        for task in list(self._bg_tasks):
            task.cancel()
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
            if conn.writer is not None:
                conn.writer.cancel()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        for handle in self.interactions.values():
            if not handle._future.done():
                handle._future.cancel()

    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._bg_tasks.add(task)
        task.add_done_callback(self._bg_tasks.discard)

    def _now(self) -> float:
        """Monotonic clock used for deadlines and token expiry (shifted by ``advance``)."""
        return time.perf_counter() + self._clock_offset

    def advance(self, seconds: float) -> None:
        """Shift the clock used for the 3 s callback deadline and the token lifetime."""
        self._clock_offset += seconds

    # ------------------------------------------------------------------ world building

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        channel_names: Iterable[str] = ("general",),
    ) -> FakeGuild:
        gid = self._snowflake()
        if owner is None:
            owner = FakeUser(self._snowflake(), f"owner-{gid}")
            self.users[owner.id] = owner
        guild = FakeGuild(id=gid, name=name, owner_id=owner.id)
        guild.roles[gid] = FakeRole(gid, "@everyone", DEFAULT_EVERYONE_PERMISSIONS, position=0)
        bot_role = FakeRole(
            self._snowflake(),
            self.bot_user.username,
            BOT_ROLE_PERMISSIONS,
            1,
            True,
            self.bot_user.id,
        )
        guild.roles[bot_role.id] = bot_role
        mgr = FakeRole(self._snowflake(), "Manager", MANAGE_GUILD, position=2)
        guild.roles[mgr.id] = mgr
        adm = FakeRole(self._snowflake(), "Admin", ADMINISTRATOR, position=3)
        guild.roles[adm.id] = adm
        for pos, cname in enumerate(channel_names):
            cid = self._snowflake()
            guild.channels[cid] = FakeChannel(cid, gid, cname, position=pos)
        guild.members[owner.id] = ([], _iso())
        guild.members[self.bot_user.id] = ([bot_role.id], _iso())
        self.guilds[gid] = guild
        return guild

    def add_channel(self, name: str, *, guild: FakeGuild | int | None = None) -> FakeChannel:
        g = self._guild(guild)
        cid = self._snowflake()
        channel = FakeChannel(cid, g.id, name, position=len(g.channels))
        g.channels[cid] = channel
        self.dispatch("CHANNEL_CREATE", channel.payload())
        return channel

    def add_user(
        self,
        name: str,
        *,
        guild: FakeGuild | int | None = None,
        manage_guild: bool = False,
        administrator: bool = False,
        permissions: int = 0,
        bot: bool = False,
    ) -> FakeUser:
        """Create a user and make them a member of ``guild`` (default guild).

        ``manage_guild``/``administrator`` give the Manager/Admin role; ``permissions`` adds a
        dedicated role with those extra bits."""
        g = self._guild(guild)
        user = FakeUser(self._snowflake(), name, bot=bot)
        self.users[user.id] = user
        roles: list[int] = []
        for role in g.roles.values():
            if (manage_guild and role.name == "Manager") or (
                administrator and role.name == "Admin"
            ):
                roles.append(role.id)
        if permissions:
            role = FakeRole(self._snowflake(), f"perm-{name}", permissions, position=4)
            g.roles[role.id] = role
            self.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(g.id), "role": role.payload()})
            roles.append(role.id)
        g.members[user.id] = (roles, _iso())
        if self._sessions:
            member = g.member_payload(user)
            member["guild_id"] = str(g.id)
            self.dispatch("GUILD_MEMBER_ADD", member, intent=INTENT_GUILD_MEMBERS)
        return user

    def user(self, ref: FakeUser | str | int) -> FakeUser:
        """Look up a user by object, id or username; unknown usernames are created."""
        if isinstance(ref, FakeUser):
            return ref
        if isinstance(ref, int):
            return self.users[ref]
        for u in self.users.values():
            if u.username == ref:
                return u
        return self.add_user(ref)

    def channel(self, ref: FakeChannel | str | int | None = None, guild: Any = None) -> FakeChannel:
        """A channel by object, id or name; default: the guild's first channel."""
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int):
            for g in self.guilds.values():
                if ref in g.channels:
                    return g.channels[ref]
            raise LookupError(f"unknown channel {ref}")
        g = self._guild(guild)
        if ref is None:
            return next(iter(g.channels.values()))
        return g.channel_by_name(ref)

    def _guild(self, ref: FakeGuild | int | None) -> FakeGuild:
        if ref is None:
            return self.guild
        if isinstance(ref, FakeGuild):
            return ref
        return self.guilds[int(ref)]

    def guild_payload(self, guild: FakeGuild) -> dict[str, Any]:
        members = [guild.member_payload(self.users[uid]) for uid in guild.members]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": str(next(iter(guild.channels))) if guild.channels else None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "joined_at": guild.members[self.bot_user.id][1],
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": members,
            "channels": [c.payload() for c in guild.channels.values()],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
            "max_members": 500000,
            "max_video_channel_users": 25,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "lazy": True,
            "incidents_data": None,
        }

    # ------------------------------------------------------------------ inspection helpers

    def message(self, message_id: int) -> StoredMessage:
        return self.messages[int(message_id)]

    def channel_messages(
        self, channel: FakeChannel | str | int | None = None
    ) -> list[StoredMessage]:
        """Non-ephemeral, not deleted messages of a channel, oldest first."""
        cid = self.channel(channel).id
        return [
            m
            for m in self.messages.values()
            if m.channel_id == cid and not m.deleted and m.ephemeral_user_id is None
        ]

    def ephemerals(self, user: FakeUser | str | int) -> list[StoredMessage]:
        """Ephemeral messages only ``user`` can see (not deleted), oldest first."""
        uid = self.user(user).id
        return [m for m in self.messages.values() if m.ephemeral_user_id == uid and not m.deleted]

    def visible_to(
        self, user: FakeUser | str | int, channel: FakeChannel | str | int | None = None
    ) -> list[StoredMessage]:
        """Everything ``user`` sees: channel messages plus their own ephemerals."""
        uid = self.user(user).id
        cid = None if channel is None else self.channel(channel).id
        return [
            m
            for m in self.messages.values()
            if m.visible_to(uid) and (cid is None or m.channel_id == cid)
        ]

    def command_names(self, guild: FakeGuild | int | str | None = "any") -> set[str]:
        """Names of synced commands: of one guild, ``None`` for global, ``"any"`` for all."""
        if guild == "any":
            return {c["name"] for cmds in self.commands.values() for c in cmds}
        key = None if guild is None else self._guild(guild).id  # type: ignore[arg-type]
        return {c["name"] for c in self.commands.get(key, [])}

    async def wait_until(
        self,
        predicate: Callable[[], bool],
        timeout: float = 5.0,  # noqa: ASYNC109
        interval: float = 0.005,
    ) -> None:
        """Poll ``predicate`` until true; ``TimeoutError`` after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while not predicate():
            if time.monotonic() > deadline:
                raise TimeoutError(f"condition not met within {timeout}s")
            await asyncio.sleep(interval)

    async def wait_ready(self, timeout: float = 10.0) -> None:  # noqa: ASYNC109
        """Wait until READY and GUILD_CREATE have been queued for a client."""
        await asyncio.wait_for(self.ready_sent.wait(), timeout)

    @property
    def connected(self) -> bool:
        return any(s.conn is not None for s in self._sessions.values() if not s.invalid)

    def latency_stats(self) -> dict[str, float]:
        vals = sorted(self.latencies)
        if not vals:
            return {"count": 0}

        def pct(p: float) -> float:
            return vals[min(len(vals) - 1, round(p / 100 * (len(vals) - 1)))]

        return {
            "count": float(len(vals)),
            "p50": pct(50),
            "p95": pct(95),
            "p99": pct(99),
            "max": vals[-1],
        }

    # ------------------------------------------------------------------ faults

    def fail_next(
        self, route: str = "channel_message_edit", status: int = 429, count: int = 1
    ) -> None:
        """Force the next ``count`` requests of ``route`` to fail with ``status`` (429 or 5xx)."""
        self._forced.setdefault(route, []).extend([status] * count)

    def _fault_for(self, route: str) -> web.Response | None:
        forced = self._forced.get(route)
        status: int | None = None
        if forced:
            status = forced.pop(0)
        elif route in self.faults.routes:
            roll = self._rng.random()
            if roll < self.faults.rate_limit_fraction:
                status = 429
            elif roll < self.faults.rate_limit_fraction + self.faults.server_error_fraction:
                status = 500
        if status is None:
            return None
        if status == 429:
            self.injected_429 += 1
            ra = self.faults.retry_after
            body = {"message": "You are being rate limited.", "retry_after": ra, "global": False}
            headers = {
                "Content-Type": "application/json",
                "Retry-After": f"{ra:.3f}",
                "Via": "1.1 google",
                "X-RateLimit-Scope": "user",
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset-After": f"{ra:.3f}",
            }
            return web.Response(status=429, body=_dumps(body).encode(), headers=headers)
        self.injected_500 += 1
        body = {"message": "500: Internal Server Error", "code": 0}
        return web.Response(status=status, body=_dumps(body).encode(), headers=JSON_HEADERS)

    async def disconnect(self, code: int = 4000) -> int:
        """Close every gateway socket (the client then RESUMEs). Returns how many were closed."""
        conns = [c for c in self._connections if not c.ws.closed]
        for conn in conns:
            self.disconnect_count += 1
            with contextlib.suppress(Exception):
                await conn.ws.close(code=code, message=b"fake disconnect")
        return len(conns)

    def invalidate_sessions(self) -> None:
        """Forget every session: a later RESUME gets INVALID_SESSION and must re-IDENTIFY."""
        for s in self._sessions.values():
            s.invalid = True

    async def _periodic_disconnects(self) -> None:
        every = self.faults.disconnect_every
        assert every
        while True:
            await asyncio.sleep(every)
            await self.disconnect()

    # ------------------------------------------------------------------ gateway

    async def _gateway_handler(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = _Connection(ws)
        self._connections.add(conn)
        conn.writer = asyncio.ensure_future(self._writer(conn))
        conn.send(_dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}}))
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._on_gateway_message(conn, msg.data)
                elif msg.type == WSMsgType.BINARY:
                    await self._on_gateway_message(conn, msg.data.decode())
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._connections.discard(conn)
            session = conn.session
            if session is not None and session.conn is conn:
                session.conn = None
                session.disconnected_at = time.monotonic()
            conn.queue.put_nowait(None)
            if conn.writer is not None:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait_for(conn.writer, 1.0)
        return ws

    async def _writer(self, conn: _Connection) -> None:
        while True:
            text = await conn.queue.get()
            if text is None or conn.ws.closed:
                return
            try:
                await conn.ws.send_str(text)
            except (ConnectionError, RuntimeError):
                return

    async def _on_gateway_message(self, conn: _Connection, raw: str) -> None:
        try:
            await self._handle_gateway_message(conn, raw)
        except Exception:
            log.exception("fake gateway: error handling %.200s", raw)
            self.errors.append(f"gateway error handling {raw[:200]}")
            with contextlib.suppress(Exception):
                await conn.ws.close(code=4000)

    async def _handle_gateway_message(self, conn: _Connection, raw: str) -> None:
        try:
            msg = json.loads(raw)
        except ValueError:
            await conn.ws.close(code=4002, message=b"decode error")
            return
        op = msg.get("op")
        data = msg.get("d")
        if op == 1:
            self.heartbeat_count += 1
            conn.send(_dumps({"op": 11}))
        elif op == 2:
            await self._identify(conn, data or {})
        elif op == 6:
            await self._resume(conn, data or {})
        elif op == 8:
            self._request_members(conn, data or {})
        elif op in (3, 4):
            pass  # presence / voice state updates: accepted, ignored
        else:
            log.warning("fake gateway: unknown op %r", op)

    def _token_ok(self, token: str | None) -> bool:
        return self.allowed_tokens is None or (token or "") in self.allowed_tokens

    async def _identify(self, conn: _Connection, data: dict[str, Any]) -> None:
        token = str(data.get("token") or "")
        if not self._token_ok(token):
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        self.identify_count += 1
        self.last_identify = {k: v for k, v in data.items() if k != "token"}
        self._expire_sessions()
        session = _Session(
            secrets.token_hex(16), token, int(data.get("intents") or 0), self.max_replay
        )
        self._sessions[session.session_id] = session
        conn.session = session
        session.conn = conn
        shard = data.get("shard")
        guilds = list(self.guilds.values())
        if shard:
            sid, count = int(shard[0]), int(shard[1])
            guilds = [g for g in guilds if (g.id >> 22) % count == sid]
        me = self.bot_user.payload() | {"verified": True, "mfa_enabled": False, "email": None}
        ready: dict[str, Any] = {
            "v": API_VERSION,
            "user": me,
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "user_settings": {},
            "auth": {},
        }
        if shard:
            ready["shard"] = shard
        session.dispatch("READY", ready)
        for g in guilds:
            session.dispatch("GUILD_CREATE", self.guild_payload(g))
        self.ready_sent.set()

    async def _resume(self, conn: _Connection, data: dict[str, Any]) -> None:
        session = self._sessions.get(str(data.get("session_id")))
        seq = data.get("seq") or 0
        ok = (
            session is not None
            and not session.invalid
            and session.token == data.get("token")
            and self._token_ok(str(data.get("token")))
            and (not session.log or session.log[0][0] <= int(seq) + 1)
        )
        if not ok or session is None:
            self.invalid_session_count += 1
            conn.send(_dumps({"op": 9, "d": False}))
            return
        old = session.conn
        if old is not None and old is not conn:
            old.session = None
            with contextlib.suppress(Exception):
                await old.ws.close(code=4000)
        for s, text in session.log:
            if s > int(seq):
                conn.send(text)
        conn.session = session
        session.conn = conn
        session.disconnected_at = None
        self.resume_count += 1
        session.dispatch("RESUMED", {"_trace": ["fake-discord"]})

    def _request_members(self, conn: _Connection, data: dict[str, Any]) -> None:
        session = conn.session
        if session is None:
            return
        gids = data.get("guild_id")
        for gid in gids if isinstance(gids, list) else [gids]:
            g = self.guilds.get(int(gid)) if gid is not None else None
            if g is None:
                continue
            members = [g.member_payload(self.users[uid]) for uid in g.members]
            user_ids = data.get("user_ids")
            if user_ids:
                wanted = {int(u) for u in user_ids}
                members = [m for m in members if int(m["user"]["id"]) in wanted]
            payload: dict[str, Any] = {
                "guild_id": str(g.id),
                "members": members,
                "chunk_index": 0,
                "chunk_count": 1,
            }
            if data.get("nonce") is not None:
                payload["nonce"] = data["nonce"]
            session.dispatch("GUILD_MEMBERS_CHUNK", payload)

    def _expire_sessions(self) -> None:
        now = time.monotonic()
        for sid in list(self._sessions):
            s = self._sessions[sid]
            if s.invalid or (
                s.conn is None
                and s.disconnected_at is not None
                and now - s.disconnected_at > self.session_timeout
            ):
                del self._sessions[sid]

    def dispatch(self, event: str, data: Any, *, intent: int | None = None) -> int:
        """Send a DISPATCH event to every live session (buffered for resume when disconnected).

        ``intent``: only sessions that identified with that intent bit. Returns how many
        sessions it was queued for."""
        self._expire_sessions()
        n = 0
        for s in self._sessions.values():
            if intent is not None and not (s.intents & intent):
                continue
            s.dispatch(event, data)
            n += 1
        return n

    def _interaction_session(self) -> _Session:
        self._expire_sessions()
        live = [s for s in self._sessions.values() if not s.invalid]
        if not live:
            raise RuntimeError("no gateway session: is the bot connected?")
        connected = [s for s in live if s.conn is not None]
        pool = connected or live
        return max(pool, key=lambda s: s.identified_at)

    # ------------------------------------------------------------------ interaction injection

    def _member_for_interaction(self, guild: FakeGuild, user: FakeUser) -> dict[str, Any]:
        if user.id not in guild.members:
            guild.members[user.id] = ([], _iso())
        member = guild.member_payload(user)
        member["permissions"] = str(guild.permissions_of(user.id))
        return member

    def _base_interaction(
        self, itype: int, user: FakeUser, channel: FakeChannel, data: dict[str, Any]
    ) -> dict[str, Any]:
        guild = self.guilds[channel.guild_id]
        return {
            "id": str(self._snowflake()),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "guild": {"id": str(guild.id), "locale": "en-US", "features": []},
            "guild_id": str(guild.id),
            "channel": channel.payload(),
            "channel_id": str(channel.id),
            "member": self._member_for_interaction(guild, user),
            "token": "fakeixtoken." + secrets.token_urlsafe(24),
            "version": 1,
            "app_permissions": str(guild.permissions_of(self.bot_user.id)),
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
        }

    def _find_command(self, name: str, guild_id: int) -> tuple[dict[str, Any] | None, bool]:
        for cmd in self.commands.get(guild_id, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, True
        for cmd in self.commands.get(None, []):
            if cmd["name"] == name and cmd.get("type", 1) == 1:
                return cmd, False
        return None, False

    def _build_options(
        self,
        values: Mapping[str, Any],
        spec: list[dict[str, Any]] | None,
        resolved: dict[str, dict[str, Any]],
        guild: FakeGuild,
    ) -> list[dict[str, Any]]:
        by_name = {o["name"]: o for o in (spec or [])}
        out: list[dict[str, Any]] = []
        for name, value in values.items():
            ospec = by_name.get(name)
            if ospec is None and spec is not None and self.strict:
                raise LookupError(f"command has no option {name!r} (has {sorted(by_name)})")
            otype = ospec.get("type") if ospec else None
            if isinstance(value, FakeUser):
                otype = otype or 6
                resolved.setdefault("users", {})[str(value.id)] = value.payload()
                if value.id in guild.members:
                    m = guild.member_payload(value, with_user=False)
                    m["permissions"] = str(guild.permissions_of(value.id))
                    resolved.setdefault("members", {})[str(value.id)] = m
                value = str(value.id)
            elif isinstance(value, FakeChannel):
                otype = otype or 7
                resolved.setdefault("channels", {})[str(value.id)] = value.payload() | {
                    "permissions": str(ALL_PERMISSIONS)
                }
                value = str(value.id)
            elif otype is None:
                if isinstance(value, bool):
                    otype = 5
                elif isinstance(value, int):
                    otype = 4
                elif isinstance(value, float):
                    otype = 10
                else:
                    otype = 3
            elif otype == 6 and isinstance(value, str | int):
                # a username or id: resolve to the user
                u = self.user(
                    value if isinstance(value, str) and not value.isdigit() else int(value)
                )
                resolved.setdefault("users", {})[str(u.id)] = u.payload()
                if u.id in guild.members:
                    m = guild.member_payload(u, with_user=False)
                    m["permissions"] = str(guild.permissions_of(u.id))
                    resolved.setdefault("members", {})[str(u.id)] = m
                value = str(u.id)
            out.append({"name": name, "type": otype, "value": value})
        if spec is not None and self.strict:
            missing = [o["name"] for o in spec if o.get("required") and o["name"] not in values]
            if missing:
                raise LookupError(f"missing required options {missing}")
        return out

    async def slash(
        self,
        user: FakeUser | str | int,
        name: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        group: str | None = None,
        channel: FakeChannel | str | int | None = None,
        guild: FakeGuild | int | None = None,
    ) -> InteractionHandle:
        """Dispatch a slash command (INTERACTION_CREATE type 2) as ``user``.

        ``options`` maps option names to values (str/int/float/bool, FakeUser, FakeChannel).
        In strict mode the command must have been synced, the option names must exist and the
        user must hold the command's ``default_member_permissions``."""
        u = self.user(user)
        ch = self.channel(channel, guild)
        g = self.guilds[ch.guild_id]
        cmd, is_guild = self._find_command(name, g.id)
        if cmd is None and self.strict:
            raise LookupError(
                f"command /{name} was not synced (have {sorted(self.command_names())})"
            )
        if cmd is not None and self.strict:
            needed = cmd.get("default_member_permissions")
            if needed is not None:
                perms = g.permissions_of(u.id)
                if int(needed) & perms != int(needed):
                    raise PermissionError(f"{u.username} lacks permissions {needed} for /{name}")
        resolved: dict[str, dict[str, Any]] = {}
        spec: list[dict[str, Any]] | None = cmd.get("options", []) if cmd is not None else None
        if group is not None:
            gspec = _sub_spec(spec, group, 2) if spec is not None else None
            sspec = _sub_spec(gspec, subcommand or "", 1) if gspec is not None else None
            inner = self._build_options(options or {}, sspec, resolved, g)
            opts = [
                {
                    "name": group,
                    "type": 2,
                    "options": [{"name": subcommand, "type": 1, "options": inner}],
                }
            ]
        elif subcommand is not None:
            sspec = _sub_spec(spec, subcommand, 1) if spec is not None else None
            if spec is not None and sspec is None and self.strict:
                raise LookupError(f"/{name} has no subcommand {subcommand!r}")
            inner = self._build_options(options or {}, sspec, resolved, g)
            opts = [{"name": subcommand, "type": 1, "options": inner}]
        else:
            opts = self._build_options(options or {}, spec, resolved, g)
        data: dict[str, Any] = {
            "id": str(cmd["id"]) if cmd is not None else str(self._snowflake()),
            "name": name,
            "type": 1,
            "options": opts,
        }
        if resolved:
            data["resolved"] = resolved
        if is_guild:
            data["guild_id"] = str(g.id)
        payload = self._base_interaction(2, u, ch, data)
        return self._send_interaction(payload, u, "slash", name)

    async def click(
        self,
        user: FakeUser | str | int,
        message_id: int | StoredMessage,
        custom_id: str,
        *,
        channel: FakeChannel | str | int | None = None,
        values: list[str] | None = None,
        unchecked: bool = False,
    ) -> InteractionHandle:
        """Dispatch a component interaction (type 3) on a stored message, as ``user``.

        The message must exist and be visible to the user; in strict mode the component must be
        on it and enabled. ``values`` makes it a select-menu submission. ``unchecked`` sends a
        custom id even when the message does not show it (a modified client; harness shortcuts)."""
        u = self.user(user)
        mid = message_id.id if isinstance(message_id, StoredMessage) else int(message_id)
        stored = self.messages.get(mid)
        if stored is None or stored.deleted:
            raise LookupError(f"unknown message {mid}")
        if not stored.visible_to(u.id):
            raise PermissionError(f"message {mid} is ephemeral for someone else than {u.username}")
        comp = stored.find_component(custom_id)
        if comp is None and self.strict and not unchecked:
            raise LookupError(f"no component {custom_id!r} on message {mid}: {stored.custom_ids()}")
        if comp is not None and comp.get("disabled") and self.strict:
            raise PermissionError(f"component {custom_id!r} on message {mid} is disabled")
        ctype = int(comp.get("type", 2)) if comp is not None else (3 if values is not None else 2)
        ch = self.channel(channel) if channel is not None else self.channel(stored.channel_id)
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": ctype}
        if ctype in (3, 5, 6, 7, 8) or values is not None:
            data["values"] = list(values or [])
            if data["values"] and self.strict and comp is not None and ctype == 3:
                allowed = {o.get("value") for o in comp.get("options", [])}
                bad = [v for v in data["values"] if v not in allowed]
                if bad:
                    raise LookupError(f"values {bad} are not options of select {custom_id!r}")
        payload = self._base_interaction(3, u, ch, data)
        payload["message"] = json.loads(_dumps(stored.data))
        return self._send_interaction(payload, u, "click", custom_id)

    def _send_interaction(
        self, payload: dict[str, Any], user: FakeUser, kind: str, name: str
    ) -> InteractionHandle:
        session = self._interaction_session()
        handle = InteractionHandle(self, payload, user, kind, name)
        self._prune_interactions()
        self.interactions[handle.id] = handle
        self._by_token[handle.token] = handle
        self._handle_order.append(handle)
        handle.created_mono = self._now()
        handle.dispatched_at = time.perf_counter()
        session.dispatch("INTERACTION_CREATE", payload)
        return handle

    def _prune_interactions(self) -> None:
        """Forget interactions whose token expired (a minute's grace): bounded memory in soaks."""
        horizon = self._now() - self.token_ttl - 60.0
        order = self._handle_order
        while order and order[0].created_mono < horizon:
            old = order.popleft()
            self.interactions.pop(old.id, None)
            self._by_token.pop(old.token, None)

    def _resolve(self, handle: InteractionHandle) -> None:
        self.latencies.append(handle.latency or 0.0)
        if not self.keep_payloads:
            handle.payload = {}
        if not handle._future.done():
            handle._future.set_result(handle)

    # ------------------------------------------------------------------ REST plumbing

    def _build_routes(self) -> None:
        r = self._route
        r("GET", r"/users/@me", "users_me", self._h_users_me)
        r("GET", r"/users/(?P<uid>\d+)", "user_get", self._h_user_get)
        r("GET", r"/oauth2/applications/@me", "application_info", self._h_app_info)
        r("GET", r"/applications/@me", "application_info", self._h_app_info)
        r("GET", r"/gateway", "gateway", self._h_gateway)
        r("GET", r"/gateway/bot", "gateway_bot", self._h_gateway_bot)
        cmds = r"/applications/(?P<app>\d+)/commands"
        gcmds = r"/applications/(?P<app>\d+)/guilds/(?P<gid>\d+)/commands"
        r("PUT", cmds, "commands_put", self._h_commands_put)
        r("PUT", gcmds, "commands_put", self._h_commands_put)
        r("GET", cmds, "commands_get", self._h_commands_get)
        r("GET", gcmds, "commands_get", self._h_commands_get)
        r("GET", r"/channels/(?P<cid>\d+)", "channel_get", self._h_channel_get)
        msgs = r"/channels/(?P<cid>\d+)/messages"
        r("POST", msgs, "channel_message_create", self._h_msg_create)
        r("GET", msgs, "channel_messages_list", self._h_msg_list)
        r("GET", msgs + r"/(?P<mid>\d+)", "channel_message_get", self._h_msg_get)
        r("PATCH", msgs + r"/(?P<mid>\d+)", "channel_message_edit", self._h_msg_edit)
        r("DELETE", msgs + r"/(?P<mid>\d+)", "channel_message_delete", self._h_msg_delete)
        r("POST", r"/channels/(?P<cid>\d+)/typing", "typing", self._h_no_content)
        r("GET", r"/guilds/(?P<gid>\d+)", "guild_get", self._h_guild_get)
        r("GET", r"/guilds/(?P<gid>\d+)/channels", "guild_channels", self._h_guild_channels)
        r("GET", r"/guilds/(?P<gid>\d+)/members/(?P<uid>\d+)", "member_get", self._h_member_get)
        r("GET", r"/guilds/(?P<gid>\d+)/roles", "guild_roles", self._h_guild_roles)
        r(
            "POST",
            r"/interactions/(?P<iid>\d+)/(?P<token>[^/]+)/callback",
            "interaction_callback",
            self._h_callback,
        )
        hook = r"/webhooks/(?P<app>\d+)/(?P<token>[^/]+)"
        r("POST", hook, "webhook_execute", self._h_followup)
        msg = hook + r"/messages/(?P<mid>@original|\d+)"
        r("GET", msg, "webhook_message_get", self._h_hook_get)
        r("PATCH", msg, "webhook_message_edit", self._h_hook_edit)
        r("DELETE", msg, "webhook_message_delete", self._h_hook_delete)
        emojis = r"/applications/(?P<app>\d+)/emojis"
        r("GET", emojis, "application_emojis_list", self._h_emojis_list)
        r("POST", emojis, "application_emoji_create", self._h_emoji_create)
        r("GET", emojis + r"/(?P<eid>\d+)", "application_emoji_get", self._h_emoji_get)
        r("DELETE", emojis + r"/(?P<eid>\d+)", "application_emoji_delete", self._h_emoji_delete)

    def _route(self, method: str, pattern: str, key: str, handler: _Handler) -> None:
        self._routes.append((method, re.compile(f"^/api/v{API_VERSION}{pattern}$"), key, handler))

    async def _dispatch_rest(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        for method, pattern, key, handler in self._routes:
            if method != request.method:
                continue
            m = pattern.match(path)
            if m is None:
                continue
            self.route_counts[key] += 1
            fault = self._fault_for(key)
            if fault is not None:
                self.status_counts[fault.status] += 1
                return fault
            try:
                resp = await handler(request, m.groupdict())
            except _HTTPError as exc:
                self.status_counts[exc.status] += 1
                self.errors.append(
                    f"{request.method} {path} -> {exc.status} {exc.code} {exc.message}"
                )
                log.warning(
                    "fake discord: %s %s -> %s %s", request.method, path, exc.status, exc.message
                )
                return _json({"message": exc.message, "code": exc.code}, status=exc.status)
            self.status_counts[resp.status] += 1
            return resp
        self.route_counts["unknown"] += 1
        self.status_counts[404] += 1
        desc = f"{request.method} {path}"
        self.unknown_routes.append(desc)
        log.warning("fake discord: unknown route %s", desc)
        return _json({"message": "404: Not Found", "code": 0}, status=404)

    def _check_auth(self, request: web.Request) -> None:
        if self.allowed_tokens is None:
            return
        auth = request.headers.get("Authorization", "")
        token = auth[4:] if auth.startswith("Bot ") else auth
        if token not in self.allowed_tokens:
            raise _HTTPError(401, UNAUTHORIZED, "401: Unauthorized")

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """JSON body (or multipart payload_json) and the files it carried as attachments."""
        ctype = request.headers.get("Content-Type", "")
        files: list[dict[str, Any]] = []
        if ctype.startswith("multipart/"):
            # Discord's multipart form: `payload_json` plus `files[n]`; the payload's
            # `attachments` list names each upload by its index n (filename, description).
            payload: dict[str, Any] = {}
            uploads: list[tuple[int, str, bytes]] = []
            reader = await request.multipart()
            async for part in reader:
                if not hasattr(part, "read"):
                    continue
                raw = await part.read()  # type: ignore[union-attr]
                name = part.name or ""  # type: ignore[union-attr]
                if name == "payload_json":
                    payload = json.loads(raw or b"{}")
                    continue
                index = re.fullmatch(r"files\[(\d+)\]", name)
                if index is None:
                    raise _HTTPError(400, 50035, f"Invalid Form Body: unexpected part {name!r}")
                fname = getattr(part, "filename", None) or "file"
                uploads.append((int(index.group(1)), fname, bytes(raw)))
            described = {str(a.get("id")): a for a in payload.get("attachments") or []}
            for index, fname, raw in uploads:
                meta = described.get(str(index), {})
                fname = str(meta.get("filename") or fname)
                aid = self._snowflake()
                self.attachment_bytes[aid] = raw
                url = f"http://{self.host}:{self.port}/attachments/{aid}/{fname}"
                entry = {"id": str(aid), "filename": fname, "size": len(raw), "url": url,
                         "proxy_url": url}
                if raw[:8] == b"\x89PNG\r\n\x1a\n" and len(raw) >= 24:
                    entry["content_type"] = "image/png"
                    entry["width"] = int.from_bytes(raw[16:20], "big")
                    entry["height"] = int.from_bytes(raw[20:24], "big")
                if meta.get("description"):
                    entry["description"] = meta["description"]
                files.append(entry)
            return payload, files
        raw = await request.read()
        if not raw:
            return {}, files
        try:
            data = json.loads(raw)
        except ValueError:
            raise _HTTPError(400, 50109, "The request body contains invalid JSON.") from None
        return (data if isinstance(data, dict) else {"_": data}), files

    # ------------------------------------------------------------------ REST: login / app / gateway

    async def _h_users_me(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(self.bot_user.payload() | {"verified": True, "mfa_enabled": False})

    async def _h_user_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        u = self.users.get(int(p["uid"]))
        if u is None:
            raise _HTTPError(404, 10013, "Unknown User")
        return _json(u.payload())

    async def _h_app_info(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        owner = self.users[self.guild.owner_id]
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_user.username,
                "icon": None,
                "description": "fake application",
                "summary": "",
                "type": None,
                "hook": True,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "owner": owner.payload(),
                "team": None,
                "flags": 0,
                "rpc_origins": [],
                "bot": self.bot_user.payload(),
                "approximate_guild_count": len(self.guilds),
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "tags": [],
                "integration_types_config": {"0": {}},
            }
        )

    async def _h_gateway(self, request: web.Request, p: dict[str, str]) -> web.Response:
        return _json({"url": self.gateway_url})

    async def _h_gateway_bot(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(
            {
                "url": self.gateway_url,
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 999,
                    "reset_after": 14400000,
                    "max_concurrency": 1,
                },
            }
        )

    # ------------------------------------------------------------------ REST: commands

    def _command_key(self, p: dict[str, str]) -> int | None:
        if int(p["app"]) != self.application_id:
            raise _HTTPError(403, 50001, "Missing Access")
        gid = p.get("gid")
        if gid is None:
            return None
        if int(gid) not in self.guilds:
            raise _HTTPError(403, 50001, "Missing Access")
        return int(gid)

    async def _h_commands_put(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        key = self._command_key(p)
        body, _ = await self._body(request)
        defs = body.get("_", body)
        if not isinstance(defs, list):
            raise _HTTPError(400, 50035, "Invalid Form Body")
        previous = {(c["name"], c.get("type", 1)): c for c in self.commands.get(key, [])}
        result = []
        for d in defs:
            old = previous.get((d["name"], d.get("type", 1)))
            cmd: dict[str, Any] = {
                "id": old["id"] if old else str(self._snowflake()),
                "application_id": str(self.application_id),
                "version": str(self._snowflake()),
                "type": d.get("type", 1),
                "name": d["name"],
                "description": d.get("description", ""),
                "options": d.get("options", []),
                "default_member_permissions": d.get("default_member_permissions"),
                "dm_permission": d.get("dm_permission", True),
                "nsfw": d.get("nsfw", False),
                "contexts": d.get("contexts"),
                "integration_types": d.get("integration_types", [0]),
                "name_localizations": d.get("name_localizations"),
                "description_localizations": d.get("description_localizations"),
            }
            if key is not None:
                cmd["guild_id"] = str(key)
            result.append(cmd)
        self.commands[key] = result
        self.command_syncs.append((key, result))
        self.commands_synced.set()
        log.info("fake discord: %d commands synced to %s", len(result), key or "global")
        return _json(result)

    async def _h_commands_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(self.commands.get(self._command_key(p), []))

    # ------------------------------------------------------------------ REST: guilds / channels

    def _channel_or_404(self, cid: str) -> FakeChannel:
        try:
            return self.channel(int(cid))
        except LookupError:
            raise _HTTPError(404, UNKNOWN_CHANNEL, "Unknown Channel") from None

    async def _h_channel_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(self._channel_or_404(p["cid"]).payload())

    async def _h_guild_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        g = self.guilds.get(int(p["gid"]))
        if g is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        data = self.guild_payload(g)
        for k in ("members", "channels", "voice_states", "presences", "threads"):
            data.pop(k, None)
        return _json(data)

    async def _h_guild_channels(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        g = self.guilds.get(int(p["gid"]))
        if g is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return _json([c.payload() for c in g.channels.values()])

    async def _h_guild_roles(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        g = self.guilds.get(int(p["gid"]))
        if g is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return _json([r.payload() for r in g.roles.values()])

    async def _h_member_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        g = self.guilds.get(int(p["gid"]))
        uid = int(p["uid"])
        if g is None or uid not in g.members:
            raise _HTTPError(404, 10007, "Unknown Member")
        return _json(g.member_payload(self.users[uid]))

    async def _h_no_content(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return web.Response(status=204)

    # ------------------------------------------------------------------ messages (shared)

    def _new_message(
        self,
        channel: FakeChannel,
        body: Mapping[str, Any],
        files: list[dict[str, Any]],
        *,
        mtype: int = 0,
        ephemeral_user: int | None = None,
        interaction: InteractionHandle | None = None,
        loading: bool = False,
    ) -> StoredMessage:
        mid = self._snowflake()
        flags = int(body.get("flags") or 0)
        if ephemeral_user is None:
            flags &= ~FLAG_EPHEMERAL
        else:
            flags |= FLAG_EPHEMERAL
        if loading:
            flags |= FLAG_LOADING
        components = json.loads(_dumps(body.get("components") or []))
        _number_components(components)
        data: dict[str, Any] = {
            "id": str(mid),
            "type": mtype,
            "channel_id": str(channel.id),
            "guild_id": str(channel.guild_id),
            "author": self.bot_user.payload(),
            "content": body.get("content") or "",
            "timestamp": _iso(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": files,
            "embeds": [_embed(e) for e in body.get("embeds") or []],
            "reactions": [],
            "pinned": False,
            "flags": flags,
            "components": components,
        }
        if body.get("poll"):
            data["poll"] = body["poll"]
        if interaction is not None:
            data["webhook_id"] = str(self.application_id)
            data["application_id"] = str(self.application_id)
            meta: dict[str, Any] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(channel.guild_id)},
            }
            if interaction.kind == "slash":
                meta["name"] = interaction.name
                meta["command_type"] = 1
            elif interaction.source_message_id is not None:
                meta["interacted_message_id"] = str(interaction.source_message_id)
            data["interaction_metadata"] = meta
            data["interaction"] = {
                "id": str(interaction.id),
                "type": interaction.type,
                "name": interaction.name if interaction.kind == "slash" else "",
                "user": interaction.user.payload(),
            }
        else:
            ref = body.get("message_reference")
            if ref:
                data["message_reference"] = ref
                data["type"] = 19
            if body.get("nonce") is not None:
                data["nonce"] = body["nonce"]
        self._link_attachments(data)
        stored = StoredMessage(
            data=data,
            ephemeral_user_id=ephemeral_user,
            interaction_id=interaction.id if interaction is not None else None,
        )
        self.messages[mid] = stored
        self._notify(stored)
        if ephemeral_user is None:
            event = dict(data)
            event["member"] = self.guilds[channel.guild_id].member_payload(
                self.bot_user, with_user=False
            )
            self.dispatch("MESSAGE_CREATE", event, intent=INTENT_GUILD_MESSAGES)
        return stored

    def _edit_message(
        self, stored: StoredMessage, body: Mapping[str, Any], files: list[dict[str, Any]]
    ) -> StoredMessage:
        data = stored.data
        if "content" in body:
            data["content"] = body["content"] or ""
        if "embeds" in body:
            data["embeds"] = [_embed(e) for e in body["embeds"] or []]
        if "components" in body:
            components = json.loads(_dumps(body["components"] or []))
            _number_components(components)
            data["components"] = components
        if "attachments" in body or files:
            kept_ids = {str(a.get("id")) for a in body.get("attachments") or []}
            kept = [a for a in data.get("attachments", []) if str(a["id"]) in kept_ids]
            data["attachments"] = kept + files
        if body.get("poll"):
            data["poll"] = body["poll"]
        if "embeds" in body or "attachments" in body or files:
            self._link_attachments(data)
        keep = FLAG_EPHEMERAL if stored.ephemeral else 0
        if "flags" in body and body["flags"] is not None:
            data["flags"] = (int(body["flags"]) & ~(FLAG_EPHEMERAL | FLAG_LOADING)) | keep
        else:
            data["flags"] = (int(data.get("flags") or 0) & ~FLAG_LOADING) | keep
        data["edited_timestamp"] = _iso()
        stored.edit_count += 1
        stored.updated_at = time.perf_counter()
        self._notify(stored)
        if not stored.ephemeral:
            event = dict(data)
            self.dispatch("MESSAGE_UPDATE", event, intent=INTENT_GUILD_MESSAGES)
        return stored

    def _link_attachments(self, data: dict[str, Any]) -> None:
        """Resolve `attachment://name` in embeds to the message's attachment of that name, as
        Discord does; a reference to a file the message does not carry is recorded as an error."""
        by_name = {a["filename"]: a for a in data.get("attachments") or []}
        for embed in data.get("embeds") or []:
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                if not isinstance(media, dict):
                    continue
                url = str(media.get("url") or "")
                ref = str(media.get("reference") or "")
                if url.startswith("attachment://"):
                    ref = url
                if not ref:
                    continue
                attached = by_name.get(ref.removeprefix("attachment://"))
                if attached is None:
                    self.errors.append(f"embed {key} refers to {ref}, which the message lacks")
                    embed.pop(key)
                    continue
                media.update(url=attached["url"], proxy_url=attached["proxy_url"],
                             reference=ref)
                for dim in ("width", "height"):
                    if dim in attached:
                        media[dim] = attached[dim]

    def _notify(self, stored: StoredMessage) -> None:
        for listener in self.message_listeners:
            try:
                listener(stored)
            except Exception:
                log.exception("fake discord: message listener failed")
                self.errors.append("message listener failed")

    def forget_message(self, message_id: int) -> None:
        """Drop a stored message (a harness dismissing old ephemerals keeps memory bounded)."""
        self.messages.pop(int(message_id), None)

    def _delete_message(self, stored: StoredMessage) -> None:
        stored.deleted = True
        if not stored.ephemeral:
            self.dispatch(
                "MESSAGE_DELETE",
                {
                    "id": str(stored.id),
                    "channel_id": str(stored.channel_id),
                    "guild_id": stored.data.get("guild_id"),
                },
                intent=INTENT_GUILD_MESSAGES,
            )

    # ------------------------------------------------------------------ REST: channel messages

    def _channel_message(self, p: dict[str, str]) -> StoredMessage:
        ch = self._channel_or_404(p["cid"])
        stored = self.messages.get(int(p["mid"]))
        if stored is None or stored.deleted or stored.ephemeral or stored.channel_id != ch.id:
            raise _HTTPError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return stored

    async def _h_msg_create(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        ch = self._channel_or_404(p["cid"])
        body, files = await self._body(request)
        if not (
            body.get("content")
            or body.get("embeds")
            or body.get("components")
            or files
            or body.get("poll")
            or body.get("sticker_ids")
        ):
            raise _HTTPError(400, 50006, "Cannot send an empty message")
        return _json(self._new_message(ch, body, files).data)

    async def _h_msg_list(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        ch = self._channel_or_404(p["cid"])
        limit = int(request.query.get("limit", "50"))
        msgs = [m.data for m in self.channel_messages(ch)]
        return _json(list(reversed(msgs))[:limit])

    async def _h_msg_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        return _json(self._channel_message(p).data)

    async def _h_msg_edit(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        stored = self._channel_message(p)
        body, files = await self._body(request)
        return _json(self._edit_message(stored, body, files).data)

    async def _h_msg_delete(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        self._delete_message(self._channel_message(p))
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: interactions

    async def _h_callback(self, request: web.Request, p: dict[str, str]) -> web.Response:
        arrived = time.perf_counter()
        handle = self.interactions.get(int(p["iid"]))
        if handle is None or handle.token != p["token"]:
            raise _HTTPError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        body, files = await self._body(request)
        if handle.callback_type is not None:
            raise _HTTPError(
                400, ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        ctype = int(body.get("type", 0))
        cdata = body.get("data") or {}
        late = (
            self.callback_deadline is not None
            and self._now() - handle.created_mono > self.callback_deadline
        )
        handle.latency = arrived - handle.dispatched_at
        if late:
            handle.late = True
            handle.callback_type = ctype
            handle.callback_data = cdata
            self._resolve(handle)
            raise _HTTPError(404, UNKNOWN_INTERACTION, "Unknown interaction")
        ch = self.channel(handle.channel_id)
        ephemeral_user = handle.user.id if int(cdata.get("flags") or 0) & FLAG_EPHEMERAL else None
        message: StoredMessage | None = None
        if ctype == 1:
            pass
        elif ctype == 4:
            mtype = 20 if handle.kind == "slash" else 0
            message = self._new_message(
                ch, cdata, files, mtype=mtype, ephemeral_user=ephemeral_user, interaction=handle
            )
            handle.original_message_id = message.id
        elif ctype == 5:
            mtype = 20 if handle.kind == "slash" else 0
            message = self._new_message(
                ch,
                {},
                [],
                mtype=mtype,
                ephemeral_user=ephemeral_user,
                interaction=handle,
                loading=True,
            )
            handle.original_message_id = message.id
        elif ctype in (6, 7):
            if handle.source_message_id is None:
                raise _HTTPError(400, 50035, f"Invalid Form Body: type {ctype} needs a component")
            source = self.messages.get(handle.source_message_id)
            if source is None or source.deleted:
                raise _HTTPError(404, UNKNOWN_MESSAGE, "Unknown Message")
            handle.original_message_id = source.id
            if ctype == 7:
                message = self._edit_message(source, cdata, files)
        elif ctype in (8, 9, 10, 12):
            pass  # autocomplete result, modal, premium required, launch activity: recorded only
        else:
            raise _HTTPError(400, 50035, f"Invalid Form Body: unknown callback type {ctype}")
        handle.callback_type = ctype
        handle.callback_data = cdata
        self._resolve(handle)
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        shown = message or handle.original
        interaction: dict[str, Any] = {
            "id": str(handle.id),
            "type": handle.type,
            "activity_instance_id": None,
            "response_message_id": str(handle.original_message_id)
            if handle.original_message_id is not None
            else None,
            "response_message_loading": ctype == 5,
            "response_message_ephemeral": bool(shown is not None and shown.ephemeral),
        }
        resource: dict[str, Any] = {"type": ctype}
        if message is not None:
            resource["message"] = message.data
        return _json({"interaction": interaction, "resource": resource})

    def _hook_handle(self, p: dict[str, str]) -> InteractionHandle:
        if int(p["app"]) != self.application_id:
            raise _HTTPError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        handle = self._by_token.get(p["token"])
        if handle is None:
            raise _HTTPError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        if self._now() - handle.created_mono > self.token_ttl:
            raise _HTTPError(401, INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if handle.callback_type is None or handle.late:
            raise _HTTPError(404, UNKNOWN_WEBHOOK, "Unknown Webhook")
        return handle

    def _hook_message(self, handle: InteractionHandle, mid: str) -> StoredMessage:
        if mid == "@original":
            target = handle.original_message_id
        else:
            target = int(mid)
            if target not in handle.followup_ids and target != handle.original_message_id:
                raise _HTTPError(404, UNKNOWN_MESSAGE, "Unknown Message")
        stored = self.messages.get(target) if target is not None else None
        if stored is None or stored.deleted:
            raise _HTTPError(404, UNKNOWN_MESSAGE, "Unknown Message")
        return stored

    async def _h_followup(self, request: web.Request, p: dict[str, str]) -> web.Response:
        handle = self._hook_handle(p)
        body, files = await self._body(request)
        original = handle.original
        if handle.callback_type == 5 and original is not None and original.loading:
            # The first followup after a thinking defer replaces the "thinking" message.
            stored = self._edit_message(original, body, files)
        else:
            ch = self.channel(handle.channel_id)
            eph = handle.user.id if int(body.get("flags") or 0) & FLAG_EPHEMERAL else None
            if not (body.get("content") or body.get("embeds") or body.get("components") or files):
                raise _HTTPError(400, 50006, "Cannot send an empty message")
            stored = self._new_message(ch, body, files, ephemeral_user=eph, interaction=handle)
            handle.followup_ids.append(stored.id)
        if request.query.get("wait") in ("1", "true", "True"):
            return _json(stored.data)
        return web.Response(status=204)

    async def _h_hook_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        handle = self._hook_handle(p)
        return _json(self._hook_message(handle, p["mid"]).data)

    async def _h_hook_edit(self, request: web.Request, p: dict[str, str]) -> web.Response:
        handle = self._hook_handle(p)
        stored = self._hook_message(handle, p["mid"])
        body, files = await self._body(request)
        return _json(self._edit_message(stored, body, files).data)

    async def _h_hook_delete(self, request: web.Request, p: dict[str, str]) -> web.Response:
        handle = self._hook_handle(p)
        self._delete_message(self._hook_message(handle, p["mid"]))
        return web.Response(status=204)

    # ------------------------------------------------------------------ REST: application emoji

    def _check_app(self, p: dict[str, str]) -> None:
        if int(p["app"]) != self.application_id:
            raise _HTTPError(403, 50001, "Missing Access")

    async def _h_emojis_list(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        self._check_app(p)
        return _json({"items": list(self.application_emojis.values())})

    async def _h_emoji_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        self._check_app(p)
        emoji = self.application_emojis.get(int(p["eid"]))
        if emoji is None:
            raise _HTTPError(404, 10014, "Unknown Emoji")
        return _json(emoji)

    async def _h_emoji_create(self, request: web.Request, p: dict[str, str]) -> web.Response:
        """Like Discord: a name of 2-32 letters, digits or underscores, unique in the
        application; a PNG, JPEG or GIF data URI of at most 256 KiB; at most 2,000 emoji."""
        self._check_auth(request)
        self._check_app(p)
        body, _ = await self._body(request)
        name = str(body.get("name") or "")
        if not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            raise _HTTPError(400, 50035, "Invalid Form Body: name")
        if any(e["name"] == name for e in self.application_emojis.values()):
            raise _HTTPError(400, 50035, "Invalid Form Body: APPLICATION_EMOJI_NAME_ALREADY_TAKEN")
        if len(self.application_emojis) >= 2000:
            raise _HTTPError(400, 30018, "Maximum number of emojis reached")
        image = re.fullmatch(r"data:image/(png|jpeg|gif);base64,(.+)", str(body.get("image") or ""),
                             re.DOTALL)
        if image is None:
            raise _HTTPError(400, 50035, "Invalid Form Body: image")
        try:
            raw = base64.b64decode(image.group(2), validate=True)
        except ValueError:
            raise _HTTPError(400, 50035, "Invalid Form Body: image") from None
        if len(raw) > 256 * 1024:
            raise _HTTPError(400, 50045, "File cannot be larger than 256 kb")
        eid = self._snowflake()
        emoji = {"id": str(eid), "name": name, "roles": [], "user": self.bot_user.payload(),
                 "require_colons": True, "managed": False, "animated": image.group(1) == "gif",
                 "available": True}
        self.application_emojis[eid] = emoji
        self.emoji_images[eid] = raw
        return _json(emoji, status=201)

    async def _h_emoji_delete(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        self._check_app(p)
        if self.application_emojis.pop(int(p["eid"]), None) is None:
            raise _HTTPError(404, 10014, "Unknown Emoji")
        self.emoji_images.pop(int(p["eid"]), None)
        return web.Response(status=204)


def _sub_spec(
    spec: list[dict[str, Any]] | None, name: str, otype: int
) -> list[dict[str, Any]] | None:
    for opt in spec or []:
        if opt.get("name") == name and opt.get("type") == otype:
            return list(opt.get("options") or [])
    return None


def _embed(e: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(e)
    out.setdefault("type", "rich")
    return out


def _json(obj: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py only parses JSON when the header matches exactly.
    return web.Response(status=status, body=_dumps(obj).encode(), headers=JSON_HEADERS)


# =============================================================================================
# Standalone
# =============================================================================================


async def _serve(args: argparse.Namespace) -> None:
    fake = FakeDiscord(
        host=args.host,
        port=args.port,
        allowed_tokens=[args.token] if args.token else None,
        faults=FaultConfig(
            rate_limit_fraction=args.rate_limit_fraction,
            server_error_fraction=args.server_error_fraction,
            seed=args.seed,
        ),
    )
    await fake.start()
    print(f"API_BASE={fake.api_base}", flush=True)
    print(f"GATEWAY_URL={fake.gateway_url}", flush=True)
    print(f"GUILD_ID={fake.guild_id}", flush=True)
    print(f"APPLICATION_ID={fake.application_id}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await fake.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Loopback fake Discord server")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--token", default=None, help="only accept this bot token")
    parser.add_argument("--rate-limit-fraction", type=float, default=0.0)
    parser.add_argument("--server-error-fraction", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=args.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    asyncio.run(_serve(args))


if __name__ == "__main__":
    main()
