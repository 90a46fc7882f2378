"""The Bot subclass: owns the settings, the store and the table service (built here with the
Discord board publisher); loads cogs in setup_hook."""

from __future__ import annotations

import asyncio
import contextlib
import email.utils
import gc
import hashlib
import json
import logging
import re
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

import aiohttp
import discord
import yarl
from discord.ext import commands

from bot import one_write
from bot.card_emoji import CardEmoji, ensure_card_emoji
from bot.command_sync import BotTree, user_agent_trace
from bot.guild_copies import warn_if_guild_copies
from bot.metrics import Metrics
from bot.settings import Settings, StartupError
from cogs import guard
from cogs.pictures import Pictures
from cogs.tables import RestBudget, TableService
from cogs.tienlen._pictures import HandPictures, ImageSetting, PictureMemory
from cogs.tienlen.board import BoardPublisher
from cogs.tienlen.hands import LiveHands
from cogs.translator import CatalogueTranslator
from data import Store
from engine.ai import planner

log = logging.getLogger(__name__)

# cogs.ranked, cogs.admin and cogs.history after cogs.tienlen: their commands join /tienlen
EXTENSIONS = ("cogs.tienlen", "cogs.ranked", "cogs.economy", "cogs.admin", "cogs.reactions",
              "cogs.history", "cogs.help", "cogs.prefs")
CHANNEL_ROUTE = re.compile(r"/channels/(\d+)/")
# Routes outside the global limit: interaction answers and the interaction token's webhook.
EXEMPT_ROUTE = re.compile(r"/interactions/\d+/[^/]+/callback|/webhooks/\d+/[^/]+")


def counted(url: yarl.URL) -> bool:
    """A request Discord's global limit counts: one to the API that is not an interaction
    answer or a call through an interaction's token."""
    return str(url).startswith(discord.http.Route.BASE) and EXEMPT_ROUTE.search(url.path) is None


# The cyclic collector's thresholds in the bot's process. A full collection walks every object
# the tables hold (games, hands, tasks, views): 50-120 ms at 200 busy tables on this project's
# 2-core machine, and under Python's default (700, 10, 10) one came every 4 s and was the only
# pause of the event loop over 40 ms there (46 of 47, asyncio's slow-callback log): the answers
# waiting on the store then queued behind it, the p99. A full collection now waits for 100
# middle ones instead of 10 (about one a minute there); the young ones stay small (a larger
# first threshold made each young collection a 10-25 ms pause instead).
GC_THRESHOLDS = (700, 10, 100)

PLANNER_MEMO = 100_000
"""Hands the `hard` planner remembers in the bot's process (hints and `hard` computer turns; the
expert searches in processes of its own, which keep the engine's default of 400,000). Its memos
grow with every new hand seen, for as long as the bot runs: 29,000 hands after a 200-table run,
and full at the default they held about 170 MB more (measured: +31 MB at 100,000). A memo over
the limit starts again, which only costs the next plans their first computation."""


def rest_trace(budget: RestBudget,
               saw_time: Callable[[float], None] | None = None) -> aiohttp.TraceConfig:
    """Watch every REST request discord.py makes: one the global limit counts waits for its
    moment on the wire (:meth:`RestBudget.leaving`); a 429 pauses the whole budget for the time
    it names; a channel bucket announced empty holds that channel until it resets."""

    async def on_start(session: aiohttp.ClientSession, context: Any,
                       params: aiohttp.TraceRequestStartParams) -> None:
        if counted(params.url):
            await budget.leaving()

    async def on_headers(session: aiohttp.ClientSession, context: Any,
                         params: aiohttp.TraceRequestHeadersSentParams) -> None:
        if counted(params.url):
            budget.sent()

    async def on_end(session: aiohttp.ClientSession, context: Any,
                     params: aiohttp.TraceRequestEndParams) -> None:
        response = params.response
        headers = response.headers
        if saw_time is not None and "Date" in headers:  # Discord's clock, for the hands' tokens
            with contextlib.suppress(TypeError, ValueError):
                saw_time(email.utils.parsedate_to_datetime(headers["Date"]).timestamp())
        if response.status == 429:
            try:
                retry = float(headers.get("Retry-After") or 1.0)
            except ValueError:
                retry = 1.0
            log.warning("Discord answered 429 (%s scope): pausing the REST budget for %.2f s",
                        headers.get("X-RateLimit-Scope", "?"), retry)
            budget.pause(retry)
        match = CHANNEL_ROUTE.search(params.url.path)
        if match is not None and headers.get("X-RateLimit-Remaining") == "0":
            try:
                after = float(headers.get("X-RateLimit-Reset-After") or 0.0)
            except ValueError:
                after = 0.0
            budget.hold_channel(int(match.group(1)), after)

    trace = aiohttp.TraceConfig()
    trace.on_request_start.append(on_start)
    trace.on_request_headers_sent.append(on_headers)
    trace.on_request_end.append(on_end)
    return trace


def command_meta_key(guild_id: int | None) -> str:
    return "commands_hash:global" if guild_id is None else f"commands_hash:guild:{guild_id}"


