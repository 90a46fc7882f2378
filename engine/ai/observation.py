"""What one seat may know: its own hand, the public log, every seat's card count, the rules.

:func:`observe` is the only door from a live :class:`~engine.game.Game` to the computer players:
the observation holds nothing that depends on another seat's hidden cards (the deal is reduced to
its public parts, the card exchange to the cards this seat gave or received).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.cards import Card, Layout
from engine.combos import Combo
from engine.events import Dealt, Event, Exchanged, Frozen, Played, WentOut
from engine.game import Phase
from engine.rules import Rules

if TYPE_CHECKING:
    from engine.game import Game

__all__ = ["Observation", "observe"]


@dataclass(frozen=True, slots=True)
class Observation:
    """One seat's view of a game."""

    seat: int
    rules: Rules
    players: int
    decks: int
    direction: int
    """+1 when play goes to increasing seat indexes, -1 otherwise."""
    phase: Phase
    hand: tuple[Card, ...]
    counts: tuple[int, ...]
    current: int | None
    table: Combo | None
    table_seat: int | None
    """Who made the play on the table."""
    chop_context: bool
    """A 2 has been chopped in the current trick."""
    passed: frozenset[int]
    finished: tuple[int, ...]
    """Seats that went out, in order."""
    log: tuple[Event, ...]
    """The public events (plays, passes, chops, tricks, places) and this seat's exchanges."""
    legal: tuple[Combo, ...]
    """The plays this seat may make now (out-of-turn chops when it is not its turn)."""
    can_pass: bool
    pending_returns: int
    """Cards this seat must give back in the exchange phase (0 otherwise)."""

    @property
    def layout(self) -> Layout:
        return self.rules.layout

    @property
    def hand_mask(self) -> int:
        return self.layout.to_mask(self.hand, self.decks)

    @property
    def played_mask(self) -> int:
        """Every card played so far in this game."""
        layout = self.layout
        bit_of = layout.bit_of
        mask = 0
        for e in self.log:
            if isinstance(e, Played):
                for c in e.cards:
                    mask += bit_of[c]
        return mask

    @property
    def frozen(self) -> tuple[int, ...]:
        """With cóng: the seats frozen when the first player went out (they play no more)."""
        return next((e.seats for e in self.log if isinstance(e, Frozen)), ())

    @property
    def my_turn(self) -> bool:
        return self.current == self.seat


def _public_log(events: list[Event] | tuple[Event, ...], seat: int) -> tuple[Event, ...]:
    out: list[Event] = []
    for e in events:
        if isinstance(e, Dealt):
            continue
        if isinstance(e, Exchanged) and seat not in (e.giver, e.receiver):
            continue
        out.append(e)
    return tuple(out)


def observe(game: Game, seat: int) -> Observation:
    """The observation of ``seat`` (see :class:`Observation`)."""
    events = game.events
    rules = game.rules
    phase = game.phase
    current = game.current
    table = game.table
    legal: tuple[Combo, ...] = ()
    if phase is Phase.PLAY:
        legal = tuple(game.legal_plays(seat))
    return Observation(
        seat=seat,
        rules=rules,
        players=game.seat_count,
        decks=game.decks,
        direction=game.direction,
        phase=phase,
        hand=tuple(game.hand(seat)),
        counts=tuple(game.card_counts),
        current=current,
        table=table,
        table_seat=game.last_play_seat if table is not None else None,
        chop_context=bool(game.chop_context) if table is not None else False,
        passed=game.passed,
        finished=tuple(e.seat for e in events if isinstance(e, WentOut)),
        log=_public_log(events, seat),
        legal=legal,
        can_pass=current == seat and table is not None and phase is Phase.PLAY,
        pending_returns=int(game.pending_returns.get(seat, 0)),
    )
