"""Prometheus metrics and a health check, served on ``METRICS_HOST:METRICS_PORT`` (off by default).

Each bot process has its own registry (prometheus-client's ``CollectorRegistry``, not the
library's global one) and, when ``METRICS_PORT`` is set, a small aiohttp server on the bot's own
event loop with two pages:

* ``/metrics``: the Prometheus text format;
* ``/healthz`` (also ``/health``): 200 ``ok`` when the bot is connected to Discord and the store
  answers a query within two seconds, else 503 naming what is wrong.

What is measured, and where (the hooks are all here; the bot wires them with a few lines):

* ``tienlen_open_tables`` and ``tienlen_shard_latency_seconds{shard}`` are read when scraped
  (the table service's open tables; discord.py's heartbeat latency of every shard);
* ``tienlen_games_finished_total``: games this process settled (the store's ``settle_game``
  returning a first settlement), ``tienlen_store_seconds{operation}``: every public store call,
  timed by wrapping the store's coroutine methods once, when the bot is built;
* ``tienlen_interaction_latency_seconds``: from an interaction's creation (its snowflake's time,
  the clock Discord's 3-second deadline runs on) until Discord accepted the bot's first answer;
* ``tienlen_rest_requests_total{status}`` and ``tienlen_rest_rate_limited_total{scope}``: every
  REST answer discord.py receives, seen by the same aiohttp trace that feeds the REST budget;
  ``tienlen_rest_budget_*``: the budget's own figures (requests granted, waiting, pauses).
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import logging
import math
import re
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from aiohttp import web
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

if TYPE_CHECKING:
    from bot.app import TienLenBot
    from data import Store

log = logging.getLogger(__name__)

CALLBACK_ROUTE = re.compile(r"/interactions/(\d+)/[^/]+/callback$")
HEALTH_TIMEOUT = 2.0
STORE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
INTERACTION_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0)
NOT_TIMED = frozenset({"open", "close"})
_WRAPPED = "_tienlen_metrics_wrapped"


def status_class(status: int) -> str:
    """``2xx``, ``4xx``, …; a 429 keeps its own number (it is what operators watch)."""
    return "429" if status == 429 else f"{status // 100}xx"


class _Figures:
    """Values read at scrape time from the live bot."""

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot

    def collect(self) -> Iterable[Metric]:
        bot = self.bot
        tables = GaugeMetricFamily("tienlen_open_tables", "Open tables this process owns")
        tables.add_metric([], sum(1 for t in bot.table_service.tables.values()
                                  if t.table.status == "open"))
        yield tables
        shards = GaugeMetricFamily(
            "tienlen_shard_latency_seconds",
            "Gateway heartbeat latency of each shard this process runs", labels=["shard"])
        for shard, seconds in shard_latencies(bot):
            shards.add_metric([str(shard)], seconds)
        yield shards
        hands = bot.hands
        live = GaugeMetricFamily("tienlen_live_hands",
                                 "Hand messages this process keeps following (a usable token)")
        live.add_metric([], sum(1 for table in hands.hands.values() for hand in table.values()
                                if hand.interaction is not None))
        yield live
        restored = CounterMetricFamily("tienlen_live_hands_restored",
                                       "Hands redrawn at start-up from the store")
        restored.add_metric([], hands.restored_count)
        yield restored
        budget = bot.rest_budget
        granted = CounterMetricFamily("tienlen_rest_budget_granted",
                                      "Requests the REST budget let through")
        granted.add_metric([], budget.granted)
        yield granted
        pauses = CounterMetricFamily("tienlen_rest_budget_pauses",
                                     "Pauses of the REST budget after a 429")
        pauses.add_metric([], budget.pauses)
        yield pauses
        waiting = GaugeMetricFamily("tienlen_rest_budget_waiting",
                                    "Requests waiting for a slot of the REST budget")
        waiting.add_metric([], budget.waiting)
        yield waiting


def shard_latencies(bot: discord.Client) -> list[tuple[int, float]]:
    """(shard id, seconds) of every connected shard: discord.py's ``latencies`` for a sharded
    bot, else its one ``latency`` (shard 0 unless it runs a given shard). Shards that have not
    measured a heartbeat yet (NaN or infinite) are left out."""
    latencies = getattr(bot, "latencies", None)
    if latencies is None:
        shard = bot.shard_id if bot.shard_id is not None else 0
        latencies = [(shard, bot.latency)]
    return [(int(s), float(v)) for s, v in latencies if math.isfinite(v)]


def connected(bot: discord.Client) -> bool:
    """Ready, not closed, and every gateway connection (each shard's, or the one) open."""
    if bot.is_closed() or not bot.is_ready():
        return False
    shards = getattr(bot, "shards", None)
    if isinstance(shards, dict):
        return bool(shards) and not any(info.is_closed() for info in shards.values())
    ws = bot.ws
    return ws is not None and bool(ws.open)


class Metrics:
    """The metrics of one bot process (see the module docstring)."""

    def __init__(self, bot: TienLenBot, trace: aiohttp.TraceConfig | None) -> None:
        self.bot = bot
        self.registry = CollectorRegistry()
        r = self.registry
        self.games_finished = Counter("tienlen_games_finished", "Games settled by this process",
                                      registry=r)
        self.interaction_latency = Histogram(
            "tienlen_interaction_latency_seconds",
            "From an interaction's creation until Discord accepted the bot's first answer",
            buckets=INTERACTION_BUCKETS, registry=r)
        self.rest_requests = Counter("tienlen_rest_requests", "REST answers received from "
                                     "Discord, by status", ["status"], registry=r)
        self.rate_limited = Counter("tienlen_rest_rate_limited", "429 answers from Discord, "
                                    "by X-RateLimit-Scope", ["scope"], registry=r)
        self.store_seconds = Histogram("tienlen_store_seconds", "Duration of store calls",
                                       ["operation"], buckets=STORE_BUCKETS, registry=r)
        self.up = Gauge("tienlen_healthy", "1 when the last health check passed", registry=r)
        r.register(_Figures(bot))
        if trace is not None:
            trace.on_request_end.append(self._on_request_end)
        self._runner: web.AppRunner | None = None
        self.port: int | None = None  # the port actually bound (METRICS_PORT, or a free one)

    # ------------------------------------------------------------------ hooks
    async def _on_request_end(self, session: aiohttp.ClientSession, context: Any,
                              params: aiohttp.TraceRequestEndParams) -> None:
        response = params.response
        if response.status == 101:
            return  # the gateway's websocket upgrade, not a REST request
        self.rest_requests.labels(status_class(response.status)).inc()
        if response.status == 429:
            scope = response.headers.get("X-RateLimit-Scope", "unknown")
            self.rate_limited.labels(scope if scope in ("user", "global", "shared")
                                     else "unknown").inc()
        match = CALLBACK_ROUTE.search(params.url.path)
        if match is not None and response.status < 300:
            created = discord.utils.snowflake_time(int(match.group(1))).timestamp()
            self.interaction_latency.observe(max(0.0, time.time() - created))

    def instrument(self, store: Store) -> None:
        """Time every public coroutine method of ``store`` (once per store object), and count a
        game as finished when the store settles it for the first time."""
        if getattr(store, _WRAPPED, False):
            return
        for name, _ in inspect.getmembers(type(store), inspect.iscoroutinefunction):
            if name.startswith("_") or name in NOT_TIMED:
                continue
            setattr(store, name, self._timed(name, getattr(store, name)))
        setattr(store, _WRAPPED, True)

    def _timed(self, name: str,
               call: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        histogram = self.store_seconds.labels(name)
        settles = name == "settle_game"

        @functools.wraps(call)
        async def timed(*args: Any, **kwargs: Any) -> Any:
            start = time.perf_counter()
            try:
                result = await call(*args, **kwargs)
            finally:
                histogram.observe(time.perf_counter() - start)
            if settles and getattr(result, "first_call", False):
                self.games_finished.inc()
            return result

        return timed

    # ------------------------------------------------------------------ health
    async def health(self) -> tuple[bool, str]:
        """(healthy, why): connected to Discord and the store answers."""
        bot = self.bot
        problems = []
        if not connected(bot):
            problems.append("not connected to Discord")
        try:
            await asyncio.wait_for(bot.store.schema_version(), HEALTH_TIMEOUT)
        except Exception as error:  # the reason, never the URL (it may hold a password)
            problems.append(f"store not answering ({type(error).__name__})")
        self.up.set(0 if problems else 1)
        return not problems, "; ".join(problems) or "ok"

    async def _health_page(self, request: web.Request) -> web.Response:
        healthy, why = await self.health()
        return web.Response(status=200 if healthy else 503, text=why + "\n")

    async def _metrics_page(self, request: web.Request) -> web.Response:
        body = generate_latest(self.registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})

    # ------------------------------------------------------------------ server
    async def start(self, host: str, port: int) -> None:
        """Serve /metrics and /healthz on host:port (port 0 takes a free one: see ``port``)."""
        app = web.Application()
        app.router.add_get("/metrics", self._metrics_page)
        app.router.add_get("/healthz", self._health_page)
        app.router.add_get("/health", self._health_page)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        try:
            await site.start()
        except OSError:
            await runner.cleanup()
            raise
        self._runner = runner
        sockets = [s for s in runner.addresses if isinstance(s, tuple)]
        self.port = int(sockets[0][1]) if sockets else port
        log.info("metrics and health check on http://%s:%d/metrics and /healthz", host,
                 self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
