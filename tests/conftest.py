"""Test order: the longest tests first, so that pytest-xdist deals them out while the short ones
fill the gaps (see docs/TESTING.md)."""

from __future__ import annotations

import pytest

# Tests that run the real bot as a subprocess: the longest, mostly waiting on real clocks.
_FIRST = ("tests/test_load_short.py", "tests/test_wire_", "tests/test_discord_limits.py")


def _rank(item: pytest.Item) -> int:
    if item.nodeid.startswith(_FIRST):
        return 0
    return 1 if item.get_closest_marker("slow") else 2


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=_rank)  # stable: within a rank, the usual order
