"""A terminal table: one person against computer players, for trying rules without Discord.

    python -m bot play [--rules PRESET] [--set OPTION=VALUE ...] [--players N] [--level LEVEL]
                       [--seed SEED] [--lang vi]

Shows your hand and the table, reads plays typed in card notation (``3S 4S 5S``, ``pass``, ``hint``,
``quit``), explains a refused play, and ends with the places and the chip result. Whenever the rules
let you chop out of turn (2s on the table, ``chop_after_pass``), you are asked first: type the bomb,
or an empty line to let play go on.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from cogs import glossary
from cogs.i18n import LANGUAGES, Words, words
from cogs.words import describe_event
from engine import Game, Level, Phase, Rules, TienLenError, format_cards, parse_cards
from engine.ai import choose_returns, decide, hint, observe
from engine.settle import settle

__all__ = ["main", "run_table"]

HUMAN = 0


def _namer(w: Words) -> Callable[[int], str]:
    def name(seat: int) -> str:
        return w._("You") if seat == HUMAN else w._("Bot {seat}", seat=seat)

    return name


def run_table(
    rules: Rules,
    players: int,
    level: Level | str,
    *,
    seed: int | None = None,
    read: Callable[[], str | None],
    out: TextIO,
    lang: str = "en",
    game: Game | None = None,
) -> int:
    """Play one game; ``read`` returns the next input line (``None`` at end of input).

    ``game``: a game already dealt (and perhaps begun) to play on instead of a new deal.
    """
    w = words(lang)
    _name = _namer(w)
    if game is None:
        game = Game.new(rules, players, seed=seed)
    else:
        rules, players = game.rules, game.seat_count
    say: Callable[[str], None] = lambda text: print(text, file=out)  # noqa: E731
    say(w.ngettext("Tiến Lên — {n} player, rules {rules}, bots: {level}",
                   "Tiến Lên — {n} players, rules {rules}, bots: {level}", players,
                   rules=glossary.preset(w, rules.preset_name()), level=glossary.level(w, level)))
    say(w._("You are seat 0. Type cards like '3S 4S 5S', 'pass', 'hint' or 'quit'."))
    shown = 0
    step = 0
    declined: object = None  # the table play you let go by without chopping it
    bots_checked = -1  # the game version at which the bots were offered theirs

    def flush() -> None:
        nonlocal shown
        for event in game.events[shown:]:
            text = describe_event(w, event, _name)
            if text:
                say(text)
        shown = len(game.events)

    while game.phase is Phase.EXCHANGE:
        for s in list(game.pending_returns):
            game.return_cards(s, choose_returns(game, s, level if s != HUMAN else Level.HARD))
    if game.outcome is not None and game.outcome.instant_win is not None:
        say(w._("{player} wins at once: {win}", player=_name(game.outcome.winner),
                win=glossary.instant_win(w, game.outcome.instant_win,
                                         game.outcome.instant_win.multiplier)))
    while not game.is_over:
        flush()
        seat = game.current
        assert seat is not None
        chops = game.legal_plays(HUMAN) if seat != HUMAN else []
        if chops and declined != (game.trick, game.last_play_seat, game.table):
            say("")
            if game.table is not None:
                say(w._("Table: {play}", play=glossary.combo(w, game.table)))
            say(w._("Your hand: {cards}", cards=format_cards(game.hand(HUMAN))))
            say(w._("You may chop out of turn with: {plays}",
                    plays="; ".join(str(c) for c in chops)))
            say(w._("Type the cards, or an empty line to let play go on."))
            line = read()
            if line is None:
                say(w._("End of input: leaving the table."))
                return 1
            text = line.strip()
            if text.lower() in {"quit", "exit", "q"}:
                say(w._("You left the table."))
                return 1
            if not text or text.lower() in {"pass", "p", "no", "n"}:
                declined = (game.trick, game.last_play_seat, game.table)
                continue
            try:
                game.play(HUMAN, parse_cards(text))
            except TienLenError as error:
                say(w._("Refused: {reason}", reason=glossary.engine_refusal(w, error)))
            continue
        if bots_checked != game.version:
            bots_checked = game.version
            if _bot_chops(game, level):
                continue
        if seat != HUMAN:
            step += 1
            cards = decide(game, seat, level, seed=None if seed is None else seed * 1000 + step)
            if cards is None:
                game.pass_turn(seat)
            else:
                game.play(seat, cards)
            continue
        counts = ", ".join(f"{_name(s)}: {w.num(c)}" for s, c in enumerate(game.card_counts))
        say("")
        say(w._("Cards left — {counts}", counts=counts))
        table = game.table
        say(w._("Table: {play}", play=glossary.combo(w, table)) if table is not None
            else w._("Table: (empty — you lead)"))
        say(w._("Your hand: {cards}", cards=format_cards(game.hand(HUMAN))))
        line = read()
        if line is None:
            say(w._("End of input: leaving the table."))
            return 1
        text = line.strip()
        low = text.lower()
        if not text:
            continue
        if low in {"quit", "exit", "q"}:
            say(w._("You left the table."))
            return 1
        if low == "hint":
            suggestion = hint(observe(game, HUMAN))
            if suggestion is None:
                say(w._("Hint: pass."))
            else:
                play = f"{suggestion} ({glossary.combo(w, suggestion)})"
                say(w._("Hint: {play}.", play=play))
            continue
        try:
            if low in {"pass", "p"}:
                game.pass_turn(HUMAN)
            else:
                game.play(HUMAN, parse_cards(text))
        except TienLenError as error:
            say(w._("Refused: {reason}", reason=glossary.engine_refusal(w, error)))
            continue
    flush()
    outcome = game.outcome
    assert outcome is not None
    say("")
    say(w._("Game over. Places:"))
    chips = settle(outcome, game.events, stake=1, balances=[None] * game.seat_count).owed_net
    for place, s in enumerate(outcome.places, 1):
        amount = w.signed(chips[s]) if chips[s] else "+0"
        say("  " + w._("{place}. {player}  ({amount} chips at stake 1)", place=place,
                       player=_name(s), amount=amount))
    return 0


def _bot_chops(game: Game, level: Level | str) -> bool:
    """Let computer players chop out of turn when the rules allow it; whether one did."""
    if game.is_over or game.table is None or game.rules.chop_after_pass == "off":
        return False
    for other in game.has_out_of_turn_chop():
        if other == HUMAN:
            continue
        cards = decide(game, other, level)
        if cards is not None:
            game.play(other, cards)
            return True
    return False


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot play",
        description="Play Tiến Lên in the terminal against computer players: type cards like "
        "'3S 4S 5S', 'pass', 'hint' or 'quit'. No Discord, no settings, no store.",
    )
    parser.add_argument("--rules", default="southern",
                        help="rules preset (default southern): " + ", ".join(Rules.preset_names()))
    parser.add_argument("--set", dest="options", action="append", default=[],
                        metavar="OPTION=VALUE",
                        help="change one rule option of the preset, e.g. --set cong=true "
                             "--set chop_after_pass=any_bomb (repeatable)")
    parser.add_argument("--players", type=int, default=4,
                        help="players at the table, you included, 2 to 8 (default 4)")
    parser.add_argument("--level", default=Level.NORMAL, type=Level, choices=list(Level),
                        help="the computer players' level (default normal)")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of the deal and the computer players, for a repeatable game")
    parser.add_argument("--lang", default="en", choices=LANGUAGES,
                        help="the language of the table: en (English, default) or vi "
                        "(Vietnamese)")
    args = parser.parse_args(argv)
    try:
        rules = Rules.preset(args.rules).with_options(args.options)
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
                         out=sys.stdout, lang=args.lang)
    except KeyboardInterrupt:
        print()
        return 1
