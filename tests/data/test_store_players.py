from __future__ import annotations

from datetime import timedelta

import pytest

from data import AlreadyClaimed, InsufficientChips, InvalidInput, Store
from tests.data.store_helpers import GUILD, T0, check, sql


async def test_new_player_gets_starting_chips_as_a_grant(store: Store, db_url: str) -> None:
    assert await store.get_chips(GUILD, 5) is None
    assert await store.ensure_player(GUILD, 5) == 1000
    assert await store.ensure_player(GUILD, 5) == 1000  # no second grant
    assert await store.get_chips(GUILD, 5) == 1000
    assert await store.get_chips(GUILD + 1, 5) is None  # per guild
    rows = sql(db_url, "SELECT delta, reason FROM chip_ledger")
    assert rows == [(1000, "grant")]


async def test_starting_and_daily_amounts_are_configurable(db_url: str) -> None:
    s = await Store.open(db_url, starting_chips=50, daily_chips=7)
    try:
        assert await s.ensure_player(GUILD, 1) == 50
        claim = await s.claim_daily(GUILD, 1, now=T0)
        assert (claim.granted, claim.chips) == (7, 57)
    finally:
        await s.close()


async def test_daily_claim_window(store: Store, db_url: str) -> None:
    first = await store.claim_daily(GUILD, 9, now=T0)
    assert first.granted == 200
    assert first.chips == 1200
    assert first.next_at == T0 + timedelta(hours=24)
    for later in (timedelta(0), timedelta(hours=23, minutes=59, seconds=59)):
        with pytest.raises(AlreadyClaimed) as info:
            await store.claim_daily(GUILD, 9, now=T0 + later)
        assert info.value.next_at == T0 + timedelta(hours=24)
        assert "next claim is due at 2025-01-02 12:00 UTC" in str(info.value)
    second = await store.claim_daily(GUILD, 9, now=T0 + timedelta(hours=24))
    assert second.chips == 1400
    assert second.next_at == T0 + timedelta(hours=48)
    # a clock that goes back does not reopen the window
    with pytest.raises(AlreadyClaimed):
        await store.claim_daily(GUILD, 9, now=T0)
    assert await store.get_chips(GUILD, 9) == 1400
    assert check(db_url).ok


async def test_adjust_never_goes_negative(store: Store, db_url: str) -> None:
    assert await store.adjust_chips(GUILD, 3, -400, "admin") == 600
    with pytest.raises(InsufficientChips, match="holds 600 chips"):
        await store.adjust_chips(GUILD, 3, -601, "admin")
    assert await store.get_chips(GUILD, 3) == 600
    assert await store.adjust_chips(GUILD, 3, -600, "admin") == 0
    with pytest.raises(InvalidInput):
        await store.adjust_chips(GUILD, 3, 5, "")
    assert check(db_url).ok


async def test_ledger_is_append_only(store: Store, db_url: str) -> None:
    await store.ensure_player(GUILD, 1)
    # enforced by the database itself, whoever writes
    with pytest.raises(Exception, match="append-only"):
        sql(db_url, "UPDATE chip_ledger SET delta = 5")
    with pytest.raises(Exception, match="append-only"):
        sql(db_url, "DELETE FROM chip_ledger")
    assert sql(db_url, "SELECT delta FROM chip_ledger") == [(1000,)]


async def test_guild_settings(store: Store) -> None:
    s = await store.get_guild_settings(GUILD)
    assert (s.preset, s.stake, s.turn_seconds) == (None, None, None)
    s = await store.set_guild_settings(GUILD, preset="online", stake=25)
    assert (s.preset, s.stake, s.turn_seconds) == ("online", 25, None)
    s = await store.set_guild_settings(GUILD, turn_seconds=45)
    assert (s.preset, s.stake, s.turn_seconds) == ("online", 25, 45)
    assert await store.get_guild_settings(GUILD) == s
    with pytest.raises(InvalidInput, match="stake"):
        await store.set_guild_settings(GUILD, stake=-1)
    with pytest.raises(InvalidInput, match="turn_seconds"):
        await store.set_guild_settings(GUILD, turn_seconds=0)
    for bogus in ("zz_bogus", "southern\u200b", ""):
        with pytest.raises(InvalidInput, match="preset"):
            await store.set_guild_settings(GUILD, preset=bogus)
    assert await store.get_guild_settings(GUILD) == s


async def test_guild_settings_language_reminder_images(store: Store) -> None:
    s = await store.get_guild_settings(GUILD)
    assert (s.language, s.turn_reminder, s.images) == (None, None, None)
    s = await store.set_guild_settings(GUILD, language="vi", turn_reminder=0, images=False)
    assert (s.language, s.turn_reminder, s.images) == ("vi", 0, False)
    s = await store.set_guild_settings(GUILD, stake=5)
    assert (s.language, s.turn_reminder, s.images, s.stake) == ("vi", 0, False, 5)
    s = await store.set_guild_settings(GUILD, images=True, language="auto")
    assert (s.language, s.images) == ("auto", True)
    assert await store.get_guild_settings(GUILD) == s
    with pytest.raises(InvalidInput, match="language"):
        await store.set_guild_settings(GUILD, language="fr")
    with pytest.raises(InvalidInput, match="turn_reminder"):
        await store.set_guild_settings(GUILD, turn_reminder=-1)
    assert await store.get_guild_settings(GUILD) == s


async def test_bot_meta(store: Store) -> None:
    assert await store.get_meta("sync:guild:1") is None
    await store.set_meta("sync:guild:1", "abc")
    await store.set_meta("sync:global", "def")
    await store.set_meta("sync:guild:1", "xyz")
    assert await store.get_meta("sync:guild:1") == "xyz"
    assert await store.get_meta("sync:global") == "def"
    with pytest.raises(InvalidInput):
        await store.set_meta("", "x")


async def test_the_threads_default_is_kept_per_server(store: Store) -> None:
    assert await store.get_threads_default(GUILD) is None  # never chosen: off
    await store.set_threads_default(GUILD, True)
    assert await store.get_threads_default(GUILD) is True
    assert await store.get_threads_default(GUILD + 1) is None
    await store.set_threads_default(GUILD, False)
    assert await store.get_threads_default(GUILD) is False
    for bad in ("yes", 1, None):
        with pytest.raises(InvalidInput, match="threads"):
            await store.set_threads_default(GUILD, bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="guild_id"):
        await store.set_threads_default(-1, True)
