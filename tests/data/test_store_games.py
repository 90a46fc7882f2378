from __future__ import annotations

import asyncio

import pytest

from data import (
    ChipTransfer,
    InsufficientChips,
    InvalidInput,
    Seat,
    SeatResult,
    StaleVersion,
    Store,
    UnknownGame,
    WrongStatus,
)
from tests.data.store_helpers import CHANNEL, GUILD, check, humans, snapshot, sql, start

RULES = "{}"


async def test_start_game_checks_stakes(store: Store) -> None:
    await store.adjust_chips(GUILD, 102, -995, "admin")  # holds 5
    with pytest.raises(InsufficientChips, match="<@102> holds 5 chips, fewer than the 10"):
        await start(store, (101, 102), stake=10)
    assert await store.load_unfinished_games() == []
    game = await start(store, (101, 102), stake=5, bots=2)
    assert (game.status, game.version, game.stake, game.state_json) == ("playing", 1, 5, "{}")
    assert [s.user_id for s in game.seats] == [101, 102, None, None]
    assert await store.get_game(game.id) == game


async def test_start_game_bad_input(store: Store) -> None:
    with pytest.raises(InvalidInput, match="stake must be at least 0"):
        await start(store, (101, 102), stake=-1)
    with pytest.raises(InvalidInput, match="two seats"):
        await start(store, (101, 101))
    with pytest.raises(InvalidInput, match="at least two"):
        await store.start_game(GUILD, CHANNEL, 1, RULES, 1, humans(1), None)
    with pytest.raises(InvalidInput, match="Every seat"):
        await store.start_game(GUILD, CHANNEL, 1, RULES, 1, [*humans(1), Seat("empty")], None)
    assert await store.get_chips(GUILD, 101) is None  # nothing half-written


async def test_save_game_optimistic_versions(store: Store) -> None:
    game = await start(store)
    assert await store.save_game(game.id, '{"turn": 1}', 1) == 2
    assert await store.save_game(game.id, '{"turn": 2}', 2) == 3
    with pytest.raises(StaleVersion, match="version 3, not 2"):
        await store.save_game(game.id, '{"stale": true}', 2)
    g = await store.get_game(game.id)
    assert (g.version, g.state_json) == (3, '{"turn": 2}')
    with pytest.raises(UnknownGame, match="no game with id 999"):
        await store.save_game(999, "{}", 1)
    # concurrent writers at one version: exactly one wins
    outcomes = await asyncio.gather(
        *(store.save_game(game.id, f'{{"w": {i}}}', 3) for i in range(10)), return_exceptions=True
    )
    assert outcomes.count(4) == 1
    assert sum(isinstance(o, StaleVersion) for o in outcomes) == 9
    assert [g.id for g in await store.load_unfinished_games()] == [game.id]


async def test_cancel_moves_nothing(store: Store, db_url: str) -> None:
    game = await start(store)
    cancelled = await store.cancel_game(game.id)
    assert cancelled.status == "cancelled"
    assert (await store.cancel_game(game.id)).status == "cancelled"
    assert await store.load_unfinished_games() == []
    with pytest.raises(WrongStatus):
        await store.save_game(game.id, "{}", 1)
    with pytest.raises(WrongStatus, match="only a game in play settles"):
        await store.settle_game(game.id, [], [SeatResult(i, i + 1) for i in range(4)])
    with pytest.raises(UnknownGame):
        await store.cancel_game(999)
    for u in (101, 102, 103, 104):
        assert await store.get_chips(GUILD, u) == 1000
    assert check(db_url).ok


def four_player_places() -> tuple[list[ChipTransfer], list[SeatResult]]:
    # places: seat 2 first, seat 0 second, seat 3 third, seat 1 last; stake 10
    transfers = [ChipTransfer(1, 2, 20, "place"), ChipTransfer(3, 0, 10, "place")]
    results = [SeatResult(2, 1, 1), SeatResult(0, 2), SeatResult(3, 3), SeatResult(1, 4, 2)]
    return transfers, results


async def test_settle_books_everything_once(store: Store, db_url: str) -> None:
    game = await start(store)
    transfers, results = four_player_places()
    first = await store.settle_game(game.id, transfers, results)
    assert first.first_call
    assert first.chip_changes == {101: 10, 102: -20, 103: 20, 104: -10}
    assert [r.place for r in first.results] == [2, 4, 1, 3]
    second = await store.settle_game(game.id, transfers, results)
    assert not second.first_call
    assert second == first
    # even with different arguments, nothing more is booked
    assert await store.settle_game(game.id, [ChipTransfer(0, 1, 500, "place")], results) == first
    chips = {u: await store.get_chips(GUILD, u) for u in (101, 102, 103, 104)}
    assert chips == {101: 1010, 102: 980, 103: 1020, 104: 990}
    g = await store.get_game(game.id)
    assert g.status == "finished"
    assert g.finished_at is not None
    with pytest.raises(WrongStatus):
        await store.save_game(game.id, "{}", 1)
    with pytest.raises(WrongStatus, match="already settled"):
        await store.cancel_game(game.id)
    st = await store.stats(GUILD, 103)
    assert (st.games, st.wins, st.places, st.chips_won, st.chips_lost, st.bombs_played) == (
        1,
        1,
        {1: 1},
        20,
        0,
        1,
    )
    st = await store.stats(GUILD, 102)
    assert (st.games, st.wins, st.places, st.chips_won, st.chips_lost, st.bombs_played) == (
        1,
        0,
        {4: 1},
        0,
        20,
        2,
    )
    rows = sql(
        db_url,
        "SELECT user_id, delta, reason, counterparty FROM chip_ledger "
        "WHERE game_id = ? ORDER BY id",
        (game.id,),
    )
    assert rows == [
        (102, -20, "place", 103),
        (103, 20, "place", 102),
        (104, -10, "place", 101),
        (101, 10, "place", 104),
    ]
    assert check(db_url).ok


