"""The bot's one REST budget (`cogs.tables.RestBudget`): the global rate in every 1-s window,
each channel's bucket, service by need, and the pause after a 429; board updates through it that
fail are retried, and a board that cannot be shown closes its table. Real asyncio time, short."""

from __future__ import annotations

import asyncio
import itertools
import time
from pathlib import Path

from cogs.tables import BoardUnavailable, LiveTable, RestBudget, TableService
from data import Store
from engine import Rules


def peak_window(times: list[float], window: float = 1.0) -> int:
    times = sorted(times)
    best = lo = 0
    for hi, t in enumerate(times):
        while times[lo] <= t - window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


async def _take(budget: RestBudget, grants: list[float], channel: int | None = None,
                urgent: bool = False) -> None:
    await budget.acquire(channel, urgent=urgent)
    grants.append(time.monotonic())


async def test_global_rate_is_kept_in_every_one_second_window() -> None:
    budget = RestBudget(20)
    grants: list[float] = []
    await asyncio.gather(*(_take(budget, grants, channel=c) for c in range(50)))
    assert len(grants) == 50
    assert peak_window(grants) <= 20
    assert grants[-1] - grants[0] >= 2.0  # 50 requests at 20/s cannot take less
    gaps = [b - a for a, b in itertools.pairwise(grants)]
    assert min(gaps) >= 1 / 20 - 0.01  # evenly spaced, not in bursts


async def test_a_channel_gets_its_bucket_and_others_are_not_held_up() -> None:
    budget = RestBudget(1000, channel_limit=3, channel_window=1.0)
    busy: list[float] = []
    other: list[float] = []
    start = time.monotonic()
    tasks = [asyncio.ensure_future(_take(budget, busy, channel=1)) for _ in range(6)]
    await asyncio.sleep(0.05)
    await _take(budget, other, channel=2)  # a free channel is served at once
    assert other[0] - start < 0.2
    await asyncio.gather(*tasks)
    assert peak_window(busy, window=1.0) <= 3
    assert busy[3] - busy[0] >= 1.0  # the fourth waited for the bucket (+ margin)


async def test_urgent_requests_go_first_but_others_are_not_starved() -> None:
    budget = RestBudget(10, urgent_lead=5.0)
    order: list[str] = []

    async def take(name: str, urgent: bool) -> None:
        await budget.acquire(None, urgent=urgent)
        order.append(name)

    first = asyncio.ensure_future(take("first", False))  # served at once
    await asyncio.sleep(0)
    computers = [asyncio.ensure_future(take(f"cpu{i}", False)) for i in range(3)]
    await asyncio.sleep(0.01)
    person = asyncio.ensure_future(take("person", True))
    await asyncio.gather(first, person, *computers)
    assert order[0] == "first"
    assert order[1] == "person"  # asked last, served next
    assert sorted(order[2:]) == ["cpu0", "cpu1", "cpu2"]


async def test_a_429_pauses_the_whole_budget_for_the_time_it_names() -> None:
    budget = RestBudget(100)
    grants: list[float] = []
    await _take(budget, grants)
    budget.pause(0.5)
    paused_at = time.monotonic()
    await asyncio.gather(*(_take(budget, grants, channel=c) for c in range(3)))
    assert min(grants[1:]) - paused_at >= 0.45
    assert budget.pauses == 1


async def test_a_held_channel_waits_for_its_reset() -> None:
    budget = RestBudget(100)
    budget.hold_channel(7, 0.3)
    grants: list[float] = []
    start = time.monotonic()
    await _take(budget, grants, channel=7)
    assert grants[0] - start >= 0.25


async def test_a_cancelled_request_leaves_the_others_served() -> None:
    budget = RestBudget(5)
    grants: list[float] = []
    await _take(budget, grants)
    gone = asyncio.ensure_future(_take(budget, grants))
    kept = asyncio.ensure_future(_take(budget, grants))
    await asyncio.sleep(0.01)
    gone.cancel()
    await kept
    assert len(grants) == 2
    budget.close()


