"""Benchmark of the rules engine: ``python -m benchmarks.engine [--games N] [--seed S]``.

Prints, on one core: the mean µs of ``legal_plays`` for a 13-card hand leading and responding,
µs to validate one play, and full 4-player games per second with random and lowest-legal
players under a rule set with every option that costs time switched on.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from engine.combos import Combo
from engine.game import Game
from engine.rules import Rules

FULL_RULES = Rules(bombs_need_chop_context=True, chop_bonus=True, deuce_penalty=True)
"""Southern plus every optional check (out-of-turn chops, chop context, instant wins)."""

Policy = Callable[[Game, int, list[Combo], random.Random], Combo | None]


def random_action(game: Game, rng: random.Random) -> None:
    """The seat to play passes (3 times in 10 when it may) or plays a random legal play."""
    seat = game.current
    assert seat is not None
    plays = game.legal_plays(seat)
    if game.table is not None and (not plays or rng.random() < 0.3):
        game.pass_turn(seat)
    else:
        game.play(seat, list(rng.choice(plays).cards))


def random_policy(game: Game, seat: int, plays: list[Combo], rng: random.Random) -> Combo | None:
    """A uniformly random legal action (passing counts as one action when allowed)."""
    n = len(plays) + (game.table is not None)
    i = rng.randrange(n)
    return plays[i] if i < len(plays) else None


def lowest_policy(game: Game, seat: int, plays: list[Combo], rng: random.Random) -> Combo | None:
    """The legal play with the lowest top card (fewest cards first); pass only with none."""
    if not plays:
        return None
    return min(plays, key=lambda c: (c[1].bit_length(), -len(c)))


def play_out(game: Game, policy: Policy, rng: random.Random, chop_rate: float = 0.5) -> int:
    """Play a game to the end with one policy for every seat; returns the number of actions.

    Whenever the table shows 2s (or a chained bomb), every other seat that could chop out of
    turn does so with probability ``chop_rate``.
    """
    actions = 0
    oot = game.rules.chop_after_pass != "off"
    while game.current is not None:
        seat = game.current
        table = game.table
        if oot and table is not None and (table.is_twos or (game.chop_context and table.is_bomb)):
            for other in range(game.seat_count):
                if other != seat:
                    chops = game.legal_plays(other)
                    if chops and rng.random() < chop_rate:
                        game._apply_play(other, rng.choice(chops), True)
                        actions += 1
                        break
            else:
                other = -1
            if other >= 0 and other != seat:
                continue
        plays = game.legal_plays(seat)
        choice = policy(game, seat, plays, rng)
        if choice is None:
            game._apply_pass(seat)
        else:
            game._apply_play(seat, choice)
        actions += 1
    return actions


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.engine",
        description="Time the rules engine on one core: legal plays, play validation and whole "
        "4-player games per second, under southern rules with every costly option on.",
    )
    parser.add_argument("--games", type=int, default=2000,
                        help="whole games to play per policy (default 2000)")
    parser.add_argument("--hands", type=int, default=2000,
                        help="dealt hands to time legal plays and validation on (default 2000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    args = parser.parse_args(argv)
    rules = FULL_RULES
    rng = random.Random(args.seed)

    leading: list[Game] = []
    responding: list[tuple[Game, int]] = []
    plays_to_check: list[tuple[Game, int, list[str]]] = []
    for i in range(args.hands):
        game = Game.new(rules, 4, seed=rng.randrange(1 << 30), leader=0)
        if game.is_over:
            continue
        leading.append(game)
        reply = Game.from_json(game.to_json())
        lead = rng.choice(reply.legal_plays(0))
        reply.play(0, lead)
        if reply.current is not None:
            responding.append((reply, reply.current))
        plays_to_check.append((game, 0, [c.code for c in lead.cards]))
        del i

    total_leads = 0
    start = time.perf_counter()
    for game in leading:
        total_leads += len(game.legal_plays(0))
    lead_us = (time.perf_counter() - start) / len(leading) * 1e6
    start = time.perf_counter()
    total_resp = 0
    for game, seat in responding:
        total_resp += len(game.legal_plays(seat))
    resp_us = (time.perf_counter() - start) / len(responding) * 1e6
    start = time.perf_counter()
    for game, seat, cards in plays_to_check:
        game.verify_play(seat, cards)
    verify_us = (time.perf_counter() - start) / len(plays_to_check) * 1e6
    combos = [(g, s, g.verify_play(s, c)) for g, s, c in plays_to_check]
    start = time.perf_counter()
    for game, seat, combo in combos:
        game.verify_play(seat, combo)
    verify_combo_us = (time.perf_counter() - start) / len(combos) * 1e6

    print(f"rules: southern + every option that costs time ({len(leading)} hands)")
    mean_leads = total_leads / len(leading)
    mean_resp = total_resp / len(responding)
    print(f"legal_plays leading, 13 cards:   {lead_us:7.1f} µs  (mean {mean_leads:.1f} plays)")
    print(f"legal_plays responding:          {resp_us:7.1f} µs  (mean {mean_resp:.1f} plays)")
    print(f"verify_play from card codes:     {verify_us:7.1f} µs")
    print(f"verify_play from a Combo:        {verify_combo_us:7.1f} µs")
    for name, policy in (("random", random_policy), ("lowest-legal", lowest_policy)):
        seeds = [rng.randrange(1 << 30) for _ in range(args.games)]
        actions = 0
        start = time.perf_counter()
        for seed in seeds:
            game = Game.new(rules, 4, seed=seed)
            actions += play_out(game, policy, random.Random(seed))
        elapsed = time.perf_counter() - start
        print(
            f"{name + ' games:':<33}{args.games / elapsed:7.0f} games/s "
            f"({actions / args.games:.1f} actions per game, deal included)"
        )


if __name__ == "__main__":
    main()