async def test_settle_with_computer_players(store: Store, db_url: str) -> None:
    game = await start(store, (101, 102), bots=2)
    results = [SeatResult(0, 1), SeatResult(2, 2), SeatResult(3, 3), SeatResult(1, 4)]
    with pytest.raises(InvalidInput, match="Computer players hold no chips"):
        await store.settle_game(game.id, [ChipTransfer(2, 0, 5, "place")], results)
    # owed to or by a computer player, but paid 0: allowed, books nothing
    settled = await store.settle_game(
        game.id, [ChipTransfer(1, 0, 20, "place"), ChipTransfer(3, 2, 0, "place")], results
    )
    assert settled.chip_changes == {101: 20, 102: -20}
    assert [r.user_id for r in settled.results] == [101, 102, None, None]
    assert check(db_url).ok


async def test_settle_with_balances_read_in_the_transaction(store: Store) -> None:
    game = await start(store, (101, 102), bots=1, stake=10)
    await store.adjust_chips(GUILD, 102, -990, "admin")
    seen: list[dict[int, int | None]] = []

    def compute(balances: dict[int, int | None]) -> list[ChipTransfer]:
        seen.append(dict(balances))
        owed = 30
        held = balances[1]
        assert held is not None
        return [ChipTransfer(1, 0, min(owed, held), "loser_pays")]

    results = [SeatResult(0, 1), SeatResult(2, 2), SeatResult(1, 3)]
    settled = await store.settle_game(game.id, compute, results)
    assert seen == [{0: 1000, 1: 10, 2: None}]
    assert settled.chip_changes == {101: 10, 102: -10}
    assert await store.get_chips(GUILD, 102) == 0


async def test_settle_bad_input_writes_nothing(store: Store, db_url: str) -> None:
    game = await start(store, (101, 102, 103))
    ok = [SeatResult(0, 1), SeatResult(1, 2), SeatResult(2, 3)]
    cases: list[tuple[list[ChipTransfer], list[SeatResult], str]] = [
        ([ChipTransfer(5, 0, 1, "place")], ok, "Seat 5 .payer. is not seated"),
        ([ChipTransfer(0, 0, 1, "place")], ok, "cannot pay itself"),
        ([ChipTransfer(1, 0, -1, "place")], ok, "paid must be at least 0"),
        ([ChipTransfer(1, 0, 1, "")], ok, "needs a reason"),
        ([], ok[:2], "missing seats \\[2\\]"),
        ([], [*ok[:2], SeatResult(2, 2)], "Place 2"),
        ([], [*ok, SeatResult(7, 4)], "Seat 7 is not seated"),
        ([], [*ok[:2], SeatResult(1, 3)], "two results"),
    ]
    for transfers, results, message in cases:
        with pytest.raises(InvalidInput, match=message):
            await store.settle_game(game.id, transfers, results)
    # a payer who cannot cover it: the whole settlement rolls back
    with pytest.raises(InsufficientChips):
        await store.settle_game(
            game.id, [ChipTransfer(2, 0, 5, "place"), ChipTransfer(1, 0, 5000, "place")], ok
        )
    with pytest.raises(UnknownGame):
        await store.settle_game(999, [], ok)
    assert (await store.get_game(game.id)).status == "playing"
    assert {u: await store.get_chips(GUILD, u) for u in (101, 102, 103)} == dict.fromkeys(
        (101, 102, 103), 1000
    )
    assert (await store.stats(GUILD, 101)).games == 0
    assert check(db_url).ok
    assert (await store.settle_game(game.id, [ChipTransfer(2, 0, 5, "place")], ok)).first_call


@pytest.mark.parametrize(
    "point",
    [
        "settle:after_balances",
        "settle:after_ledger",
        "settle:after_results",
        "settle:before_commit",
    ],
)
async def test_crash_inside_settlement_leaves_no_trace(
    store: Store, db_url: str, point: str
) -> None:
    game = await start(store)
    transfers, results = four_player_places()
    before = snapshot(db_url)

    def hook(where: str) -> None:
        if where == point:
            raise RuntimeError(f"crash at {where}")

    store.fault_hook = hook
    with pytest.raises(RuntimeError, match="crash at"):
        await store.settle_game(game.id, transfers, results)
    assert snapshot(db_url) == before
    assert (await store.get_game(game.id)).status == "playing"
    assert check(db_url).ok
    store.fault_hook = None
    settled = await store.settle_game(game.id, transfers, results)
    assert settled.first_call
    assert check(db_url).ok


async def test_cancelled_task_inside_settlement_rolls_back(store: Store, db_url: str) -> None:
    """The bot shutting down (task cancelled) in the middle of a settlement books nothing."""
    game = await start(store)
    transfers, results = four_player_places()

    def hook(where: str) -> None:
        if where == "settle:after_ledger":
            task = asyncio.current_task()
            assert task is not None
            task.cancel()  # delivered at the next await, inside the transaction

    store.fault_hook = hook
    task = asyncio.create_task(store.settle_game(game.id, transfers, results))
    with pytest.raises(asyncio.CancelledError):
        await task
    store.fault_hook = None
    assert (await store.get_game(game.id)).status == "playing"
    assert {u: await store.get_chips(GUILD, u) for u in (101, 102, 103, 104)} == dict.fromkeys(
        (101, 102, 103, 104), 1000
    )
    assert check(db_url).ok
    assert (await store.settle_game(game.id, transfers, results)).first_call
