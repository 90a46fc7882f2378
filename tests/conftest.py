"""Test order and tracing (see docs/TESTING.md).

* Order, for pytest-xdist handing out one test at a time (`--maxschedchunk 1`, the Makefile): the
  tests that run the real bot as a subprocess are the longest but mostly wait on real clocks;
  the other `slow` tests are the longest CPU-bound ones, and go first. The subprocess tests are
  spread over the first 60 % of the others, so that the waits of some workers overlap the CPU
  work of the others instead of every worker waiting at once.
* The subprocess tests run without coverage's tracer in the test process: what runs there is the
  loopback fake Discord and the load harness (test support, not measured), which the tracer
  slowed about twofold; the bot they exercise runs in its own process, untraced either way, and
  its lines are measured by the in-process tests.
* Refused bodies: the loopback fake Discord refuses what Discord refuses (its ``validate``
  module) and records each refusal in ``validate.REFUSALS``; a test during which the bot (or the
  test) sent a refused body fails, naming the route, the field and the value. A test that sends
  bad bodies on purpose takes its refusals with ``fake.take_refusals()``.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

from tests.support.fake_discord import validate

# Tests that run the real bot as a subprocess, longest first.
_WAITING = ("tests/test_load_short.py", "tests/test_shards_wire.py", "tests/test_wire_",
            "tests/test_discord_limits.py")


def _waiting_rank(item: pytest.Item) -> int | None:
    for rank, prefix in enumerate(_WAITING):
        if item.nodeid.startswith(prefix):
            return rank
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    waiting: list[pytest.Item] = []
    busy: list[pytest.Item] = []
    rest: list[pytest.Item] = []
    for item in items:
        if _waiting_rank(item) is not None:
            item.add_marker(pytest.mark.no_cover)
            waiting.append(item)
        elif item.get_closest_marker("slow"):
            busy.append(item)
        else:
            rest.append(item)
    waiting.sort(key=lambda item: _waiting_rank(item) or 0)  # stable within a file
    others = busy + rest
    # Spread the waiting tests, longest first, over the first 60 % of the others (by count: the
    # slow CPU-bound tests come first, so the first waits overlap the heaviest CPU work).
    spacing = 0.6 * len(others) / max(1, len(waiting))
    ordered: list[pytest.Item] = []
    taken = 0
    for index, item in enumerate(waiting):
        upto = round(index * spacing)
        ordered.extend(others[taken:upto])
        taken = max(taken, upto)
        ordered.append(item)
    items[:] = ordered + others[taken:]


def _refused(phase: str) -> None:
    refusals, validate.REFUSALS[:] = list(validate.REFUSALS), []
    if refusals:
        pytest.fail(f"the fake Discord refused {len(refusals)} request(s) during {phase} (Discord "
                    "would answer 400):\n" + "\n".join(r.describe() for r in refusals[:10]),
                    pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    validate.REFUSALS.clear()
    result = yield
    _refused("setup")
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    try:
        result = yield
    finally:
        _refused("the test")
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    result = yield
    _refused("teardown")
    return result
