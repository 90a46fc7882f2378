"""`python -m benchmarks.load`: the command line."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import statistics
from pathlib import Path

from benchmarks.load.config import LoadConfig
from benchmarks.load.harness import run_load
from data.db import DatabaseURL
from data.errors import InvalidInput
from engine.ai import Level


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.load",
        description="Run the bot as a subprocess against a loopback fake Discord with many "
        "tables of simulated players and computer players; print latency, event-loop lag, "
        "memory, errors and a store check. Exits 0 when every game finished without error.",
    )
    parser.add_argument("--tables", type=int, default=10,
                        help="tables played at once (default 10)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="how long to keep starting games, in seconds (overrides --minutes)")
    parser.add_argument("--minutes", type=float, default=1.0,
                        help="how long to keep starting games, in minutes (default 1)")
    parser.add_argument("--humans", type=int, choices=(1, 4), default=1,
                        help="simulated humans per table; the other seats are computer players")
    parser.add_argument(
        "--faults",
        action="store_true",
        help="429s on 5%% and 500s on 1%% of board edits, a disconnect a minute",
    )
    parser.add_argument(
        "--no-limits",
        action="store_true",
        help="the fake Discord forgives everything (by default it enforces Discord's rate "
        "limits: 50 requests/s, 5 edits per 5 s a channel, the invalid-request counter)",
    )
    parser.add_argument("--kills", type=int, default=0, help="SIGKILL + restart the bot K times")
    parser.add_argument("--level", choices=[level.value for level in Level], default="normal",
                        help="level of the computer players (default normal)")
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="soak: stop starting games after this many (minutes still bounds)",
    )
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a human waits before each action"
    )
    parser.add_argument("--ai-delay", type=float, default=1.0,
                        help="the bot's AI_DELAY_SECONDS setting (default 1)")
    parser.add_argument("--board-interval", type=float, default=1.0,
                        help="the bot's BOARD_EDIT_INTERVAL setting (default 1)")
    parser.add_argument("--turn-seconds", type=int, default=60,
                        help="the tables' turn clock in seconds (default 60)")
    parser.add_argument(
        "--fast",
        action="store_true",
        help="no human think time, AI delay 0.05 s, board interval 0.2 s (soak)",
    )
    parser.add_argument("--images", choices=("on", "off", "alternate"), default="on",
                        help="card pictures and card emoji (the bot's CARD_PICTURES; default "
                             "on); alternate: runs without and with them in turn (--rounds), "
                             "each run with pictures against the text runs beside it")
    parser.add_argument("--rounds", type=int, default=3,
                        help="with --images alternate: runs with pictures (each between two "
                             "without; default 3)")
    parser.add_argument("--drain", type=float, default=180.0,
                        help="seconds to let running games finish after the last start "
                        "(default 180)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the players' choices")
    parser.add_argument("--workdir", type=Path, default=None,
                        help="keep the database and the bot's logs here (default: a temporary "
                        "directory of its own, removed after a run without errors)")
    parser.add_argument(
        "--database",
        metavar="URL",
        default=None,
        help="the bot's store (its DATABASE_URL): postgresql://user:password@host:port/db or "
        "sqlite:///path; use an empty database. Default: a fresh SQLite file in the work "
        "directory",
    )
    parser.add_argument("--json", type=Path, default=None, help="write the summary here")
    parser.add_argument("--quiet", action="store_true", help="print only the final report")
    parser.add_argument("--reactions", type=float, default=0.0,
                        help="reactions a second per table, pressed on the board's select at a "
                             "steady rate by its people in turn (default 0: none)")
    args = parser.parse_args(argv)
    if args.database is not None:
        try:
            DatabaseURL.parse(args.database)
        except InvalidInput as error:  # the message repeats no part of the URL (a password)
            parser.error(f"--database: {error}")
    if args.rounds < 1:
        parser.error("--rounds: at least 1")
    config = LoadConfig(
        tables=args.tables,
        seconds=args.seconds if args.seconds is not None else args.minutes * 60,
        humans=args.humans,
        level=args.level,
        faults=args.faults,
        limits=not args.no_limits,
        kills=args.kills,
        think=0.0 if args.fast else args.think,
        ai_delay=0.05 if args.fast else args.ai_delay,
        board_interval=0.2 if args.fast else args.board_interval,
        turn_seconds=args.turn_seconds,
        images=args.images == "on",
        games=args.games,
        drain=args.drain,
        seed=args.seed,
        workdir=args.workdir,
        quiet=args.quiet,
        database=args.database,
        reactions=args.reactions,
    )
    if args.images == "alternate":
        return _alternate(config, args.rounds, args.json)
    result = asyncio.run(run_load(config))
    print(result.report(), flush=True)
    if args.json:
        args.json.write_text(json.dumps(result.summary(), indent=2) + "\n")
    ok = not result.errors and result.all_games_finished and result.check_rc == 0
    return 0 if ok else 1


def neighbour_ratios(on: list[float], off: list[float]) -> list[float]:
    """Each run with pictures (CPU a game) against the mean of the text runs just before and
    after it: runs were made off, on, off, …, on, off (the machine's speed drifts between runs
    minutes apart, so a run is only compared with its neighbours)."""
    if len(off) != len(on) + 1:
        raise ValueError("alternate runs start and end without pictures")
    return [value / ((off[i] + off[i + 1]) / 2) for i, value in enumerate(on)]


def _alternate(config: LoadConfig, rounds: int, json_path: Path | None) -> int:
    """Runs without and with pictures in turn; each one's report, then the CPU a game of each
    run with pictures against its neighbours (the issue's "≤ 1.3 × text")."""
    summaries: list[dict[str, object]] = []
    cpu: dict[bool, list[float]] = {True: [], False: []}
    ok = True
    for index in range(2 * rounds + 1):
        images = index % 2 == 1
        workdir = None if config.workdir is None else config.workdir / f"run-{index}"
        result = asyncio.run(run_load(dataclasses.replace(config, images=images,
                                                          workdir=workdir)))
        print(f"--- run {index + 1}: pictures {'on' if images else 'off'}", flush=True)
        print(result.report(), flush=True)
        summaries.append(result.summary())
        cpu[images].append(result.cpu_per_game)
        ok &= not result.errors and result.all_games_finished and result.check_rc == 0
    ratios = neighbour_ratios(cpu[True], cpu[False])
    print("CPU a game with pictures against the text runs beside it: "
          + ", ".join(f"{r:.2f} x" for r in ratios)
          + f" (median {statistics.median(ratios):.2f} x; text "
          + ", ".join(f"{c:.3f}" for c in cpu[False]) + " s; pictures "
          + ", ".join(f"{c:.3f}" for c in cpu[True]) + " s)", flush=True)
    if json_path is not None:
        json_path.write_text(json.dumps({"runs": summaries, "ratios": ratios}, indent=2) + "\n")
    return 0 if ok else 1
