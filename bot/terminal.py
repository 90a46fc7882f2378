"""A terminal table: one person against computer players, for trying rules without Discord.

    python -m bot play [--rules PRESET] [--players N] [--level LEVEL] [--seed SEED]

Shows your hand and the table, reads plays typed in card notation (``3S 4S 5S``, ``pass``, ``hint``,
``quit``), explains a refused play, and ends with the places and the chip result.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from cogs.words import describe_event
from engine import Game, Level, Phase, Rules, TienLenError, format_cards, parse_cards
from engine.ai import choose_returns, decide, hint, observe
from engine.settle import settle

__all__ = ["main", "run_table"]

HUMAN = 0


def _name(seat: int) -> str:
    return "You" if seat == HUMAN else f"Bot {seat}"


def run_table(
    rules: Rules,
    players: int,
    level: Level | str,
    *,
    seed: int | None = None,
    read: Callable[[], str | None],
    out: TextIO,
) -> int:
    """Play one game; ``read`` returns the next input line (``None`` at end of input)."""
    game = Game.new(rules, players, seed=seed)
    say: Callable[[str], None] = lambda text: print(text, file=out)  # noqa: E731
    say(f"Tiến Lên — {players} players, rules {rules.preset_name() or 'custom'}, bots: {level}")
    say("You are seat 0. Type cards like '3S 4S 5S', 'pass', 'hint' or 'quit'.")
    shown = 0
    step = 0

    def flush() -> None:
        nonlocal shown
        for event in game.events[shown:]:
            text = describe_event(event, _name)
            if text:
                say(text)
        shown = len(game.events)

    while game.phase is Phase.EXCHANGE:
        for s in list(game.pending_returns):
            game.return_cards(s, choose_returns(game, s, level if s != HUMAN else Level.HARD))
    if game.outcome is not None and game.outcome.instant_win is not None:
        say(f"{_name(game.outcome.winner)} wins at once: {game.outcome.instant_win.label}")
    while not game.is_over:
        flush()
        seat = game.current
        assert seat is not None
        if seat != HUMAN:
            step += 1
            cards = decide(game, seat, level, seed=None if seed is None else seed * 1000 + step)
            if cards is None:
                game.pass_turn(seat)
            else:
                game.play(seat, cards)
            _bot_chops(game, level)
            continue
        counts = ", ".join(f"{_name(s)}: {c}" for s, c in enumerate(game.card_counts))
        say("")
        say(f"Cards left — {counts}")
        table = game.table
        say(f"Table: {table.describe() if table is not None else '(empty — you lead)'}")
        say(f"Your hand: {format_cards(game.hand(HUMAN))}")
        line = read()
        if line is None:
            say("End of input: leaving the table.")
            return 1
        text = line.strip()
        low = text.lower()
        if not text:
            continue
        if low in {"quit", "exit", "q"}:
            say("You left the table.")
            return 1
        if low == "hint":
            suggestion = hint(observe(game, HUMAN))
            say(f"Hint: {'pass' if suggestion is None else str(suggestion)}")
            continue
        try:
            if low in {"pass", "p"}:
                game.pass_turn(HUMAN)
            else:
                game.play(HUMAN, parse_cards(text))
        except TienLenError as error:
            say(f"Refused: {error}")
            continue
        _bot_chops(game, level)
    flush()
    outcome = game.outcome
    assert outcome is not None
    say("")
    say("Game over. Places:")
    chips = settle(game, stake=1, balances=[None] * game.seat_count).owed_net
    for place, s in enumerate(outcome.places, 1):
        say(f"  {place}. {_name(s)}  ({chips[s]:+g} chips at stake 1)")
    return 0


def _bot_chops(game: Game, level: Level | str) -> None:
    """Let computer players chop out of turn when the rules allow it."""
    if game.is_over or game.table is None or not game.rules.chop_after_pass:
        return
    for other in game.has_out_of_turn_chop():
        if other == HUMAN:
            continue
        cards = decide(game, other, level)
        if cards is not None:
            game.play(other, cards)
            return


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot play",
        description="Play Tiến Lên in the terminal against computer players: type cards like "
        "'3S 4S 5S', 'pass', 'hint' or 'quit'. No Discord, no settings, no store.",
    )
    parser.add_argument("--rules", default="southern",
                        help="rules preset (default southern): " + ", ".join(Rules.preset_names()))
    parser.add_argument("--players", type=int, default=4,
                        help="players at the table, you included, 2 to 8 (default 4)")
    parser.add_argument("--level", default=Level.NORMAL, type=Level, choices=list(Level),
                        help="the computer players' level (default normal)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the deal and the computer players, for a repeatable game")
    args = parser.parse_args(argv)
    try:
        rules = Rules.preset(args.rules)
    except ValueError as error:
        parser.error(str(error))
    if not 2 <= args.players <= 8:
        parser.error("between 2 and 8 players")

    def read() -> str | None:
        print("> ", end="", flush=True)
        line = sys.stdin.readline()
        return line if line else None

    try:
        return run_table(rules, args.players, args.level, seed=args.seed, read=read,
                         out=sys.stdout)
    except KeyboardInterrupt:
        print()
        return 1
