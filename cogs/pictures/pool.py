"""Drawing in worker processes, off the bot's event loop and its core.

:class:`DrawingPool` runs ``workers`` processes (``python -m cogs.pictures.worker``: a fresh
interpreter, no copy of the bot's threads or sockets, and a direct child of the bot, so its CPU
counts as the bot's; it dies with the bot, its socket closing). Once it says it is ready (warmed
up), each worker reads one job at a time from its socket — (job id, kind, view-model; the bot
sends the view packed and pickled, so that neither side pickles dataclasses field by field) —
draws it with :func:`draw` and answers (job id, PNG bytes or the error's name, CPU seconds).
The pool keeps the queue in the bot's process, bounded: when it is full, the oldest job of a message
that has a newer job pending is dropped (its picture would be replaced before it is seen); a
message's latest state is never dropped, so the queue may hold more than its bound when every job in
it is some message's latest state (then no more than one job per message).

Faults: a job that raises is reported failed at once; a job that runs past ``time_limit``
seconds is failed and its worker killed and replaced; a worker that dies mid-job (killed,
crashed) is replaced and the job tried once more, then failed. ``done(key, kind, png, reason)`` is
called on the event loop for every job that ends (``png`` None: failed, ``reason`` says why);
``dropped(key)`` for a job dropped from the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import socket
import subprocess
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from .fonts import Fonts
from .model import BoardView, HandView, unpack
from .png import NO_BANDS, BandFigures
from .render import board_png, encode, render_hand

__all__ = ["DrawingPool", "default_workers", "draw"]

log = logging.getLogger(__name__)

Done = Callable[[str, str, "bytes | None", str], None]


def default_workers() -> int:
    """The cores this process may use, minus one for the event loop; at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def draw(kind: str, view: Any, fonts: Fonts) -> bytes:
    """One picture as PNG bytes: ``kind`` "board" (a :class:`BoardView`) or "hand"; ``view``
    may come packed and pickled (:func:`.service.picture_job`)."""
    if isinstance(view, bytes):
        view = unpack(pickle.loads(view))
    if kind == "board":
        assert isinstance(view, BoardView)
        return board_png(view, fonts)
    if kind == "hand":
        assert isinstance(view, HandView)
        return encode(render_hand(view, fonts), fonts)
    raise ValueError(f"unknown picture kind {kind!r}")


@dataclass(eq=False)
class _Job:
    key: str
    kind: str
    view: Any
    slots: set[Hashable]
    tries: int = 0


@dataclass(eq=False)
class _Worker:
    process: subprocess.Popen[bytes]
    conn: Connection
    job: _Job | None = None
    ready: bool = False
    """Warmed up (it says so): jobs go to it from then on."""
    started: float = 0.0
    timer: asyncio.TimerHandle | None = None
    ids: int = 0
    bands: BandFigures = NO_BANDS
    """Its band cache, as of its last drawing."""


