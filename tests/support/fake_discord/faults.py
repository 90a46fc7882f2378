"""Injected faults: 429s and 500s on chosen routes from a seeded RNG, gateway disconnects."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses

from aiohttp import web

from tests.support.fake_discord.models import (
    JSON_HEADERS,
    _dumps,
)


@dataclasses.dataclass
class FaultConfig:
    """Injected faults; all off by default. ``routes`` names the route keys they apply to."""

    rate_limit_fraction: float = 0.0
    server_error_fraction: float = 0.0
    retry_after: float = 0.05
    seed: int = 0
    routes: frozenset[str] = frozenset({"channel_message_edit"})
    disconnect_every: float | None = None  # seconds between forced gateway disconnects



class FaultsMixin:
    """Fault injection of :class:`FakeDiscord`."""

    # ------------------------------------------------------------------ faults

    def fail_next(
        self, route: str = "channel_message_edit", status: int = 429, count: int = 1
    ) -> None:
        """Force the next ``count`` requests of ``route`` to fail with ``status`` (429 or 5xx)."""
        self._forced.setdefault(route, []).extend([status] * count)

    def lose_answer_next(self, route: str = "channel_message_create", status: int = 500,
                         count: int = 1) -> None:
        """Do the next ``count`` requests of ``route`` (the message is created, the edit made),
        then answer ``status`` as if the answer were lost on the way: the client cannot tell
        whether it happened, and retries (Discord's enforced nonce makes a retried post safe)."""
        lost: dict[str, list[int]] = self.__dict__.setdefault("_lost", {})
        lost.setdefault(route, []).extend([status] * count)

    def _lost_answer(self, route: str) -> web.Response | None:
        lost: dict[str, list[int]] = self.__dict__.get("_lost", {})
        if not lost.get(route):
            return None
        status = lost[route].pop(0)
        self.lost_answers = getattr(self, "lost_answers", 0) + 1
        body = {"message": "500: Internal Server Error", "code": 0}
        return web.Response(status=status, body=_dumps(body).encode(), headers=JSON_HEADERS)

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
