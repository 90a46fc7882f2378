"""Test order and tracing (see docs/TESTING.md).

* The longest tests first, so that pytest-xdist deals them out while the short ones fill the gaps.
* The tests that run the real bot as a subprocess run without coverage's tracer in the test
  process: what runs there is the loopback fake Discord and the load harness (test support, not
  measured), which the tracer slowed about twofold; the bot they exercise runs in its own process,
  untraced either way, and its lines are measured by the in-process tests.
"""

from __future__ import annotations

import pytest

# Tests that run the real bot as a subprocess: the longest, mostly waiting on real clocks.
_FIRST = ("tests/test_load_short.py", "tests/test_wire_", "tests/test_discord_limits.py",
          "tests/test_shards_wire.py")


def _rank(item: pytest.Item) -> int:
    if item.nodeid.startswith(_FIRST):
        return 0
    return 1 if item.get_closest_marker("slow") else 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(_FIRST):
            item.add_marker(pytest.mark.no_cover)
    items.sort(key=_rank)  # stable: within a rank, the usual order
