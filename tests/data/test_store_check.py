from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from data import SeatResult, Store, Transfer
from data.check import check_path, main
from tests.data.store_helpers import GUILD, start

REPO = Path(__file__).resolve().parents[2]


async def populated(db_path: Path) -> None:
    store = await Store.open(db_path)
    try:
        game = await start(store, (1, 2, 3))
        await store.settle_game(
            game.id,
            [Transfer(2, 0, 20, "place"), Transfer(1, 0, 5, "chop")],
            [SeatResult(0, 1), SeatResult(1, 2), SeatResult(2, 3)],
        )
        await start(store, (1, 2))
        await store.claim_daily(GUILD, 4)
    finally:
        await store.close()


def run_cli(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "data.check", str(path)],
        capture_output=True,
        text=True,
        cwd=REPO,
        check=False,
    )


async def test_clean_database_passes(db_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    await populated(db_path)
    assert main([str(db_path)]) == 0
    out = capsys.readouterr().out
    assert "OK: no faults found" in out
    assert "4 players holding 4200 chips" in out
    assert "2 games: 1 finished, 1 playing" in out


async def test_cli_exit_codes(db_path: Path, tmp_path: Path) -> None:
    await populated(db_path)
    assert run_cli(db_path).returncode == 0
    missing = run_cli(tmp_path / "nope.sqlite3")
    assert missing.returncode == 2
    assert "No database" in missing.stderr
    assert not (tmp_path / "nope.sqlite3").exists()


TAMPERS = {
    "balance changed": ("UPDATE players SET chips = chips + 1 WHERE user_id = 1", "ledger sums"),
    "negative balance": (
        "PRAGMA ignore_check_constraints = ON; UPDATE players SET chips = -5 WHERE user_id = 4",
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
    "double daily": (
        "INSERT INTO chip_ledger (guild_id, user_id, delta, reason, created_at) "
        "SELECT guild_id, user_id, delta, reason, created_at FROM chip_ledger "
        "WHERE reason = 'daily'; UPDATE players SET chips = chips + 200 WHERE user_id = 4",
        "less than 24 hours apart",
    ),
}


@pytest.mark.parametrize("name", sorted(TAMPERS))
async def test_tampered_database_fails(db_path: Path, name: str) -> None:
    await populated(db_path)
    sql, expected = TAMPERS[name]
    db = sqlite3.connect(db_path)
    db.execute("DROP TRIGGER chip_ledger_no_update")
    db.execute("DROP TRIGGER chip_ledger_no_delete")
    db.executescript(sql)
    db.commit()
    db.close()
    report = check_path(db_path)
    assert not report.ok
    assert any(expected in f for f in report.faults), report.faults
    result = run_cli(db_path)
    assert result.returncode == 1
    assert "FAULT:" in result.stdout


WORKER = textwrap.dedent(
    """
    import asyncio, sys
    from data import Seat, SeatResult, Store, Transfer

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
                return [Transfer(a, b, min(bal[a], 3), "place")]
            await store.settle_game(game.id, compute, [SeatResult(i, i + 1) for i in range(4)])
            n += 1
            if n == 20:
                print("running", flush=True)
            users = users[1:] + users[:1]

    asyncio.run(main(sys.argv[1]))
    """
)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs SIGKILL")
def test_killed_writer_leaves_a_sound_database(db_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WORKER, str(db_path)],
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
    report = check_path(db_path)
    assert report.ok, report.faults
    db = sqlite3.connect(db_path)
    finished = db.execute("SELECT COUNT(*) FROM games WHERE status = 'finished'").fetchone()[0]
    db.close()
    assert finished >= 20
