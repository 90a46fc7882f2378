from __future__ import annotations

import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from data import AlreadyClaimed, InsufficientChips, InvalidInput, Store
from data.check import check_path
from tests.data.store_helpers import GUILD, T0


async def test_new_player_gets_starting_chips_as_a_grant(store: Store, db_path: Path) -> None:
    assert await store.get_chips(GUILD, 5) is None
    assert await store.ensure_player(GUILD, 5) == 1000
    assert await store.ensure_player(GUILD, 5) == 1000  # no second grant
    assert await store.get_chips(GUILD, 5) == 1000
    assert await store.get_chips(GUILD + 1, 5) is None  # per guild
    db = sqlite3.connect(db_path)
    rows = db.execute("SELECT delta, reason FROM chip_ledger").fetchall()
    db.close()
    assert rows == [(1000, "grant")]


async def test_starting_and_daily_amounts_are_configurable(db_path: Path) -> None:
    s = await Store.open(db_path, starting_chips=50, daily_chips=7)
    try:
        assert await s.ensure_player(GUILD, 1) == 50
        claim = await s.claim_daily(GUILD, 1, now=T0)
        assert (claim.granted, claim.chips) == (7, 57)
    finally:
        await s.close()


async def test_daily_claim_window(store: Store, db_path: Path) -> None:
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
    assert check_path(db_path).ok


async def test_adjust_never_goes_negative(store: Store, db_path: Path) -> None:
    assert await store.adjust_chips(GUILD, 3, -400, "admin") == 600
    with pytest.raises(InsufficientChips, match="holds 600 chips"):
        await store.adjust_chips(GUILD, 3, -601, "admin")
    assert await store.get_chips(GUILD, 3) == 600
    assert await store.adjust_chips(GUILD, 3, -600, "admin") == 0
    with pytest.raises(InvalidInput):
        await store.adjust_chips(GUILD, 3, 5, "")
    assert check_path(db_path).ok


async def test_ledger_is_append_only(store: Store, db_path: Path) -> None:
    await store.ensure_player(GUILD, 1)
    db = sqlite3.connect(db_path)
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE chip_ledger SET delta = 5")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM chip_ledger")
    db.close()


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
