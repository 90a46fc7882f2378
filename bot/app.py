"""The Bot subclass: owns the settings, the store and the table service (built here with the
Discord board publisher); loads cogs in setup_hook."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import Executor
from typing import Any

import discord
import yarl
from discord.ext import commands

from bot.card_emoji import CardEmoji, ensure_card_emoji
from bot.settings import Settings
from cogs import guard
from cogs.pictures import Pictures
from cogs.tables import TableService
from cogs.tienlen._pictures import ImageSetting, hand_files
from cogs.tienlen.board import BoardPublisher
from cogs.tienlen.hands import LiveHands
from data import Store

log = logging.getLogger(__name__)

EXTENSIONS = ("cogs.tienlen", "cogs.economy")


def point_at(api_base_url: str, gateway_url: str) -> None:
    """Point discord.py (process-wide) at a Discord-compatible REST API and gateway."""
    discord.http.Route.BASE = api_base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def loop_lag_monitor(every: float, tick: float = 0.05) -> None:
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


class TienLenBot(commands.Bot):
    """The bot. Resources (settings, store) are opened before it and handed in."""

    def __init__(
        self,
        settings: Settings,
        store: Store,
        *,
        sync_commands: bool = True,
        ai_delay: float = 1.0,
        board_interval: float = 1.0,
        executor: Executor | None = None,
        seed: int | None = None,
        **options: Any,
    ) -> None:
        intents = discord.Intents.default()
        options.setdefault("guild_ready_timeout", 2.0)
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=guard.GuardedTree,
            **options,
        )
        self.settings = settings
        self.store = store
        self.sync_commands = sync_commands
        self.executor = executor
        self.hands = LiveHands()
        self.table_service = TableService(
            store,
            BoardPublisher(self),
            default_turn_seconds=settings.DEFAULT_TURN_SECONDS,
            default_turn_reminder=settings.DEFAULT_TURN_REMINDER,
            ai_delay=ai_delay,
            board_interval=board_interval,
            executor=executor,
            seed=seed,
        )
        self._lag_task: asyncio.Task[None] | None = None
        self.dynamic_items: list[type[discord.ui.DynamicItem[Any]]] = []
        self.pictures = Pictures()
        self.image_setting = ImageSetting(self)
        self.card_emoji = CardEmoji()
        self.card_emoji_task: asyncio.Task[None] | None = None
        self.hands.emoji = lambda card: self.card_emoji.for_card(card)
        self.hands.picture = lambda live, seat, mask: hand_files(self, live, seat, mask)

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
        self.card_emoji = await ensure_card_emoji(self, self.pictures)

    async def setup_hook(self) -> None:
        if self.settings.CARD_PICTURES:
            self.pictures.start_warm_up()  # card sprites, in the drawing thread
        if self.settings.CARD_PICTURES and self.application_id is not None:
            self.card_emoji_task = asyncio.create_task(self._prepare_pictures(),
                                                       name="card-pictures")
        if self.settings.LOOP_LAG_LOG > 0:
            self._lag_task = asyncio.create_task(
                loop_lag_monitor(self.settings.LOOP_LAG_LOG), name="loop-lag"
            )
        for name in EXTENSIONS:
            await self.load_extension(name)
        if not self.sync_commands:
            return
        if self.settings.DEV_GUILD_ID is not None:
            guild = discord.Object(id=self.settings.DEV_GUILD_ID)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d application commands to guild %s", len(synced), guild.id)
        else:
            synced = await self.tree.sync()
            log.info("synced %d application commands globally", len(synced))

    async def close(self) -> None:
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
        await self.table_service.shutdown()
        await super().close()
        self.pictures.close()

    async def on_ready(self) -> None:
        user = self.user
        log.info("connected as %s (id %s) in %d guilds", user, user and user.id, len(self.guilds))