def point_at(api_base_url: str, gateway_url: str) -> None:
    """Point discord.py (process-wide) at a Discord-compatible REST API and gateway."""
    discord.http.Route.BASE = api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def loop_lag_monitor(every: float, tick: float = 0.05,
                           extra: Callable[[], str] | None = None) -> None:
    """Log how late the event loop woke a sleeping task: the worst lag every `every` seconds.

    One line per period: ``loop lag: max 3.1 ms, mean 0.4 ms over 5.0 s (98 samples)``."""
    while True:
        worst = total = 0.0
        samples = 0
        start = time.perf_counter()
        while (now := time.perf_counter()) - start < every:
            await asyncio.sleep(tick)
            lag = max(0.0, time.perf_counter() - now - tick)
            worst = max(worst, lag)
            total += lag
            samples += 1
        log.info(
            "loop lag: max %.1f ms, mean %.1f ms over %.1f s (%d samples)",
            worst * 1000,
            total / max(samples, 1) * 1000,
            time.perf_counter() - start,
            samples,
        )
        if extra is not None:
            log.info("%s", extra())


class TienLenBot(commands.Bot):
    """The bot. Resources (settings, store) are opened before it and handed in."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        sync_commands: bool = True,
        force_sync: bool = False,
        ai_delay: float = 1.0,
        board_interval: float = 1.0,
        executor: Executor | None = None,
        seed: int | None = None,
        rest_budget: RestBudget | None = None,
        **options: Any,
    ) -> None:
        # No message events: the bot answers interactions and edits its own messages, and
        # listens to no message. With them Discord sends every message and edit in its
        # channels (the bot's own board edits included), and discord.py parses each and keeps
        # the last thousand in a cache the cyclic collector walks.
        intents = discord.Intents.default()
        intents.guild_messages = intents.dm_messages = False
        intents.guild_typing = intents.dm_typing = False
        options.setdefault("max_messages", None)
        options.setdefault("guild_ready_timeout", 2.0)
        self.rest_budget = rest_budget or RestBudget(settings.rest_budget_per_process)
        self.hands = LiveHands()
        self.hands.store = store  # live hands are kept with their tables across restarts
        options.setdefault("http_trace", rest_trace(self.rest_budget, self.hands.saw_time))
        user_agent_trace(options["http_trace"])  # interaction answers too say DiscordBot (…)
        one_write.install()  # an upload (a picture) goes out in one write, not nine
        self.metrics = Metrics(self, options["http_trace"])  # served if METRICS_PORT is set
        self.metrics.instrument(store)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=BotTree,
            **options,
        )
        self.settings = settings
        self.store = store
        self.sync_commands = sync_commands
        self.force_sync = force_sync
        self.synced_now = False  # whether this start sent the commands to Discord
        self.executor = executor
        self.table_service = TableService(
            store,
            BoardPublisher(self),
            default_turn_seconds=settings.DEFAULT_TURN_SECONDS,
            default_turn_reminder=settings.turn_reminder_default,
            ai_delay=ai_delay,
            expert_budget_ms=settings.EXPERT_BUDGET_MS,
            board_interval=board_interval,
            executor=executor,
            seed=seed,
            rest=self.rest_budget,
            shards=settings.shards,
            idle_seconds=settings.TABLE_IDLE_SECONDS,
            ready_seconds=settings.READY_CHECK_SECONDS,
        )
        self._lag_task: asyncio.Task[None] | None = None
        self._frozen = False  # gc.freeze() done at the first ready
        self.dynamic_items: list[type[discord.ui.DynamicItem[Any]]] = []
        workers = settings.picture_workers if settings.CARD_PICTURES else 0
        self.pictures = Pictures(workers=workers, delay=settings.PICTURE_TEST_DELAY)
        self.picture_memory = PictureMemory()  # the picture each board and hand shows
        self.image_setting = ImageSetting(self)
        self.card_emoji = CardEmoji()
        self.card_emoji_task: asyncio.Task[None] | None = None
        self.hands.emoji = lambda card: self.card_emoji.for_card(card)
        self.hands.picture = HandPictures(self)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().add_dynamic_items(*items)
        self.dynamic_items.extend(items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        super().remove_dynamic_items(*items)
        self.dynamic_items = [i for i in self.dynamic_items if i not in items]

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A press no button of the bot claims (a forged or outdated custom id) is answered."""
        await guard.answer_unclaimed(interaction, self.dynamic_items)

    async def _prepare_pictures(self) -> None:
        """Make sure the application has its card emoji. In the background: the bot serves with
        text buttons meanwhile."""
        self.card_emoji = await ensure_card_emoji(self, self.pictures, self.rest_budget)

    async def setup_hook(self) -> None:
        # What exists now (modules, settings, the store) lives as long as the process: collect
        # once and move it out of the cyclic collector's sight here, before the gateway connects
        # (no interaction can wait on it yet) and before the loop-lag monitor starts. A full
        # collection walks every object (50-150 ms); done at the first ready, as before, it
        # stalled the tables that were already opening then.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        planner.limit_memo(PLANNER_MEMO)
        if self.settings.CARD_PICTURES:
            self.pictures.start_warm_up()  # the drawing processes (or thread) warm up
        if self.settings.CARD_PICTURES and self.application_id is not None:
            self.card_emoji_task = asyncio.create_task(self._prepare_pictures(),
                                                       name="card-pictures")
        if self.settings.LOOP_LAG_LOG > 0:
            self._lag_task = asyncio.create_task(
                loop_lag_monitor(self.settings.LOOP_LAG_LOG, extra=self._all_figures),
                name="loop-lag"
            )
        await self.tree.set_translator(CatalogueTranslator())  # Vietnamese command descriptions
        for name in EXTENSIONS:
            await self.load_extension(name)
        if self.settings.METRICS_PORT:
            host, port = self.settings.METRICS_HOST, self.settings.METRICS_PORT
            try:
                await self.metrics.start(host, port)
            except OSError as error:
                raise StartupError(f"METRICS_PORT={port}: cannot listen on {host}:{port} "
                                   f"({error.strerror or type(error).__name__})") from None
        if not self.sync_commands:
            return
        guild_id = self.settings.DEV_GUILD_ID
        if guild_id is None:
            await warn_if_guild_copies(self.store)
        try:
            await self.sync_if_changed(guild_id)
        except discord.Forbidden:
            if guild_id is None:
                raise StartupError(
                    "Discord refused to register the bot's global commands: invite the bot with "
                    "the applications.commands scope") from None
            raise StartupError(
                f"DEV_GUILD_ID={guild_id}: the bot is not in that server or may not create "
                "commands there; invite it with the applications.commands scope (or unset "
                "DEV_GUILD_ID)") from None
        except discord.NotFound:
            raise StartupError(
                f"DEV_GUILD_ID={guild_id}: Discord knows no such server") from None

    async def command_payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
        """What `tree.sync(guild=…)` sends (translated, tidied: bot/command_sync.py)."""
        tree = self.tree
        assert isinstance(tree, BotTree)
        return await tree.payload(guild)

    async def sync_if_changed(self, guild_id: int | None) -> bool:
        """Sync the application commands to the dev guild (or globally) only when their payload
        differs from the one synced last (a hash kept in the store), or when forced."""
        guild = None if guild_id is None else discord.Object(id=guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self.command_payload(guild)
        digest = hashlib.sha256(
            json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()
        key = command_meta_key(guild_id)
        where = "globally" if guild_id is None else f"to guild {guild_id}"
        if not self.force_sync and await self.store.get_meta(key) == digest:
            log.info("application commands unchanged since the last sync %s: not synced "
                     "(python -m bot --sync forces it)", where)
            return False
        synced = await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        self.synced_now = True
        log.info("synced %d application commands %s", len(synced), where)
        return True

    def _figures(self) -> str:
        budget = self.rest_budget
        return (f"{self.table_service.staleness.line()}; REST budget: {budget.granted} "
                f"requests, {budget.waiting} waiting, {budget.pauses} pauses after 429, "
                f"peak {budget.left_peak} sent in 1 s ({budget.held_leaving} held to keep it; "
                f"{budget.sent_peak} by the time their headers were written)")

    def _all_figures(self) -> str:
        if self.settings.CARD_PICTURES:  # a line of its own
            log.info("%s; %d uploaded, %d kept", self.pictures.figures(),
                     self.picture_memory.uploads, self.picture_memory.kept)
        return self._figures()

    async def close(self) -> None:
        await self.metrics.stop()
        if self._lag_task is not None:
            self._lag_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._lag_task
            self._lag_task = None
        if self.card_emoji_task is not None:
            self.card_emoji_task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.card_emoji_task
            self.card_emoji_task = None
        for table_id in list(self.hands.hands):  # no hand refresh races the shutdown
            self.hands.drop_table(table_id)
        await self.hands.settle()  # the hands' last store writes, before the store closes
        await self.table_service.shutdown()
        await super().close()
        self.pictures.close()

    async def on_ready(self) -> None:
        if not self._frozen:
            # The servers cached at the first ready live as long as the process too: freeze them
            # as well, so full collections only walk what games create (shorter pauses of the
            # event loop). Only a freeze here, no collection: the harness and real servers open
            # tables as soon as the gateway is up, and a freeze is a constant-time list splice
            # while a collection would walk everything (setup_hook did that before connecting).
            self._frozen = True
            gc.freeze()
        user = self.user
        log.info("connected as %s (id %s) in %d guilds", user, user and user.id, len(self.guilds))


class ShardedTienLenBot(TienLenBot, commands.AutoShardedBot):
    """The bot running some shards of a sharded bot (settings SHARD_COUNT and SHARD_IDS): one
    gateway connection per shard; the table service owns only the tables of their servers."""

    async def on_shard_ready(self, shard_id: int) -> None:
        guilds = sum(1 for g in self.guilds if g.shard_id == shard_id)
        log.info("shard %d of %s ready with %d guilds", shard_id, self.shard_count, guilds)
