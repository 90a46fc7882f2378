"""Score the expert's decisions against an oracle: ``python -m benchmarks.ai_decisions``.

A development tool for the ``expert`` player, much less noisy than the arena. It collects decision
points of one seat from games played by ``hard`` (seats rotated), and for each point the *oracle
value* of a play: the result (first place, and the preset's score) when the seat makes that play
and then every seat, itself included, plays ``hard`` with the true hands. Because ``hard`` is
deterministic, that value is exact. A variant of the expert is then scored by the mean oracle value
of the plays it picks on the same points, beside ``hard``'s own pick and the best candidate. By
phase of the game (cards left) it also reports the quality of the deals the expert sampled: owner
accuracy (hidden cards given to their true owner), all-seat consistency (deals under which
``hard`` makes every past decision of every other seat) and deals per decision. The expert's
carried belief is first warmed up to the seat's previous decision, as in a game in progress.

    python -m benchmarks.ai_decisions --points 600 --seed 7
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from engine.ai import Level, _ctx, belief, choose, decide, observe, search
from engine.ai.core import full_mask
from engine.ai.evidence import _match, history
from engine.ai.search import candidates
from engine.ai.sim import Sim, utility
from engine.combos import Combo
from engine.game import Game
from engine.rules import Rules


@dataclass
class Point:
    game_json: str
    seat: int


def collect(rules: Rules, points: int, seed: int, n: int = 4) -> list[Point]:
    """Decision points (with at least two candidates) of one seat per game, from ``hard`` games."""
    out: list[Point] = []
    g = 0
    rng = random.Random(seed)
    while len(out) < points:
        game = Game.new(rules, n, seed=seed * 1_000_003 + g)
        me = g % n
        g += 1
        step = 0
        while not game.is_over:
            step += 1
            seat = game.current
            assert seat is not None
            if seat == me:
                obs = observe(game, seat)
                if len(candidates(_ctx(obs), obs.legal, obs.can_pass)) > 1 and rng.random() < 0.5:
                    out.append(Point(game.to_json(), seat))
            cards = decide(game, seat, "hard")
            if cards is None:
                game.pass_turn(seat)
            else:
                game.play(seat, cards)
    return out[:points]


def oracle(game: Game, seat: int, play: Combo | None) -> tuple[float, float]:
    """(first place 0/1, score) when ``seat`` makes ``play`` and all seats then play ``hard``."""
    obs = observe(game, seat)
    layout = game.rules.layout
    hands = [layout.to_mask(game.hand(s), game.decks) for s in range(game.seat_count)]
    sim = Sim(hands=hands, table=obs.table, owner=obs.table_seat, chop_ctx=obs.chop_context,
              passed=set(obs.passed), cur=seat, finished=list(obs.finished),
              played=obs.played_mask, direction=obs.direction, rules=obs.rules,
              full=full_mask(obs.decks))
    sim.act(seat, play)
    sim.run(seat)
    u = utility(sim, seat)
    first = 1.0 if sim.finished and sim.finished[0] == seat else 0.0
    return first, u


def belief_quality(game: Game, seat: int, deals: list[tuple[list[int], float]]
                   ) -> tuple[float, float]:
    """(owner accuracy, all-seat consistency) of sampled deals, weighted as the search counts
    them: the share of the other seats' cards dealt to their true owner, and the share of deals
    under which the ``hard`` model makes every past decision of every other seat (the true deal
    scores 1.0 on both against ``hard`` opponents)."""
    if not deals:
        return (float("nan"), float("nan"))
    obs = observe(game, seat)
    layout = game.rules.layout
    true = [layout.to_mask(game.hand(s), game.decks) for s in range(game.seat_count)]
    others = [s for s in range(game.seat_count) if s != seat and obs.counts[s]]
    hist = history(obs.log, obs.counts, seat, obs.rules, 999)
    full = full_mask(obs.decks)
    owned = sum(obs.counts[s] for s in others) or 1
    hits = 0.0
    fits = 0.0
    total = sum(w for _, w in deals) or 1.0
    for hands, w in deals:
        hits += w * sum((hands[s] & true[s]).bit_count() for s in others)
        fits += w * all(_match(d, hands[d.seat], game.seat_count, obs.direction, obs.rules,
                               full) for d in hist)
    return hits / (owned * total), fits / total


def _score(args: tuple[list[Point], str, int | None, int, bool]) -> list[tuple[float, ...]]:
    pts, level, budget, seed, known = args
    rows: list[tuple[float, ...]] = []
    for i, p in enumerate(pts):
        game = Game.from_json(p.game_json)
        obs = observe(game, p.seat)
        # The points come from games of ``hard`` seats: ``known`` tells the expert so, as a table
        # shows a computer's level.
        levels = ("hard",) * obs.players if known else None
        if level == "expert":
            # Warm the carried belief up to the seat's previous decision, as in a game in
            # progress, so that the time below is the time of this decision alone.
            ctx = _ctx(obs)
            belief.belief(me=p.seat, n=obs.players, direction=obs.direction, rules=obs.rules,
                          full=full_mask(obs.decks), hand=ctx.hand, counts=obs.counts,
                          log=obs.log, budget_units=(budget or search.DEFAULT_BUDGET_MS)
                          * search.STEPS_PER_MS, budget_ms=budget or search.DEFAULT_BUDGET_MS,
                          before=True, levels=levels)
        search.RECORD = []
        t0 = time.perf_counter()
        pick = choose(obs, level, seed=seed + i, budget_ms=budget, levels=levels)
        ms = (time.perf_counter() - t0) * 1000
        deals = search.RECORD
        search.RECORD = None
        owner, consistent = belief_quality(game, p.seat, deals)
        f, u = oracle(game, p.seat, pick)
        hf, hu = oracle(game, p.seat, choose(obs, "hard"))
        cands = candidates(_ctx(obs), obs.legal, obs.can_pass)
        vals = [oracle(game, p.seat, c) for c in cands]
        bf = max(v[0] for v in vals)
        bu = max(v[1] for v in vals)
        rows.append((f, u, hf, hu, bf, bu, ms, float(obs.table is None), float(sum(obs.counts)),
                     float(len(cands)), owner, consistent, float(len(deals))))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m benchmarks.ai_decisions",
        description="Score one computer player's decisions against the true hands at sampled "
        "decision points and print one JSON line (first-place and score shares, decision times).",
    )
    ap.add_argument("--points", type=int, default=600,
                    help="decision points to collect and score (default 600)")
    ap.add_argument("--seed", type=int, default=7, help="seed of the sampled games (default 7)")
    ap.add_argument("--rules", default="southern",
                    help="rules preset: " + ", ".join(Rules.preset_names()) + " (default southern)")
    ap.add_argument("--level", default="expert", choices=[level.value for level in Level],
                    help="level of the player being scored (default expert)")
    ap.add_argument("--budget-ms", type=int, default=None,
                    help="expert time budget per decision in ms (default 100)")
    ap.add_argument("--workers", type=int, default=2,
                    help="processes scoring in parallel (default 2)")
    ap.add_argument("--out", default=None, help="write the per-point rows (JSON) here")
    ap.add_argument("--known", action="store_true",
                    help="tell the expert the other seats are hard, as a table shows a computer's "
                    "level (default: unknown, as people)")
    ap.add_argument("--set", action="append", default=[],
                    help="module.NAME=value overrides inside engine.ai (e.g. search.HISTORY=8)")
    args = ap.parse_args(argv)
    rules = Rules.preset(args.rules)
    t0 = time.perf_counter()
    pts = collect(rules, args.points, args.seed)
    chunks = [pts[i :: args.workers * 4] for i in range(args.workers * 4)]
    jobs = [(c, args.level, args.budget_ms, args.seed * 1000 + k, args.known)
            for k, c in enumerate(chunks)]
    rows: list[tuple[float, ...]] = []
    with ProcessPoolExecutor(args.workers, initializer=_apply, initargs=(args.set,)) as pool:
        for r in pool.map(_score, jobs):
            rows += r
    k = len(rows)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(rows, f)
    mean = [sum(r[j] for r in rows) / k for j in range(7)]
    times = sorted(r[6] for r in rows)
    print(json.dumps({
        "points": k, "level": args.level, "set": args.set, "known": args.known,
        "first": round(mean[0], 4), "score": round(mean[1], 4),
        "hard_first": round(mean[2], 4), "hard_score": round(mean[3], 4),
        "best_first": round(mean[4], 4), "best_score": round(mean[5], 4),
        "ms_mean": round(mean[6], 1), "ms_p95": round(times[int(0.95 * (k - 1))], 1),
        "seconds": round(time.perf_counter() - t0, 1),
        "by_phase": by_phase(rows),
    }))
    return 0


PHASES = (("35+", 35, 99), ("20-34", 20, 34), ("<20", 0, 19))
"""Cards left in all hands together (the point's phase of the game)."""


def by_phase(rows: list[tuple[float, ...]]) -> dict[str, dict[str, float]]:
    """Per phase: points, first places (picked, ``hard``, best candidate), owner accuracy,
    all-seat consistency and deals per decision (means over the points that sampled deals)."""
    out: dict[str, dict[str, float]] = {}
    for name, lo, hi in PHASES:
        sel = [r for r in rows if lo <= r[8] <= hi]
        dealt = [r for r in sel if r[12] > 0]
        if not sel:
            continue
        k, kd = len(sel), max(1, len(dealt))
        deals = sorted(r[12] for r in dealt) or [0.0]
        out[name] = {
            "points": k,
            "first": round(sum(r[0] for r in sel) / k, 4),
            "hard_first": round(sum(r[2] for r in sel) / k, 4),
            "best_first": round(sum(r[4] for r in sel) / k, 4),
            "owner_accuracy": round(sum(r[10] for r in dealt) / kd, 4),
            "consistent": round(sum(r[11] for r in dealt) / kd, 4),
            "deals_median": deals[len(deals) // 2],
        }
    return out


def _apply(sets: list[str]) -> None:
    for s in sets:
        name, value = s.split("=", 1)
        mod, attr = name.rsplit(".", 1)
        m = importlib.import_module(f"engine.ai.{mod}")
        setattr(m, attr, type(getattr(m, attr))(ast.literal_eval(value)))


if __name__ == "__main__":
    sys.exit(main())
