from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from data import ChipTransfer, SeatResult, Store
from data.check import main
from data.db import DatabaseURL
from tests.data.store_helpers import GUILD, check, script, sql, start

REPO = Path(__file__).resolve().parents[2]


async def populated(db_url: str | Path) -> None:
    store = await Store.open(db_url)
    try:
        game = await start(store, (1, 2, 3))
        await store.settle_game(
            game.id,
            [ChipTransfer(2, 0, 20, "place"), ChipTransfer(1, 0, 5, "chop")],
            [SeatResult(0, 1), SeatResult(1, 2), SeatResult(2, 3)],
        )
        await start(store, (1, 2))
        await store.claim_daily(GUILD, 4)
    finally:
        await store.close()


def run_cli(path: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "data.check", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )


async def test_clean_database_passes(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    await populated(db_url)
    assert main([db_url]) == 0
    out = capsys.readouterr().out
    assert "OK: no faults found" in out
    assert "4 players holding 4200 chips" in out
    assert "2 games: 1 finished, 1 playing" in out


async def test_clean_store_passes_on_each_backend(db_url: str) -> None:
    await populated(db_url)
    report = check(db_url)
    assert report.ok, report.faults
    assert "4 players holding 4200 chips; 9 ledger rows" in report.facts[0]
    assert report.facts[1] == "2 games: 1 finished, 1 playing"


async def test_cli_exit_codes(db_url: str, tmp_path: Path) -> None:
    await populated(db_url)
    assert run_cli(db_url).returncode == 0
    if DatabaseURL.parse(db_url).dialect == "sqlite":
        missing = run_cli(tmp_path / "nope.sqlite3")
        assert missing.returncode == 2
        assert "No database" in missing.stderr
        assert not (tmp_path / "nope.sqlite3").exists()
    else:
        server = db_url.rsplit("@", 1)[1].rsplit("/", 1)[0]
        missing = run_cli(f"postgresql://someone:hunter2@{server}/no_such_database")
        assert missing.returncode == 2
        assert "cannot check postgresql://someone:***@" in missing.stderr
        assert "hunter2" not in missing.stderr
    garbled = run_cli("mysql://root:hunter2@db/x")
    assert garbled.returncode == 2
    assert "Unknown database URL scheme" in garbled.stderr
    assert "hunter2" not in garbled.stderr


TAMPERS = {
    "balance changed": ("UPDATE players SET chips = chips + 1 WHERE user_id = 1", "ledger sums"),
    "negative balance": (
        {
            "sqlite": "PRAGMA ignore_check_constraints = ON; ",
            "postgresql": "ALTER TABLE players DROP CONSTRAINT players_chips_check; ",
        },
        "UPDATE players SET chips = -5 WHERE user_id = 4",
        "negative balance",
    ),
    "paid twice": (
        "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, game_id, created_at) "
        "SELECT guild_id, user_id, delta, reason, game_id, created_at FROM chip_ledger "
        "WHERE game_id = 1; UPDATE players SET chips = (SELECT SUM(delta) FROM chip_ledger l "
        "WHERE l.user_id = players.user_id AND l.guild_id = players.guild_id)",
        "settled twice",
    ),
    "not zero-sum": (
        "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, game_id, created_at) "
        "VALUES (1, 1, 7, 'place', 1, '2025-01-01T00:00:00.000000+00:00'); "
        "UPDATE players SET chips = chips + 7 WHERE user_id = 1",
        "sum to 7",
    ),
    "missing result": ("DELETE FROM results WHERE seat = 2", "2 results for 3 seats"),
    "unfinished game paid": (
        "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, game_id, created_at) "
        "VALUES (1, 1, 7, 'place', 2, '2025-01-01T00:00:00.000000+00:00'), "
        "(1, 2, -7, 'place', 2, '2025-01-01T00:00:00.000000+00:00'); "
        "UPDATE players SET chips = chips + 7 WHERE user_id = 1; "
        "UPDATE players SET chips = chips - 7 WHERE user_id = 2",
        "is playing but moved chips",
    ),
    "finished without payment": (
        "UPDATE games SET status = 'finished' WHERE id = 2",
        "0 results for 2 seats",
    ),
    "rating counted twice": (
        "UPDATE ratings SET games = games + 1 WHERE user_id = 1 AND guild_id = 1",
        "counts 2 games but 1 rating changes are logged",
    ),
    "casual game rated": (
        "UPDATE games SET ranked = 0 WHERE id = 1",
        "Game 1 is casual but moved ratings",
    ),
    "double daily": (
        "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, created_at) "
        "SELECT guild_id, user_id, delta, reason, created_at FROM chip_ledger "
        "WHERE reason = 'daily'; UPDATE players SET chips = chips + 200 WHERE user_id = 4",
        "less than 24 hours apart",
    ),
}


UNGUARD = {
    "sqlite": "DROP TRIGGER chip_ledger_no_update; DROP TRIGGER chip_ledger_no_delete; ",
    "postgresql": "DROP TRIGGER chip_ledger_no_update ON chip_ledger; "
    "DROP TRIGGER chip_ledger_no_delete ON chip_ledger; ",
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
async def test_tampered_database_fails(db_url: str, name: str) -> None:
    await populated(db_url)
    *prefix, tamper, expected = TAMPERS[name]
    dialect = DatabaseURL.parse(db_url).dialect
    before = "".join(p[dialect] for p in prefix)
    script(db_url, UNGUARD[dialect] + before + tamper)
    report = check(db_url)
    assert not report.ok
    assert any(expected in f for f in report.faults), report.faults
    assert any("not append-only" in f for f in report.faults), report.faults


@pytest.mark.parametrize("name", ["paid twice", "missing result"])
def test_cli_reports_faults(db_url: str, name: str) -> None:
    asyncio.run(populated(db_url))
    script(db_url, UNGUARD[DatabaseURL.parse(db_url).dialect] + str(TAMPERS[name][0]))
    result = run_cli(db_url)
    assert result.returncode == 1
    assert "FAULT:" in result.stdout


WORKER = textwrap.dedent(
    """
    import asyncio, sys
    from data import Seat, SeatResult, Store, ChipTransfer

    async def main(path):
        store = await Store.open(path)
        users = [1, 2, 3, 4]
        n = 0
        while True:
            seats = [Seat(f"u{u}", user_id=u) for u in users]
            game = await store.start_game(1, 10 + n, 1, "{}", 1, seats, "{}")
            for v in range(1, 4):
                await store.save_game(game.id, '{"v": %d}' % v, v)
            def compute(bal, n=n):
                a, b = n % 4, (n + 1) % 4
                return [ChipTransfer(a, b, min(bal[a], 3), "place")]
            await store.settle_game(game.id, compute, [SeatResult(i, i + 1) for i in range(4)])
            n += 1
            if n == 20:
                print("running", flush=True)
            users = users[1:] + users[:1]

    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_writer_leaves_a_sound_database(db_url: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WORKER, db_url],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "running"
        time.sleep(0.3)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    report = check(db_url)
    assert report.ok, report.faults
    [(finished,)] = sql(db_url, "SELECT COUNT(*) FROM games WHERE status = 'finished'")
    assert finished >= 20


async def test_a_round_chip_total_reads_as_a_number(db_url: str) -> None:
    """PostgreSQL's SUM of integers is a decimal: 10000 must not read "1E+4"."""
    store = await Store.open(db_url, starting_chips=5000)
    try:
        await store.ensure_player(GUILD, 1)
        await store.ensure_player(GUILD, 2)
    finally:
        await store.close()
    assert "2 players holding 10000 chips" in check(db_url).facts[0]
