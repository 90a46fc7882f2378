from __future__ import annotations

import pytest

from data import ChipTransfer, InvalidInput, Seat, SeatResult, Store
from tests.data.store_helpers import GUILD, start


async def play(store: Store, winner: int, loser: int) -> None:
    game = await start(store, (winner, loser), stake=0)
    await store.settle_game(game.id, [], [SeatResult(0, 1), SeatResult(1, 2)])


async def test_chips_paging_and_ties(store: Store) -> None:
    for user in range(1, 26):
        await store.ensure_player(GUILD, user)
    await store.ensure_player(GUILD + 1, 99)  # another guild
    for user, delta in ((7, 500), (3, 500), (20, -300)):
        await store.adjust_chips(GUILD, user, delta, "admin")
    p1 = await store.leaderboard(GUILD, "chips", 1)
    assert (p1.total, p1.pages, p1.page) == (25, 3, 1)
    assert [e.user_id for e in p1.entries] == [3, 7, 1, 2, 4, 5, 6, 8, 9, 10]  # ties by user id
    assert [e.rank for e in p1.entries] == list(range(1, 11))
    p3 = await store.leaderboard(GUILD, "chips", 3)
    assert [e.user_id for e in p3.entries] == [22, 23, 24, 25, 20]
    assert p3.entries[-1].chips == 700
    assert p3.entries[0].rank == 21
    assert (await store.leaderboard(GUILD, "chips", 4)).entries == ()
    assert (await store.leaderboard(GUILD + 5)).total == 0
    assert (await store.leaderboard(GUILD + 5)).pages == 1


async def test_wins_and_winrate_threshold(store: Store) -> None:
    # user 1: 10 games, 5 wins; user 2: 10 games, 5 wins (tie); user 3: 3 games, 3 wins
    # user 4: 12 games, 9 wins... built from pairings
    for _ in range(5):
        await play(store, 1, 2)
        await play(store, 2, 1)
    for _ in range(3):
        await play(store, 3, 5)
    for _ in range(9):
        await play(store, 4, 6)
    for _ in range(3):
        await play(store, 6, 4)
    wins = await store.leaderboard(GUILD, "wins")
    assert [(e.user_id, e.wins) for e in wins.entries] == [
        (4, 9),
        (1, 5),
        (2, 5),
        (3, 3),
        (6, 3),
        (5, 0),
    ]
    rate = await store.leaderboard(GUILD, "winrate")
    # 3 (3 games) and 5 (3 games) have fewer than 10 games
    assert [e.user_id for e in rate.entries] == [4, 1, 2, 6]
    assert rate.entries[0].win_rate == 0.75
    assert rate.total == 4
    st = await store.stats(GUILD, 4)
    assert (st.games, st.wins, st.places) == (12, 9, {1: 9, 2: 3})
    assert st.win_rate == 0.75


async def test_leaderboard_bad_input(store: Store) -> None:
    with pytest.raises(InvalidInput, match="Unknown leaderboard 'luck'"):
        await store.leaderboard(GUILD, "luck")
    with pytest.raises(InvalidInput, match="page must be at least 1"):
        await store.leaderboard(GUILD, "chips", 0)


async def test_stats_of_a_stranger(store: Store) -> None:
    """Someone who never played holds the starting chips they get at their first game."""
    st = await store.stats(GUILD, 12345)
    assert (st.games, st.wins, st.places, st.chips, st.win_rate) == (
        0, 0, {}, store.starting_chips, None)
    assert store.starting_chips > 0


async def play_in(store: Store, guild: int, winner: int, loser: int, paid: int) -> None:
    seats = [Seat(f"u{winner}", user_id=winner), Seat(f"u{loser}", user_id=loser)]
    game = await store.start_game(guild, 10, winner, "{}", 0, seats, "{}")
    await store.settle_game(
        game.id, [ChipTransfer(1, 0, paid, "place")], [SeatResult(0, 1), SeatResult(1, 2)]
    )


async def test_global_leaderboard_spans_servers(store: Store) -> None:
    # user 1 wins 30 in server A and loses 10 in server B: net +20 over 2 games
    await play_in(store, 100, 1, 2, 30)
    await play_in(store, 200, 3, 1, 10)
    # user 4 wins 12 games against user 5 in server B, 5 chips each: net +60
    for _ in range(12):
        await play_in(store, 200, 4, 5, 5)
    await store.ensure_player(300, 9)  # never played: not listed
    await store.adjust_chips(300, 1, 5000, "admin")  # chips held are not chips won

    chips = await store.global_leaderboard("chips")
    assert chips.scope == "global"
    assert [(e.user_id, e.net_chips) for e in chips.entries] == [
        (4, 60),
        (1, 20),
        (3, 10),
        (2, -30),
        (5, -60),
    ]
    assert chips.total == 5
    one = chips.entries[1]
    assert (one.games, one.wins, one.rank) == (2, 1, 2)
    assert one.chips == 1030 + 990 + 6000  # held across the three servers
    wins = await store.global_leaderboard("wins")
    assert [(e.user_id, e.wins) for e in wins.entries][:3] == [(4, 12), (1, 1), (3, 1)]
    rate = await store.global_leaderboard("winrate")
    assert [(e.user_id, e.win_rate) for e in rate.entries] == [(4, 1.0), (5, 0.0)]
    # the server board stays per server
    server = await store.leaderboard(200, "chips")
    assert {e.user_id for e in server.entries} == {1, 3, 4, 5}
    assert server.scope == "server"
    assert next(e for e in server.entries if e.user_id == 1).net_chips == -10


async def test_global_leaderboard_pages(store: Store) -> None:
    for user in range(1, 13):
        await play_in(store, 100 + user % 3, user, 100 + user, user)
    p1 = await store.global_leaderboard("chips", 1)
    assert (p1.total, p1.pages) == (24, 3)
    assert [e.user_id for e in p1.entries] == list(range(12, 2, -1))
    p3 = await store.global_leaderboard("chips", 3)
    assert [e.rank for e in p3.entries] == [21, 22, 23, 24]
    assert [(e.user_id, e.net_chips) for e in p3.entries] == [
        (109, -9),
        (110, -10),
        (111, -11),
        (112, -12),
    ]
    assert (await store.global_leaderboard("wins", 4)).entries == ()
    with pytest.raises(InvalidInput, match="Unknown leaderboard"):
        await store.global_leaderboard("luck")
    with pytest.raises(InvalidInput, match="page must be at least 1"):
        await store.global_leaderboard("wins", 0)
