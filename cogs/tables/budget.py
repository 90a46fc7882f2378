"""One REST budget for the whole bot: every request the bot makes on its own (board posts and
edits, direct messages, reminders, deletions) waits here for a slot.

Discord allows a bot token about 50 requests a second in total (interaction answers excepted)
and about 5 message edits per 5 seconds in one channel. :class:`RestBudget` keeps the bot under
``per_second`` requests in every 1-s window (evenly spaced, never a burst) and under
``channel_limit`` requests per ``channel_window`` seconds in each channel (also evenly spaced).
Requests waiting for a slot are served by need: an ``urgent`` request (a table where a person
acts next) counts as if it had asked ``urgent_lead`` seconds earlier, so it overtakes
computer-only tables but never starves them. When Discord answers 429 anyway, :meth:`pause`
stops the whole budget for the time it names.

A grant is not yet a request on the wire: between the two the event loop resumes the waiting
task and discord.py may hold it on a route bucket, so requests granted apart can leave together.
:meth:`leaving`, awaited at the moment a request leaves the process (an aiohttp trace hook),
holds it while ``per_second`` requests already left in the last second: the bound holds on the
wire, for every request the global limit counts, granted here or not.

No discord here: the Discord side calls :meth:`acquire` before each request and reports what it
saw (429s, a bucket announced as empty) through :meth:`pause` and :meth:`hold_channel`.
"""

from __future__ import annotations

import asyncio
import collections
import heapq
import itertools
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["RestBudget", "Staleness"]

CHANNEL_MARGIN = 0.25  # seconds added to a channel's window: clocks and latency differ a little


def _last_second(times: collections.deque[float], now: float) -> int:
    """Forget the times older than 1 s before ``now``; how many are left."""
    while times and times[0] <= now - 1.0:
        times.popleft()
    return len(times)


@dataclass(order=True)
class _Waiter:
    rank: float
    seq: int
    channel: int | None = field(compare=False)
    future: asyncio.Future[None] = field(compare=False)


