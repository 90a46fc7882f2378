"""Threads, as Discord's API describes them (openapi: `POST /channels/{id}/threads`,
`POST /channels/{id}/messages/{id}/threads`, `PATCH /channels/{id}`):

* a thread is a channel of type 10 (announcement), 11 (public) or 12 (private) with a
  ``parent_id``, an ``owner_id`` and ``thread_metadata`` (archived, auto_archive_duration,
  archive_timestamp, locked); it is listed with its guild's channels here and sent to the bot as
  THREAD_CREATE / THREAD_UPDATE;
* starting one: ``name`` 1–100 characters, ``auto_archive_duration`` one of 60, 1440, 4320,
  10080 (else 400, 50035); without a message ``type`` defaults to 12 (private), as in API v10;
  a public thread needs Create Public Threads (a private one Create Private Threads) in a text or
  announcement channel (else 403, 50013); a thread cannot be started in a thread (400, 50024);
  a message has at most one thread (400, 160004), whose id is the message's;
* `PATCH` of a thread: its owner (the bot, for its own) or Manage Threads may rename, archive,
  unarchive, lock it; other channels need Manage Channels;
* a message posted in an archived (unlocked) thread unarchives it; editing a message of an
  archived thread is refused (400, 50083), as is posting in a locked one (403, 50013);
* the bot's permissions in a thread are those it has in the parent channel.
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from tests.support.fake_discord.models import (
    AUTO_ARCHIVE_DURATIONS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    GUILD_ANNOUNCEMENT,
    GUILD_TEXT,
    MANAGE_CHANNELS,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    THREAD_TYPES,
    FakeChannel,
    _HTTPError,
    _iso,
    _json,
)

INVALID_FORM = 50035
WRONG_CHANNEL_TYPE = 50024
THREAD_ARCHIVED = 50083
THREAD_EXISTS = 160004
MISSING_PERMISSIONS = 50013
NAME_MAX = 100


def _invalid(field: str, why: str) -> _HTTPError:
    return _HTTPError(400, INVALID_FORM, f"Invalid Form Body ({field}: {why})")


class ThreadsMixin:
    """The thread routes of :class:`FakeDiscord` (registered by `_build_thread_routes`)."""

    def _build_thread_routes(self) -> None:
        r = self._route  # type: ignore[attr-defined]
        r("POST", r"/channels/(?P<cid>\d+)/threads", "thread_create", self._h_thread_create)
        r("POST", r"/channels/(?P<cid>\d+)/messages/(?P<mid>\d+)/threads",
          "thread_create_from_message", self._h_thread_from_message)
        r("PATCH", r"/channels/(?P<cid>\d+)", "channel_edit", self._h_channel_edit)

    # ------------------------------------------------------------------ helpers

    def threads_of(self, channel: FakeChannel | str | int) -> list[FakeChannel]:
        """The threads started in a channel, oldest first."""
        parent = self.channel(channel)  # type: ignore[attr-defined]
        guild = self.guilds[parent.guild_id]  # type: ignore[attr-defined]
        return [c for c in guild.channels.values() if c.parent_id == parent.id]

    def _thread_fields(self, body: dict[str, Any]) -> tuple[str, int]:
        name = body.get("name")
        if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
            raise _invalid("name", f"must be 1 to {NAME_MAX} characters")
        duration = body.get("auto_archive_duration", 1440)
        if duration is None:
            duration = 1440
        if duration not in AUTO_ARCHIVE_DURATIONS:
            raise _invalid("auto_archive_duration", "must be 60, 1440, 4320 or 10080")
        return name, int(duration)

    def _require(self, channel: FakeChannel, bits: int) -> None:
        if not self.bot_permissions_in(channel) & bits:  # type: ignore[attr-defined]
            raise _HTTPError(403, MISSING_PERMISSIONS, "Missing Permissions")

    def _new_thread(self, parent: FakeChannel, tid: int, name: str, kind: int,
                    duration: int) -> FakeChannel:
        if parent.type not in (GUILD_TEXT, GUILD_ANNOUNCEMENT):
            raise _HTTPError(400, WRONG_CHANNEL_TYPE,
                             "Cannot execute action on this channel type")
        self._require(parent, CREATE_PRIVATE_THREADS if kind == PRIVATE_THREAD
                      else CREATE_PUBLIC_THREADS)
        guild = self.guilds[parent.guild_id]  # type: ignore[attr-defined]
        thread = FakeChannel(tid, parent.guild_id, name, type=kind, parent_id=parent.id,
                             owner_id=self.bot_user.id,  # type: ignore[attr-defined]
                             auto_archive_duration=duration, archive_timestamp=_iso())
        guild.channels[tid] = thread
        event = thread.payload() | {"newly_created": True}
        self.dispatch("THREAD_CREATE", event)  # type: ignore[attr-defined]
        return thread

    # ------------------------------------------------------------------ routes

    async def _h_thread_create(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)  # type: ignore[attr-defined]
        parent = self._channel_or_404(p["cid"])  # type: ignore[attr-defined]
        body, _ = await self._body(request)  # type: ignore[attr-defined]
        name, duration = self._thread_fields(body)
        kind = body.get("type", PRIVATE_THREAD)  # API v10's default for a thread with no message
        if kind not in THREAD_TYPES:
            raise _invalid("type", "must be 10, 11 or 12")
        if parent.type == GUILD_TEXT and kind == 10:
            raise _invalid("type", "an announcement thread needs an announcement channel")
        thread = self._new_thread(parent, self._snowflake(), name, int(kind),  # type: ignore[attr-defined]
                                  duration)
        return _json(thread.payload(), status=201)

    async def _h_thread_from_message(self, request: web.Request,
                                     p: dict[str, str]) -> web.Response:
        self._check_auth(request)  # type: ignore[attr-defined]
        message = self._channel_message(p)  # type: ignore[attr-defined]
        parent = self._channel_or_404(p["cid"])  # type: ignore[attr-defined]
        body, _ = await self._body(request)  # type: ignore[attr-defined]
        name, duration = self._thread_fields(body)
        guild = self.guilds[parent.guild_id]  # type: ignore[attr-defined]
        if message.id in guild.channels:
            raise _HTTPError(400, THREAD_EXISTS, "A thread has already been created for this "
                             "message")
        kind = 10 if parent.type == GUILD_ANNOUNCEMENT else PUBLIC_THREAD
        thread = self._new_thread(parent, message.id, name, kind, duration)
        message.data["thread"] = thread.payload()
        return _json(thread.payload(), status=201)

    async def _h_channel_edit(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)  # type: ignore[attr-defined]
        channel = self._channel_or_404(p["cid"])  # type: ignore[attr-defined]
        body, _ = await self._body(request)  # type: ignore[attr-defined]
        if not channel.is_thread:
            self._require(channel, MANAGE_CHANNELS)
            if "name" in body:
                name = body["name"]
                if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
                    raise _invalid("name", f"must be 1 to {NAME_MAX} characters")
                channel.name = name
            self.dispatch("CHANNEL_UPDATE", channel.payload())  # type: ignore[attr-defined]
            return _json(channel.payload())
        own = channel.owner_id == self.bot_user.id  # type: ignore[attr-defined]
        if not own or "locked" in body:
            self._require(channel, MANAGE_THREADS)
        if "name" in body:
            name = body["name"]
            if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
                raise _invalid("name", f"must be 1 to {NAME_MAX} characters")
            channel.name = name
        if "auto_archive_duration" in body:
            if body["auto_archive_duration"] not in AUTO_ARCHIVE_DURATIONS:
                raise _invalid("auto_archive_duration", "must be 60, 1440, 4320 or 10080")
            channel.auto_archive_duration = int(body["auto_archive_duration"])
        if "locked" in body:
            channel.locked = bool(body["locked"])
        if "archived" in body and bool(body["archived"]) != channel.archived:
            channel.archived = bool(body["archived"])
            channel.archive_timestamp = _iso()
        self.dispatch("THREAD_UPDATE", channel.payload())  # type: ignore[attr-defined]
        return _json(channel.payload())

    # ------------------------------------------------------------------ messages in threads

    def _thread_before_post(self, channel: FakeChannel) -> None:
        """A post in an archived thread unarchives it (not in a locked one)."""
        if not channel.is_thread:
            return
        if channel.locked and channel.archived:
            raise _HTTPError(403, MISSING_PERMISSIONS, "Missing Permissions")
        channel.message_count += 1
        if channel.archived:
            channel.archived = False
            channel.archive_timestamp = _iso()
            self.dispatch("THREAD_UPDATE", channel.payload())  # type: ignore[attr-defined]

    def _thread_before_edit(self, channel_id: int) -> None:
        channel = self.channel(channel_id)  # type: ignore[attr-defined]
        if channel.is_thread and channel.archived:
            raise _HTTPError(400, THREAD_ARCHIVED, "Thread is archived")
