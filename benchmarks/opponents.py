"""Benchmark players that play unlike ``hard``, for measuring the levels against anyone.

These are not levels of the bot (those live only in :class:`engine.Level`); the arena and
``benchmarks.pools`` seat them by name beside the levels:

* ``greedy``: answers with its highest legal play (highest top card; never passes when it can
  answer, and chops out of turn whenever it can); leads the play with the most cards, then the
  highest top card (it gets rid of cards fast and spends its 2s and bombs early).
* ``noisy10`` / ``noisy30``: ``hard``, but 10% / 30% of the time a uniformly random legal play
  (passing being one more option when allowed), drawn from the decision's seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from engine.ai import Level, choose_returns, decide, observe
from engine.cards import Card, count_cards
from engine.combos import Combo
from engine.game import Game

__all__ = ["PLAYERS", "decide_as", "is_player", "known_levels", "returns_as"]

NOISY = {"noisy10": 0.10, "noisy30": 0.30}
PLAYERS = ("greedy", *NOISY)
"""Benchmark players beside the levels."""


def is_player(name: str) -> bool:
    """Whether ``name`` is a level or one of :data:`PLAYERS`."""
    return name in PLAYERS or name in set(Level)


def _greedy(legal: list[Combo], leading: bool) -> Combo:
    def key(c: Combo) -> tuple[int, int]:
        top = c[1].bit_length()
        return (count_cards(c[1]), top) if leading else (top, count_cards(c[1]))

    return max(legal, key=key)


def decide_as(game: Game, seat: int, name: str, *, seed: int,
              budget_ms: int | None = None,
              levels: Sequence[str | None] | None = None) -> list[Card] | None:
    """The cards ``seat`` plays now as player ``name`` (a level or one of :data:`PLAYERS`);
    ``levels``: what the table shows of each seat's level (:func:`known_levels`)."""
    if name in set(Level):
        return decide(game, seat, name, seed=seed, budget_ms=budget_ms, levels=levels)
    if name in NOISY:
        if random.Random(seed).random() < NOISY[name]:
            return decide(game, seat, Level.EASY, seed=seed)
        return decide(game, seat, Level.HARD, seed=seed)
    if name != "greedy":
        raise ValueError(f"unknown player {name!r}")
    obs = observe(game, seat)
    legal = list(obs.legal)
    if not legal:
        return None
    return list(_greedy(legal, obs.table is None).cards)


def known_levels(names: Sequence[str]) -> tuple[str | None, ...]:
    """Per seat, the level a table would show: a level's name, None for a benchmark player
    (``greedy``, ``noisy10``...), which the table would show as a person."""
    return tuple(name if name in set(Level) else None for name in names)


def returns_as(game: Game, seat: int, name: str) -> list[Card]:
    """The cards given back in an exchange by player ``name``."""
    if name in set(Level):
        return choose_returns(game, seat, name)
    return choose_returns(game, seat, Level.NORMAL if name == "greedy" else Level.HARD)
