from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from data import (
    InvalidInput,
    Seat,
    StaleVersion,
    Store,
    TableExists,
    UnknownTable,
    WrongStatus,
)
from tests.data.store_helpers import CHANNEL, GUILD, T0, humans, start

RULES = '{"preset": "southern"}'


async def test_one_open_table_per_channel(store: Store) -> None:
    tid = await store.create_table(GUILD, CHANNEL, 101, RULES, 10, 60, humans(101))
    with pytest.raises(TableExists) as info:
        await store.create_table(GUILD, CHANNEL, 102, RULES, 10, 60, humans(102))
    assert info.value.table_id == tid
    assert f"table {tid}" in str(info.value)
    other = await store.create_table(GUILD, CHANNEL + 1, 102, RULES, 10, 60, [])
    assert other != tid
    assert [t.id for t in await store.list_open_tables()] == [tid, other]
    closed = await store.close_table(tid)
    assert closed.status == "closed"
    assert await store.get_open_table_for_channel(CHANNEL) is None
    again = await store.create_table(GUILD, CHANNEL, 102, RULES, 10, 60, [])
    assert (await store.get_open_table_for_channel(CHANNEL)) == await store.get_table(again)
    assert [t.id for t in await store.list_open_tables()] == [other, again]


async def test_concurrent_creates_make_one_table(store: Store) -> None:
    outcomes = await asyncio.gather(
        *(store.create_table(GUILD, CHANNEL, u, RULES, 10, 60, []) for u in range(20)),
        return_exceptions=True,
    )
    ids = [o for o in outcomes if isinstance(o, int)]
    assert len(ids) == 1
    assert all(
        isinstance(o, TableExists) and o.table_id == ids[0] for o in outcomes if o not in ids
    )


async def test_table_round_trip_and_versions(store: Store) -> None:
    seats = [Seat("Ann", user_id=101), Seat("Bot", bot="hard"), Seat("")]
    tid = await store.create_table(GUILD, CHANNEL, 101, RULES, 10, 60, seats, now=T0)
    t = await store.get_table(tid)
    assert t.seats == tuple(seats)
    assert t.seats[2].is_empty
    assert (t.version, t.status, t.stake, t.turn_seconds, t.host_id) == (1, "open", 10, 60, 101)
    assert t.created_at == T0
    v = await store.update_table(
        tid,
        1,
        board_message_id=555,
        board_posted_at=T0 + timedelta(minutes=1),
        seats=[{"user_id": 101, "name": "Ann"}, {"bot": "easy", "name": "Bot"}],
        state_json='{"lobby": true}',
    )
    assert v == 2
    t = await store.get_table(tid)
    assert t.board_message_id == 555
    assert t.board_posted_at == T0 + timedelta(minutes=1)
    assert t.seats == (Seat("Ann", user_id=101), Seat("Bot", bot="easy"))
    assert t.state_json == '{"lobby": true}'
    with pytest.raises(StaleVersion, match="version 2, not 1"):
        await store.update_table(tid, 1, stake=99)
    assert (await store.get_table(tid)).stake == 10  # never overwritten
    assert await store.update_table(tid, 2, stake=99) == 3


async def test_concurrent_table_updates_one_wins(store: Store) -> None:
    tid = await store.create_table(GUILD, CHANNEL, 101, RULES, 10, 60, [])
    outcomes = await asyncio.gather(
        *(store.update_table(tid, 1, stake=s) for s in range(1, 11)), return_exceptions=True
    )
    assert sum(o == 2 for o in outcomes) == 1
    assert sum(isinstance(o, StaleVersion) for o in outcomes) == 9


async def test_table_bad_input(store: Store) -> None:
    with pytest.raises(InvalidInput, match="stake"):
        await store.create_table(GUILD, CHANNEL, 1, RULES, -5, 60, [])
    with pytest.raises(InvalidInput, match="JSON"):
        await store.create_table(GUILD, CHANNEL, 1, "{not json", 5, 60, [])
    with pytest.raises(InvalidInput, match="both"):
        await store.create_table(
            GUILD, CHANNEL, 1, RULES, 5, 60, [Seat("x", user_id=1, bot="easy")]
        )
    tid = await store.create_table(GUILD, CHANNEL, 1, RULES, 5, 60, [])
    with pytest.raises(InvalidInput, match="no field named colour"):
        await store.update_table(tid, 1, colour="red")
    with pytest.raises(UnknownTable, match="no table with id 999"):
        await store.update_table(999, 1, stake=3)
    with pytest.raises(UnknownTable):
        await store.get_table(999)
    with pytest.raises(UnknownTable):
        await store.close_table(999)
    await store.close_table(tid)
    await store.close_table(tid)  # idempotent
    with pytest.raises(WrongStatus, match="closed"):
        await store.update_table(tid, 2, stake=3)


async def test_closing_a_table_cancels_its_game(store: Store) -> None:
    tid = await store.create_table(GUILD, CHANNEL, 101, RULES, 10, 60, humans(101, 102))
    game = await store.start_game(
        GUILD, CHANNEL, 101, RULES, 10, humans(101, 102), "{}", table_id=tid
    )
    await store.update_table(tid, 1, current_game_id=game.id)
    await store.close_table(tid)
    assert (await store.get_game(game.id)).status == "cancelled"
    assert await store.load_unfinished_games() == []
    with pytest.raises(WrongStatus, match="closed"):
        await store.start_game(GUILD, CHANNEL, 101, RULES, 10, humans(101, 102), "{}", table_id=tid)
    other = await start(store, (201, 202), channel=CHANNEL + 5)
    assert [g.id for g in await store.load_unfinished_games()] == [other.id]
