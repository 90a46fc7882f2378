"""Load, fault and soak benchmark: the real bot (`python -m bot`, a subprocess) against the loopback
fake Discord (tests/support/fake_discord.py) running in this process.

Each table is driven by scripted people who only use Discord: `/tienlen start`, the board's buttons,
`My hand`, card buttons, `Play` / `Pass`. They read the public board (whose turn, what to beat) and
their own ephemeral hand message (the card buttons' labels), pick the lowest card(s) that beat the
table, and never look inside the bot or its database (the database is only read after the run, by
`python -m data.check`).

    python -m benchmarks.load --tables 50 --minutes 5              # 1 human + 3 computers a table
    python -m benchmarks.load --tables 20 --minutes 5 --humans 4   # 4 humans, ~1 action/s each
    python -m benchmarks.load --tables 50 --minutes 5 --faults --kills 2
    python -m benchmarks.load --tables 50 --level expert --minutes 3
    python -m benchmarks.load --tables 50 --games 1000 --fast      # soak: 1,000 complete games

Prints interactions/s, callback latency p50/p95/p99/max (time from the fake's INTERACTION_CREATE to
the bot's callback), the bot's event-loop lag max (from its `LOOP_LAG_LOG` lines), board edits/s,
the bot's RSS per table, CPU seconds per game, errors, and the result of `python -m data.check`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import itertools
import json
import os
import random
import re
import secrets
import signal
import sqlite3
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

from engine import Card, Rules, can_beat, classify, parse_cards  # noqa: E402
from tests.support.fake_discord import (  # noqa: E402
    FakeDiscord,
    FakeUser,
    FaultConfig,
    InteractionHandle,
    StoredMessage,
)

BOARD_TITLE = "Tiến Lên — table #"
LOBBY_LEVELS = {"easy", "normal", "hard"}
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
PAGE_KB = (os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096) // 1024
RULES = Rules()


@dataclasses.dataclass
class LoadConfig:
    tables: int = 10
    seconds: float = 60.0  # tables keep starting new games for this long, then finish them
    humans: int = 1  # scripted humans a table (1: plus three computer players; 4: no computers)
    level: str = "normal"  # computer players' level
    faults: bool = False  # 429 on 5% / 500 on 1% of channel edits, a gateway disconnect a minute
    kills: int = 0  # SIGKILL the bot and restart it this many times during the run
    think: float = 1.0  # seconds a scripted human waits before each action (±50% jitter)
    ai_delay: float = 1.0  # the bot's AI_DELAY_SECONDS
    board_interval: float = 1.0  # the bot's BOARD_EDIT_INTERVAL
    images: bool = True  # the bot's CARD_PICTURES (board and hand pictures, card emoji)
    turn_seconds: int = 60
    stake: int = 1
    games: int | None = None  # stop starting games once this many were started (soak)
    drain: float = 180.0  # at most this long for the games in progress to finish after the run
    rate_limit_fraction: float = 0.05
    server_error_fraction: float = 0.01
    retry_after: float = 0.3
    disconnect_every: float | None = 60.0
    lag_log: float = 1.0  # the bot's LOOP_LAG_LOG period
    response_timeout: float = 10.0
    stale_after: float = 10.0  # no board change this long while playing: a person checks the hand
    seed: int = 1
    workdir: Path | None = None
    quiet: bool = False


@dataclasses.dataclass
class LoadResult:
    config: LoadConfig
    wall_seconds: float = 0.0
    run_seconds: float = 0.0
    interactions: int = 0
    latency: dict[str, float] = dataclasses.field(default_factory=dict)
    loop_lag_max_ms: float | None = None
    loop_lag_lines: int = 0
    board_edits: int = 0
    board_posts: int = 0
    image_files: int = 0  # pictures uploaded with messages during the run
    image_bytes: int = 0
    rss_base_kb: int = 0
    rss_load_kb: int = 0
    rss_hwm_kb: int = 0
    cpu_seconds: float = 0.0
    harness_cpu_seconds: float = 0.0
    games_finished: int = 0
    games_started: int = 0
    tables_unfinished: list[int] = dataclasses.field(default_factory=list)
    rejections: Counter[str] = dataclasses.field(default_factory=Counter)
    errors: list[str] = dataclasses.field(default_factory=list)
    lost_to_kill: int = 0
    stale_checks: int = 0
    kills_done: int = 0
    disconnects: int = 0
    resumes: int = 0
    identifies: int = 0
    injected_429: int = 0
    injected_500: int = 0
    bot_warnings: int = 0
    exit_code: int | None = None
    check_rc: int | None = None
    check_output: str = ""
    db_games: dict[str, int] = dataclasses.field(default_factory=dict)
    log_path: str = ""
    db_path: str = ""

    @property
    def interactions_per_s(self) -> float:
        return self.interactions / self.run_seconds if self.run_seconds else 0.0

    @property
    def board_edits_per_s(self) -> float:
        return self.board_edits / self.run_seconds if self.run_seconds else 0.0

    @property
    def rss_per_table_kb(self) -> float:
        n = self.config.tables
        return max(0, self.rss_load_kb - self.rss_base_kb) / n if n else 0.0

    @property
    def cpu_per_game(self) -> float:
        return self.cpu_seconds / self.games_finished if self.games_finished else 0.0

    @property
    def all_games_finished(self) -> bool:
        unfinished = sum(n for s, n in self.db_games.items() if s != "finished")
        return not self.tables_unfinished and unfinished == 0 and self.games_finished > 0

    def meets_targets(self) -> bool:
        lat = self.latency
        return bool(
            lat
            and lat.get("p99", 1) * 1000 <= 100
            and lat.get("p50", 1) * 1000 <= 20
            and self.loop_lag_max_ms is not None
            and self.loop_lag_max_ms <= 100
            and not self.errors
            and self.rss_per_table_kb <= 50
        )

    def summary(self) -> dict[str, Any]:
        lat = self.latency
        return {
            "tables": self.config.tables,
            "humans": self.config.humans,
            "level": self.config.level,
            "faults": self.config.faults,
            "kills": self.kills_done,
            "run_s": round(self.run_seconds, 1),
            "wall_s": round(self.wall_seconds, 1),
            "interactions": self.interactions,
            "interactions_per_s": round(self.interactions_per_s, 1),
            "p50_ms": round(lat.get("p50", 0) * 1000, 1),
            "p95_ms": round(lat.get("p95", 0) * 1000, 1),
            "p99_ms": round(lat.get("p99", 0) * 1000, 1),
            "max_ms": round(lat.get("max", 0) * 1000, 1),
            "loop_lag_max_ms": self.loop_lag_max_ms,
            "board_edits_per_s": round(self.board_edits_per_s, 1),
            "rss_base_mb": round(self.rss_base_kb / 1024, 1),
            "rss_load_mb": round(self.rss_load_kb / 1024, 1),
            "rss_per_table_kb": round(self.rss_per_table_kb, 1),
            "cpu_s": round(self.cpu_seconds, 1),
            "cpu_s_per_game": round(self.cpu_per_game, 3),
            "images": self.config.images,
            "image_files": self.image_files,
            "image_kb_per_game": round(self.image_bytes / 1024 / self.games_finished, 1)
            if self.games_finished
            else 0,
            "bot_cpu_share": round(self.cpu_seconds / self.run_seconds, 2)
            if self.run_seconds
            else 0,
            "harness_cpu_share": (
                round(self.harness_cpu_seconds / self.run_seconds, 2) if self.run_seconds else 0
            ),
            "games_finished": self.games_finished,
            "db_games": self.db_games,
            "tables_unfinished": self.tables_unfinished,
            "errors": len(self.errors),
            "rejections": dict(self.rejections),
            "lost_to_kill": self.lost_to_kill,
            "stale_checks": self.stale_checks,
            "disconnects": self.disconnects,
            "resumes": self.resumes,
            "identifies": self.identifies,
            "injected_429": self.injected_429,
            "injected_500": self.injected_500,
            "bot_warnings": self.bot_warnings,
            "exit_code": self.exit_code,
            "check_rc": self.check_rc,
            "meets_targets": self.meets_targets(),
        }

    def report(self) -> str:
        s = self.summary()
        lines = [
            f"tables {s['tables']} · humans/table {s['humans']} · computers {s['level']} · "
            f"faults {'on' if s['faults'] else 'off'} · kills {s['kills']} · "
            f"run {s['run_s']} s (wall {s['wall_s']} s)",
            f"interactions         {s['interactions']} ({s['interactions_per_s']}/s)",
            f"callback latency     p50 {s['p50_ms']} ms · p95 {s['p95_ms']} ms · "
            f"p99 {s['p99_ms']} ms · max {s['max_ms']} ms",
            f"event-loop lag max   {s['loop_lag_max_ms']} ms",
            f"board edits          {s['board_edits_per_s']}/s ({self.board_edits} edits, "
            f"{self.board_posts} posts)",
            f"bot RSS              {s['rss_base_mb']} MB idle → {s['rss_load_mb']} MB loaded: "
            f"{s['rss_per_table_kb']} KB per table",
            f"bot CPU              {s['cpu_s']} s: {s['cpu_s_per_game']} s per game; "
            f"{s['bot_cpu_share']:.0%} of a core (harness: {s['harness_cpu_share']:.0%})",
            f"pictures             {'on' if s['images'] else 'off'}: {s['image_files']} files, "
            f"{self.image_bytes / 1024:.0f} KB sent ({s['image_kb_per_game']} KB per game)",
            f"games finished       {s['games_finished']} (database: {s['db_games']}); "
            f"unfinished tables: {s['tables_unfinished'] or 'none'}",
            f"faults               429 ×{s['injected_429']} · 500 ×{s['injected_500']} · "
            f"disconnects {s['disconnects']} (resumes {s['resumes']}, identifies "
            f"{s['identifies']}) · kills {s['kills']} (interactions lost to kills "
            f"{s['lost_to_kill']})",
            f"rejections           {s['rejections'] or 'none'} · stale-board checks "
            f"{s['stale_checks']} · bot warnings {s['bot_warnings']}",
            f"errors               {s['errors']}",
            *(f"  - {e}" for e in self.errors[:20]),
            f"bot exit code        {s['exit_code']}",
            f"data.check           rc {s['check_rc']}: "
            + " | ".join(self.check_output.strip().splitlines()[-3:]),
            f"meets targets        {s['meets_targets']}",
        ]
        return "\n".join(lines)


# ============================================================================ the bot process


class BotProcess:
    """`python -m bot` in its own process group; CPU and RSS read from /proc."""

    def __init__(self, env: dict[str, str], cwd: Path, log_path: Path) -> None:
        self.env = env
        self.cwd = cwd
        self.log_path = log_path
        self.proc: asyncio.subprocess.Process | None = None
        self.cpu_done = 0.0  # CPU of incarnations that are gone
        self._log: Any = None

    async def start(self) -> None:
        self._log = open(self.log_path, "ab")  # noqa: SIM115, ASYNC230 - closed in stop()/kill()
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=self.cwd,
            env=self.env,
            stdout=self._log,
            stderr=self._log,
            start_new_session=True,
        )

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def _pids(self) -> list[int]:
        """The bot and its children (the expert players' process pool)."""
        pids = [self.pid]
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open(f"/proc/{entry}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.pid:
                pids.append(int(entry))
        return pids

    def cpu_now(self) -> float:
        if self.proc is None or self.proc.returncode is not None:
            return 0.0
        total = 0
        for pid in self._pids():
            try:
                with open(f"/proc/{pid}/stat") as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            total += int(fields[11]) + int(fields[12])  # utime, stime
            if pid == self.pid:
                total += int(fields[13]) + int(fields[14])  # reaped children
        return total / CLK_TCK

    def cpu_total(self) -> float:
        return self.cpu_done + self.cpu_now()

    def rss_kb(self) -> tuple[int, int]:
        """(VmRSS, VmHWM) of the bot process in KB."""
        rss = hwm = 0
        try:
            with open(f"/proc/{self.pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1])
                    elif line.startswith("VmHWM:"):
                        hwm = int(line.split()[1])
        except OSError:
            pass
        return rss, hwm

    async def kill(self) -> None:
        """SIGKILL the bot and its process group (a crash), after booking its CPU time."""
        assert self.proc is not None
        self.cpu_done += self.cpu_now()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        await self.proc.wait()
        self._close_log()

    async def stop(self, timeout: float = 20.0) -> int | None:  # noqa: ASYNC109
        """SIGTERM; returns the exit code (None when it had to be killed)."""
        if self.proc is None:
            return None
        if self.proc.returncode is not None:
            self._close_log()
            return self.proc.returncode
        self.cpu_done += self.cpu_now()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code: int | None = await asyncio.wait_for(self.proc.wait(), timeout)
        except TimeoutError:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            await self.proc.wait()
            code = None
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # stray pool workers, if any
        self._close_log()
        return code

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()
            self._log = None


# ============================================================================ reading messages


@dataclasses.dataclass
class BoardView:
    phase: str  # lobby | playing | over | closed
    turn_user: int | None
    to_beat: list[Card] | None
    seats: int


_TURN_RE = re.compile(r"\*\*Turn:\*\* <@(\d+)>")
_SEATS_RE = re.compile(r"Seats \((\d+)/(\d+)\)")


def read_board(message: StoredMessage) -> BoardView:
    embeds = message.embeds
    desc = str(embeds[0].get("description") or "") if embeds else ""
    if not message.custom_ids():
        return BoardView("closed", None, None, 0)
    if "**Game over**" in desc:
        return BoardView("over", None, None, 0)
    seats = _SEATS_RE.search(desc)
    if seats:
        return BoardView("lobby", None, None, int(seats.group(1)))
    turn = _TURN_RE.search(desc)
    to_beat: list[Card] | None = None
    for line in desc.splitlines():
        if line.startswith("**To beat:**"):
            rest = line[len("**To beat:**") :].strip()
            if not rest.startswith("nothing"):
                to_beat = parse_cards(rest.split(" by ", 1)[0])
    return BoardView("playing", int(turn.group(1)) if turn else None, to_beat, 0)


def board_table_id(message: StoredMessage) -> int | None:
    if message.ephemeral or not message.embeds:
        return None
    title = str(message.embeds[0].get("title") or "")
    if not title.startswith(BOARD_TITLE):
        return None
    return int(title[len(BOARD_TITLE) :])


def hand_cards(message: StoredMessage) -> list[tuple[Card, dict[str, Any]]]:
    out = []
    for comp in message.iter_components():
        cid = str(comp.get("custom_id") or "")
        if cid.startswith("tl:h:") and re.fullmatch(r"c\d+", cid.rsplit(":", 1)[1]):
            out.append((parse_cards(str(comp["label"]))[0], comp))
    return out


def hand_button(message: StoredMessage, op: str) -> dict[str, Any] | None:
    for comp in message.iter_components():
        if str(comp.get("custom_id") or "").endswith(f":{op}"):
            return comp
    return None


def choose_play(hand: list[Card], to_beat: list[Card] | None) -> list[Card] | None:
    """What a simple person plays: on a lead the lowest card; otherwise the lowest single or pair
    that beats the table; None = pass."""
    cards = sorted(hand)
    if not cards:
        return None
    if to_beat is None:
        return [cards[0]]
    table = classify(to_beat, RULES)
    if table is None:
        return None
    if len(to_beat) == 1:
        for card in cards:
            combo = classify([card], RULES)
            if combo is not None and can_beat(combo, table, RULES):
                return [card]
    elif len(to_beat) == 2:
        for a, b in itertools.pairwise(cards):
            if a.rank != b.rank:
                continue
            combo = classify([a, b], RULES)
            if combo is not None and can_beat(combo, table, RULES):
                return [a, b]
    return None


# ============================================================================ the harness


class Channel:
    def __init__(self) -> None:
        self.board: StoredMessage | None = None
        self.seq = 0
        self.waiters: list[asyncio.Future[None]] = []

    def changed(self, message: StoredMessage) -> None:
        if self.board is None or message.id >= self.board.id:
            self.board = message
        elif message.id != self.board.id:
            return  # an older board (e.g. the "moved" notice); not what people look at
        self.seq += 1
        for f in self.waiters:
            if not f.done():
                f.set_result(None)
        self.waiters.clear()

    async def wait(self, seen: int, timeout: float) -> bool:  # noqa: ASYNC109
        if self.seq != seen:
            return True
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiters.append(fut)
        try:
            await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            return False
        return True


class Lost(Exception):
    """The interaction got no answer because the bot was killed."""


class Table:
    def __init__(self, index: int, channel_id: int, humans: list[FakeUser]) -> None:
        self.index = index
        self.channel_id = channel_id
        self.humans = humans
        self.ch = Channel()
        self.id: int | None = None
        self.games_finished = 0
        self.games_started = 0
        self.in_game = False
        self.done = asyncio.Event()
        self.last_hand: dict[int, int] = {}


class Harness:
    def __init__(self, config: LoadConfig) -> None:
        self.cfg = config
        self.rng = random.Random(config.seed)
        self.result = LoadResult(config)
        self.fake: FakeDiscord | None = None
        self.bot: BotProcess | None = None
        self.tables: list[Table] = []
        self.by_channel: dict[int, Table] = {}
        self.bot_up = asyncio.Event()
        self.generation = 0
        self.killed: asyncio.Future[None] | None = None
        self.stopping = False
        self.started_games = 0
        self.t0 = 0.0

    # ------------------------------------------------------------------ helpers
    def log(self, text: str) -> None:
        if not self.cfg.quiet:
            print(f"[{time.monotonic() - self.t0:7.1f}s] {text}", flush=True)

    def error(self, text: str) -> None:
        self.result.errors.append(text)
        self.log(f"ERROR {text}")

    def on_message(self, message: StoredMessage) -> None:
        table = self.by_channel.get(message.channel_id)
        if table is None or board_table_id(message) is None:
            return
        table.ch.changed(message)

    async def think(self) -> None:
        if self.cfg.think > 0:
            await asyncio.sleep(self.cfg.think * self.rng.uniform(0.5, 1.5))

    async def _answer(self, send: Callable[[], Any]) -> InteractionHandle:
        """Send an interaction once the bot is up; wait for its callback (or a kill)."""
        assert self.fake is not None
        while True:
            await self.bot_up.wait()
            generation = self.generation
            killed = self.killed
            handle: InteractionHandle = await send()
            waiter = asyncio.ensure_future(handle.response(self.cfg.response_timeout))
            assert killed is not None
            await asyncio.wait({waiter, killed}, return_when=asyncio.FIRST_COMPLETED)
            if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                if handle.late:
                    self.error(f"late callback ({handle.latency:.2f}s) for {handle.name}")
                return handle
            waiter.cancel()
            with contextlib.suppress(BaseException):
                await waiter
            if generation != self.generation or killed.done():
                self.result.lost_to_kill += 1
                raise Lost(handle.name)
            self.error(f"no callback within {self.cfg.response_timeout}s for {handle.name}")
            raise Lost(handle.name)

    async def click(
        self, user: FakeUser, message: StoredMessage, custom_id: str, *, unchecked: bool = False
    ) -> InteractionHandle:
        assert self.fake is not None
        fake = self.fake

        async def send() -> InteractionHandle:
            return await fake.click(user, message, custom_id, unchecked=unchecked)

        return await self._answer(send)

    async def slash(self, user: FakeUser, table: Table, **options: Any) -> InteractionHandle:
        assert self.fake is not None
        fake = self.fake

        async def send() -> InteractionHandle:
            return await fake.slash(
                user, "tienlen", "start", options=options, channel=table.channel_id
            )

        return await self._answer(send)

    def rejection(self, handle: InteractionHandle) -> str | None:
        """The text of an ephemeral refusal (type 4 without components), else None."""
        data = handle.callback_data or {}
        if handle.callback_type == 4 and handle.ephemeral and not data.get("components"):
            return str(data.get("content") or "")
        return None

    def note_rejection(self, text: str) -> None:
        key = re.sub(r"<@\d+>|#\d+|\d+", "N", text)[:60]
        self.result.rejections[key] += 1

    # ------------------------------------------------------------------ one table
    async def open_table(self, table: Table) -> None:
        host = table.humans[0]
        while table.id is None:
            try:
                handle = await self.slash(
                    host, table, turn_seconds=self.cfg.turn_seconds, stake=self.cfg.stake
                )
            except Lost:
                continue
            text = str((handle.callback_data or {}).get("content") or "")
            found = re.search(r"[Tt]able \(?#(\d+)", text)
            if not found:
                raise RuntimeError(f"/tienlen start answered {text!r}")
            table.id = int(found.group(1))
        seen = 0
        expect = 1  # seats the board should show, after my last accepted click
        while True:
            if not await table.ch.wait(seen, 30):
                raise RuntimeError(f"no board (or no board with {expect} seats) within 30 s")
            seen = table.ch.seq
            board = table.ch.board
            assert board is not None
            view = read_board(board)
            if view.phase != "lobby":
                break
            if view.seats < expect:
                continue  # the board (edited at most once a second) is behind my last click
            expect = view.seats
            try:
                await self.think()
                if view.seats < 4:
                    answer = await self.seat_one(table, board, view.seats)
                    text = self.rejection(answer)
                    if text is None:
                        expect = view.seats + 1
                    elif "full" in text or "already seated" in text:
                        self.note_rejection(text)  # a click lost to a kill did land
                        expect = view.seats + 1
                    else:
                        raise RuntimeError(f"seating answered {text!r}")
                else:
                    answer = await self.click(host, board, f"tl:b:{table.id}:start")
                    if (text := self.rejection(answer)) is not None:
                        if "already in progress" not in text:
                            raise RuntimeError(f"start answered {text!r}")
                        self.note_rejection(text)
                    self.game_started(table)
            except Lost:
                continue

    async def seat_one(self, table: Table, board: StoredMessage, seated: int) -> InteractionHandle:
        """Fill the next seat: a person presses Join, or the host adds a computer player."""
        assert self.fake is not None
        if self.cfg.humans > 1:
            return await self.click(table.humans[seated], board, f"tl:b:{table.id}:join")
        host = table.humans[0]
        chooser = await self.click(host, board, f"tl:b:{table.id}:addai")
        message = chooser.original
        if message is None or self.rejection(chooser):
            return chooser
        level = self.cfg.level
        try:
            return await self.click(
                host, message, f"tl:ai:{table.id}:{level}", unchecked=level not in LOBBY_LEVELS
            )
        finally:
            self.fake.forget_message(message.id)

    def game_started(self, table: Table) -> None:
        """Book a game start once (by the click's answer or by the board, whichever comes first:
        a `Play again` whose answer was lost to a kill may still have started the game)."""
        if table.in_game:
            return
        table.games_started += 1
        table.in_game = True
        self.started_games += 1

    def want_more_games(self) -> bool:
        if self.stopping:
            return False
        return self.cfg.games is None or self.started_games < self.cfg.games

    async def person(self, table: Table, me: FakeUser) -> None:
        """One scripted human: watch the board; on my turn open my hand and play."""
        host = me is table.humans[0]
        seen = -1
        while not table.done.is_set():
            changed = await table.ch.wait(seen, self.cfg.stale_after)
            seen = table.ch.seq
            board = table.ch.board
            assert board is not None
            view = read_board(board)
            if view.phase == "closed":
                raise RuntimeError("the table was closed")
            if view.phase == "over":
                if table.in_game:
                    table.in_game = False
                    table.games_finished += 1
                    self.result.games_finished += 1
                    if self.cfg.games is not None and self.result.games_finished % 50 == 0:
                        self.log(f"{self.result.games_finished} games finished")
                if not host:
                    continue
                if not self.want_more_games():
                    table.done.set()
                    return
                await self.think()
                try:
                    answer = await self.click(me, board, f"tl:b:{table.id}:again")
                except Lost:
                    continue
                if (text := self.rejection(answer)) is not None:
                    raise RuntimeError(f"play again answered {text!r}")
                self.game_started(table)
                continue
            if view.phase != "playing":
                continue
            self.game_started(table)
            if view.turn_user == me.id or not changed:
                if not changed:
                    self.result.stale_checks += 1
                try:
                    await self.take_turn(table, me, board, view)
                except Lost:
                    continue

    async def take_turn(
        self, table: Table, me: FakeUser, board: StoredMessage, view: BoardView
    ) -> None:
        assert self.fake is not None and table.id is not None
        await self.think()
        opened = await self.click(me, board, f"tl:b:{table.id}:hand")
        if (text := self.rejection(opened)) is not None:
            self.note_rejection(text)
            return
        hand = opened.original
        if hand is None:
            raise RuntimeError(f"My hand answered {opened.callback_type} {opened.callback_data}")
        old = table.last_hand.get(me.id)
        if old is not None:
            self.fake.forget_message(old)  # the person dismisses the previous hand message
        table.last_hand[me.id] = hand.id
        for _attempt in range(3):
            status = hand.content
            if "Card exchange: select" in status:
                await self.press(me, hand, "hint")
                if (text := await self.press(me, hand, "play")) is not None:
                    self.note_rejection(text)
                return
            if "Your turn" not in status and "Your lead" not in status:
                return  # not my turn any more (the board was behind)
            held = hand_cards(hand)
            to_beat = None if "Your lead" in status else view.to_beat
            choice = choose_play([c for c, _ in held], to_beat)
            if choice is None:
                text = await self.press(me, hand, "pass")
                if text is None:
                    return
                self.note_rejection(text)
                choice = choose_play([c for c, _ in held], None)  # "cannot pass": lead
                if choice is None:
                    return
            for card in choice:
                comp = next((c for k, c in hand_cards(hand) if k == card), None)
                if comp is None:
                    raise RuntimeError(f"no button for {card} on the hand")
                await self.think()
                answer = await self.click(me, hand, str(comp["custom_id"]))
                if (text := self.rejection(answer)) is not None:
                    self.note_rejection(text)
                    return
            text = await self.press(me, hand, "play")
            if text is None:
                return
            self.note_rejection(text)
            if "out of date" in text or "not your turn" in text.lower():
                return
            view = dataclasses.replace(view, to_beat=None)
            await self.press(me, hand, "clear")
            if (text := await self.press(me, hand, "pass")) is None:
                return
        return

    async def press(self, me: FakeUser, hand: StoredMessage, op: str) -> str | None:
        """Press an action button of the hand; returns the refusal text, or None when done."""
        comp = hand_button(hand, op)
        if comp is None or comp.get("disabled"):
            return f"{op} is disabled"
        await self.think()
        answer = await self.click(me, hand, str(comp["custom_id"]))
        return self.rejection(answer)

    # ------------------------------------------------------------------ faults
    async def killer(self) -> None:
        """SIGKILL the bot `kills` times, evenly spread over the run, and restart it."""
        assert self.bot is not None
        for _ in range(self.cfg.kills):
            await asyncio.sleep(self.cfg.seconds / (self.cfg.kills + 1))
            if all(t.done.is_set() for t in self.tables):
                return
            self.log(f"SIGKILL the bot (pid {self.bot.pid})")
            self.bot_up.clear()
            self.generation += 1
            await self.bot.kill()
            assert self.killed is not None
            self.killed.set_result(None)
            self.killed = asyncio.get_running_loop().create_future()
            self.result.kills_done += 1
            await asyncio.sleep(0.5)
            await self.start_bot()
            self.log(f"bot restarted (pid {self.bot.pid})")

    async def start_bot(self) -> None:
        assert self.bot is not None and self.fake is not None
        before = self.fake.identify_count
        await self.bot.start()
        deadline = time.monotonic() + 60
        while self.fake.identify_count <= before or not self.fake.connected:
            if self.bot.proc is not None and self.bot.proc.returncode is not None:
                raise RuntimeError(
                    f"the bot exited with {self.bot.proc.returncode}; see {self.bot.log_path}"
                )
            if time.monotonic() > deadline:
                raise RuntimeError("the bot did not connect within 60 s")
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.2)  # READY + GUILD_CREATE processed
        self.bot_up.set()

    # ------------------------------------------------------------------ the run
    async def run(self) -> LoadResult:
        cfg = self.cfg
        res = self.result
        self.t0 = time.monotonic()
        workdir = cfg.workdir or Path(tempfile.gettempdir()) / (
            f"tienlen-bench-{time.strftime('%Y%m%d-%H%M%S')}"
        )
        workdir.mkdir(parents=True, exist_ok=True)
        db_path = workdir / "load.sqlite3"
        log_path = workdir / "bot.log"
        for stale in (db_path, log_path):
            stale.unlink(missing_ok=True)
        res.db_path, res.log_path = str(db_path), str(log_path)
        faults = FaultConfig(
            rate_limit_fraction=cfg.rate_limit_fraction if cfg.faults else 0.0,
            server_error_fraction=cfg.server_error_fraction if cfg.faults else 0.0,
            retry_after=cfg.retry_after,
            seed=cfg.seed,
            disconnect_every=cfg.disconnect_every if cfg.faults else None,
        )
        token = f"load.{secrets.token_hex(16)}"
        fake = FakeDiscord(
            channel_names=[f"table-{i}" for i in range(cfg.tables)],
            user_names=(),
            admin_name=None,
            allowed_tokens={token},
            faults=faults,
            keep_payloads=False,
            max_replay=5000,
        )
        self.fake = fake
        fake.message_listeners.append(self.on_message)
        await fake.start()
        self.killed = asyncio.get_running_loop().create_future()
        channels = list(fake.guild.channels.values())
        for i in range(cfg.tables):
            people = [fake.add_user(f"p{i}-{k}") for k in range(cfg.humans)]
            table = Table(i, channels[i].id, people)
            self.tables.append(table)
            self.by_channel[table.channel_id] = table
        env = {
            **os.environ,
            "DISCORD_TOKEN": token,
            "DATABASE_PATH": str(db_path.resolve()),
            "DISCORD_API_BASE_URL": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
            "DEV_GUILD_ID": str(fake.guild_id),
            "LOG_LEVEL": "INFO",
            "AI_DELAY_SECONDS": str(cfg.ai_delay),
            "BOARD_EDIT_INTERVAL": str(cfg.board_interval),
            "CARD_PICTURES": "true" if cfg.images else "false",
            "LOOP_LAG_LOG": str(cfg.lag_log),
            "PYTHONPATH": os.pathsep.join(
                p for p in (str(REPO_ROOT), os.environ.get("PYTHONPATH", "")) if p
            ),
        }
        self.bot = BotProcess(env, workdir, log_path)
        tasks: list[asyncio.Task[Any]] = []
        try:
            await self.start_bot()
            await asyncio.wait_for(fake.commands_synced.wait(), 30)
            await asyncio.sleep(1.0)
            res.rss_base_kb, _ = self.bot.rss_kb()
            cpu0 = self.bot.cpu_total()
            harness0 = time.process_time()
            lat0 = len(fake.latencies)
            edits0 = fake.route_counts["channel_message_edit"]
            posts0 = fake.route_counts["channel_message_create"]
            files0 = max(fake.attachment_bytes, default=0)
            log_offset = log_path.stat().st_size
            start = time.monotonic()
            self.log(
                f"bot up (pid {self.bot.pid}, {res.rss_base_kb} KB); opening {cfg.tables} tables"
            )
            gate = asyncio.Semaphore(20)

            async def staggered(table: Table) -> None:
                async with gate:
                    await self.open_table(table)

            async def table_task(table: Table) -> None:
                try:
                    await staggered(table)
                    await asyncio.gather(*(self.person(table, u) for u in table.humans))
                except Exception as error:
                    self.error(f"table {table.index}: {type(error).__name__}: {error}")
                finally:
                    table.done.set()

            tasks = [asyncio.create_task(table_task(t)) for t in self.tables]
            killer = asyncio.create_task(self.killer()) if cfg.kills else None
            rss_samples: list[int] = []
            end = start + cfg.seconds
            while time.monotonic() < end and not all(t.done.is_set() for t in self.tables):
                if cfg.games is not None and self.started_games >= cfg.games:
                    break
                await asyncio.sleep(min(1.0, max(0.01, end - time.monotonic())))
                if self.bot_up.is_set():
                    rss_samples.append(self.bot.rss_kb()[0])
            opened = sum(1 for t in self.tables if t.id is not None)
            self.log(
                f"run over: {opened} tables, {self.result.games_finished} games finished;"
                " letting the games in progress finish"
            )
            if self.bot_up.is_set():
                res.rss_load_kb, res.rss_hwm_kb = self.bot.rss_kb()
            if rss_samples:
                res.rss_load_kb = max(res.rss_load_kb, max(rss_samples[len(rss_samples) // 2 :]))
            self.stopping = True
            if killer is not None:
                killer.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await killer
                if not self.bot_up.is_set():
                    await self.start_bot()
            _, pending = await asyncio.wait(tasks, timeout=cfg.drain)
            res.run_seconds = time.monotonic() - start
            res.interactions = len(fake.latencies) - lat0
            res.latency = _stats(fake.latencies[lat0:])
            res.board_edits = fake.route_counts["channel_message_edit"] - edits0
            res.board_posts = fake.route_counts["channel_message_create"] - posts0
            sent = [len(b) for aid, b in fake.attachment_bytes.items() if aid > files0]
            res.image_files, res.image_bytes = len(sent), sum(sent)
            res.cpu_seconds = self.bot.cpu_total() - cpu0
            res.harness_cpu_seconds = time.process_time() - harness0
            res.tables_unfinished = [
                t.index for t in self.tables if t.in_game or not t.done.is_set()
            ]
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            res.exit_code = await self.bot.stop()
            lags, warnings, errors = _scan_log(log_path, log_offset)
            res.loop_lag_max_ms = max(lags) if lags else None
            res.loop_lag_lines = len(lags)
            res.bot_warnings = warnings
            res.errors.extend(f"bot log: {e}" for e in errors)
            res.errors.extend(f"fake: {e}" for e in fake.errors)
            res.errors.extend(f"fake: unknown route {r}" for r in fake.unknown_routes)
            if res.exit_code != 0:
                res.errors.append(f"bot exit code {res.exit_code}")
        finally:
            for task in tasks:
                task.cancel()
            if (
                self.bot is not None
                and self.bot.proc is not None
                and self.bot.proc.returncode is None
            ):
                await self.bot.stop(5)
            res.disconnects = fake.disconnect_count
            res.resumes = fake.resume_count
            res.identifies = fake.identify_count
            res.injected_429 = fake.injected_429
            res.injected_500 = fake.injected_500
            await fake.stop()
        res.games_started = self.started_games
        res.db_games = _db_games(db_path)
        check = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "data.check",
            str(db_path),
            cwd=REPO_ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        out, _ = await check.communicate()
        res.check_rc = check.returncode
        res.check_output = out.decode(errors="replace")
        if res.check_rc != 0:
            res.errors.append(f"data.check failed: {res.check_output.strip()[-500:]}")
        if res.tables_unfinished:
            res.errors.append(f"games not finished at tables {res.tables_unfinished}")
        res.wall_seconds = time.monotonic() - self.t0
        return res


def _stats(values: list[float]) -> dict[str, float]:
    vals = sorted(values)
    if not vals:
        return {}

    def pct(p: float) -> float:
        return vals[min(len(vals) - 1, round(p / 100 * (len(vals) - 1)))]

    return {"count": len(vals), "p50": pct(50), "p95": pct(95), "p99": pct(99), "max": vals[-1]}


_LAG_RE = re.compile(r"loop lag: max ([0-9.]+) ms")
_LEVEL_RE = re.compile(r"^\S+ \S+ (ERROR|CRITICAL|WARNING)\s")


def _scan_log(path: Path, offset: int) -> tuple[list[float], int, list[str]]:
    """Loop-lag maxima, the number of warnings, and error lines after `offset`."""
    lags: list[float] = []
    warnings = 0
    errors: list[str] = []
    with open(path, "rb") as f:
        f.seek(offset)
        for raw in f:
            line = raw.decode(errors="replace").rstrip()
            if m := _LAG_RE.search(line):
                lags.append(float(m.group(1)))
            level = _LEVEL_RE.match(line)
            if level and level.group(1) == "WARNING":
                warnings += 1
            elif level or line.startswith("Traceback"):
                errors.append(line[:300])
    return lags, warnings, errors


def _db_games(path: Path) -> dict[str, int]:
    if not path.exists():
        return {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return dict(db.execute("SELECT status, COUNT(*) FROM games GROUP BY status").fetchall())
    finally:
        db.close()


async def run_load(config: LoadConfig) -> LoadResult:
    return await Harness(config).run()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10)
    parser.add_argument("--minutes", type=float, default=1.0)
    parser.add_argument("--humans", type=int, choices=(1, 4), default=1)
    parser.add_argument(
        "--faults",
        action="store_true",
        help="429s on 5%% and 500s on 1%% of board edits, a disconnect a minute",
    )
    parser.add_argument("--kills", type=int, default=0, help="SIGKILL + restart the bot K times")
    parser.add_argument("--level", choices=("easy", "normal", "hard", "expert"), default="normal")
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="soak: stop starting games after this many (minutes still bounds)",
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a human waits before each action"
    )
    parser.add_argument("--ai-delay", type=float, default=1.0)
    parser.add_argument("--board-interval", type=float, default=1.0)
    parser.add_argument("--turn-seconds", type=int, default=60)
    parser.add_argument(
        "--fast",
        action="store_true",
        help="no human think time, AI delay 0.05 s, board interval 0.2 s (soak)",
    )
    parser.add_argument("--images", choices=("on", "off"), default="on",
                        help="card pictures and card emoji (the bot's CARD_PICTURES)")
    parser.add_argument("--drain", type=float, default=180.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="write the summary here")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    config = LoadConfig(
        tables=args.tables,
        seconds=args.minutes * 60,
        humans=args.humans,
        level=args.level,
        faults=args.faults,
        kills=args.kills,
        think=0.0 if args.fast else args.think,
        ai_delay=0.05 if args.fast else args.ai_delay,
        board_interval=0.2 if args.fast else args.board_interval,
        turn_seconds=args.turn_seconds,
        images=args.images == "on",
        games=args.games,
        drain=args.drain,
        seed=args.seed,
        workdir=args.workdir,
        quiet=args.quiet,
    )
    result = asyncio.run(run_load(config))
    print(result.report(), flush=True)
    if args.json:
        args.json.write_text(json.dumps(result.summary(), indent=2) + "\n")
    ok = not result.errors and result.all_games_finished and result.check_rc == 0
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
