"""Helpers shared by the store tests (a uniquely named module, not conftest, to import)."""

from __future__ import annotations

from datetime import UTC, datetime

from data import GameRecord, Seat, Store

GUILD = 1
CHANNEL = 10
T0 = datetime(2025, 1, 1, 12, 0, tzinfo=UTC)


def humans(*users: int) -> list[Seat]:
    return [Seat(name=f"user{u}", user_id=u) for u in users]


async def start(
    store: Store,
    users: tuple[int, ...] = (101, 102, 103, 104),
    *,
    stake: int = 10,
    bots: int = 0,
    channel: int = CHANNEL,
) -> GameRecord:
    seats = humans(*users) + [Seat(name=f"bot{i}", bot="easy") for i in range(bots)]
    return await store.start_game(
        GUILD, channel, users[0], '{"preset": "southern"}', stake, seats, "{}"
    )
