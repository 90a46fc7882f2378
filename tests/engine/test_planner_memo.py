"""The `hard` planner's memos are bounded by :func:`engine.ai.planner.limit_memo`: a smaller
bound keeps them small and changes no plan."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from engine.ai import planner


@pytest.fixture
def default_limit() -> Iterator[None]:
    was = planner.memo_limit()
    yield
    planner.limit_memo(was)


def hands(count: int, seed: int) -> list[bytes]:
    """Rank counts of ``count`` random hands of 1-13 cards (one deck)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        counts = [0] * 13
        for card in rng.sample(range(52), rng.randint(1, 13)):
            counts[card // 4] += 1
        out.append(bytes(counts))
    return out


def count_mask(counts: bytes) -> int:
    """A count mask holding ``counts`` (a rank's byte: a 1 in the first ``n`` of its four
    two-bit fields)."""
    return sum(sum(1 << (2 * i) for i in range(n)) << (8 * r) for r, n in enumerate(counts))


def test_a_bounded_memo_stays_small_and_plans_the_same(default_limit: None) -> None:
    sample = hands(400, seed=7)
    planner.limit_memo(planner.MEMO_LIMIT)
    unbounded = [planner.split(h) for h in sample]
    assert len(planner._MEMO) > 500  # every sub-hand of the sample is remembered

    planner.limit_memo(50)
    assert len(planner._MEMO) == 0  # over the new bound: started again
    for h, plan in zip(sample, unbounded, strict=True):
        assert planner.split(h) == plan
        assert len(planner._MEMO) <= 50
        assert planner.split_mask(count_mask(h)) == plan
        assert len(planner._BY_MASK) <= 50
    assert planner.memo_limit() == 50


def test_a_memo_needs_room(default_limit: None) -> None:
    with pytest.raises(ValueError, match="at least one"):
        planner.limit_memo(0)
