"""The next game when the people at a table changed between games (pure, no I/O).

``Game.next`` continues a table whose seats did not change. When people joined or left between
games, the rules that look back at the last game still apply to whoever plays the next one:

* **Winner leads** (``winner_leads_next``): the previous winner leads with any combination if they
  play the next game; otherwise the holder of the lowest card leads (not bound to play it).
* **Card exchange** (``card_exchange``, 4+ players): the exchange looks at the previous places of
  the people who play again, in their old order; newcomers count as the middle places (between
  the better and the worse half of those who return), so a newcomer gives or receives cards only
  when too few returning players fill the top two and bottom two places.
* **Direction**: flips with ``reverse_order_each_game`` as after any game.

Players are matched by their ids (``Game.players``).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import Cause, WrongPhase
from engine.game import Game

__all__ = ["next_game"]


def next_game(previous: Game, players: Sequence[str], *, seed: int | str | None = None) -> Game:
    """The game after ``previous`` for ``players`` (ids, by seat), see the module notes."""
    outcome = previous.outcome
    if outcome is None:
        raise WrongPhase("the previous game is not over yet", cause=Cause.NOT_OVER)
    ids = tuple(str(p) for p in players)
    if ids == tuple(previous.players):
        return Game.next(previous, seed=seed)
    rules = previous.rules
    seat_of = {player: seat for seat, player in enumerate(ids)}
    old = previous.players
    returning = [seat_of[old[s]] for s in outcome.places if old[s] in seat_of]
    known = set(old)
    newcomers = [seat for seat, player in enumerate(ids) if player not in known]
    half = len(returning) // 2
    order = [*returning[:half], *newcomers, *returning[half:]]
    winner = old[outcome.winner]
    leader = seat_of.get(winner) if rules.winner_leads_next else None
    direction = -previous.direction if rules.reverse_order_each_game else previous.direction
    return Game.new(rules, ids, seed=seed, first_game=False, leader=leader, direction=direction,
                    previous_places=order)