class FlakyPublisher:
    """Fails the first `failures` board updates with `error`, then shows boards."""

    def __init__(self, failures: int, error: Exception) -> None:
        self.failures = failures
        self.error = error
        self.shown: list[int] = []  # the table's change counter at each board shown
        self.lost: list[int] = []

    async def publish_board(self, live: LiveTable) -> None:
        if self.failures > 0:
            self.failures -= 1
            raise self.error
        self.shown.append(live.changes)

    async def board_lost(self, live: LiveTable, error: BoardUnavailable) -> None:
        self.lost.append(live.id)

    def table_changed(self, live: LiveTable) -> None:
        pass

    async def remind_turn(self, live: LiveTable, seat: int, seconds_left: int) -> None:
        pass


async def _service(tmp_path: Path, publisher: FlakyPublisher) -> tuple[TableService, Store]:
    store = await Store.open(tmp_path / "t.sqlite3")
    service = TableService(store, publisher, board_interval=0.0,
                           rest=RestBudget(1000, channel_limit=1000))
    service.board_retry_first = 0.01
    return service, store


async def _open(service: TableService) -> LiveTable:
    return await service.open_table(guild_id=1, channel_id=2, host_id=3, host_name="host",
                                    rules=Rules(), stake=1, seats=4, turn_seconds=60)


async def test_a_failed_board_update_is_retried_until_the_latest_state_shows(
    tmp_path: Path,
) -> None:
    publisher = FlakyPublisher(3, RuntimeError("503"))
    service, store = await _service(tmp_path, publisher)
    try:
        live = await _open(service)
        service.request_board(live)
        await service.join(live, 4, "guest")  # a change while the board keeps failing
        service.request_board(live)
        for _ in range(200):
            if publisher.shown and live.board_rendered == live.changes:
                break
            await asyncio.sleep(0.01)
        assert publisher.failures == 0
        assert publisher.shown[-1] == live.changes  # the latest state, after three failures
        assert service.staleness.count >= 1
    finally:
        await service.shutdown()
        await store.close()


async def test_a_board_that_cannot_be_shown_closes_its_table_and_frees_the_channel(
    tmp_path: Path,
) -> None:
    publisher = FlakyPublisher(1, BoardUnavailable(403, 50013))
    service, store = await _service(tmp_path, publisher)
    try:
        live = await _open(service)
        service.request_board(live)
        for _ in range(200):
            if publisher.lost:
                break
            await asyncio.sleep(0.01)
        assert publisher.lost == [live.id]
        assert live.table.status == "closed"
        assert await service.table_in_channel(2) is None
        assert (await _open(service)).id != live.id  # the channel takes a new table
        assert await store.ensure_player(1, 3) == 1000  # no chips moved
    finally:
        await service.shutdown()
        await store.close()


async def test_requests_released_together_leave_at_most_the_budget_in_any_second() -> None:
    """Grants apart can reach the wire together (the event loop resumes their tasks at once);
    `leaving`, awaited as each request leaves, holds the excess for its second."""
    budget = RestBudget(20)
    left: list[float] = []

    async def leave() -> None:
        await budget.leaving()
        left.append(time.monotonic())

    await asyncio.gather(*(leave() for _ in range(25)))
    assert len(left) == 25
    assert peak_window(left) <= 20
    assert budget.left_peak == 20
    assert budget.held_leaving == 5  # the 5 over the budget waited for the window to move
    assert left[-1] - left[0] >= 1.0


async def test_a_move_made_while_an_answer_showed_the_board_is_shown_after_it(
    tmp_path: Path,
) -> None:
    """An interaction answer (type 7) drew the board at one state; a computer moved while it was
    sent. Marking the board shown as of the drawing leaves the move to a board refresh (marking
    it shown as of now had left the board a move behind until the next change)."""
    publisher = FlakyPublisher(0, RuntimeError("unused"))
    service, store = await _service(tmp_path, publisher)
    try:
        live = await _open(service)
        drawn = live.changes  # the answer's board is drawn here...
        await service.join(live, 4, "guest")  # ...and the table changes while it is sent
        service.mark_board_shown(live, drawn)
        for _ in range(200):
            if publisher.shown and live.board_rendered == live.changes:
                break
            await asyncio.sleep(0.01)
        assert publisher.shown == [live.changes]  # one refresh, with the latest state
        service.mark_board_shown(live, live.changes)  # an up-to-date answer: nothing more
        await asyncio.sleep(0.05)
        assert publisher.shown == [live.changes]
    finally:
        await service.shutdown()
        await store.close()
