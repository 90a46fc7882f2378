"""The admin tools in the store (`data.admin`), on SQLite and on PostgreSQL: grants, takes,
sets and resets as ledger rows naming the admin and the reason, refusals that change nothing,
the stake a running game holds, two admins at once, the admin log and `data.check`."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from data import ChipTransfer, GamesRunning, HeldAtTable, InsufficientChips, SeatResult, Store
from data.admin import AMOUNT_MAX, REASON_MAX, TooRich
from data.errors import InvalidInput
from tests.data.store_helpers import GUILD, check, humans, sql, start

ADMIN = 900
OTHER_ADMIN = 901


def ledger(url: str, user: int) -> list[tuple[Any, ...]]:
    return sql(url, "SELECT delta, reason, counterparty, admin_action_id FROM chip_ledger "
                    "WHERE guild_id = ? AND user_id = ? ORDER BY id", (GUILD, user))


async def test_grant_take_and_set_are_ledger_rows_naming_admin_and_reason(
        store: Store, db_url: str) -> None:
    granted = await store.admin_change(GUILD, 5, ADMIN, "grant", 250, "  event prize  ")
    assert (granted.action, granted.amount, granted.delta, granted.chips_after) == (
        "grant", 250, 250, 1250)
    assert (granted.admin_id, granted.user_id, granted.reason) == (ADMIN, 5, "event prize")
    taken = await store.admin_change(GUILD, 5, OTHER_ADMIN, "take", 50, "dispute")
    assert (taken.delta, taken.chips_after) == (-50, 1200)
    set_ = await store.admin_change(GUILD, 5, ADMIN, "set", 700, "correction")
    assert (set_.delta, set_.chips_after) == (-500, 700)
    same = await store.admin_change(GUILD, 5, ADMIN, "set", 700, "again")
    assert same.delta == 0
    assert await store.get_chips(GUILD, 5) == 700
    assert ledger(db_url, 5) == [
        (1000, "grant", None, None),  # the starting chips of a new member
        (250, "admin_grant", ADMIN, granted.id),
        (-50, "admin_take", OTHER_ADMIN, taken.id),
        (-500, "admin_take", ADMIN, set_.id),
    ]
    log = await store.admin_log(GUILD, 5)
    assert [e.id for e in log.entries] == [same.id, set_.id, taken.id, granted.id]
    assert (log.page, log.pages, log.total) == (1, 1, 4)
    report = check(db_url)
    assert report.ok, report.faults
    assert ("chips held 700 = starting grants 1000 + dailies 0 + admin grants 250 - admin "
            "takes 550 + game transfers 0") in report.facts
    assert "4 admin changes: 1 grant, 2 set, 1 take" in report.facts


@pytest.mark.parametrize(("action", "amount", "reason"), [
    ("grant", 0, "zero"), ("take", 0, "zero"), ("grant", -5, "negative"),
    ("set", -1, "negative"), ("grant", AMOUNT_MAX + 1, "too much"), ("grant", "12", "text"),
    ("grant", 1.5, "float"), ("grant", True, "bool"), ("grant", 5, ""), ("grant", 5, "   "),
    ("grant", 5, "x" * (REASON_MAX + 1)), ("steal", 5, "no such action"),
])
async def test_bad_input_changes_nothing(store: Store, db_url: str, action: Any, amount: Any,
                                         reason: str) -> None:
    await store.ensure_player(GUILD, 5)
    with pytest.raises(InvalidInput):
        await store.admin_change(GUILD, 5, ADMIN, action, amount, reason)
    assert await store.get_chips(GUILD, 5) == 1000
    assert (await store.admin_log(GUILD)).total == 0
    assert len(ledger(db_url, 5)) == 1


async def test_take_more_than_held_and_grant_past_the_limit_are_refused(store: Store) -> None:
    await store.ensure_player(GUILD, 5)
    with pytest.raises(InsufficientChips):
        await store.admin_change(GUILD, 5, ADMIN, "take", 1001, "too much")
    await store.admin_change(GUILD, 5, ADMIN, "set", AMOUNT_MAX, "the most")
    with pytest.raises(TooRich):
        await store.admin_change(GUILD, 5, ADMIN, "grant", 1, "one more")
    assert await store.get_chips(GUILD, 5) == AMOUNT_MAX
    assert (await store.admin_log(GUILD)).total == 1


async def test_a_running_game_keeps_its_stake(store: Store, db_url: str) -> None:
    table = await store.create_table(GUILD, 12, 1, "{}", 300, 30, humans(1, 2))
    game = await store.start_game(GUILD, 12, 1, "{}", 300, humans(1, 2), "{}", table_id=table)
    with pytest.raises(HeldAtTable) as refused:
        await store.admin_change(GUILD, 2, ADMIN, "take", 701, "too much")
    assert (refused.value.table_id, refused.value.stake, refused.value.most) == (table, 300, 700)
    with pytest.raises(HeldAtTable):
        await store.admin_change(GUILD, 2, ADMIN, "set", 299, "too low")
    assert await store.get_chips(GUILD, 2) == 1000
    assert (await store.admin_log(GUILD)).total == 0
    await store.admin_change(GUILD, 2, ADMIN, "take", 700, "down to the stake")
    await store.admin_change(GUILD, 3, ADMIN, "take", 1000, "not seated")  # elsewhere: fine
    with pytest.raises(GamesRunning) as running:
        await store.reset_leaderboard(GUILD, ADMIN, "keep", "new season")
    assert running.value.table_ids == (table,)
    await store.settle_game(game.id, [ChipTransfer(1, 0, 300, "place")],
                            [SeatResult(0, 1), SeatResult(1, 2)])
    assert await store.get_chips(GUILD, 2) == 0
    await store.reset_leaderboard(GUILD, ADMIN, "keep", "new season")  # no game runs now
    assert check(db_url).ok


async def test_reset_keeps_or_clears_stats(store: Store, db_url: str) -> None:
    game = await start(store, (1, 2, 3))
    await store.settle_game(game.id, [ChipTransfer(1, 0, 40, "place")],
                            [SeatResult(0, 1), SeatResult(1, 3), SeatResult(2, 2)])
    await store.claim_daily(GUILD, 3)
    kept = await store.reset_leaderboard(GUILD, ADMIN, "keep", "new season")
    assert (kept.action, kept.user_id, kept.amount, kept.players, kept.stats) == (
        "reset", None, 1000, 3, "keep")
    assert kept.delta == -40 + 40 - 200
    assert [await store.get_chips(GUILD, u) for u in (1, 2, 3)] == [1000, 1000, 1000]
    assert (await store.stats(GUILD, 1)).games == 1
    again = await store.reset_leaderboard(GUILD, OTHER_ADMIN, "clear", "wipe")
    assert (again.players, again.delta) == (0, 0)
    stats = await store.stats(GUILD, 1)
    assert (stats.games, stats.wins, stats.places, stats.chips) == (0, 0, {}, 1000)
    assert (await store.leaderboard(GUILD, "wins")).total == 0
    report = check(db_url)
    assert report.ok, report.faults
    assert "2 admin changes: 2 reset" in report.facts


async def test_two_admins_at_once_both_land_in_order(db_url: str) -> None:
    stores = [await Store.open(db_url) for _ in range(2)]  # two connections, as two processes
    try:
        await stores[0].ensure_player(GUILD, 5)
        for _ in range(5):
            await asyncio.gather(
                stores[0].admin_change(GUILD, 5, ADMIN, "grant", 100, "first"),
                stores[1].admin_change(GUILD, 5, OTHER_ADMIN, "set", 500, "second"),
                stores[1].admin_change(GUILD, 5, OTHER_ADMIN, "take", 7, "third"),
            )
        log = list(reversed((await stores[0].admin_log(GUILD, 5, 1)).entries
                            + (await stores[0].admin_log(GUILD, 5, 2)).entries))
        assert len(log) == 15
        chips = 1000
        for entry in log:  # each change saw the one before it
            chips = {"grant": chips + 100, "set": 500, "take": chips - 7}[entry.action]
            assert entry.chips_after == chips
        assert await stores[0].get_chips(GUILD, 5) == chips
    finally:
        for s in stores:
            await s.close()
    report = check(db_url)
    assert report.ok, report.faults


async def test_admin_log_pages_and_members(store: Store) -> None:
    for i in range(12):
        await store.admin_change(GUILD, 5 + i % 2, ADMIN, "grant", i + 1, f"r{i}")
    await store.admin_change(GUILD + 1, 5, ADMIN, "grant", 1, "another server")
    first, second = await store.admin_log(GUILD), await store.admin_log(GUILD, page=2)
    assert (first.total, first.pages) == (12, 2)
    assert [e.reason for e in first.entries] == [f"r{i}" for i in range(11, 1, -1)]
    assert [e.reason for e in second.entries] == ["r1", "r0"]
    mine = await store.admin_log(GUILD, 6)
    assert [e.reason for e in mine.entries] == ["r11", "r9", "r7", "r5", "r3", "r1"]
    assert (await store.admin_log(GUILD, page=3)).entries == ()


async def test_check_finds_admin_rows_that_do_not_match(store: Store, db_url: str) -> None:
    change = await store.admin_change(GUILD, 5, ADMIN, "grant", 10, "prize")
    sql(db_url, "UPDATE players SET chips = chips + 5 WHERE user_id = 5")
    sql(db_url, "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, created_at, "
                "admin_action_id) VALUES (?, 5, 5, 'admin_grant', 'now', ?)", (GUILD, change.id))
    sql(db_url, "UPDATE players SET chips = chips + 3 WHERE user_id = 5")
    sql(db_url, "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, created_at) "
                "VALUES (?, 5, 3, 'admin_grant', 'now')", (GUILD,))
    faults = check(db_url).faults
    assert any(f"Admin change {change.id} (grant) moved 15 chips in 2 ledger rows" in f
               for f in faults), faults
    assert any("does not match an admin change" in f for f in faults), faults


async def test_table_channels(store: Store) -> None:
    assert await store.get_table_channels(GUILD) is None
    await store.set_guild_settings(GUILD, stake=20)
    assert await store.set_table_channels(GUILD, [30, 31, 30]) == (30, 31)
    assert await store.get_table_channels(GUILD) == (30, 31)
    assert (await store.get_guild_settings(GUILD)).stake == 20  # the other settings stay
    await store.set_table_channels(GUILD, None)
    assert await store.get_table_channels(GUILD) is None
    with pytest.raises(InvalidInput):
        await store.set_table_channels(GUILD, list(range(26)))