class DrawingPool:
    """Worker processes drawing pictures for the event loop; see the module's description."""

    def __init__(self, workers: int, done: Done, *, queue_size: int = 64,
                 time_limit: float = 5.0, delay: float = 0.0,
                 dropped: Callable[[str], None] | None = None) -> None:
        if workers < 1:
            raise ValueError("a drawing pool needs at least one worker")
        self.size = workers
        self.queue_size = max(1, queue_size)
        self.time_limit = time_limit
        self.delay = delay
        self._done = done
        self._dropped = dropped
        self._queue: deque[_Job] = deque()
        self._pending: dict[str, _Job] = {}  # queued or being drawn, by key
        self._latest: dict[Hashable, _Job] = {}  # each message's newest queued job
        self._workers: list[_Worker] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._closed = False
        self._early_deaths = 0  # workers in a row that died before they were ready
        self.broken = False
        """Three workers in a row died before they were ready (they cannot start): every
        drawing fails at once (the messages show text) instead of starting more."""
        # figures
        self.drawn_kinds: Counter[str] = Counter()
        """Pictures drawn by kind ("board", "hand")."""
        self.failed = 0
        self.dropped = 0
        self.replaced = 0
        self.retried = 0
        self.queue_peak = 0
        self.draw_seconds = 0.0

    # ----------------------------------------------------------------- jobs
    @property
    def drawn(self) -> int:
        """Pictures drawn, of every kind."""
        return self.drawn_kinds.total()

    @property
    def queued(self) -> int:
        return len(self._queue)

    def pending(self, key: str) -> bool:
        return key in self._pending

    def submit(self, key: str, kind: str, view: Any, slot: Hashable) -> None:
        """Queue a drawing of ``view`` (a view-model, or its bytes from
        :func:`.service.picture_job`) for the message ``slot`` (nothing if the same picture is
        already queued or being drawn: that job now serves this message too)."""
        if self._closed:
            raise RuntimeError("the drawing pool is closed")
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        job = self._pending.get(key)
        if job is None and self.broken:
            self._loop.call_soon(self._done, key, kind, None, "no drawing process can start")
            self.failed += 1
            return
        if job is None:
            job = self._pending[key] = _Job(key, kind, view, {slot})
            self._queue.append(job)
        else:
            job.slots.add(slot)
        self._latest[slot] = job
        self._trim()
        self.queue_peak = max(self.queue_peak, len(self._queue))
        self._dispatch()

    def _superseded(self, job: _Job) -> bool:
        return all(self._latest.get(slot) is not job for slot in job.slots)

    def _trim(self) -> None:
        """Over the bound: drop the oldest jobs whose every message has a newer job queued."""
        while len(self._queue) > self.queue_size:
            victim = next((job for job in self._queue if self._superseded(job)), None)
            if victim is None:
                return  # every job is some message's latest state: keep them all
            self._queue.remove(victim)
            del self._pending[victim.key]
            self._forget(victim)
            self.dropped += 1
            if self._dropped is not None:
                self._dropped(victim.key)

    def _dispatch(self) -> None:
        while self._queue:
            worker = self._idle_worker()
            if worker is None:
                return
            self._give(worker, self._queue.popleft())

    def _idle_worker(self) -> _Worker | None:
        for worker in self._workers:
            if worker.job is None and worker.ready:
                return worker
        if len(self._workers) < self.size:
            self._start_worker()  # it takes jobs once it says it is ready
        return None

    def _give(self, worker: _Worker, job: _Job) -> None:
        assert self._loop is not None
        worker.ids += 1
        job.tries += 1
        worker.job = job
        worker.started = time.perf_counter()
        with contextlib.suppress(OSError, ValueError):  # a dead worker: the reader sees it
            worker.conn.send((worker.ids, job.kind, job.view))
        worker.timer = self._loop.call_later(self.time_limit, self._overtime, worker, job)

    # ----------------------------------------------------------------- workers
    def start(self) -> None:
        """Start every worker now (they warm up while the bot connects)."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        while len(self._workers) < self.size:
            self._start_worker()

    def _start_worker(self) -> _Worker:
        assert self._loop is not None
        ours, theirs = socket.socketpair()
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        with ours, theirs:
            process = subprocess.Popen(
                [sys.executable, "-m", "cogs.pictures.worker", str(theirs.fileno()),
                 repr(self.delay)], pass_fds=(theirs.fileno(),), env=env,
                # not the bot's own output: whoever reads it to its end would wait for the
                # workers too (a worker's faults are logged by the pool, with its exit code)
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            conn = Connection(ours.detach())
        worker = _Worker(process, conn)
        self._workers.append(worker)
        self._loop.add_reader(conn.fileno(), self._readable, worker)
        return worker

    def _readable(self, worker: _Worker) -> None:
        try:
            job_id, png, error, seconds, bands = worker.conn.recv()
        except (EOFError, OSError):
            self._lost(worker)
            return
        if bands is not None:
            worker.bands = bands
        if job_id == 0:  # warmed up
            worker.ready = True
            self._early_deaths = 0
            self._dispatch()
            return
        job = worker.job
        if job is None or job_id != worker.ids:
            return  # an answer for a job that already timed out
        self._finish(worker)
        self.draw_seconds += seconds  # the worker's CPU time for the drawing
        if png is None:
            self._end(job, None, f"drawing raised {error}")
        else:
            self.drawn_kinds[job.kind] += 1
            self._end(job, png, "")
        self._dispatch()

    def _finish(self, worker: _Worker) -> None:
        if worker.timer is not None:
            worker.timer.cancel()
            worker.timer = None
        worker.job = None

    def _forget(self, job: _Job) -> None:
        for slot in job.slots:
            if self._latest.get(slot) is job:
                del self._latest[slot]

    def _end(self, job: _Job, png: bytes | None, reason: str) -> None:
        self._pending.pop(job.key, None)
        self._forget(job)
        if png is None:
            self.failed += 1
        self._done(job.key, job.kind, png, reason)

    def _remove(self, worker: _Worker, kill: bool) -> None:
        assert self._loop is not None
        with contextlib.suppress(ValueError, OSError):
            self._loop.remove_reader(worker.conn.fileno())
        if kill and worker.process.poll() is None:
            worker.process.kill()
        worker.conn.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            worker.process.wait(0.5)
        if worker in self._workers:
            self._workers.remove(worker)

    def _lost(self, worker: _Worker) -> None:
        """A worker died: replace it (at the next job) and try its job once more."""
        job = worker.job
        self._finish(worker)
        self._remove(worker, kill=True)
        if self._closed:
            return
        self.replaced += 1
        if not worker.ready:
            self._early_deaths += 1
            if self._early_deaths >= 3:
                self.broken = True
                log.error("card pictures: drawing processes stop before they are ready (exit "
                          "%s); sending text only", worker.process.returncode)
                jobs = [*self._queue, *([job] if job is not None else [])]
                self._queue.clear()
                for failed in jobs:
                    self._end(failed, None, "no drawing process can start")
                return
        log.warning("card pictures: a drawing process stopped (exit %s); starting another",
                    worker.process.returncode)
        if job is not None:
            if job.tries < 2:
                self.retried += 1
                self._queue.appendleft(job)
            else:
                self._end(job, None, "its drawing process died twice")
        self._dispatch()

    def _overtime(self, worker: _Worker, job: _Job) -> None:
        if worker.job is not job:
            return
        self._finish(worker)
        self._remove(worker, kill=True)
        self.replaced += 1
        self._end(job, None, f"took over {self.time_limit:.1f} s")
        self._dispatch()

    @property
    def bands(self) -> BandFigures:
        """The band caches of the drawing processes, together (as of each one's last drawing)."""
        return BandFigures(*(sum(column) for column in zip(
            NO_BANDS, *(worker.bands for worker in self._workers), strict=True)))

    def pids(self) -> list[int]:
        return [w.process.pid for w in self._workers]

    def busy_pid(self) -> int | None:
        """A worker drawing now (tests kill it)."""
        return next((w.process.pid for w in self._workers if w.job is not None), None)

    def close(self) -> None:
        """Stop every worker; queued jobs are forgotten."""
        self._closed = True
        self._queue.clear()
        self._pending.clear()
        self._latest.clear()
        for worker in list(self._workers):
            self._finish(worker)
            if self._loop is not None and not self._loop.is_closed():
                self._remove(worker, kill=True)
            else:
                worker.process.kill()
                worker.conn.close()
                worker.process.wait()
        self._workers.clear()
