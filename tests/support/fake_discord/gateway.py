"""The gateway websocket: HELLO, heartbeats, IDENTIFY, RESUME, member requests, dispatch."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import secrets
import time
from typing import Any

from aiohttp import WSMsgType, web

from tests.support.fake_discord.models import (
    API_VERSION,
    _dumps,
    log,
)


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
        self.events: collections.Counter[str] = collections.Counter()  # dispatched, by name
        self.conn: _Connection | None = None
        self.disconnected_at: float | None = None
        self.invalid = False
        self.identified_at = time.monotonic()
        #: (shard id, shard count) from IDENTIFY; None: an unsharded session gets every guild
        self.shard: tuple[int, int] | None = None

    def carries(self, guild_id: int | None) -> bool:
        """Whether this session receives the events of the guild (Discord's sharding)."""
        if guild_id is None or self.shard is None:
            return True
        shard_id, count = self.shard
        return (guild_id >> 22) % count == shard_id

    def dispatch(self, event: str, data: Any) -> int:
        self.seq += 1
        self.events[event] += 1
        text = _dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.log.append((self.seq, text))
        if self.conn is not None:
            self.conn.send(text)
        return self.seq



class GatewayMixin:
    """The gateway side of :class:`FakeDiscord`."""

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
        shard = data.get("shard")
        if shard is not None and not _valid_shard(shard):
            self.invalid_shards.append(shard)
            await conn.ws.close(code=4010, message=b"Invalid shard.")
            return
        self.identify_count += 1
        self.last_identify = {k: v for k, v in data.items() if k != "token"}
        self._expire_sessions()
        session = _Session(
            secrets.token_hex(16), token, int(data.get("intents") or 0), self.max_replay
        )
        if shard is not None:
            session.shard = (int(shard[0]), int(shard[1]))
            self.shard_identifies.append(session.shard)
        self._sessions[session.session_id] = session
        conn.session = session
        session.conn = conn
        guilds = [g for g in self.guilds.values() if session.carries(g.id)]
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
            if g is None or not session.carries(g.id):
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

    def gateway_sessions(self) -> list[_Session]:
        """The sessions identified and not yet expired (their intents and events, for tests)."""
        self._expire_sessions()
        return list(self._sessions.values())

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
        """Send a DISPATCH event to every live session (buffered for resume when disconnected)
        that carries its guild: an event with a ``guild_id`` goes only to the sessions of that
        guild's shard (and to unsharded ones).

        ``intent``: only sessions that identified with that intent bit. Returns how many
        sessions it was queued for."""
        self._expire_sessions()
        guild_id = _guild_of(data)
        n = 0
        for s in self._sessions.values():
            if intent is not None and not (s.intents & intent):
                continue
            if not s.carries(guild_id):
                continue
            s.dispatch(event, data)
            n += 1
        return n

    def _interaction_session(self, guild_id: int | None = None) -> _Session:
        """The session an interaction in ``guild_id`` goes to: the newest one of its shard."""
        self._expire_sessions()
        live = [s for s in self._sessions.values() if not s.invalid and s.carries(guild_id)]
        if not live:
            raise RuntimeError(f"no gateway session for guild {guild_id}: is the bot (the "
                               "process running its shard) connected?")
        connected = [s for s in live if s.conn is not None]
        pool = connected or live
        return max(pool, key=lambda s: s.identified_at)


def _valid_shard(shard: Any) -> bool:
    """IDENTIFY's ``shard``: ``[id, count]`` with 0 <= id < count (else Discord closes 4010)."""
    if not isinstance(shard, list | tuple) or len(shard) != 2:
        return False
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in shard):
        return False
    return 0 <= shard[0] < shard[1]


def _guild_of(data: Any) -> int | None:
    """The guild an event is about (its ``guild_id``), or None for a guild-less event."""
    if isinstance(data, dict) and data.get("guild_id") is not None:
        return int(data["guild_id"])
    return None
