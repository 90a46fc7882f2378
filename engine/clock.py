"""What the turn clock plays for a seat whose time ran out (RULES.md's timeout, and the house
rule đền bài): lead the lowest single (or the first legal lead), or pass. With ``anti_feed`` it
never feeds: it plays the highest single instead of a low one, or instead of a pass that would
be a feed. Pure: the table layer calls it under the table's lock."""

from __future__ import annotations

from engine.combos import ComboKind
from engine.game import Game

__all__ = ["timed_out"]


def timed_out(game: Game, seat: int) -> None:
    """Make the clock's move for ``seat`` (the seat to act) in ``game``."""
    plays = game.legal_plays(seat)
    singles = sorted((c for c in plays if c.kind is ComboKind.SINGLE), key=lambda c: c.top)
    if game.table is not None:
        if singles and game.would_feed(seat, None) and not game.would_feed(seat, singles[-1]):
            game.play(seat, list(singles[-1].cards))  # passing would feed: beat it instead
        else:
            game.pass_turn(seat)
        return
    choice = singles[0] if singles else plays[0]
    if singles and game.would_feed(seat, choice):
        choice = singles[-1]
    game.play(seat, list(choice.cards))
