"""``python -m data.migrate``: a SQLite store copied whole into an empty database."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from data import ChipTransfer, LiveHandRecord, SeatResult, Store
from data.migrate import TABLES as COPIED
from data.migrate import main as migrate_main
from tests.data.store_helpers import GUILD, TABLES, check, humans, snapshot, sql, start

REPO = Path(__file__).resolve().parents[2]
TOKEN = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5OnNlY3JldA-migrate-test-token"


async def main(argv: list[str]) -> int:
    """The command, run in a thread (it runs its own event loop)."""
    return await asyncio.to_thread(migrate_main, argv)


async def old_store(path: Path) -> None:
    """A SQLite store with a bit of everything."""
    store = await Store.open(path)
    try:
        game = await start(store, (1, 2, 3))
        await store.settle_game(
            game.id,
            [ChipTransfer(2, 0, 20, "place"), ChipTransfer(1, 0, 5, "chop")],
            [SeatResult(0, 1, 2), SeatResult(1, 2), SeatResult(2, 3)],
        )
        # a finished season: its frozen standings and the season after it are copied too
        assert await store.end_season(GUILD, early=True) is not None
        cancelled = await start(store, (1, 2), channel=11)
        await store.cancel_game(cancelled.id)
        await store.claim_daily(GUILD, 4)
        await store.adjust_chips(GUILD, 3, 50, "admin")
        await store.admin_change(GUILD, 4, 99, "grant", 30, "event prize")
        await store.admin_change(GUILD, 4, 99, "take", 10, "dispute")
        await store.set_table_channels(GUILD, [12, 13])
        table = await store.create_table(GUILD, 12, 1, "{}", 5, 30, humans(1, 2))
        playing = await store.start_game(
            GUILD, 12, 1, "{}", 5, humans(1, 2), '{"turn": 0}', table_id=table
        )
        await store.update_table(table, 1, current_game_id=playing.id, state_json='{"t": 1}')
        await store.save_game(playing.id, '{"turn": 1}', 1)
        await store.save_live_hand(LiveHandRecord(table, 2, GUILD, 77, 1 << 40, TOKEN, 99,
                                                  123456, selection=(1 << 103) | 5, lang="vi"))
        await store.create_table(GUILD, 13, 2, "{}", 0, 45, [])
        await store.close_table(await store.create_table(GUILD, 14, 2, "{}", 0, 45, []))
        await store.set_guild_settings(GUILD, preset="online", images=False, language="vi")
        await store.set_idle_minutes(GUILD, 7)
        await store.set_meta("commands", "abc123")
        await store.set_prefs(4, four_colour=True, sort_by="suit")
        await store.set_prefs(2, pictures=False)
    finally:
        await store.close()


def test_every_store_table_is_copied() -> None:
    assert {t for t, _ in COPIED} == set(TABLES)


async def test_sqlite_store_copied_whole(tmp_path: Path, db_url: str) -> None:
    source = tmp_path / "old.sqlite3"
    await old_store(source)
    before = snapshot(f"sqlite:///{source}")

    assert await main(["--from", f"sqlite:///{source}", "--to", db_url]) == 0

    assert snapshot(db_url) == before  # row for row, id for id
    assert snapshot(f"sqlite:///{source}") == before  # the source is untouched
    assert check(db_url).ok
    # the copy is a working store: new ids continue after the copied ones
    store = await Store.open(db_url)
    try:
        [table] = [t for t in await store.list_open_tables() if t.channel_id == 12]
        assert table.current_game_id is not None
        game = await store.get_game(table.current_game_id)
        assert (game.version, game.state_json) == (2, '{"turn": 1}')
        await store.settle_game(
            game.id, [ChipTransfer(1, 0, 5, "place")], [SeatResult(0, 1), SeatResult(1, 2)]
        )
        newer = await start(store, (5, 6), channel=20)
        assert newer.id == game.id + 1
        assert await store.create_table(GUILD, 21, 5, "{}", 0, 30, []) == 4
        assert await store.get_chips(GUILD, 1) == 1000 + 25 + 5
        assert (await store.get_guild_settings(GUILD)).images is False
        assert await store.get_idle_minutes(GUILD) == 7  # migration 0006's column is copied
        assert await store.get_meta("commands") == "abc123"
    finally:
        await store.close()
    assert check(db_url).ok


async def test_refuses_a_target_that_holds_data(
    tmp_path: Path, db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "old.sqlite3"
    await old_store(source)
    store = await Store.open(db_url)
    await store.ensure_player(99, 99)
    await store.close()
    before = snapshot(db_url)
    assert await main(["--from", f"sqlite:///{source}", "--to", db_url]) == 2
    assert "not empty (1 players, 1 chip_ledger)" in capsys.readouterr().err
    assert snapshot(db_url) == before


async def test_missing_source_and_bad_urls(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "new.sqlite3"
    missing = tmp_path / "nope.sqlite3"
    assert await main(["--from", f"sqlite:///{missing}", "--to", f"sqlite:///{target}"]) == 2
    assert "No database at" in capsys.readouterr().err
    assert not missing.exists()
    assert not target.exists()
    assert await main(["--from", "mysql://x/y", "--to", f"sqlite:///{target}"]) == 2
    assert "Unknown database URL scheme" in capsys.readouterr().err
    assert await main(["--from", f"sqlite:///{target}", "--to", f"sqlite:///{target}"]) == 2
    assert "same database" in capsys.readouterr().err


async def test_command_line(tmp_path: Path, db_url: str) -> None:
    source = tmp_path / "old.sqlite3"
    await old_store(source)
    result = subprocess.run(
        [sys.executable, "-m", "data.migrate", "--from", str(source), "--to", db_url],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "chip_ledger: 12 rows" in result.stdout
    assert "admin_actions: 2 rows" in result.stdout
    assert "OK: no faults found" in result.stdout
    assert "live_hands: 1 rows" in result.stdout
    assert TOKEN not in result.stdout + result.stderr  # copied, never printed
    async with await Store.open(db_url) as copied:
        [hand] = await copied.live_hands()
    assert (hand.token, hand.selection, hand.lang) == (TOKEN, (1 << 103) | 5, "vi")
    assert sql(db_url, "SELECT COUNT(*) FROM games") == [(3,)]
