"""Build the pictures' view-models from an engine game (the table layer adds names and chips)."""

from __future__ import annotations

from collections.abc import Sequence

from engine import Game, Phase
from engine.events import Played, TrickWon

from .model import BoardView, BoardWords, HandView, SeatView

__all__ = ["board_view", "hand_view"]


def board_view(game: Game, names: Sequence[str], *, table: int, stake: int,
               away: Sequence[bool] = (), chips: Sequence[int] | None = None,
               words: BoardWords | None = None, reveal: bool = False,
               keeps: Sequence[str] = ()) -> BoardView:
    """What the board shows of ``game``: ``names`` by seat, ``away`` marks seats a computer
    holds for an absent player, ``chips`` the chip change of each seat once the game is over;
    ``reveal``: every card still held face up (the game-over picture; only once it is over);
    ``keeps``: by seat, the end of the name kept whole when it is cut (a computer's level)."""
    words = words or BoardWords()
    over = game.is_over
    places = game.places
    counts = game.card_counts
    actor = game.actor
    seats = tuple(
        SeatView(
            name=names[i],
            cards=counts[i],
            turn=i == actor,
            passed=i in game.passed and not over,
            away=bool(away[i]) if i < len(away) else False,
            place=places.index(i) + 1 if i in places else None,
            chips=chips[i] if over and chips is not None else None,
            revealed=tuple(game.hand(i)) if reveal and over else (),
            keep=keeps[i] if i < len(keeps) else "",
        )
        for i in range(game.seat_count)
    )
    on_table = game.table is not None and not over
    return BoardView(
        table=table,
        stake=stake,
        seats=seats,
        to_beat=tuple(game.table.cards) if on_table and game.table is not None else (),
        to_beat_by=game.last_play_seat if on_table else None,
        finished=over,
        note=words.exchange if game.phase is Phase.EXCHANGE else None,
        words=words,
        direction=game.direction,
        lead_by=None if on_table or over else trick_winner(game),
    )


def trick_winner(game: Game) -> int | None:
    """The seat that won the trick just ended (``None`` before the first trick ends or while
    a play is on the table)."""
    for event in reversed(game.events):
        if isinstance(event, TrickWon):
            return event.seat
        if isinstance(event, Played):
            return None
    return None


def hand_view(game: Game, seat: int, selected: Sequence[bool] = ()) -> HandView:
    """The hand of ``seat`` as the game sorts it (rules' suit order); ``selected[i]`` raises
    card ``i`` of that order."""
    cards = tuple(game.hand(seat))
    raised = tuple(bool(selected[i]) if i < len(selected) else False for i in range(len(cards)))
    return HandView(cards, raised)

