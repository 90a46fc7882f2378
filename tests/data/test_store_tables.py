from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from data import (
    InvalidInput,
    NotOwned,
    Seat,
    SeatResult,
    Shards,
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


async def test_update_table_record_returns_what_get_table_reads(store: Store) -> None:
    tid = await store.create_table(GUILD, CHANNEL, 101, RULES, 10, 60, [], now=T0)
    record = await store.update_table_record(
        tid, 1, now=T0 + timedelta(seconds=5), seats=[{"user_id": 101, "name": "Ann"}],
        stake=20, state_json='{"lobby": true}',
    )
    assert record == await store.get_table(tid)
    assert (record.version, record.stake, record.seats) == (2, 20, (Seat("Ann", user_id=101),))
    assert record.updated_at == T0 + timedelta(seconds=5)
    with pytest.raises(StaleVersion, match="version 2, not 1"):
        await store.update_table_record(tid, 1, stake=99)
    with pytest.raises(UnknownTable):
        await store.update_table_record(999, 1, stake=3)
    await store.close_table(tid)
    with pytest.raises(WrongStatus, match="closed"):
        await store.update_table_record(tid, 3, stake=3)
    assert (await store.get_table(tid)).stake == 20  # nothing written by the refusals


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


async def test_open_tables_and_games_of_some_shards(store: Store) -> None:
    # real-looking snowflakes: guild k << 22 lives on shard k % count
    guilds = {k: (k << 22) + 12345 for k in range(6)}
    for k, guild in guilds.items():
        await store.create_table(guild, 500 + k, 1, "{}", 0, 30, [])
        await store.start_game(guild, 500 + k, 1, "{}", 0, humans(1, 2), "{}")
    two = Shards.of([1], 2)
    assert [t.guild_id for t in await store.list_open_tables(two)] == [
        guilds[1],
        guilds[3],
        guilds[5],
    ]
    three = Shards.of([0, 2], 3)
    assert [g.guild_id for g in await store.load_unfinished_games(three)] == [
        guilds[0],
        guilds[2],
        guilds[3],
        guilds[5],
    ]
    assert all(three.owns(g.guild_id) for g in await store.load_unfinished_games(three))
    assert len(await store.list_open_tables()) == 6
    assert len(await store.load_unfinished_games(Shards.of([0], 1))) == 6
    big = 1_300_000_000_000_000_000  # a 2025 snowflake: still exact in both databases
    await store.create_table(big, 600, 1, "{}", 0, 30, [])
    assert Shards.shard_of(big, 16) == 0  # like guild 0's
    on_zero = await store.list_open_tables(Shards.of([0], 16))
    assert [t.guild_id for t in on_zero] == [guilds[0], big]
    with pytest.raises(InvalidInput, match=r"outside 0\.\.1"):
        Shards.of([2], 2)
    with pytest.raises(InvalidInput, match="at least one shard"):
        Shards.of([], 2)


async def test_a_sharded_store_touches_only_its_own_servers(db_url: str) -> None:
    mine, theirs = (0 << 22) + 77, (1 << 22) + 77  # shards 0 and 1 of 2
    a = await Store.open(db_url, shards=Shards.of([0], 2))
    b = await Store.open(db_url, shards=Shards.of([1], 2))
    try:
        table = await b.create_table(theirs, 700, 1, RULES, 5, 30, humans(1, 2))
        game = await b.start_game(theirs, 700, 1, RULES, 5, humans(1, 2), "{}", table_id=table)
        await a.create_table(mine, 701, 1, RULES, 5, 30, [])
        with pytest.raises(NotOwned, match=r"shard 1 of 2; this process runs shards \[0\]"):
            await a.create_table(theirs, 702, 1, RULES, 5, 30, [])
        with pytest.raises(NotOwned):
            await a.start_game(theirs, 700, 1, RULES, 5, humans(1, 2), "{}")
        with pytest.raises(NotOwned, match=f"Table {table} belongs to server {theirs}"):
            await a.update_table(table, 1, stake=50)
        with pytest.raises(NotOwned):
            await a.close_table(table)
        with pytest.raises(NotOwned, match=f"Game {game.id}"):
            await a.save_game(game.id, '{"x": 1}', 1)
        with pytest.raises(NotOwned):
            await a.settle_game(game.id, [], [SeatResult(0, 1), SeatResult(1, 2)])
        with pytest.raises(NotOwned):
            await a.cancel_game(game.id)
        # untouched, and still the owner's to change; reads are open to all
        assert (await a.get_table(table)).version == 1
        assert (await a.get_game(game.id)).version == 1
        assert await b.update_table(table, 1, stake=50) == 2
        assert await b.save_game(game.id, '{"x": 1}', 1) == 2
        # each process resumes only its own
        assert [t.guild_id for t in await a.list_open_tables()] == [mine]
        assert [t.guild_id for t in await b.list_open_tables()] == [theirs]
        assert await a.load_unfinished_games() == []
        assert [g.id for g in await b.load_unfinished_games()] == [game.id]
        # chips are not a table: a player's daily claim works from any process
        assert (await a.claim_daily(theirs, 5)).granted == 200
    finally:
        await a.close()
        await b.close()
    unsharded = await Store.open(db_url)
    try:
        assert len(await unsharded.list_open_tables()) == 2
        await unsharded.close_table(table)
    finally:
        await unsharded.close()
