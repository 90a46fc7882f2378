"""Two OS processes (two shards: each its own server) finishing games of the same person at once
(data/ratings/): every game lands in her global rating (one per person across servers, the row
both processes update) and in her server ratings, with no update lost: her rating log is one
unbroken chain, each game starting from where the one before it ended. On SQLite and PostgreSQL
(the one the shards share in production)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import textwrap
from pathlib import Path

from data import Store
from data.ratings import GLOBAL
from engine.rating import DEFAULT_SKILL
from tests.data.store_helpers import check, humans, sql

REPO = Path(__file__).resolve().parents[2]
SHARED = 1  # the person at every table of both servers
GAMES = 24  # per server

WORKER = textwrap.dedent(
    """
    import asyncio, json, random, sys
    from data import SeatResult, Store

    async def main(url, seed, game_ids):
        rng = random.Random(seed)
        store = await Store.open(url, pool_size=4)

        async def settle(game_id):
            game = await store.get_game(game_id)
            order = rng.sample(range(len(game.seats)), len(game.seats))
            results = [SeatResult(seat, place + 1) for place, seat in enumerate(order)]
            return (await store.settle_game(game_id, [], results)).first_call

        print("ready", flush=True)
        sys.stdin.readline()  # both start together
        firsts = await asyncio.gather(*(settle(g) for g in game_ids))
        await store.close()
        print(json.dumps(sum(firsts)), flush=True)

    asyncio.run(main(sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])))
    """
)


async def prepare(db_url: str) -> dict[int, list[int]]:
    store = await Store.open(db_url)
    try:
        games: dict[int, list[int]] = {}
        for guild in (1, 2):
            games[guild] = []
            for n in range(GAMES):
                others = (10 * guild + n % 3 + 2, 10 * guild + (n + 1) % 3 + 2)
                seats = humans(SHARED, *others)
                game = await store.start_game(guild, 100 + n, SHARED, "{}", 10, seats, "{}")
                games[guild].append(game.id)
        return games
    finally:
        await store.close()


def chain(db_url: str, guild_id: int) -> int:
    """How many of the shared person's rating changes in `guild_id` follow one another from a
    newcomer's rating, each starting where another ended (all of them: no update lost)."""
    changes = sql(db_url, "SELECT mu_before, sigma_before, mu_after, sigma_after "
                          "FROM rating_changes WHERE guild_id = ? AND user_id = ?",
                  (guild_id, SHARED))
    after = {(float(m0), float(s0)): (float(m1), float(s1)) for m0, s0, m1, s1 in changes}
    assert len(after) == len(changes)  # no two games started from the same rating
    at, steps = (DEFAULT_SKILL.mu, DEFAULT_SKILL.sigma), 0
    while at in after:
        at, steps = after[at], steps + 1
    [(mu, sigma)] = sql(db_url, "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND "
                                "user_id = ?", (guild_id, SHARED))
    assert (float(mu), float(sigma)) == at  # the row holds the chain's end
    return steps


def test_two_shards_rate_one_person_at_once(db_url: str) -> None:
    games = asyncio.run(prepare(db_url))
    procs = [
        subprocess.Popen([sys.executable, "-c", WORKER, db_url, str(guild),
                          json.dumps(games[guild])],
                         cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for guild in (1, 2)
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        out, _ = proc.communicate(timeout=240)
        assert proc.returncode == 0
        assert json.loads(out.strip().splitlines()[-1]) == GAMES  # each of its games, once
    assert sql(db_url, "SELECT guild_id, games FROM ratings WHERE user_id = ? ORDER BY guild_id",
               (SHARED,)) == [(GLOBAL, 2 * GAMES), (1, GAMES), (2, GAMES)]
    assert chain(db_url, GLOBAL) == 2 * GAMES
    assert chain(db_url, 1) == GAMES and chain(db_url, 2) == GAMES
    report = check(db_url)
    assert report.ok, report.faults
