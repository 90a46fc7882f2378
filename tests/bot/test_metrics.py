"""The metrics module in process: the store timed at one place, games counted once, the health
check's 503s (not connected; store gone), the settings, and a port already taken."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from bot.app import TienLenBot
from bot.metrics import Metrics, shard_latencies, status_class
from bot.settings import Settings, SettingsError, StartupError, load_settings
from data import ChipTransfer, Seat, SeatResult, Store


def settings(**overrides: object) -> Settings:
    return Settings(DISCORD_TOKEN="unused", **overrides)  # type: ignore[arg-type]


@pytest_asyncio.fixture
async def bot(tmp_path: Path) -> AsyncIterator[TienLenBot]:
    store = await Store.open(tmp_path / "m.sqlite3")
    made = TienLenBot(settings(), store, sync_commands=False)
    try:
        yield made
    finally:
        await made.close()
        await store.close()


def sample(metrics: Metrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


async def get(port: int | None, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(
            f"http://127.0.0.1:{port}{path}") as r:
        return r.status, await r.text()


async def test_store_calls_are_timed_and_a_game_counts_once(bot: TienLenBot) -> None:
    metrics, store = bot.metrics, bot.store
    await store.ensure_player(1, 5)
    await store.get_chips(1, 5)
    await store.get_chips(1, 5)
    assert sample(metrics, "tienlen_store_seconds_count", operation="get_chips") == 2
    assert sample(metrics, "tienlen_store_seconds_count", operation="ensure_player") == 1
    assert sample(metrics, "tienlen_store_seconds_sum", operation="get_chips") > 0
    seats = [Seat("a", user_id=5), Seat("b", user_id=6)]
    game = await store.start_game(1, 10, 5, "{}", 0, seats, "{}")
    results = [SeatResult(0, 1), SeatResult(1, 2)]
    await store.settle_game(game.id, [ChipTransfer(1, 0, 3, "place")], results)
    await store.settle_game(game.id, [ChipTransfer(1, 0, 3, "place")], results)  # a no-op
    assert sample(metrics, "tienlen_games_finished_total") == 1
    assert sample(metrics, "tienlen_store_seconds_count", operation="settle_game") == 2
    metrics.instrument(store)  # a second bot on the same store does not time it twice
    await store.get_chips(1, 5)
    assert sample(metrics, "tienlen_store_seconds_count", operation="get_chips") == 3


async def test_a_failing_store_call_is_timed_and_still_raises(bot: TienLenBot) -> None:
    with pytest.raises(Exception, match="Unknown leaderboard"):
        await bot.store.leaderboard(1, "luck")
    assert sample(bot.metrics, "tienlen_store_seconds_count", operation="leaderboard") == 1


async def test_health_is_503_until_connected_and_when_the_store_is_gone(
        bot: TienLenBot) -> None:
    await bot.metrics.start("127.0.0.1", 0)
    port = bot.metrics.port
    assert port
    status, text = await get(port, "/healthz")
    assert (status, text.strip()) == (503, "not connected to Discord")
    status, text = await get(port, "/metrics")
    assert status == 200
    assert "tienlen_open_tables 0.0" in text
    assert "tienlen_healthy 0.0" in text
    assert "# TYPE tienlen_interaction_latency_seconds histogram" in text
    assert "tienlen_shard_latency_seconds{" not in text  # no shard connected yet
    await bot.store.close()
    status, text = await get(port, "/health")
    assert status == 503
    assert "store not answering" in text
    assert "sqlite" not in text.lower()  # the reason, not where the store is
    assert (await get(port, "/nothing"))[0] == 404


def test_status_classes_and_latency_of_an_unconnected_bot(bot: TienLenBot) -> None:
    assert [status_class(s) for s in (200, 204, 404, 429, 502)] == [
        "2xx", "2xx", "4xx", "429", "5xx"]
    assert shard_latencies(bot) == []  # discord.py's latency is NaN before the first heartbeat


async def test_a_taken_port_is_a_startup_error_naming_the_setting(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        store = await Store.open(tmp_path / "p.sqlite3")
        made = TienLenBot(settings(METRICS_PORT=port), store, sync_commands=False)
        try:
            with pytest.raises(StartupError, match=f"METRICS_PORT={port}: cannot listen"):
                await made.setup_hook()
        finally:
            await made.close()
            await store.close()


def test_metrics_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    for name in ("METRICS_PORT", "METRICS_HOST"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    s = load_settings()
    assert (s.METRICS_PORT, s.METRICS_HOST) == (None, "127.0.0.1")  # off by default
    monkeypatch.setenv("METRICS_PORT", "")
    assert load_settings().METRICS_PORT is None
    monkeypatch.setenv("METRICS_PORT", "0")
    assert load_settings().METRICS_PORT == 0  # 0 is off too
    monkeypatch.setenv("METRICS_PORT", "9464")
    monkeypatch.setenv("METRICS_HOST", "0.0.0.0")
    s = load_settings()
    assert (s.METRICS_PORT, s.METRICS_HOST) == (9464, "0.0.0.0")
    monkeypatch.setenv("METRICS_PORT", "70000")
    with pytest.raises(SettingsError, match="METRICS_PORT"):
        load_settings()
