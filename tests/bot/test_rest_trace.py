"""`bot.app.rest_trace` on a real aiohttp session against a local server: a request the global
limit counts waits for its moment on the wire; interaction answers and the interaction token's
webhook never wait; a 429 pauses the budget for the time it names."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from aiohttp import web

from bot.app import rest_trace
from cogs.tables import RestBudget


@pytest.fixture
async def server() -> AsyncIterator[tuple[str, dict[str, list[float]]]]:
    arrivals: dict[str, list[float]] = {"channel": [], "interaction": [], "webhook": []}

    def handler(kind: str, status: int = 200) -> web.RequestHandler:  # type: ignore[type-arg]
        async def handle(request: web.Request) -> web.Response:
            arrivals[kind].append(time.monotonic())
            headers = {"Retry-After": "0.5", "X-RateLimit-Scope": "global"} if status == 429 else {}
            return web.json_response({}, status=status, headers=headers)
        return handle

    app = web.Application()
    app.router.add_post("/api/v10/channels/1/messages", handler("channel"))
    app.router.add_post("/api/v10/channels/2/messages", handler("limited", 429))
    app.router.add_post("/api/v10/interactions/1/tok/callback", handler("interaction"))
    app.router.add_patch("/api/v10/webhooks/9/tok/messages/@original", handler("webhook"))
    arrivals["limited"] = []
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    base = discord.http.Route.BASE
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    try:
        yield discord.http.Route.BASE, arrivals
    finally:
        discord.http.Route.BASE = base
        await runner.cleanup()


async def test_counted_requests_wait_for_the_wire_and_exempt_ones_do_not(
    server: tuple[str, dict[str, list[float]]],
) -> None:
    base, arrivals = server
    budget = RestBudget(5)
    async with aiohttp.ClientSession(trace_configs=[rest_trace(budget)]) as session:
        async def post(path: str) -> None:
            async with session.post(base + path) as response:
                assert response.status == 200

        async def patch(path: str) -> None:
            async with session.patch(base + path) as response:
                assert response.status == 200

        start = time.monotonic()
        await asyncio.gather(
            *(post("/channels/1/messages") for _ in range(8)),
            *(post("/interactions/1/tok/callback") for _ in range(8)),
            *(patch("/webhooks/9/tok/messages/@original") for _ in range(8)),
        )
    # Counted as they left (where they arrive, a busy machine may stamp them late, bunched).
    assert budget.left_peak == 5
    assert budget.held_leaving == 3
    channel = sorted(arrivals["channel"])
    assert channel[5] - start >= 1.0  # the 6th left a second after the 1st, which left after start
    assert len(arrivals["interaction"]) == len(arrivals["webhook"]) == 8
    assert max(arrivals["interaction"] + arrivals["webhook"]) < channel[5]  # never held


async def test_a_429_pauses_the_whole_budget(server: tuple[str, dict[str, list[float]]]) -> None:
    base, _ = server
    budget = RestBudget(100)
    async with (aiohttp.ClientSession(trace_configs=[rest_trace(budget)]) as session,
                session.post(base + "/channels/2/messages") as response):
        assert response.status == 429
    start = time.monotonic()
    await budget.acquire(3)
    assert time.monotonic() - start >= 0.4  # Retry-After 0.5 s, for every channel
    assert budget.pauses == 1
