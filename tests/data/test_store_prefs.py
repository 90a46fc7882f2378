"""A person's preferences (data/prefs.py, migration 0014), on SQLite and PostgreSQL: defaults
until chosen, partial changes, one row per person for every server, and anything not declared
refused with nothing written."""

from __future__ import annotations

import pytest

from data import HandPrefs, InvalidInput, Store
from engine import Suit, parse_cards
from tests.data.store_helpers import sql

SUITS = (Suit.SPADES, Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


async def test_defaults_until_a_person_chooses(store: Store, db_url: str) -> None:
    assert await store.get_prefs(5) == HandPrefs(four_colour=False, sort_by="rank",
                                                 pictures=True)
    assert sql(db_url, "SELECT COUNT(*) FROM player_prefs") == [(0,)]


async def test_changes_are_kept_and_partial(store: Store, db_url: str) -> None:
    got = await store.set_prefs(5, four_colour=True)
    assert got == HandPrefs(four_colour=True)
    got = await store.set_prefs(5, sort_by="suit")
    assert got == HandPrefs(four_colour=True, sort_by="suit")
    got = await store.set_prefs(5, pictures=False, four_colour=False)
    assert got == HandPrefs(sort_by="suit", pictures=False)
    assert await store.get_prefs(5) == got
    assert await store.get_prefs(6) == HandPrefs()  # one person's choice is theirs alone
    assert sql(db_url, "SELECT user_id, four_colour, sort_by, pictures FROM player_prefs") == [
        (5, 0, "suit", 0)]
    big = 2**62 + 7  # Discord ids are 64-bit
    await store.set_prefs(big, four_colour=True)
    assert (await store.get_prefs(big)).four_colour


@pytest.mark.parametrize("changes", [
    {"colour": True},  # not a declared preference
    {"four_colour": "yes"},
    {"four_colour": 1},
    {"sort_by": "colour"},
    {"sort_by": "SUIT"},
    {"pictures": None},
    {"pictures": False, "theme": "dark"},  # one bad name spoils the whole change
])
async def test_undeclared_names_and_values_are_refused(store: Store, db_url: str,
                                                       changes: dict[str, object]) -> None:
    await store.set_prefs(5, sort_by="suit")
    before = sql(db_url, "SELECT * FROM player_prefs")
    with pytest.raises(InvalidInput):
        await store.set_prefs(5, **changes)
    with pytest.raises(InvalidInput):
        await store.set_prefs(8, **changes)
    assert sql(db_url, "SELECT * FROM player_prefs") == before
    assert await store.get_prefs(8) == HandPrefs()


@pytest.mark.parametrize("user_id", [0, -1, 2**63, True])
async def test_a_forged_user_id_is_refused(store: Store, db_url: str, user_id: int) -> None:
    with pytest.raises(InvalidInput):
        await store.set_prefs(user_id, four_colour=True)
    assert sql(db_url, "SELECT COUNT(*) FROM player_prefs") == [(0,)]


async def test_the_database_refuses_values_outside_the_declared_ones(db_url: str,
                                                                     store: Store) -> None:
    with pytest.raises(Exception):  # noqa: B017 - each backend raises its own error
        sql(db_url, "INSERT INTO player_prefs (user_id, four_colour, sort_by, pictures, "
                    "updated_at) VALUES (9, 0, 'colour', 1, 'x')")
    with pytest.raises(Exception):  # noqa: B017
        sql(db_url, "INSERT INTO player_prefs (user_id, four_colour, sort_by, pictures, "
                    "updated_at) VALUES (9, 2, 'rank', 1, 'x')")


def test_a_hand_arranged_by_rank_or_by_suit() -> None:
    cards = parse_cards("2H 3S 9S 5D 6C 5H 7H")
    assert [str(c) for c in HandPrefs().arrange(cards, SUITS)] == [
        "3♠", "5♦", "5♥", "6♣", "7♥", "9♠", "2♥"]
    assert [str(c) for c in HandPrefs(sort_by="suit").arrange(cards, SUITS)] == [
        "3♠", "9♠", "6♣", "5♦", "5♥", "7♥", "2♥"]
    hearts_first = (Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)
    assert [str(c) for c in HandPrefs(sort_by="suit").arrange(cards, hearts_first)] == [
        "5♥", "7♥", "2♥", "5♦", "6♣", "3♠", "9♠"]
    twins = parse_cards("7H 3C 7H 3C")
    assert [str(c) for c in HandPrefs(sort_by="suit").arrange(twins, SUITS)] == [
        "3♣", "3♣", "7♥", "7♥"]
