"""The run: the fake Discord, the bot process and one task per table of simulated
players, with faults and kills."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import os
import random
import re
import secrets
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks.load.config import LOBBY_LEVELS, REPO_ROOT, LoadConfig
from benchmarks.load.players import (
    BoardView,
    Lost,
    Table,
    board_table_id,
    choose_play,
    hand_button,
    hand_cards,
    read_board,
    to_beat_of,
)
from benchmarks.load.process import BotProcess
from benchmarks.load.report import (
    LoadResult,
    db_games,
    scan_log,
    scan_pictures,
    scan_staleness,
    stats,
)
from data.db import DatabaseURL
from tests.support.fake_discord import (
    FakeDiscord,
    FakeUser,
    FaultConfig,
    InteractionHandle,
    StoredMessage,
)
from tests.support.fake_discord.limits import LimitConfig

_HAND_GONE = re.compile(
    r"^PATCH \S*/webhooks/\d+/\S+/messages/@original -> (404 10008|401 50027)")


class PauseWatch:
    """The harness process's own pauses (event-loop lag, garbage collections). The fake Discord
    stamps each request when this process's loop reads it, so a pause of d seconds here makes it
    count d seconds of the bot's requests in one instant: the instrument's error, not the bot's."""

    def __init__(self) -> None:
        self.lag_max = 0.0
        self.gc_max = 0.0
        self.full = 0
        self._gc_start = 0.0

    def on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            return
        self.gc_max = max(self.gc_max, time.perf_counter() - self._gc_start)
        if info.get("generation") == 2:
            self.full += 1

    async def watch(self, tick: float = 0.02) -> None:
        gc.callbacks.append(self.on_gc)
        try:
            while True:
                before = time.perf_counter()
                await asyncio.sleep(tick)
                self.lag_max = max(self.lag_max, time.perf_counter() - before - tick)
        finally:
            gc.callbacks.remove(self.on_gc)


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
        self._identify_mark = 0  # IDENTIFYs seen before the bot process now running was started
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
            both: set[asyncio.Future[Any]] = {waiter, killed}
            await asyncio.wait(both, return_when=asyncio.FIRST_COMPLETED)
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
            said = str((handle.callback_data or {}).get("content") or "")
            found = re.search(r"[Tt]able \(?#(\d+)", said)
            if not found:
                raise RuntimeError(f"/tienlen start answered {said!r}")
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
        a `Start` whose answer was lost to a kill may still have started the game)."""
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
                    # the host's Start deals to everyone seated at once (Play again would be
                    # a ready check that waits for every person)
                    answer = await self.click(me, board, f"tl:b:{table.id}:start")
                except Lost:
                    continue
                if (text := self.rejection(answer)) is not None:
                    raise RuntimeError(f"start answered {text!r}")
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
        if board.find_component(f"tl:b:{table.id}:hand") is None:
            return  # the game ended while the person thought: the board shows no hand button
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
            status = hand.text()
            if "give back" in status:
                await self.press(me, hand, "hint")
                if (text := await self.press(me, hand, "play")) is not None:
                    self.note_rejection(text)
                return
            if "Your turn" not in status:
                return  # not my turn any more (the board was behind)
            held = hand_cards(hand)  # what to beat: the hand's, not the board's (a moment behind)
            to_beat = None if "you lead" in status else to_beat_of(status)
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
                await self.think()
                # The button as the hand shows it now: a refresh may have redrawn the hand while
                # the person thought (a client sends what it shows).
                comp = next((c for k, c in hand_cards(hand) if k == card), None)
                if comp is None:
                    raise RuntimeError(f"no button for {card} on the hand")
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

    async def reactor(self, table: Table) -> None:
        """Reactions at a steady rate (``--reactions`` a second) on the table's board, by its
        people in turn (each one is still held to the bot's 3-second cooldown)."""
        assert self.fake is not None
        keys = ("like", "laugh", "wow", "angry", "cry", "fire", "nice", "cheat", "again", "hurry")
        period = 1.0 / self.cfg.reactions
        turn = 0
        while not table.done.is_set() and not self.stopping:
            await asyncio.sleep(period)
            board = table.ch.board
            if board is None or table.id is None or not self.bot_up.is_set():
                continue
            if board.find_component(f"tl:r:{table.id}") is None:
                continue  # the lobby: no select
            me = table.humans[turn % len(table.humans)]
            turn += 1
            try:
                handle = await self.fake.click(me, board, f"tl:r:{table.id}",
                                               values=[self.rng.choice(keys)])
                await handle.response(self.cfg.response_timeout)
            except Exception as error:  # a board replaced meanwhile, a kill
                self.log(f"reaction not sent: {type(error).__name__}")
                continue
            self.result.reactions += 1

    async def press(self, me: FakeUser, hand: StoredMessage, op: str) -> str | None:
        """Press an action button of the hand; returns the refusal text, or None when done."""
        await self.think()
        comp = hand_button(hand, op)  # as the hand shows it after the thinking (see take_turn)
        if comp is None or comp.get("disabled"):
            return f"{op} is disabled"
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
        proc = self.bot.proc
        if proc is None or proc.returncode is not None:
            # Only one bot at a time: a restart cancelled half-way (the run ended while the killer
            # was restarting) leaves a live process to wait for, not to start a second time.
            self._identify_mark = self.fake.identify_count
            await self.bot.start()
        before = self._identify_mark
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
        # A temporary directory of its own (two runs started in the same second once shared
        # one, and the second deleted the first's database), removed after a clean run.
        own = cfg.workdir is None
        workdir = cfg.workdir or Path(
            tempfile.mkdtemp(prefix=f"tienlen-bench-{time.strftime('%Y%m%d-%H%M%S')}-")
        )
        workdir.mkdir(parents=True, exist_ok=True)
        db_path = workdir / "load.sqlite3"
        log_path = workdir / "bot.log"
        for stale in (db_path, log_path):
            stale.unlink(missing_ok=True)
        store = DatabaseURL.parse(cfg.database or db_path.resolve())
        res.db_path, res.log_path = store.redacted(), str(log_path)
        res.dialect = store.dialect
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
            limits=LimitConfig() if cfg.limits else None,
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
            "DATABASE_URL": cfg.database or "",
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
        thresholds = gc.get_threshold()
        killer: asyncio.Task[None] | None = None
        try:
            await self.start_bot()
            await asyncio.wait_for(fake.commands_synced.wait(), 30)
            await asyncio.sleep(1.0)
            res.rss_base_kb, _ = self.bot.rss_kb()
            cpu0 = self.bot.cpu_total()
            children0 = self.bot.cpu_children()
            harness0 = time.process_time()
            lat0 = len(fake.latencies)
            rest0 = time.perf_counter()
            # The fake stamps requests on this process's loop: a full collection of the fake's
            # many messages paused it up to 670 ms at 500 tables, so the fake counted that much
            # of the bot's traffic in one instant (a 429 the bot did not cause). The run's young
            # garbage is still collected; full collections wait until the run is over.
            gc.freeze()  # the fake's guild, channels and users live as long as the run
            gc.set_threshold(thresholds[0], thresholds[1], 1_000_000)
            pauses = PauseWatch()
            watcher = asyncio.create_task(pauses.watch())
            edits0 = fake.route_counts["channel_message_edit"]
            hand_edits0 = fake.route_counts["webhook_message_edit"]
            posts0 = fake.route_counts["channel_message_create"]
            files0 = max(fake.attachment_bytes, default=0)
            distinct0, resent0 = fake.distinct_uploads_total, fake.reuploads_total
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
                    await asyncio.gather(*(self.person(table, u) for u in table.humans),
                                         *([self.reactor(table)] if cfg.reactions > 0 else []))
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
            res.latency = stats(fake.latencies[lat0:])
            res.board_edits = fake.route_counts["channel_message_edit"] - edits0
            res.hand_edits = fake.route_counts["webhook_message_edit"] - hand_edits0
            res.board_posts = fake.route_counts["channel_message_create"] - posts0
            sent = [len(b) for aid, b in fake.attachment_bytes.items() if aid > files0]
            res.image_files, res.image_bytes = len(sent), sum(sent)
            res.image_distinct = fake.distinct_uploads_total - distinct0
            res.image_resent = fake.reuploads_total - resent0
            res.rest_peak_per_s = fake.peak_window(start=rest0)
            res.rest_requests = sum(1 for t in fake.limited_request_times if t >= rest0)
            res.cpu_seconds = self.bot.cpu_total() - cpu0
            res.children_cpu_seconds = self.bot.cpu_children() - children0
            res.harness_cpu_seconds = time.process_time() - harness0
            watcher.cancel()
            res.harness_lag_max_ms = pauses.lag_max * 1000
            res.harness_gc_max_ms = pauses.gc_max * 1000
            res.harness_full_gcs = pauses.full
            res.tables_unfinished = [
                t.index for t in self.tables if t.in_game or not t.done.is_set()
            ]
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
            res.exit_code = await self.bot.stop()
            lags, warnings, errors = scan_log(log_path, log_offset)
            res.staleness = scan_staleness(log_path)
            res.pictures = scan_pictures(log_path)
            res.loop_lag_max_ms = max(lags) if lags else None
            res.loop_lag_lines = len(lags)
            res.bot_warnings = warnings
            res.errors.extend(f"bot log: {e}" for e in errors)
            for e in fake.errors:
                # A hand refreshed through its token after the person dismissed it (404) or
                # after the token's 15 minutes (401): expected, and the bot stops refreshing it.
                if _HAND_GONE.search(e):
                    res.hands_gone += 1
                else:
                    res.errors.append(f"fake: {e}")
            res.errors.extend(f"fake: unknown route {r}" for r in fake.unknown_routes)
            if res.exit_code != 0:
                res.errors.append(f"bot exit code {res.exit_code}")
        finally:
            gc.set_threshold(*thresholds)
            gc.unfreeze()
            if killer is not None:
                tasks.append(killer)
            for task in tasks:
                task.cancel()
            # Wait for them: a cancelled restart may still be starting a bot process, which must
            # be stopped below rather than outlive the run.
            await asyncio.gather(*tasks, return_exceptions=True)
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
            res.global_429 = fake.global_429
            res.route_429 = fake.route_429
            res.invalid_requests = fake.invalid_requests
            res.limits = fake.limits is not None
            await fake.stop()
        res.games_started = self.started_games
        res.db_games = await db_games(store)
        check = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "data.check",
            cfg.database or str(db_path),
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
        if own and not res.errors:  # kept after a fault: its log says what happened
            shutil.rmtree(workdir, ignore_errors=True)
        return res



async def run_load(config: LoadConfig) -> LoadResult:
    return await Harness(config).run()
