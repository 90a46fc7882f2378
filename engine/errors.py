"""Errors raised by the rules engine.

Every error is a :class:`TienLenError`, itself a :class:`ValueError`, and its message is a
sentence a player can read. An action that raises leaves the game exactly as it was.
"""

from __future__ import annotations

__all__ = [
    "CannotPassOnLead",
    "CardsNotInHand",
    "GameFinished",
    "IllegalPlay",
    "InvalidCards",
    "MustIncludeCard",
    "NotACombination",
    "NotYourTurn",
    "PassedThisTrick",
    "TienLenError",
    "WrongPhase",
]


class TienLenError(ValueError):
    """Base class of every error of the rules engine."""


class InvalidCards(TienLenError):
    """The text or the cards given are not valid cards (bad token, impossible duplicate)."""


class NotACombination(TienLenError):
    """The cards are valid but do not form a combination."""


class IllegalPlay(TienLenError):
    """The combination may not be played now (it does not beat the table, may not lead, ...)."""


class NotYourTurn(TienLenError):
    """The seat tried to act when it is not its turn."""


class PassedThisTrick(TienLenError):
    """The seat passed earlier in this trick and is locked out until the next lead."""


class MustIncludeCard(TienLenError):
    """The first play of the game must include a given card."""


class CardsNotInHand(TienLenError):
    """The seat does not hold (all of) the cards it tried to play or give."""


class GameFinished(TienLenError):
    """The game is over; no further action is possible."""


class CannotPassOnLead(TienLenError):
    """The seat leads the trick and therefore must play."""


class WrongPhase(TienLenError):
    """The action does not belong to the game's current phase (exchange or play)."""
