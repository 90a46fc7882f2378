"""Two OS processes on one database at once: settling the same games, claiming daily chips for
the same players, opening tables in the same channels. Chips are conserved and never negative,
each game settles once, each player gets one daily claim per day, each channel one table."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
import textwrap
from pathlib import Path

from data import Store
from tests.data.store_helpers import GUILD, T0, check, humans, sql

REPO = Path(__file__).resolve().parents[2]
PLAYERS = (1, 2, 3, 4, 5, 6)
GAMES = 60
CHANNELS = range(1000, 1020)

WORKER = textwrap.dedent(
    """
    import asyncio, json, random, sys
    from datetime import datetime, timedelta
    from data import AlreadyClaimed, ChipTransfer, SeatResult, Store, TableExists

    async def main(url, seed, game_ids, t0):
        rng = random.Random(seed)
        store = await Store.open(url, pool_size=4)
        t0 = datetime.fromisoformat(t0)
        firsts, granted, tables = [], 0, []

        async def settle(game_id):
            game = await store.get_game(game_id)
            order = rng.sample(range(len(game.seats)), len(game.seats))

            def compute(balances):
                left = dict(balances)
                out = []
                for payer, payee, owed in ((order[3], order[0], 700), (order[2], order[1], 300)):
                    paid = min(owed, left[payer])
                    left[payer] -= paid
                    out.append(ChipTransfer(payer, payee, paid, "place"))
                return out

            results = [SeatResult(seat, place + 1) for place, seat in enumerate(order)]
            settled = await store.settle_game(game_id, compute, results)
            if settled.first_call:
                firsts.append(game_id)

        async def claim(user, hours):
            nonlocal granted
            try:
                claim = await store.claim_daily(1, user, now=t0 + timedelta(hours=hours))
            except AlreadyClaimed:
                return
            granted += claim.granted  # after the await: no lost update

        async def open_table(channel):
            try:
                tables.append(await store.create_table(1, channel, 7, "{}", 5, 30, []))
            except TableExists:
                pass

        jobs = [settle(g) for g in game_ids]
        jobs += [claim(u, 0) for u in range(1, 7) for _ in range(3)]
        jobs += [open_table(c) for c in range(1000, 1020)]
        rng.shuffle(jobs)
        print("ready", flush=True)
        sys.stdin.readline()  # both start together
        await asyncio.gather(*jobs)
        # day two: due again for each player, once (whichever process asks first)
        await asyncio.gather(*(claim(u, 24) for u in range(1, 7) for _ in range(2)))
        await store.close()
        print(json.dumps({"firsts": firsts, "granted": granted, "tables": tables}), flush=True)

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3]), sys.argv[4]))
    """
)


async def prepare(db_url: str) -> list[int]:
    store = await Store.open(db_url)
    rng = random.Random(11)
    try:
        games = []
        for n in range(GAMES):
            users = tuple(rng.sample(PLAYERS, 4))
            game = await store.start_game(GUILD, 10 + n, users[0], "{}", 10, humans(*users), "{}")
            games.append(game.id)
        return games
    finally:
        await store.close()


def test_two_processes_share_one_store(db_url: str) -> None:
    games = asyncio.run(prepare(db_url))
    procs = []
    for seed in (1, 2):
        order = games[:]
        random.Random(seed).shuffle(order)
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    WORKER,
                    db_url,
                    str(seed),
                    json.dumps(order),
                    T0.isoformat(),
                ],
                cwd=REPO,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
            )
        )
    for proc in procs:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    outs = []
    for proc in procs:
        out, _ = proc.communicate(timeout=240)
        assert proc.returncode == 0
        outs.append(json.loads(out.strip().splitlines()[-1]))

    firsts = [g for out in outs for g in out["firsts"]]
    assert sorted(firsts) == sorted(games)  # each game settled once, by one process
    granted = sum(out["granted"] for out in outs)
    # per player: one claim on day one and one on day two, whatever the interleaving
    assert granted == 2 * 200 * len(PLAYERS)
    [(total,)] = sql(db_url, "SELECT SUM(chips) FROM players")
    assert total == 1000 * len(PLAYERS) + granted  # chips conserved
    assert sql(db_url, "SELECT COUNT(*) FROM players WHERE chips < 0") == [(0,)]
    claims = sql(
        db_url,
        "SELECT user_id, COUNT(*) FROM chip_ledger WHERE reason = 'daily' GROUP BY user_id",
    )
    assert sorted(claims) == [(u, 2) for u in PLAYERS]
    tables = [t for out in outs for t in out["tables"]]
    assert len(tables) == len(CHANNELS)
    assert sql(db_url, "SELECT COUNT(DISTINCT channel_id) FROM tables") == [(len(CHANNELS),)]
    report = check(db_url)
    assert report.ok, report.faults
    assert report.facts[1] == f"{GAMES} games: {GAMES} finished"
