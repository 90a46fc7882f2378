"""Two bot processes as shards 0 and 1 of 2 (`python -m bot`, subprocesses, the real discord.py
sharded client) against the loopback fake Discord and one PostgreSQL store.

A person plays a game against three computer players in each of two servers, one server on each
shard, at the same time. Each process acts only on its own server: every REST request it makes
(through its own labelled base URL), every interaction it gets and every table line it logs is
about its own server. Shard 1's process is SIGKILLed mid-game and started again: it resumes its
table and the game finishes. Then `python -m data.check` finds the store sound and the global
leaderboard lists the players of both servers. Skipped only where PostgreSQL is not installed.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from data import Store
from tests.data.pg_server import NOT_INSTALLED, TempPostgres, find_bindir
from tests.support.fake_discord import FakeDiscord, FakeGuild, FakeUser, StoredMessage
from tests.support.wire import REPO_ROOT, bot_env, play_turn, refusal, until_board

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL"),
              pytest.mark.slow]


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    bindir = find_bindir()
    if bindir is None:
        pytest.skip(NOT_INSTALLED)
    server = TempPostgres(bindir)
    try:
        server.start()
        yield server.create_database("shards")
    finally:
        server.stop()


class BotProcess:
    """One `python -m bot` running some shards; its REST calls carry its label at the fake."""

    def __init__(self, fake: FakeDiscord, env: dict[str, str], shard: int, label: str,
                 logs: Path) -> None:
        self.env = {**env, "SHARD_COUNT": "2", "SHARD_IDS": str(shard),
                    "DISCORD_API_BASE_URL": fake.api_base_for(label)}
        self.label = label
        self.log_path = logs / f"{label}.log"
        self.proc: asyncio.subprocess.Process | None = None

    async def start(self) -> None:
        with open(self.log_path, "wb") as log:
            self.proc = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", cwd=self.log_path.parent, env=self.env,
                stdout=log, stderr=log)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    async def until_logged(self, pattern: str, timeout: float = 60) -> None:  # noqa: ASYNC109
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.log()):
            assert self.proc is not None and self.proc.returncode is None, self.log()
            assert time.monotonic() < deadline, f"{self.label} never logged {pattern}\n{self.log()}"
            await asyncio.sleep(0.05)

    async def stop(self, sig: int = signal.SIGTERM) -> int:
        assert self.proc is not None
        if self.proc.returncode is None:
            self.proc.send_signal(sig)
        return await asyncio.wait_for(self.proc.wait(), 20)


async def _table_with_computers(fake: FakeDiscord, me: FakeUser, channel: int) -> int:
    opened = await (await fake.slash(me, "tienlen", "start", channel=channel)).response(5)
    found = re.search(r"Table #(\d+)", str((opened.callback_data or {}).get("content")))
    assert found is not None, opened.callback_data
    table = int(found.group(1))
    board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
    for seats in (2, 3, 4):
        await asyncio.sleep(0.3)  # longer than the board interval: nothing pending
        chooser = await (await fake.click(me, board, f"tl:b:{table}:addai")).response(5)
        assert chooser.original is not None, chooser.callback_data
        added = await (await fake.click(me, chooser.original, f"tl:ai:{table}:normal")).response(5)
        assert added.callback_type == 7, added.callback_data
        board, _ = await until_board(
            fake, channel, lambda v, n=seats: v.phase == "lobby" and v.seats == n)
    started = await (await fake.click(me, board, f"tl:b:{table}:start")).response(5)
    assert refusal(started) is None, started.callback_data
    return table


async def _play_to_the_end(fake: FakeDiscord, me: FakeUser, channel: int, table: int,
                           midway: Callable[[], Awaitable[None]] | None = None) -> None:
    """Play my turns until the board says Game over; `midway` runs after my first turn (or
    at once, should the game end before I had one: an instant win deal is dealt again)."""
    deadline = time.monotonic() + 180  # generous: the suite runs it on a loaded machine
    turns = 0
    while True:
        board, view = await until_board(
            fake, channel, lambda v: v.phase == "over" or v.turn_user == me.id, timeout=60)
        if view.phase == "over" and midway is not None:  # won at once: deal again
            again = await (await fake.click(me, board, f"tl:b:{table}:again")).response(5)
            assert refusal(again) is None, again.callback_data
            await until_board(fake, channel, lambda v: v.phase != "over")
            continue
        if view.phase == "over":
            return
        await play_turn(fake, me, board, view, table)
        turns += 1
        assert time.monotonic() < deadline, "the game did not end within 180 s"
        if midway is not None:
            await midway()
            midway = None
            continue
        await fake.wait_until(  # my move shows on the board before I look again
            lambda b=board, e=board.edit_count: fake_board_moved(fake, channel, b, e), 10)


def fake_board_moved(fake: FakeDiscord, channel: int, board: object, edits: int) -> bool:
    boards = [m for m in fake.channel_messages(channel) if m.custom_ids()]
    return bool(boards) and (boards[-1] is not board or boards[-1].edit_count > edits)


async def test_two_shard_processes_share_one_postgresql(tmp_path: Path, database: str) -> None:
    token = f"shards.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token}, recommended_shards=2)
    await fake.start()
    servers: dict[int, FakeGuild] = {}
    people: dict[int, FakeUser] = {}
    for shard, name in ((0, "alice"), (1, "bob")):
        servers[shard] = fake.add_guild(f"server {shard}", shard=(shard, 2),
                                        channel_names=("tienlen",))
        people[shard] = fake.add_user(name, guild=servers[shard])
    channels = {shard: next(iter(g.channels)) for shard, g in servers.items()}
    env = bot_env(None, tmp_path / "unused.sqlite3", token, DATABASE_URL=database,
                  DATABASE_POOL_SIZE="4", DISCORD_GATEWAY_URL=fake.gateway_url)
    for name in ("DEV_GUILD_ID", "DATABASE_PATH", "REST_PROCESSES"):
        env.pop(name, None)
    bots = {0: BotProcess(fake, env, 0, "p0", tmp_path),
            1: BotProcess(fake, env, 1, "p1", tmp_path)}
    again = BotProcess(fake, env, 1, "p1-again", tmp_path)
    try:
        await asyncio.gather(*(b.start() for b in bots.values()))
        for shard, b in bots.items():
            await b.until_logged(rf"shard={shard} bot.app: shard {shard} of 2 ready")
        await fake.wait_until(lambda: bool(fake.commands.get(None)), 10)
        assert sorted(fake.shard_identifies) == [(0, 2), (1, 2)]
        tables = dict(zip((0, 1), await asyncio.gather(
            *(_table_with_computers(fake, people[s], channels[s]) for s in (0, 1))), strict=True))

        def bobs_hand() -> StoredMessage:
            """bob's newest hand message (the one the bot keeps live)."""
            mine = [m for m in fake.messages.values()
                    if m.channel_id == channels[1] and m.ephemeral_user_id == people[1].id
                    and not m.deleted and any(c.startswith("tl:h:") for c in m.custom_ids())]
            return max(mine, key=lambda m: m.id)

        async def kill_and_restart() -> None:
            await asyncio.sleep(0.5)  # the hand's store write runs after the press's answer
            hand = bobs_hand()
            drawn = hand.custom_ids()
            assert await bots[1].stop(signal.SIGKILL) == -signal.SIGKILL
            await again.start()
            await again.until_logged(rf"shard=1 cogs.tables: table {tables[1]} resumed")
            await again.until_logged(r"shard=1 cogs.tienlen: resumed 1 live hands")
            # Without a press of bob's, the new process redraws his hand and it follows the
            # computers' moves until it is his turn again (or the game is over).
            await fake.wait_until(lambda: hand.custom_ids() != drawn and (
                "Your turn" in hand.text() or "Game over" in hand.text()), 30)
            assert "p1-again" in {r.client for r in fake.client_requests
                                  if r.route.startswith("webhook")}, fake.route_counts
            await again.until_logged(r"shard=1 bot.app: shard 1 of 2 ready")

        await asyncio.gather(
            _play_to_the_end(fake, people[0], channels[0], tables[0]),
            _play_to_the_end(fake, people[1], channels[1], tables[1], midway=kill_and_restart),
        )
        assert await bots[0].stop() == 0, bots[0].log()
        assert await again.stop() == 0, again.log()

        # Every process spoke only about its own server, to Discord and in its logs.
        for label, shard in (("p0", 0), ("p1", 1), ("p1-again", 1)):
            about = {r.guild_id for r in fake.client_requests
                     if r.client == label and r.guild_id is not None}
            assert about == {servers[shard].id}, (label, about)
        edits = {r.client for r in fake.client_requests if r.route == "channel_message_edit"}
        assert {"p0", "p1-again"} <= edits
        for handle in fake.interactions.values():
            shard = 0 if handle.guild_id == servers[0].id else 1
            assert handle.shard == (shard, 2)
        logs = {"p0": bots[0].log(), "p1": bots[1].log(), "p1-again": again.log()}
        for label, text in logs.items():
            mine, theirs = (0, 1) if label == "p0" else (1, 0)
            assert f"table {tables[mine]} " in text, text
            assert f"table {tables[theirs]} " not in text, text
            lines = [ln for ln in text.splitlines() if " cogs.tables: table " in ln]
            assert lines and all(f" shard={mine} " in ln for ln in lines), lines
            assert "Traceback" not in text and " ERROR " not in text, text
        assert "finished and settled" in logs["p0"] and "finished and settled" in logs["p1-again"]
        assert "REST budget 20.0 requests/s (40.0 shared by 2 processes)" in logs["p0"]

        check = subprocess.run([sys.executable, "-m", "data.check", database], cwd=REPO_ROOT,
                               capture_output=True, text=True, timeout=30, check=False)
        assert check.returncode == 0, check.stdout + check.stderr
        assert re.search(r"(\d+) games: \1 finished", check.stdout), check.stdout
        async with await Store.open(database) as store:
            board = await store.global_leaderboard("wins")
            records = {t: await store.get_table(tables[t]) for t in (0, 1)}
        assert {e.user_id for e in board.entries} == {people[0].id, people[1].id}
        assert all(records[s].guild_id == servers[s].id for s in (0, 1))
        assert not fake.unknown_routes, fake.unknown_routes
        assert fake.status_counts[401] == 0, fake.errors  # no edit through an expired token
        issued = {h.token for h in fake._handle_order} | set(fake._expired_tokens)
        shown = "\n".join([*logs.values(), check.stdout, check.stderr])
        assert not [t for t in issued if t in shown], "an interaction token was logged"
    except BaseException:
        for b in (*bots.values(), again):  # shown by pytest with the failure
            if b.log_path.exists():
                print(f"--- {b.label} (last lines)\n{b.log()[-4000:]}")
        raise
    finally:
        for b in (*bots.values(), again):
            if b.proc is not None and b.proc.returncode is None:
                b.proc.kill()
                await b.proc.wait()
        await fake.stop()
