"""Discord's documented limits, as a mode of the fake (``FakeDiscord(limits=LimitConfig())``).

* the global limit: ``global_per_second`` requests in any 1-s window per bot token, except the
  interaction routes (``/interactions/…/callback`` and ``/webhooks/{app}/{token}…``);
* per-route buckets (``route_limits``: route key -> (requests, seconds), one bucket per channel
  for channel routes), announced in ``X-RateLimit-Limit/Remaining/Reset/Reset-After/Bucket``
  headers on every answer of a limited route;
* 429 answers with Discord's body (``message``, ``retry_after``, ``global``), ``Retry-After``,
  ``X-RateLimit-Scope`` and ``Via`` (with ``Via`` discord.py waits and retries by itself);
* the invalid-request counter: 401, 403 and 429 answers; ``invalid_limit`` of them within
  ``invalid_window`` seconds blocks the bot (every later request: 403, ``blocked``);
* edits of messages older than an hour: ``old_edit_budget`` per channel, then 400 code 30046.

Channel permissions (``FakeDiscord.deny(channel, bits)``) are enforced whether or not the mode is
on: without View Channel a channel route answers 403 code 50001 (Missing Access), without Send
Messages a post answers 403 code 50013 (Missing Permissions).
"""

from __future__ import annotations

import collections
import dataclasses
import hashlib
import math
import time
from typing import Any

from aiohttp import web

from tests.support.fake_discord.models import (
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    FakeChannel,
    _dumps,
    _HTTPError,
)

MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
OLD_MESSAGE_EDITS = 30046
EXEMPT_ROUTES = frozenset(
    {
        "interaction_callback",
        "webhook_execute",
        "webhook_message_get",
        "webhook_message_edit",
        "webhook_message_delete",
    }
)
INVALID_STATUSES = frozenset({401, 403, 429})


def _default_route_limits() -> dict[str, tuple[int, float]]:
    return {
        "channel_message_edit": (5, 5.0),
        "channel_message_create": (5, 5.0),
        "channel_message_delete": (5, 1.0),
        "dm_create": (10, 1.0),
    }


@dataclasses.dataclass
class LimitConfig:
    """Discord's limits (the defaults are the documented or commonly observed values)."""

    global_per_second: int = 50
    route_limits: dict[str, tuple[int, float]] = dataclasses.field(
        default_factory=_default_route_limits
    )
    invalid_limit: int = 10_000
    invalid_window: float = 600.0
    blocked_for: float = 3600.0
    old_message_age: float = 3600.0
    old_edit_budget: int = 3  # edits of old messages per channel per `old_message_age`


@dataclasses.dataclass
class _Bucket:
    limit: int
    per: float
    reset_at: float = 0.0
    used: int = 0


