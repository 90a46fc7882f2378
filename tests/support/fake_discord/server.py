"""The fake Discord server itself: its world, life cycle and inspection helpers."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import random
import re
import time
from collections.abc import Awaitable, Callable, Collection, Iterable
from typing import Any

from aiohttp import web

from tests.support.fake_discord.faults import FaultConfig, FaultsMixin
from tests.support.fake_discord.gateway import GatewayMixin, _Connection, _Session
from tests.support.fake_discord.interactions import InteractionHandle, InteractionsMixin
from tests.support.fake_discord.limits import LimitConfig, LimitsMixin
from tests.support.fake_discord.media import MediaMixin
from tests.support.fake_discord.models import (
    ADMINISTRATOR,
    API_VERSION,
    BOT_ROLE_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    INTENT_GUILD_MEMBERS,
    MANAGE_GUILD,
    ClientRequest,
    FakeChannel,
    FakeGuild,
    FakeRole,
    FakeUser,
    StoredMessage,
    _Handler,
    _iso,
    _Snowflakes,
    log,
)
from tests.support.fake_discord.rest import RestMixin
from tests.support.fake_discord.threads import ThreadsMixin
from tests.support.fake_discord.validate import Refusal


class FakeDiscord(LimitsMixin, FaultsMixin, GatewayMixin, InteractionsMixin, MediaMixin,
                  ThreadsMixin, RestMixin):
    """Loopback fake Discord: see the package docstring. The mixins hold the faults, the
    gateway, the interactions and the REST routes; this class holds the world and its life."""

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
        limits: LimitConfig | None = None,
        recommended_shards: int = 1,
        validation: bool | None = None,
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
        self.recommended_shards = recommended_shards  # GET /gateway/bot's "shards"
        # Refuse what Discord refuses (validate.py); every refusal is kept here and in
        # validate.REFUSALS, which fails the test that caused it (tests/conftest.py).
        # None: on, unless FAKE_DISCORD_VALIDATION=0 (to measure what the checks cost).
        if validation is None:
            validation = os.environ.get("FAKE_DISCORD_VALIDATION", "1") != "0"
        self.validation = validation
        self.refusals: list[Refusal] = []
        self._rng = random.Random(self.faults.seed)
        self._snowflake = _Snowflakes(lambda: self._clock_offset)
        self._clock_offset = 0.0

        self.application_id = self._snowflake()
        self.bot_user = FakeUser(self.application_id, bot_name, bot=True)
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}

        # REST state
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self.command_syncs: list[tuple[int | None, list[dict[str, Any]]]] = []
        self.commands_synced = asyncio.Event()
        self.messages: dict[int, StoredMessage] = {}
        self.dm_channels: dict[int, int] = {}  # user id -> direct-message channel id
        self.direct_messages: list[tuple[int, str]] = []  # (user id, text) the bot sent
        # user id -> ids of the messages whose creation notified them (see _deliver_mentions)
        self.notifications: collections.defaultdict[int, list[int]] = collections.defaultdict(list)
        # ids of deleted channel messages that had mentioned someone (a "ghost ping" each)
        self.mention_deletions: list[int] = []
        # (channel, nonce) -> (message id, when): Discord's enforce_nonce window
        self._nonces: dict[tuple[int, str], tuple[int, float]] = {}
        self.interactions: dict[int, InteractionHandle] = {}
        self._by_token: dict[str, InteractionHandle] = {}
        self._expired_tokens: dict[str, None] = {}  # forgotten after expiry (bounded, oldest out)
        self._handle_order: collections.deque[InteractionHandle] = collections.deque()
        self.latencies: list[float] = []
        self.errors: list[str] = []
        self.unknown_routes: list[str] = []
        # requests made through api_base_for(label) bases: who called what, about which guild
        self.client_requests: list[ClientRequest] = []
        self.route_counts: collections.Counter[str] = collections.Counter()
        # (route key, User-Agent) -> requests: Discord asks every bot for `DiscordBot (url, v)`
        self.user_agents: collections.Counter[tuple[str, str]] = collections.Counter()
        self.status_counts: collections.Counter[int] = collections.Counter()
        self.injected_429 = 0
        self.injected_500 = 0
        self._forced: dict[str, list[int]] = {}
        self._init_limits(limits)
        # Called with each message right after it is created or edited (load harnesses watch
        # boards this way instead of polling).
        self.message_listeners: list[Callable[[StoredMessage], None]] = []
        # Uploaded files by attachment id, and the application's emoji (id -> object, image).
        self.attachment_bytes: dict[int, bytes] = {}
        # Uploads counted as they arrive: every file, the distinct contents per message summed,
        # and the re-sends of a file the message already showed (see StoredMessage.uploads).
        self.uploads_total = 0
        self.reuploads_total = 0
        self.distinct_uploads_total = 0
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
        self.shard_identifies: list[tuple[int, int]] = []  # (id, count) of each sharded IDENTIFY
        self.invalid_shards: list[Any] = []  # refused IDENTIFY shards (closed with 4010)

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
        self._build_thread_routes()

    # ------------------------------------------------------------------ lifecycle / properties

    @property
    def api_base(self) -> str:
        self._require_started()
        return f"http://{self.host}:{self.port}/api/v{API_VERSION}"

    def api_base_for(self, client: str) -> str:
        """The REST base URL for one client (e.g. one bot process): requests through it are
        served as through `api_base` and recorded in `client_requests` under that label."""
        if not re.fullmatch(r"[A-Za-z0-9_.-]+", client):
            raise ValueError(f"a client label is letters, digits, '_', '.' or '-': {client!r}")
        self._require_started()
        return f"http://{self.host}:{self.port}/client/{client}/api/v{API_VERSION}"

    def shard_connected(self, shard_id: int, shard_count: int) -> bool:
        """Whether a live, connected gateway session runs this shard."""
        return any(s.shard == (shard_id, shard_count) and s.conn is not None and not s.invalid
                   for s in self._sessions.values())

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
        """Shift the clock used for the 3 s callback deadline, the token lifetime and the time
        carried by new ids (snowflakes)."""
        self._clock_offset += seconds

    # ------------------------------------------------------------------ world building

    def add_guild(
        self,
        name: str,
        *,
        owner: FakeUser | None = None,
        channel_names: Iterable[str] = ("general",),
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A new guild; ``shard=(id, count)`` picks its id so that it lands on that shard
        (Discord's ``(guild_id >> 22) % count``)."""
        gid = self._snowflake()
        if shard is not None:
            shard_id, count = shard
            if not 0 <= shard_id < count:
                raise ValueError(f"shard {shard_id} is outside 0..{count - 1}")
            step = (shard_id - (gid >> 22)) % count
            gid += step << 22
            self._snowflake.skip_past(gid)
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
            "channels": [c.payload() for c in guild.channels.values() if not c.is_thread],
            "threads": [c.payload() for c in guild.channels.values()
                        if c.is_thread and not c.archived],
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
