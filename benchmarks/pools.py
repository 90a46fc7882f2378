"""Expert and ``hard`` against opponent pools on the same deals: ``python -m benchmarks.pools``.

    python -m benchmarks.pools --pools hard,normal,easy,noisy10,noisy30,greedy,mixed --games 200

For each pool of three opponents and each game ``i`` (dealt from seed ``(seed, i)``, the measured
player in seat ``i mod 4``, the pool's players in the seats after it), the game is played twice
on the same deal: once with ``expert`` in the measured seat and once with ``hard``. The script
prints, per pool, each one's first-place share and the paired difference (expert minus hard) of
first places and of chips per game, with 95% intervals, and the expert's decision-time mean, p95
and maximum (ms). Opponents other than levels: :mod:`benchmarks.opponents`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor

from benchmarks.ai_decisions import _apply as apply_overrides
from benchmarks.arena import play_game
from benchmarks.opponents import is_player
from engine.ai import search
from engine.rules import Rules

__all__ = ["POOLS", "main", "paired"]

POOLS: dict[str, tuple[str, str, str]] = {
    "hard": ("hard", "hard", "hard"),
    "normal": ("normal", "normal", "normal"),
    "easy": ("easy", "easy", "easy"),
    "noisy10": ("noisy10", "noisy10", "noisy10"),
    "noisy30": ("noisy30", "noisy30", "noisy30"),
    "greedy": ("greedy", "greedy", "greedy"),
    "mixed": ("hard", "normal", "noisy30"),
    "mixed2": ("greedy", "easy", "noisy10"),
}
"""Opponent pools by name: three players each (levels or benchmark players)."""


Row = tuple[float, float, float, float, list[float], list[float], list[float]]
"""One paired game: expert first (0/1), expert chips, hard first, hard chips, the expert's
decision times (ms), the simulated decisions each of its decisions spent, and its decision times
in CPU time (ms)."""


def _games(args: tuple[tuple[str, ...], str, int, list[int], int | None]) -> list[Row]:
    pool, rules_json, seed, indexes, budget_ms = args
    rules = Rules.model_validate_json(rules_json)
    out: list[Row] = []
    for i in indexes:
        game_seed = seed * 1_000_003 + i
        rot = i % 4
        search.SPENT = []
        e = play_game(["expert", *pool], rules, game_seed, rot, budget_ms)
        spent, search.SPENT = search.SPENT, None
        h = play_game(["hard", *pool], rules, game_seed, rot, budget_ms)
        out.append((float(e.places[0] == 1), e.chips[0], float(h.places[0] == 1), h.chips[0],
                    e.times[0], spent, e.cpu[0]))
    return out


def _ci(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def _percentiles(xs: Sequence[float]) -> dict[str, float]:
    """Mean, 95th percentile and maximum of sorted ``xs``."""
    if not xs:
        return {"mean": 0.0, "p95": 0.0, "max": 0.0}
    return {"mean": round(sum(xs) / len(xs), 1), "p95": round(xs[int(0.95 * (len(xs) - 1))], 1),
            "max": round(xs[-1], 1)}


def summarise(pool: Sequence[str], rows: Sequence[Row],
              seconds: float) -> dict[str, object]:
    """The figures of paired games ``rows`` (see :func:`paired`)."""
    ef, efci = _ci([r[0] for r in rows])
    hf, hfci = _ci([r[2] for r in rows])
    df, dfci = _ci([r[0] - r[2] for r in rows])
    dc, dcci = _ci([r[1] - r[3] for r in rows])
    times = sorted(t for r in rows for t in r[4])
    work = sorted(u / search.STEPS_PER_MS for r in rows for u in r[5])
    cpu = sorted(t for r in rows for t in r[6])
    return {
        "pool": ",".join(pool), "games": len(rows),
        "expert_first": [round(100 * ef, 1), round(100 * efci, 1)],
        "hard_first": [round(100 * hf, 1), round(100 * hfci, 1)],
        "diff_first": [round(100 * df, 1), round(100 * dfci, 1)],
        "diff_chips": [round(dc, 2), round(dcci, 2)],
        "expert_ms": _percentiles(times),
        # CPU time of the deciding process: on a shared machine it reads what the wall clock
        # would on a quiet one (the processes wait for a core, but do not work longer).
        "expert_cpu_ms": _percentiles(cpu),
        # The work of each expert decision (its search, or its belief's step when it needs
        # none) in milliseconds at the calibrated rate, search.STEPS_PER_MS.
        "expert_work_ms": {
            "decisions": len(work),
            "mean": round(sum(work) / max(1, len(work)), 1),
            "p95": round(work[int(0.95 * (len(work) - 1))], 1) if work else 0.0,
            "max": round(work[-1], 1) if work else 0.0},
        "seconds": round(seconds, 1),
    }


def paired(pool: Sequence[str], games: int, rules: Rules, seed: int = 1, workers: int = 1,
           budget_ms: int | None = None, progress: bool = False) -> dict[str, object]:
    """Play ``games`` paired games against ``pool`` and summarise them (``progress``: print the
    running figures to stderr after each batch of games)."""
    for name in pool:
        if not is_player(name):
            raise ValueError(f"unknown player {name!r}")
    t0 = time.perf_counter()
    chunks = max(1, min(games, max(workers * 8, (games + 9) // 10)))
    parts = [list(range(i, games, chunks)) for i in range(chunks)]
    jobs = [(tuple(pool), rules.model_dump_json(), seed, part, budget_ms) for part in parts if part]
    rows: list[Row] = []

    def done(out: list[Row]) -> None:
        rows.extend(out)
        if progress:
            print(json.dumps(summarise(pool, rows, time.perf_counter() - t0)), file=sys.stderr,
                  flush=True)

    if workers <= 1:
        for job in jobs:
            done(_games(job))
    else:
        with ProcessPoolExecutor(max_workers=workers) as ex:
            for out in ex.map(_games, jobs):
                done(out)
    return summarise(pool, rows, time.perf_counter() - t0)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.pools",
        description="Expert and hard against opponent pools on the same deals (paired), one "
        "JSON line per pool: first places with 95% intervals, the paired difference, decision "
        "times.")
    ap.add_argument("--pools", default="hard,normal,easy,noisy10,noisy30,greedy,mixed,mixed2",
                    help="comma-separated pool names: " + ", ".join(POOLS)
                    + ", or three players joined by '+' (e.g. hard+greedy+easy)")
    ap.add_argument("--games", type=int, default=100, help="paired games per pool (default 100)")
    ap.add_argument("--rules", default="southern", help="rules preset (default southern)")
    ap.add_argument("--seed", type=int, default=1, help="game i is dealt from (seed, i)")
    ap.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    ap.add_argument("--budget-ms", type=int, default=None,
                    help="expert time budget per decision in ms (default 100)")
    ap.add_argument("--set", action="append", default=[],
                    help="module.NAME=value overrides inside engine.ai, e.g. "
                    "search.NOISE_FROM=2.0 (one process: use with --workers 1)")
    args = ap.parse_args(argv)
    apply_overrides(args.set)
    rules = Rules.preset(args.rules)
    for name in args.pools.split(","):
        pool = POOLS.get(name) or tuple(name.split("+"))
        if len(pool) != 3:
            ap.error(f"a pool has three players: {name!r}")
        try:
            row = paired(pool, args.games, rules, args.seed, args.workers, args.budget_ms,
                         progress=True)
        except ValueError as error:
            ap.error(str(error))
        print(json.dumps({"name": name, **row}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
