"""The table layer of a process running some shards: it loads and resumes only the open tables of
servers on its shards, refuses to open or act on another process's tables without touching the
store, and a server that moves to another process (shard count changed) is resumed by its new
owner. Real SQLite store; a server's shard is (guild_id >> 22) % shard count."""

from __future__ import annotations

from pathlib import Path

import pytest

from cogs.tables import BoardUnavailable, LiveTable, TableGone, TableService
from data import Store
from data.models import Shards
from engine import Rules

# guild k << 22 is on shard k % count
GUILDS = {k: k << 22 for k in range(1, 7)}


class Quiet:
    """A publisher that shows nothing (these tests look at the service only)."""

    async def publish_board(self, live: LiveTable) -> None:
        pass

    def table_changed(self, live: LiveTable) -> None:
        pass

    async def remind_turn(self, live: LiveTable, seat: int, seconds_left: int) -> None:
        pass

    async def board_lost(self, live: LiveTable, error: BoardUnavailable) -> None:
        pass


async def _open_everywhere(path: Path) -> dict[int, int]:
    """One open table in each server (an unsharded process); guild -> table id."""
    store = await Store.open(path)
    service = TableService(store, Quiet(), board_interval=0.0)
    try:
        tables = {}
        for k, gid in GUILDS.items():
            live = await service.open_table(guild_id=gid, channel_id=100 + k, host_id=200 + k,
                                            host_name=f"host{k}", rules=Rules(), stake=1,
                                            seats=4, turn_seconds=60)
            tables[gid] = live.id
        return tables
    finally:
        await service.shutdown()
        await store.close()


async def _loaded(path: Path, shards: Shards) -> set[int]:
    store = await Store.open(path, shards=shards)
    service = TableService(store, Quiet(), board_interval=0.0, shards=shards)
    try:
        await service.load_all()
        return {live.table.guild_id for live in service.tables.values()}
    finally:
        await service.shutdown()
        await store.close()


async def test_each_process_resumes_only_the_tables_of_its_shards(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    await _open_everywhere(path)
    zero = await _loaded(path, Shards.of([0], 2))
    one = await _loaded(path, Shards.of([1], 2))
    assert zero == {GUILDS[k] for k in (2, 4, 6)}
    assert one == {GUILDS[k] for k in (1, 3, 5)}
    assert await _loaded(path, Shards.of([0, 1], 2)) == set(GUILDS.values())


async def test_a_server_that_moves_is_resumed_by_its_new_owner(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    await _open_everywhere(path)
    # From 2 shards to 3: guild 3 was on shard 1 of 2, now on shard 0 of 3; guild 4 moves
    # from shard 0 to shard 1; every table is resumed by exactly one of the three processes.
    loaded = [await _loaded(path, Shards.of([i], 3)) for i in range(3)]
    assert loaded == [{GUILDS[3], GUILDS[6]}, {GUILDS[1], GUILDS[4]}, {GUILDS[2], GUILDS[5]}]


async def test_another_shards_table_is_never_touched(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite3"
    tables = await _open_everywhere(path)
    shards = Shards.of([0], 2)
    store = await Store.open(path, shards=shards)
    service = TableService(store, Quiet(), board_interval=0.0, shards=shards)
    try:
        await service.load_all()
        theirs = tables[GUILDS[1]]
        before = await store.get_table(theirs)
        with pytest.raises(TableGone):  # worded as a table that is not here
            await service.get(theirs)
        assert theirs not in service.tables
        with pytest.raises(TableGone):
            await service.table_in_channel(101)
        with pytest.raises(TableGone):
            await service.open_table(guild_id=GUILDS[3], channel_id=999, host_id=5,
                                     host_name="x", rules=Rules(), stake=1, seats=4,
                                     turn_seconds=60)
        assert await store.get_open_table_for_channel(999) is None
        assert await store.get_chips(GUILDS[3], 5) is None  # not even a player row
        assert await store.get_table(theirs) == before
        mine = await service.get(tables[GUILDS[2]])
        await service.join(mine, 42, "guest")  # its own tables work as always
        assert [s.user_id for s in mine.seats][:2] == [202, 42]
    finally:
        await service.shutdown()
        await store.close()


async def test_unsharded_service_owns_every_server(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "one.sqlite3")
    service = TableService(store, Quiet(), board_interval=0.0)
    try:
        assert all(service.owns(gid) for gid in GUILDS.values())
    finally:
        await service.shutdown()
        await store.close()