class LimitsMixin:
    """Rate limits, the invalid-request counter and channel permissions of :class:`FakeDiscord`."""

    limits: LimitConfig | None
    _now: Any

    def _init_limits(self, limits: LimitConfig | None) -> None:
        self.limits = limits
        self._global_times: collections.deque[float] = collections.deque()
        self._buckets: dict[tuple[str, str], _Bucket] = {}
        self._invalid_times: collections.deque[float] = collections.deque()
        self._old_edits: dict[int, collections.deque[float]] = {}
        self.blocked_until: float | None = None
        self.invalid_requests = 0
        self.global_429 = 0
        self.route_429 = 0
        self.old_edit_refusals = 0
        self.peak_global_window = 0  # most non-exempt requests seen in any 1-s window
        self.limited_request_times: list[float] = []  # arrival of every non-exempt request

    # ------------------------------------------------------------------ permissions

    def deny(self, channel: FakeChannel | str | int, bits: int) -> None:
        """Take permission ``bits`` away from the bot in one channel (a channel overwrite)."""
        ch = self.channel(channel)  # type: ignore[attr-defined]
        ch.bot_denied |= bits

    def allow(self, channel: FakeChannel | str | int, bits: int) -> None:
        ch = self.channel(channel)  # type: ignore[attr-defined]
        ch.bot_denied &= ~bits

    def bot_permissions_in(self, channel: FakeChannel) -> int:
        guild = self.guilds[channel.guild_id]  # type: ignore[attr-defined]
        denied = channel.bot_denied
        if channel.parent_id is not None:  # a thread: the parent channel's permissions
            denied |= self.channel(channel.parent_id).bot_denied  # type: ignore[attr-defined]
        return int(guild.permissions_of(self.bot_user.id)) & ~denied  # type: ignore[attr-defined]

    def _check_channel_permissions(self, key: str, params: dict[str, str]) -> None:
        cid = params.get("cid")
        if cid is None:
            return
        try:
            ch = self.channel(int(cid))  # type: ignore[attr-defined]
        except LookupError:
            return  # the handler answers 404
        perms = self.bot_permissions_in(ch)
        if not perms & VIEW_CHANNEL:
            raise _HTTPError(403, MISSING_ACCESS, "Missing Access")
        if key == "channel_message_create":
            needed = SEND_MESSAGES_IN_THREADS if ch.type in (10, 11, 12) else SEND_MESSAGES
            if not perms & needed:
                raise _HTTPError(403, MISSING_PERMISSIONS, "Missing Permissions")

    # ------------------------------------------------------------------ rate limits

    def _blocked_response(self) -> web.Response | None:
        if self.blocked_until is None:
            return None
        if self._now() >= self.blocked_until:
            self.blocked_until = None
            return None
        body = {"message": "You are being blocked from accessing our API temporarily "
                "(too many invalid requests).", "code": 0}
        return web.Response(status=403, body=_dumps(body).encode(),
                            headers={"Content-Type": "application/json"})

    def _count_invalid(self, status: int) -> None:
        if status not in INVALID_STATUSES:
            return
        self.invalid_requests += 1
        cfg = self.limits
        if cfg is None:
            return
        now = self._now()
        times = self._invalid_times
        times.append(now)
        while times and times[0] <= now - cfg.invalid_window:
            times.popleft()
        if len(times) >= cfg.invalid_limit and self.blocked_until is None:
            self.blocked_until = now + cfg.blocked_for
            self.errors.append(  # type: ignore[attr-defined]
                f"invalid-request limit reached ({len(times)} in {cfg.invalid_window:.0f} s): "
                "blocked"
            )

    def _rate_limited(self, key: str, params: dict[str, str]) -> web.Response | None:
        """A 429 for this request, or None (and the request is counted against its limits)."""
        cfg = self.limits
        if cfg is None:
            return None
        now = self._now()
        bucket = self._bucket(key, params, now)
        if key not in EXEMPT_ROUTES:
            times = self._global_times
            while times and times[0] <= now - 1.0:
                times.popleft()
            if len(times) >= cfg.global_per_second:
                retry = max(0.001, times[0] + 1.0 - now)
                self.global_429 += 1
                return self._too_many(retry, scope="global", is_global=True)
            times.append(now)
            self.limited_request_times.append(time.perf_counter())
            self.peak_global_window = max(self.peak_global_window, len(times))
        if bucket is not None:
            if bucket.used >= bucket.limit:
                self.route_429 += 1
                return self._too_many(bucket.reset_at - now, scope="user", is_global=False,
                                      bucket=bucket, name=self._bucket_name(key, params))
            bucket.used += 1
        return None

    def _bucket(self, key: str, params: dict[str, str], now: float) -> _Bucket | None:
        assert self.limits is not None
        spec = self.limits.route_limits.get(key)
        if spec is None:
            return None
        major = params.get("cid") or params.get("token") or ""
        bucket = self._buckets.get((key, major))
        if bucket is None:
            bucket = self._buckets[(key, major)] = _Bucket(spec[0], spec[1])
        if now >= bucket.reset_at:
            bucket.used = 0
            bucket.reset_at = now + bucket.per
        return bucket

    @staticmethod
    def _bucket_name(key: str, params: dict[str, str]) -> str:
        return hashlib.sha1(f"{key}:{params.get('cid', '')}".encode()).hexdigest()[:16]

    def _bucket_headers(self, key: str, params: dict[str, str]) -> dict[str, str]:
        if self.limits is None:
            return {}
        bucket = self._buckets.get((key, params.get("cid") or params.get("token") or ""))
        if bucket is None:
            return {}
        after = max(0.0, bucket.reset_at - self._now())
        return {
            "X-RateLimit-Limit": str(bucket.limit),
            "X-RateLimit-Remaining": str(max(0, bucket.limit - bucket.used)),
            "X-RateLimit-Reset": f"{time.time() + after:.3f}",
            "X-RateLimit-Reset-After": f"{after:.3f}",
            "X-RateLimit-Bucket": self._bucket_name(key, params),
        }

    def _too_many(self, retry: float, *, scope: str, is_global: bool,
                  bucket: _Bucket | None = None, name: str = "") -> web.Response:
        retry = max(0.001, retry)
        body: dict[str, Any] = {
            "message": "You are being rate limited.",
            "retry_after": round(retry, 3),
            "global": is_global,
        }
        headers = {
            "Content-Type": "application/json",
            "Retry-After": str(math.ceil(retry)),
            "X-RateLimit-Scope": scope,
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        if bucket is not None:
            headers |= {
                "X-RateLimit-Limit": str(bucket.limit),
                "X-RateLimit-Remaining": "0",
                "X-RateLimit-Reset": f"{time.time() + retry:.3f}",
                "X-RateLimit-Reset-After": f"{retry:.3f}",
                "X-RateLimit-Bucket": name,
            }
        return web.Response(status=429, body=_dumps(body).encode(), headers=headers)

    # ------------------------------------------------------------------ old messages

    def _check_old_edit(self, created_at: float, channel_id: int) -> None:
        cfg = self.limits
        if cfg is None or self._now() - created_at < cfg.old_message_age:
            return
        now = self._now()
        used = self._old_edits.setdefault(channel_id, collections.deque())
        while used and used[0] <= now - cfg.old_message_age:
            used.popleft()
        if len(used) >= cfg.old_edit_budget:
            self.old_edit_refusals += 1
            raise _HTTPError(400, OLD_MESSAGE_EDITS,
                             "Maximum number of edits to messages older than 1 hour reached. "
                             "Try again later.")
        used.append(now)

    def peak_window(self, start: float | None = None, end: float | None = None) -> int:
        """Most non-exempt requests that arrived in any 1-s window (between start and end)."""
        times = [t for t in self.limited_request_times
                 if (start is None or t >= start) and (end is None or t <= end)]
        best = 0
        lo = 0
        for hi, t in enumerate(times):
            while times[lo] <= t - 1.0:
                lo += 1
            best = max(best, hi - lo + 1)
        return best