class RestBudget:
    """The bot's REST scheduler (see the module docstring)."""

    def __init__(
        self,
        per_second: float = 45.0,
        *,
        channel_limit: int = 5,
        channel_window: float = 5.0,
        urgent_lead: float = 2.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if per_second <= 0:
            raise ValueError("per_second must be positive")
        self.per_second = per_second
        self.window_limit = max(1, int(per_second))
        self.gap = 1.0 / per_second
        self.channel_limit = channel_limit
        self.channel_window = channel_window + CHANNEL_MARGIN
        self.urgent_lead = urgent_lead
        self.clock = clock
        self._sent: collections.deque[float] = collections.deque()
        self._channels: dict[int, collections.deque[float]] = {}
        self._held: dict[int, float] = {}
        self._paused_until = 0.0
        self._waiters: list[_Waiter] = []
        self._seq = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._left: collections.deque[float] = collections.deque()  # when requests left
        self._channel_sleeper: asyncio.Task[Any] | None = None
        # figures
        self.granted = 0
        self.pauses = 0
        self.paused_seconds = 0.0
        self.left_peak = 0  # most requests that left in any 1-s window
        self.held_leaving = 0  # requests held by :meth:`leaving`
        self._sent_wire: collections.deque[float] = collections.deque()
        self.sent_peak = 0  # most requests whose headers were written in any 1-s window

    # ----------------------------------------------------------------- API
    async def acquire(self, channel_id: int | None = None, *, urgent: bool = False) -> None:
        """Wait for a slot for one request (in ``channel_id``, if it is a channel route)."""
        now = self.clock()
        if (not self.waiting and self._global_free_at(now) <= now
                and self._channel_free_at(channel_id, now) <= now):
            self._grant(channel_id, now)
            return
        waiter = _Waiter(now - (self.urgent_lead if urgent else 0.0), next(self._seq),
                         channel_id, asyncio.get_running_loop().create_future())
        heapq.heappush(self._waiters, waiter)
        self._kick()
        try:
            await waiter.future
        except asyncio.CancelledError:
            waiter.future.cancel()  # a slot already granted is simply not used
            raise

    async def leaving(self) -> None:
        """A request counted by the global limit is leaving now: wait while ``per_second``
        requests already left within the last second."""
        left = self._left
        held = False
        while True:
            now = self.clock()
            if _last_second(left, now) < self.window_limit:
                left.append(now)
                self.left_peak = max(self.left_peak, len(left))
                return
            if not held:
                held = True
                self.held_leaving += 1
            await asyncio.sleep(left[0] + 1.0 - now)

    def sent(self) -> None:
        """A counted request's headers were written: the figure :attr:`sent_peak` only."""
        now = self.clock()
        sent = self._sent_wire
        _last_second(sent, now)
        sent.append(now)
        self.sent_peak = max(self.sent_peak, len(sent))

    def pause(self, seconds: float) -> None:
        """Discord answered 429: no request at all for ``seconds``."""
        until = self.clock() + max(0.0, seconds)
        if until > self._paused_until:
            self.pauses += 1
            self.paused_seconds += until - max(self._paused_until, self.clock())
            self._paused_until = until

    def hold_channel(self, channel_id: int, seconds: float) -> None:
        """Discord announced an empty bucket for a channel: nothing there for ``seconds``."""
        until = self.clock() + max(0.0, seconds)
        if until > self._held.get(channel_id, 0.0):
            self._held[channel_id] = until

    @property
    def waiting(self) -> int:
        return sum(1 for w in self._waiters if not w.future.done())

    def close(self) -> None:
        """Stop serving (a shutdown): every waiter is cancelled."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        for waiter in self._waiters:
            if not waiter.future.done():
                waiter.future.cancel()
        self._waiters.clear()

    # ----------------------------------------------------------------- the dispatcher
    # It runs only while requests wait (and sleeps with plain `asyncio.sleep`), so an idle bot
    # has no task of it. A request that arrives while it sleeps because every waiting request's
    # channel is busy restarts it: the newcomer's channel may be free.
    def _kick(self) -> None:
        task = self._task
        if task is not None and not task.done():
            sleeping = self._channel_sleeper is task
            if not sleeping:
                return
            task.cancel()
        self._task = asyncio.get_running_loop().create_task(self._run(), name="rest-budget")

    def _grant(self, channel: int | None, now: float) -> None:
        self._sent.append(now)
        if channel is not None:
            self._channels.setdefault(channel, collections.deque()).append(now)
        self.granted += 1
        if len(self._channels) > 4096:
            self._drop_idle_channels(now)

    def _channel_free_at(self, channel: int | None, now: float) -> float:
        if channel is None:
            return now
        free = max(now, self._held.get(channel, 0.0))
        times = self._channels.get(channel)
        if times is not None:
            while times and times[0] <= now - self.channel_window:
                times.popleft()
            if len(times) >= self.channel_limit:
                free = max(free, times[0] + self.channel_window)
            if times:  # evenly spaced: one request per window/limit, not a burst then a wait
                free = max(free, times[-1] + self.channel_window / self.channel_limit)
        return free

    def _global_free_at(self, now: float) -> float:
        sent = self._sent
        _last_second(sent, now)
        free = max(now, self._paused_until)
        if sent:
            free = max(free, sent[-1] + self.gap)
        if len(sent) >= self.window_limit:
            free = max(free, sent[-self.window_limit] + 1.0)
        return free

    def _pick(self, now: float) -> tuple[_Waiter | None, float]:
        """The first waiter (by rank) whose channel has room; else when to look again."""
        waiters = self._waiters
        while waiters and waiters[0].future.done():
            heapq.heappop(waiters)
        soonest = float("inf")
        for waiter in sorted(waiters):
            if waiter.future.done():
                continue
            free = self._channel_free_at(waiter.channel, now)
            if free <= now:
                return waiter, now
            soonest = min(soonest, free)
        return None, soonest

    async def _run(self) -> None:
        me = asyncio.current_task()
        while True:
            waiters = self._waiters
            while waiters and waiters[0].future.done():
                heapq.heappop(waiters)
            if not waiters:
                return
            now = self.clock()
            start = self._global_free_at(now)
            if start > now:
                await asyncio.sleep(start - now)
                continue
            waiter, later = self._pick(now)
            if waiter is None:
                if later == float("inf"):  # only cancelled waiters left
                    waiters.clear()
                    return
                self._channel_sleeper = me
                try:
                    await asyncio.sleep(later - now)
                finally:
                    if self._channel_sleeper is me:
                        self._channel_sleeper = None
                continue
            waiters.remove(waiter)
            heapq.heapify(waiters)
            self._grant(waiter.channel, now)
            waiter.future.set_result(None)

    def _drop_idle_channels(self, now: float) -> None:
        for channel in [c for c, t in self._channels.items()
                        if not t or t[-1] <= now - self.channel_window]:
            del self._channels[channel]
        for channel in [c for c, until in self._held.items() if until <= now]:
            del self._held[channel]


class Staleness:
    """How long boards lagged behind their tables: from a change to the board showing it.

    A histogram with fixed logarithmic buckets (1 ms to ~10 min), so it costs the same memory
    however long the bot runs."""

    RATIO = 1.1

    def __init__(self) -> None:
        self.counts = [0] * 140
        self.count = 0
        self.worst = 0.0

    def add(self, seconds: float) -> None:
        seconds = max(0.0, seconds)
        index = 0 if seconds < 0.001 else 1 + int(math.log(seconds / 0.001, self.RATIO))
        self.counts[min(index, len(self.counts) - 1)] += 1
        self.count += 1
        self.worst = max(self.worst, seconds)

    def percentile(self, p: float) -> float:
        """The upper edge of the bucket holding the p-th percentile, in seconds."""
        if not self.count:
            return 0.0
        rank = p / 100 * self.count
        seen = 0
        for index, n in enumerate(self.counts):
            seen += n
            if seen >= rank and n:
                return min(self.worst, 0.001 * self.RATIO ** index)
        return self.worst

    def line(self) -> str:
        return (f"board staleness: p50 {self.percentile(50) * 1000:.0f} ms, "
                f"p95 {self.percentile(95) * 1000:.0f} ms, max {self.worst * 1000:.0f} ms "
                f"over {self.count} board updates")
