"""Metrics and health over the wire: the real bot (`python -m bot`, a subprocess) with
METRICS_PORT set, against the loopback fake Discord. /metrics is scraped before and after a
whole game (one person and three computer players): the counters moved. /healthz answers 200
while the bot is connected, 503 while Discord has dropped it, and 200 again once it is back."""

from __future__ import annotations

import asyncio
import re
import secrets
import signal
import socket
import sys
import time
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.support.fake_discord import FakeDiscord
from tests.support.wire import (
    bot_env,
    connected,
    kill,
    newest_board,
    play_turn,
    refusal,
    start_bot,
    until_board,
)

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM"), pytest.mark.slow]

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(
            f"http://127.0.0.1:{port}{path}", timeout=aiohttp.ClientTimeout(total=10)) as r:
        return r.status, await r.text()


async def scrape(port: int) -> Samples:
    status, text = await get(port, "/metrics")
    assert status == 200, text
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def total(samples: Samples, name: str) -> float:
    return sum(v for (n, _), v in samples.items() if n == name)


async def test_metrics_move_during_a_game_and_health_follows_the_connection(
        tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    port = free_port()
    env = bot_env(fake, tmp_path / "wire.sqlite3", token, DATABASE_URL="", METRICS_PORT=str(port))
    log_path = tmp_path / "bot.log"
    proc = await start_bot(tmp_path, env)
    try:
        await connected(fake)
        deadline = time.monotonic() + 15
        while (health := await get(port, "/healthz"))[0] != 200:
            assert time.monotonic() < deadline, health
            await asyncio.sleep(0.2)
        assert health[1].strip() == "ok"
        assert (await get(port, "/health"))[0] == 200
        before = await scrape(port)
        assert value(before, "tienlen_games_finished_total") == 0
        assert value(before, "tienlen_open_tables") == 0
        assert value(before, "tienlen_healthy") == 1

        opened = await (await fake.slash(me, "tienlen", "start", channel=channel)).response(5)
        table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        assert value(await scrape(port), "tienlen_open_tables") == 1
        for seats in (2, 3, 4):
            await asyncio.sleep(0.3)
            chooser = await (await fake.click(me, board, f"tl:b:{table}:addai")).response(5)
            assert chooser.original is not None
            await (await fake.click(me, chooser.original, f"tl:ai:{table}:normal")).response(5)
            board, _ = await until_board(
                fake, channel, lambda v, n=seats: v.phase == "lobby" and v.seats == n)
        started = await (await fake.click(me, board, f"tl:b:{table}:start")).response(5)
        assert refusal(started) is None, started.callback_data
        deadline = time.monotonic() + 90
        while True:
            board, view = await until_board(
                fake, channel, lambda v: v.phase == "over" or v.turn_user == me.id, timeout=20)
            if view.phase == "over":
                break
            await play_turn(fake, me, board, view, table)
            assert time.monotonic() < deadline, "the game did not end within 90 s"
            try:  # the board moves on; if not (a busy CI, the board a moment behind), look again
                await fake.wait_until(
                    lambda b=board, e=board.edit_count: (
                        newest_board(fake, channel) is not b or b.edit_count > e),
                    10,
                )
            except TimeoutError:
                continue

        after = await scrape(port)
        assert value(after, "tienlen_games_finished_total") == 1
        assert value(after, "tienlen_open_tables") == 1  # the table stays open for another game
        answered = value(after, "tienlen_interaction_latency_seconds_count")
        assert answered >= 8  # start, three computers (two presses each), start, the turns
        assert answered <= len(fake.latencies)
        assert value(after, "tienlen_interaction_latency_seconds_bucket", le="3.0") == answered
        assert total(after, "tienlen_rest_requests_total") > total(
            before, "tienlen_rest_requests_total") + answered
        assert value(after, "tienlen_rest_requests_total", status="429") == 0
        assert value(after, "tienlen_rest_requests_total", status="1xx") == 0  # not the gateway
        assert value(after, "tienlen_rest_budget_granted_total") > value(
            before, "tienlen_rest_budget_granted_total")
        assert value(after, "tienlen_store_seconds_count", operation="settle_game") == 1
        saves = value(after, "tienlen_store_seconds_count", operation="save_game") - value(
            before, "tienlen_store_seconds_count", operation="save_game")
        # every move is saved; a deal won at once (the deals are not seeded) has no move
        assert saves > 0 or "wins at once" in board.text(), board.text()
        shards = {labels: v for (name, labels), v in after.items()
                  if name == "tienlen_shard_latency_seconds"}
        assert list(shards) == [(("shard", "0"),)]
        assert 0 <= next(iter(shards.values())) < 5

        # Discord drops the connection and forgets the session: the bot must IDENTIFY again,
        # which discord.py does 5 s later; until then it is not connected.
        fake.invalidate_sessions()
        assert await fake.disconnect() == 1
        deadline = time.monotonic() + 10
        while (health := await get(port, "/healthz"))[0] != 503:
            assert time.monotonic() < deadline, health
            await asyncio.sleep(0.05)
        assert "not connected to Discord" in health[1]
        assert "store" not in health[1]  # the store still answers
        assert value(await scrape(port), "tienlen_healthy") == 0
        deadline = time.monotonic() + 30
        while (health := await get(port, "/healthz"))[0] != 200:  # connected again
            assert time.monotonic() < deadline, health
            await asyncio.sleep(0.2)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 20) == 0
        output = log_path.read_text(errors="replace")
        assert token not in output
        assert f"metrics and health check on http://127.0.0.1:{port}/metrics" in output
        assert " ERROR " not in output and "Traceback" not in output, output
    finally:
        await kill(proc)
        await fake.stop()
