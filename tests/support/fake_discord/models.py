"""The fake's world: constants, guilds, channels, users, roles, stored messages, and small
JSON helpers shared by the other modules."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

import orjson
from aiohttp import web

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
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
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
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_ROLE_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS | MANAGE_MESSAGES

# --- channel types
GUILD_TEXT = 0
GUILD_ANNOUNCEMENT = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
AUTO_ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)  # minutes: the only values Discord accepts

# --- gateway intents used to filter events -------------------------------------------------
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12

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


ARRIVED = web.RequestKey("fake_arrived", float)
"""When a request reached the fake (``time.perf_counter()``), before any of the fake's work."""


def _dumps(obj: Any) -> str:
    """Compact JSON (orjson: the load harness sends thousands of bodies a minute)."""
    try:
        return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # a type orjson does not write (e.g. an integer too large): as json does
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def _iso(ts: float | None = None) -> str:
    moment = _dt.datetime.fromtimestamp(time.time() if ts is None else ts, tz=_dt.UTC)
    return moment.isoformat()


class _Snowflakes:
    """Monotonic, unique, time-based snowflakes. ``ahead``: how far the fake's clock was moved
    forward (an id made after `FakeDiscord.advance` carries the moved time, as Discord's would)."""

    def __init__(self, ahead: Callable[[], float] = lambda: 0.0) -> None:
        self._last = 0
        self._ahead = ahead

    def __call__(self) -> int:
        value = (int((time.time() + self._ahead()) * 1000) - DISCORD_EPOCH_MS) << 22
        value = max(value, self._last + 1)
        self._last = value
        return value

    def skip_past(self, value: int) -> None:
        """Never hand out `value` or anything below it (an id chosen by hand)."""
        self._last = max(self._last, value)





@dataclasses.dataclass(frozen=True)
class ClientRequest:
    """A REST request made through a labelled base URL (FakeDiscord.api_base_for): which client
    (a bot process) called which route, about which guild (None: no guild, e.g. /users/@me)."""

    client: str
    method: str
    route: str
    guild_id: int | None


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
    bot_denied: int = 0  # permission bits taken from the bot here (FakeDiscord.deny)
    # a thread (type 10, 11 or 12): its channel, who started it, its metadata
    parent_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: str = ""
    message_count: int = 0

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self) -> dict[str, Any]:
        if self.is_thread:
            return {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild_id),
                "name": self.name,
                "parent_id": str(self.parent_id),
                "owner_id": str(self.owner_id),
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "flags": 0,
                "message_count": self.message_count,
                "member_count": 1,
                "total_message_sent": self.message_count,
                "thread_metadata": {
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.archive_timestamp,
                    "locked": self.locked,
                    **({"invitable": True} if self.type == PRIVATE_THREAD else {}),
                },
            }
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
    uploads: int = 0
    """Files uploaded to this message (when it was created and by its edits)."""
    reuploads: int = 0
    """Uploads whose bytes equal a file the message was already showing (a picture sent twice)."""
    upload_digests: set[str] = dataclasses.field(default_factory=set)
    """The distinct contents uploaded to this message."""
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



_Handler = Callable[[web.Request, dict[str, str]], Awaitable[web.StreamResponse]]


class _HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str,
                 errors: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors  # Discord's `errors` tree of a 50035 answer



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
