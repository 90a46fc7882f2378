"""Pit computer players against each other: ``python -m benchmarks.arena``.

    python -m benchmarks.arena --seats expert,hard,hard,hard --games 2000 --rules southern --seed 1
    python -m benchmarks.arena --seats hard,normal,normal,normal --rules southern --set cong=true

Game ``i`` is dealt from seed ``(seed, i)`` and rotates the players by ``i`` seats, so every player
sits in every seat equally often. ``--set OPTION=VALUE`` changes single rule options of the preset;
with a card exchange (4+ players) every game is dealt as a later game at its table, after a seeded
random result, so the exchange happens each time. Games run in parallel processes. For each player
the arena prints its first-place share, mean place and mean chips per game under the rules'
scoring (stake 1), each with a 95% confidence interval, and the mean and 95th percentile of its
decision time.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from benchmarks.opponents import PLAYERS, decide_as, is_player, known_levels, returns_as
from engine.ai import Level
from engine.game import Game
from engine.rules import Rules
from engine.settle import settle

__all__ = ["ArenaResult", "PlayerStats", "chips_for", "deal", "main", "play_game", "run_arena"]


def chips_for(game: Game) -> list[float]:
    """Chips won or lost by each seat at stake 1 under the rules' scoring, extras included
    (:func:`engine.settle.settle`, uncapped)."""
    net = settle(game.outcome, game.events, stake=1, balances=[None] * game.seat_count).owed_net
    return [float(net[s]) for s in range(game.seat_count)]


def deal(rules: Rules, n: int, seed: int) -> Game:
    """The arena's deal for game seed ``seed``. With a card exchange (4+ players) it is dealt as a
    later game at a table whose last result is a seeded permutation of the seats, so the exchange
    (and the winner's lead) happen in every game."""
    if rules.card_exchange != "off" and n >= 4:
        previous = list(range(n))
        random.Random(seed).shuffle(previous)
        return Game.new(rules, n, seed=seed, first_game=False, previous_places=previous,
                        leader=previous[0] if rules.winner_leads_next else None)
    return Game.new(rules, n, seed=seed)


@dataclass
class GameRecord:
    places: list[int]  # per player index: 1 = first
    chips: list[float]  # per player index
    times: list[list[float]] = field(default_factory=list)  # per player index: ms per decision
    cpu: list[list[float]] = field(default_factory=list)  # the same in CPU time of this process


def play_game(
    levels: Sequence[str],
    rules: Rules,
    seed: int,
    rotation: int,
    budget_ms: int | None = None,
    known: bool = True,
) -> GameRecord:
    """Play one game; player ``p`` sits in seat ``(p + rotation) % n``. ``known``: every player
    is told the levels of the seats that play as a level, as a table shows a computer's level
    (the benchmark players of :mod:`benchmarks.opponents` are shown as people)."""
    n = len(levels)
    seat_level = [""] * n
    player_of = [0] * n
    for p in range(n):
        s = (p + rotation) % n
        seat_level[s] = levels[p]
        player_of[s] = p
    game = deal(rules, n, seed)
    shown = known_levels(seat_level) if known else None
    times: list[list[float]] = [[] for _ in range(n)]
    cpu: list[list[float]] = [[] for _ in range(n)]
    step = 0
    while game.phase == "exchange":
        for s, _k in game.pending_returns.items():
            game.return_cards(s, returns_as(game, s, seat_level[s]))
            break
    while not game.is_over:
        step += 1
        seat = game.current
        assert seat is not None
        t0, c0 = time.perf_counter(), time.process_time()
        cards = decide_as(game, seat, seat_level[seat], seed=seed * 7919 + step,
                          budget_ms=budget_ms, levels=shown)
        times[player_of[seat]].append((time.perf_counter() - t0) * 1000.0)
        cpu[player_of[seat]].append((time.process_time() - c0) * 1000.0)
        if cards is None:
            game.pass_turn(seat)
        else:
            game.play(seat, cards)
        if rules.chop_after_pass != "off" and not game.is_over and game.table is not None:
            for other in game.has_out_of_turn_chop():
                chop = decide_as(game, other, seat_level[other], seed=seed * 7919 + step,
                                 levels=shown)
                if chop is not None:
                    game.play(other, chop)
                    break
    outcome = game.outcome
    assert outcome is not None
    chips = chips_for(game)
    places = [0] * n
    pchips = [0.0] * n
    for place, s in enumerate(outcome.places, 1):
        places[player_of[s]] = place
        pchips[player_of[s]] = chips[s]
    return GameRecord(places, pchips, times, cpu)


def _worker(args: tuple[list[str], str, int, list[int], int | None, bool]
            ) -> list[GameRecord]:
    levels, rules_json, seed, indexes, budget_ms, known = args
    rules = Rules.model_validate_json(rules_json)
    n = len(levels)
    return [
        play_game(levels, rules, seed * 1_000_003 + i, i % n, budget_ms, known)
        for i in indexes
    ]


@dataclass
class PlayerStats:
    label: str
    first: float
    first_ci: float
    place: float
    place_ci: float
    chips: float
    chips_ci: float
    ms_mean: float
    ms_p95: float
    ms_max: float = 0.0


@dataclass
class ArenaResult:
    games: int
    players: list[PlayerStats]
    seconds: float

    def table(self) -> str:
        lines = [
            f"{self.games} games, {self.seconds:.1f} s",
            "| player | first place | mean place | chips/game | ms mean | ms p95 | ms max |",
            "|---|---|---|---|---|---|---|",
        ]
        for p in self.players:
            lines.append(
                f"| {p.label} | {100 * p.first:.1f}% ± {100 * p.first_ci:.1f} "
                f"| {p.place:.2f} ± {p.place_ci:.2f} | {p.chips:+.2f} ± {p.chips_ci:.2f} "
                f"| {p.ms_mean:.2f} | {p.ms_p95:.2f} | {p.ms_max:.2f} |"
            )
        return "\n".join(lines)


def _mean_ci(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return (0.0, 0.0)
    m = sum(xs) / n
    if n < 2:
        return (m, 0.0)
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return (m, 1.96 * math.sqrt(var / n))


def run_arena(
    levels: Sequence[str],
    games: int,
    rules: Rules,
    seed: int = 1,
    workers: int = 2,
    budget_ms: int | None = None,
    known: bool = True,
) -> ArenaResult:
    """Play ``games`` games and summarise them per player (``known``: :func:`play_game`)."""
    for level in levels:
        if not is_player(level):
            raise ValueError(f"unknown level {level!r}; choose from "
                             f"{', '.join([*Level, *PLAYERS])}")
    t0 = time.perf_counter()
    levels = list(levels)
    rules_json = rules.model_dump_json()
    chunks = max(1, min(games, workers * 8))
    parts = [list(range(i, games, chunks)) for i in range(chunks)]
    jobs = [(levels, rules_json, seed, part, budget_ms, known) for part in parts if part]
    records: list[GameRecord] = []
    if workers <= 1:
        for job in jobs:
            records += _worker(job)
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for out in pool.map(_worker, jobs):
                records += out
    stats: list[PlayerStats] = []
    for p, level in enumerate(levels):
        firsts = [1.0 if r.places[p] == 1 else 0.0 for r in records]
        places = [float(r.places[p]) for r in records]
        chips = [r.chips[p] for r in records]
        times = sorted(t for r in records for t in r.times[p])
        f, fci = _mean_ci(firsts)
        pl, plci = _mean_ci(places)
        c, cci = _mean_ci(chips)
        ms_mean = sum(times) / len(times) if times else 0.0
        ms_p95 = times[min(len(times) - 1, int(0.95 * len(times)))] if times else 0.0
        stats.append(PlayerStats(f"{p}:{level}", f, fci, pl, plci, c, cci, ms_mean, ms_p95,
                                 times[-1] if times else 0.0))
    return ArenaResult(len(records), stats, time.perf_counter() - t0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.arena",
        description="Pit computer players against each other and print, per player, the "
        "first-place share, mean place, chips per game (95% intervals) and decision times.",
    )
    parser.add_argument("--seats", default="expert,hard,hard,hard",
                        help="comma-separated levels, one per player, 2 to 8 of "
                        + ", ".join([*Level, *PLAYERS])
                        + " (default expert,hard,hard,hard; benchmarks.opponents describes "
                        "the players that are not levels)")
    parser.add_argument("--games", type=int, default=200, help="games to play (default 200)")
    parser.add_argument("--rules", default="southern",
                        help="rules preset: " + ", ".join(Rules.preset_names())
                        + " (default southern)")
    parser.add_argument("--set", dest="options", action="append", default=[],
                        metavar="OPTION=VALUE",
                        help="change one rule option of the preset, e.g. --set cong=true "
                             "--set card_exchange=tribute (repeatable)")
    parser.add_argument("--seed", type=int, default=1,
                        help="game i is dealt from (seed, i) (default 1)")
    parser.add_argument("--workers", type=int, default=2,
                        help="processes playing games in parallel (default 2)")
    parser.add_argument("--budget-ms", type=int, default=None,
                        help="expert time budget per decision in ms (default 100)")
    parser.add_argument("--unknown-levels", action="store_true",
                        help="tell no player the others' levels (a table shows a computer's "
                        "level, and by default the players are told, as the bot tells them)")
    args = parser.parse_args(argv)
    levels = [s.strip() for s in args.seats.split(",") if s.strip()]
    if not 2 <= len(levels) <= 8:
        parser.error("between 2 and 8 seats")
    try:
        rules = Rules.preset(args.rules).with_options(args.options)
        result = run_arena(levels, args.games, rules, args.seed, args.workers, args.budget_ms,
                           known=not args.unknown_levels)
    except ValueError as error:
        parser.error(str(error))
    changed = f" ({' '.join(args.options)})" if args.options else ""
    told = ", levels unknown" if args.unknown_levels else ""
    print(f"rules {args.rules}{changed}, seats {','.join(levels)}, seed {args.seed}{told}")
    print(result.table())
    return 0


if __name__ == "__main__":
    sys.exit(main())
