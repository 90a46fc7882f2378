"""Live hands kept with their table (data.hands), on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest

from data import InvalidInput, LiveHandRecord, NotOwned, Shards, Store
from data.check import main as check_main
from tests.data.store_helpers import GUILD, check, humans, sql

TOKEN = "fakeixtoken.store-test-secret-0123456789"


def hand(table: int, user: int, *, interaction: int = 1 << 41, token: str = TOKEN,
         guild: int = GUILD, **fields: object) -> LiveHandRecord:
    return LiveHandRecord(table, user, guild, 555, interaction, token, 7000 + user,
                          10**10 + user, **fields)  # type: ignore[arg-type]


async def test_saved_replaced_and_read_back(store: Store) -> None:
    table = await store.create_table(GUILD, 10, 1, "{}", 5, 30, humans(1, 2))
    assert await store.save_live_hand(hand(table, 1, selection=(1 << 103) | 1, lang="vi",
                                           shown_version=4))
    assert await store.save_live_hand(hand(table, 2))
    # A newer interaction takes bob's hand over: one row, the newer token.
    newer = hand(table, 2, interaction=(1 << 41) + 9, token=TOKEN + "-newer", selection=6)
    assert await store.save_live_hand(newer)
    kept = await store.live_hands()
    assert [(h.table_id, h.user_id) for h in kept] == [(table, 1), (table, 2)]
    assert kept[0].selection == (1 << 103) | 1 and kept[0].lang == "vi"
    assert kept[0].shown_version == 4 and kept[0].message_id == 7001
    assert kept[1] == newer
    assert TOKEN not in repr(kept) and TOKEN not in str(kept[0])


async def test_forgotten_only_while_still_that_interactions(store: Store) -> None:
    table = await store.create_table(GUILD, 10, 1, "{}", 5, 30, humans(1, 2))
    await store.save_live_hand(hand(table, 1, interaction=100))
    await store.save_live_hand(hand(table, 1, interaction=200))  # took over
    assert not await store.forget_live_hand(table, 1, 100)  # the older one retiring: kept
    assert [h.interaction_id for h in await store.live_hands()] == [200]
    assert await store.forget_live_hand(table, 1, 200)
    assert await store.live_hands() == []


async def test_closing_a_table_deletes_its_hands(store: Store, db_url: str) -> None:
    first = await store.create_table(GUILD, 10, 1, "{}", 5, 30, humans(1, 2))
    second = await store.create_table(GUILD, 11, 1, "{}", 5, 30, humans(1, 3))
    for user in (1, 2):
        await store.save_live_hand(hand(first, user))
    await store.save_live_hand(hand(second, 3))
    await store.close_table(first)
    assert [(h.table_id, h.user_id) for h in await store.live_hands()] == [(second, 3)]
    assert sql(db_url, "SELECT COUNT(*) FROM live_hands") == [(1,)]
    # A hand saved after its table closed is not kept (a press racing the close).
    assert not await store.save_live_hand(hand(first, 1))
    assert not await store.save_live_hand(hand(10**6, 1))  # no such table
    assert await store.forget_live_hands(second) == 1
    assert check(db_url).ok


async def test_bad_records_refused_without_the_token(store: Store) -> None:
    table = await store.create_table(GUILD, 10, 1, "{}", 5, 30, humans(1))
    for bad in (hand(table, 1, selection=1 << 104), hand(table, 1, interaction=1 << 64),
                hand(table, 1, token=""), hand(table, 1, lang="")):
        with pytest.raises(InvalidInput) as refused:
            await store.save_live_hand(bad)
        assert TOKEN not in str(refused.value)
    assert await store.live_hands() == []


async def test_shards_keep_to_their_own_servers(db_url: str) -> None:
    count = 2
    mine = (1 << 22) * 10  # shard 0 of 2
    theirs = (1 << 22) * 11  # shard 1 of 2
    async with await Store.open(db_url) as everything:
        a = await everything.create_table(mine, 10, 1, "{}", 5, 30, humans(1))
        b = await everything.create_table(theirs, 11, 1, "{}", 5, 30, humans(2))
        await everything.save_live_hand(hand(a, 1, guild=mine))
        await everything.save_live_hand(hand(b, 2, guild=theirs))
    async with await Store.open(db_url, shards=Shards.of({1}, count)) as shard:
        assert [h.table_id for h in await shard.live_hands()] == [b]
        with pytest.raises(NotOwned):
            await shard.save_live_hand(hand(a, 1, guild=mine))


async def test_check_counts_hands_and_never_prints_a_token(
    store: Store, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    table = await store.create_table(GUILD, 10, 1, "{}", 5, 30, humans(1, 2))
    await store.save_live_hand(hand(table, 1))
    report = check(db_url)
    assert report.ok and "1 live hands kept" in report.facts
    # A hand left behind by a closed table (written by hand) is a fault.
    sql(db_url, "UPDATE tables SET status = 'closed' WHERE id = ?", (table,))
    assert not check(db_url).ok
    capsys.readouterr()
    assert check_main([db_url]) == 1
    out = capsys.readouterr()
    assert "live hands belong to closed or missing tables" in out.out
    assert TOKEN not in out.out + out.err
