"""Skill ratings from finishing places (docs/RATING.md). Pure: no I/O, no clock.

The maths is openskill's Plackett-Luce model (Weng & Lin 2011, algorithm 4) with its default
parameters (mu 25, sigma 25/3, beta 25/6, tau 25/300): every seat of a finished game is a
one-player team ranked by its place, ties allowed (equal places share a rank).

* **Display rating** ``1000 + 40 × ordinal`` with ``ordinal = mu − 3 sigma`` (a cautious estimate:
  the player is better than this with about 99.9% probability), rounded to a whole number. A new
  player shows 1000.
* **Provisional** until :data:`PROVISIONAL_GAMES` rated games.
* **Tiers** by display rating: :data:`TIERS` (Bronze … Diamond).
* **Computer anchors.** A computer seat plays with its level's fixed :data:`ANCHORS` skill (placed
  from arena games, see docs/RATING.md) and is never updated: its returned skill is the anchor.
* **Leavers.** A seat flagged ``left`` is ranked below every seat that stayed, whatever its
  place (several leavers tie for last).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from openskill.models import PlackettLuce

from engine.level import Level

__all__ = [
    "ANCHORS",
    "DEFAULT_SKILL",
    "PROVISIONAL_GAMES",
    "TIERS",
    "Entrant",
    "Skill",
    "Tier",
    "display_rating",
    "is_provisional",
    "rate",
    "soft_reset",
    "tier_of",
]

_MODEL = PlackettLuce()

#: rated games before a rating stops being provisional
PROVISIONAL_GAMES = 10


@dataclass(frozen=True, slots=True)
class Skill:
    """A belief about a player's skill: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        return self.mu - 3.0 * self.sigma

    @property
    def display(self) -> int:
        return display_rating(self)


DEFAULT_SKILL = Skill(_MODEL.mu, _MODEL.sigma)

#: Fixed skills of the computer levels, never moved by games. mu from 120 arena games of the four
#: levels at one table rated with this model (``benchmarks.rating_anchors``), shifted so that normal
#: sits at a newcomer's 25; expert 2 above hard from its 35% first places against three hards
#: (docs/AI.md). sigma 1: a well-measured opponent. Figures in docs/RATING.md.
ANCHORS: dict[Level, Skill] = {
    Level.EASY: Skill(6.0, 1.0),
    Level.NORMAL: Skill(25.0, 1.0),
    Level.HARD: Skill(33.5, 1.0),
    Level.EXPERT: Skill(35.5, 1.0),
}


def display_rating(skill: Skill) -> int:
    """``1000 + 40 × (mu − 3 sigma)``, rounded half up."""
    return int(1000.0 + 40.0 * skill.ordinal + 0.5 + 1e-9)


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


class Tier(StrEnum):
    BRONZE = "bronze"
    SILVER = "silver"
    GOLD = "gold"
    PLATINUM = "platinum"
    DIAMOND = "diamond"


#: (lowest display rating, tier), lowest first
TIERS: tuple[tuple[int, Tier], ...] = (
    (0, Tier.BRONZE),
    (1500, Tier.SILVER),
    (1700, Tier.GOLD),
    (1900, Tier.PLATINUM),
    (2100, Tier.DIAMOND),
)


def tier_of(display: int) -> Tier:
    tier = Tier.BRONZE
    for floor, name in TIERS:
        if display >= floor:
            tier = name
    return tier


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat of a game to rate: a person's ``skill`` or a computer's ``anchor`` level."""

    place: int
    skill: Skill | None = None
    anchor: Level | None = None
    left: bool = False

    def __post_init__(self) -> None:
        if (self.skill is None) == (self.anchor is None):
            raise ValueError("An entrant is either a person (skill) or a computer (anchor).")
        if self.place < 1:
            raise ValueError(f"A place is 1 or more, not {self.place}.")

    @property
    def start(self) -> Skill:
        if self.anchor is not None:
            return ANCHORS[self.anchor]
        assert self.skill is not None
        return self.skill


def _ranks(entrants: Sequence[Entrant]) -> list[float]:
    last = max(e.place for e in entrants) + 1
    return [float(last if e.left else e.place) for e in entrants]


def rate(entrants: Sequence[Entrant]) -> list[Skill]:
    """Every entrant's skill after the game, in the given order (anchors come back unchanged).

    Fewer than two entrants, or no person among them, changes nothing."""
    if len(entrants) < 2 or all(e.anchor is not None for e in entrants):
        return [e.start for e in entrants]
    teams = [[_MODEL.rating(mu=e.start.mu, sigma=e.start.sigma)] for e in entrants]
    rated = _MODEL.rate(teams, ranks=_ranks(entrants))
    return [
        e.start if e.anchor is not None else Skill(team[0].mu, team[0].sigma)
        for e, team in zip(entrants, rated, strict=True)
    ]


#: how far a season's soft reset widens the uncertainty, towards the starting sigma
SOFT_RESET_SIGMA = 0.5


def soft_reset(skill: Skill) -> Skill:
    """A new season: keep the mean, move the uncertainty halfway back to a newcomer's."""
    sigma = skill.sigma + (DEFAULT_SKILL.sigma - skill.sigma) * SOFT_RESET_SIGMA
    return Skill(skill.mu, max(sigma, skill.sigma))
