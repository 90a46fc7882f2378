"""SimCord fixtures: the real bot (real discord.py, real SQLite file) in a virtual Discord."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import simcord

from bot.app import TienLenBot
from bot.settings import Settings
from cogs.tables import RestBudget
from data import Store

SEED = 20261130  # real randomness, injected: every test deals the same way on every run


SETTLE_POLL = 0.002
"""Seconds SimCord waits between looks while it settles the bot's work after an interaction."""


@pytest.fixture(scope="session", autouse=True)
def _settle_promptly() -> Iterator[None]:
    """SimCord settles the bot's work after every interaction by polling what is still running
    every 50 ms (`idle`, which only its public `settle()` takes). After each move the bot replaces
    its turn-clock and reminder tasks, and the old tasks' done callbacks make that poll sleep its
    full 50 ms each time: a third of a SimCord game's wall time, with nothing to do. Poll every
    2 ms instead; what is settled, and the deadline, stay SimCord's own."""
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, *, idle: float = 0.05, **options: Any) -> None:
        _drop_dead_timers(asyncio.get_running_loop())
        await original(self, idle=min(idle, SETTLE_POLL), **options)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(simcord.Env, "_settle_internal", settle)
        yield


def _drop_dead_timers(loop: asyncio.AbstractEventLoop) -> None:
    """SimCord backs each of the bot's timers with a real loop timer (`run_real`) that does
    nothing once the bot's own timer is cancelled, but stays in the loop's heap until its real
    time comes. The bot cancels a turn clock, a reminder and a hand's token timer (minutes
    ahead) at nearly every move, and SimCord scans that heap several times per interaction:
    a game's heap grew to ~350 dead timers, a tenth of its CPU. Cancel the real timer of every
    cancelled bot timer, which changes nothing (`run_real` checks the same thing first) and
    lets the loop drop them."""
    for handle in list(getattr(loop, "_scheduled", ())):
        callback: Any = getattr(handle, "_callback", None)
        if handle.cancelled() or getattr(callback, "__name__", "") != "run_real":
            continue
        cells = dict(zip(callback.__code__.co_freevars, callback.__closure__ or (), strict=True))
        record = cells["record"].cell_contents if "record" in cells else None
        virtual = getattr(record, "handle", None)
        if virtual is not None and virtual.cancelled():
            handle.cancel()


def make_settings(**overrides: Any) -> Settings:
    # Pictures drawn in the event loop's thread: SimCord runs on virtual time, and a drawing
    # process would answer on real time (tests/test_wire_pictures.py covers the pool).
    overrides.setdefault("PICTURE_WORKERS", 0)
    return Settings(DISCORD_TOKEN="simcord", **overrides)  # type: ignore[call-arg]


@dataclass
class World:
    env: simcord.Env
    bot: TienLenBot
    store: Store
    guild: Any
    channel: Any
    path: Path

    async def restart(self) -> None:
        """Stop this bot and start a fresh one on the same database file (a process restart)."""
        await self.bot.table_service.shutdown()
        await self.store.close()
        self.store = await Store.open(self.path)
        self.bot = TienLenBot(make_settings(), self.store, ai_delay=0.0, board_interval=0.0,
                              seed=SEED, rest_budget=unpaced())
        await self.env.restart_bot(self.bot)


@pytest_asyncio.fixture
async def simcord_bot(tmp_path: Path) -> TienLenBot:
    """The bot SimCord's `simcord_env` runs: a fresh SQLite file per test, no pauses."""
    store = await Store.open(tmp_path / "bot.sqlite3")
    return TienLenBot(make_settings(), store, ai_delay=0.0, board_interval=0.0,
                      seed=SEED, rest_budget=unpaced())


def unpaced() -> RestBudget:
    """SimCord has no rate limits and plays on without pauses: a budget that never waits (the
    pacing itself is tested in tests/cogs/test_budget.py and over the wire)."""
    return RestBudget(1_000_000, channel_limit=1_000_000)


@pytest_asyncio.fixture
async def world(simcord_env: simcord.Env, simcord_bot: TienLenBot,
                tmp_path: Path) -> AsyncIterator[World]:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("cards")
    w = World(simcord_env, simcord_bot, simcord_bot.store, guild, channel,
              tmp_path / "bot.sqlite3")
    yield w
    await w.bot.table_service.shutdown()
    await w.store.close()
