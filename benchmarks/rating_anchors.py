"""Place the computer levels on the rating scale: ``python -m benchmarks.rating_anchors``.

    python -m benchmarks.rating_anchors --games 120 --seed 1

Plays arena games (``benchmarks.arena.play_game``: the four levels at one table, every level in
every seat equally often) and rates them in order with ``engine.rating``'s model, every level
starting as a newcomer and none anchored. Prints each level's mu, sigma and mean place: the
figures the fixed ``engine.rating.ANCHORS`` were chosen from (docs/RATING.md).
"""

from __future__ import annotations

import argparse

from openskill.models import PlackettLuce

from benchmarks.arena import play_game
from engine.ai import Level
from engine.rules import Rules


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    levels = [str(lv) for lv in Level]
    model = PlackettLuce()
    skills = [model.rating() for _ in levels]
    places = [0] * len(levels)
    rules = Rules.preset("southern")
    for i in range(args.games):
        record = play_game(levels, rules, args.seed * 1_000_003 + i, i % len(levels))
        rated = model.rate([[s] for s in skills], ranks=[float(p) for p in record.places])
        skills = [team[0] for team in rated]
        places = [a + b for a, b in zip(places, record.places, strict=True)]
    print(f"{args.games} games, seed {args.seed}")
    print("| level | mu | sigma | mean place |")
    print("|---|---|---|---|")
    for lv, s, p in zip(levels, skills, places, strict=True):
        print(f"| {lv} | {s.mu:.2f} | {s.sigma:.2f} | {p / args.games:.2f} |")


if __name__ == "__main__":
    main()
