"""How often a seat's decisions so far can all be ``normal``'s, by how many it has made: the
figures behind the expert's ``belief.FIT_IF_HARD`` and ``belief.FIT_IF_NORMAL``.

    python -m benchmarks.normal_fit --games 12 --seed 500

Plays seeded games (southern rules, four seats) with ``expert`` in seat 0 and three opponents of
one level, once with ``hard`` opponents and once with ``normal`` ones. After each of the expert's
own decisions it asks the expert's carried belief, for every opponent, whether it still keeps a
hand under which ``normal`` (the lowest legal play, never a pass when it can answer) makes every
decision that opponent has made, and counts those decisions as the belief does (the on-turn
decisions rebuilt from the public log). It prints, per opponent level and number of decisions
made (0, 1, ..., the last row that many or more), how many such observations there were and the
share that still fit ``normal``. A ``hard`` seat fitting ``normal`` is the false alarm the expert's
prior must discount; a ``normal`` seat that no longer fits is a kept hand lost.
"""

from __future__ import annotations

import argparse
import math
from collections import defaultdict
from collections.abc import Sequence

from engine import Game, Rules
from engine.ai import belief, decide, observe, search
from engine.ai.core import full_mask
from engine.ai.evidence import history

__all__ = ["fits_by_decisions", "main"]


def fits_by_decisions(opponent: str, games: int, seed: int, budget_ms: int,
                      cap: int) -> dict[int, list[bool]]:
    """Per number of decisions an opponent had made (``cap`` or more counted as ``cap``), whether
    the expert's belief kept a hand under which ``normal`` made them all, at each of the expert's
    decisions in ``games`` games dealt from ``seed``, ``seed + 1``, ..."""
    rules = Rules.preset("southern")
    seen: dict[int, list[bool]] = defaultdict(list)
    levels = ["expert", opponent, opponent, opponent]
    for g in range(games):
        belief.clear()
        game = Game.new(rules, 4, seed=seed + g)
        step = 0
        while not game.is_over:
            step += 1
            seat = game.current
            assert seat is not None
            cards = decide(game, seat, levels[seat], seed=step, budget_ms=budget_ms)
            if seat == 0:
                _observe(game, budget_ms, cap, seen)
            if cards is None:
                game.pass_turn(seat)
            else:
                game.play(seat, cards)
    return seen


def _observe(game: Game, budget_ms: int, cap: int, seen: dict[int, list[bool]]) -> None:
    """After seat 0 decided: each other seat's decision count and whether ``normal`` fits it."""
    obs = observe(game, 0)
    state, _ = belief.belief(me=0, n=obs.players, direction=obs.direction, rules=obs.rules,
                             full=full_mask(obs.decks), hand=obs.hand_mask, counts=obs.counts,
                             log=obs.log,
                             budget_units=budget_ms * search.STEPS_PER_MS, budget_ms=budget_ms)
    if not state.normal_hands:  # the belief starts at the seat's second decision
        return
    made = [0] * obs.players
    for d in history(obs.log, obs.counts, 0, obs.rules, 999):
        made[d.seat] += 1
    for s in range(1, obs.players):
        if obs.counts[s]:
            seen[min(made[s], cap)].append(bool(state.normal_hands[s]))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.normal_fit",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=12, help="games per opponent level")
    parser.add_argument("--seed", type=int, default=500, help="seed of the first deal")
    parser.add_argument("--budget", type=int, default=search.DEFAULT_BUDGET_MS,
                        help="the expert's budget in ms (default: the bot's)")
    parser.add_argument("--cap", type=int, default=len(belief.FIT_IF_HARD) - 1,
                        help="decision counts from this one on are counted together")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games: at least 1")
    # The wall-clock guard would make the figures depend on the machine: work units only.
    search.GUARD = math.inf
    print(f"{args.games} games per level, seeds {args.seed}-{args.seed + args.games - 1}, "
          f"expert budget {args.budget} ms")
    print("decisions made | " + " | ".join(f"{lv}: n, fit normal" for lv in ("hard", "normal")))
    tables = {lv: fits_by_decisions(lv, args.games, args.seed, args.budget, args.cap)
              for lv in ("hard", "normal")}
    for k in range(args.cap + 1):
        cells = []
        for lv in ("hard", "normal"):
            v = tables[lv].get(k, [])
            cells.append(f"{len(v):5d}, {sum(v) / len(v):5.2f}" if v else f"{0:5d},     -")
        label = f"{k}+" if k == args.cap else str(k)
        print(f"{label:>14} | " + " | ".join(cells))
    print("in the expert: FIT_IF_HARD = " + ", ".join(f"{x:.2f}" for x in belief.FIT_IF_HARD)
          + f"; FIT_IF_NORMAL = {belief.FIT_IF_NORMAL:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
