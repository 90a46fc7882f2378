"""Errors raised by the rules engine.

Every error is a :class:`TienLenError`, itself a :class:`ValueError`. An action that raises leaves
the game exactly as it was. The message is an English sentence for logs and the terminal; what a
player reads is worded by the presentation side from the error's :attr:`~TienLenError.cause` and
:attr:`~TienLenError.data` (the cards, the play to beat, a count...), in the player's language.
"""

from __future__ import annotations

from enum import StrEnum, unique
from typing import Any, ClassVar

__all__ = [
    "CannotPassOnLead",
    "CardsNotInHand",
    "Cause",
    "GameFinished",
    "IllegalPlay",
    "InvalidCards",
    "MustIncludeCard",
    "NotACombination",
    "NotYourTurn",
    "PassedThisTrick",
    "RuleOptionError",
    "TienLenError",
    "WrongPhase",
]


@unique
class Cause(StrEnum):
    """What exactly was refused; each names the ``data`` it carries."""

    NO_CARDS = "no_cards"
    """No card was chosen."""
    NOT_HELD = "not_held"
    """``cards``: the chosen cards the seat does not hold."""
    NOT_A_COMBINATION = "not_a_combination"
    """``cards``: they form no combination."""
    DOES_NOT_BEAT = "does_not_beat"
    """``play`` does not beat ``table`` (both :class:`~engine.combos.Combo`); ``same_kind``: the
    two are of one kind (and length); ``chop``: a bomb could beat the table."""
    MUST_INCLUDE = "must_include"
    """``card``: the first play of the game must include it."""
    THREE_PAIRS_MAY_NOT_LEAD = "three_pairs_may_not_lead"
    PASSED = "passed"
    """The seat passed this trick."""
    NOT_YOUR_TURN = "not_your_turn"
    NO_CARDS_LEFT = "no_cards_left"
    """The seat has gone out."""
    NO_SEAT = "no_seat"
    """``seat``: there is no such seat."""
    MUST_PLAY = "must_play"
    """The seat leads the trick, so it may not pass."""
    GAME_OVER = "game_over"
    NOT_EXCHANGING = "not_exchanging"
    """Cards are given back only before play starts."""
    NOTHING_TO_GIVE = "nothing_to_give"
    """The seat owes no cards back."""
    GIVE_COUNT = "give_count"
    """``count``: how many cards the seat must give back."""
    EXCHANGING = "exchanging"
    """Play starts when the card exchange is done."""
    NOT_OVER = "not_over"
    """The previous game is not over."""
    BAD_CARD = "bad_card"
    """``token``: the text is not a card."""
    DUPLICATE = "duplicate"
    """``card`` is given ``times`` times with ``decks`` decks."""
    BAD_DEAL = "bad_deal"
    """The hands given to a new game are not a deal."""
    NO_TWO_LAST = "no_two_last"
    """With ``no_two_last``: ``out`` true when the play would go out on a 2, false when it would
    leave nothing but 2s in the hand (they could never go out)."""
    OPTION_FORMAT = "option_format"
    """``part``: a rule option text that is not ``name=value``."""
    UNKNOWN_OPTION = "unknown_option"
    """``name``: no rule option has that name; ``options``: the names there are."""
    OPTION_VALUE = "option_value"
    """``name``: the rule option (``options`` when no single one is to blame) refuses ``value``
    (the text given); ``choices``: the values it takes (empty when no single one is to blame)."""


class TienLenError(ValueError):
    """Base class of every error of the rules engine.

    ``cause`` says what was refused (the class's default when not given) and ``data`` holds the
    values a sentence about it needs (see :class:`Cause`)."""

    default_cause: ClassVar[Cause | None] = None

    def __init__(self, message: str = "", *, cause: Cause | None = None, **data: Any) -> None:
        super().__init__(message)
        self.cause: Cause | None = cause or self.default_cause
        self.data: dict[str, Any] = data


class InvalidCards(TienLenError):
    """The text or the cards given are not valid cards (bad token, impossible duplicate)."""

    default_cause = Cause.BAD_CARD


class NotACombination(TienLenError):
    """The cards are valid but do not form a combination."""

    default_cause = Cause.NOT_A_COMBINATION


class IllegalPlay(TienLenError):
    """The combination may not be played now (it does not beat the table, may not lead, ...)."""


class NotYourTurn(TienLenError):
    """The seat tried to act when it is not its turn."""

    default_cause = Cause.NOT_YOUR_TURN


class PassedThisTrick(TienLenError):
    """The seat passed earlier in this trick and is locked out until the next lead."""

    default_cause = Cause.PASSED


class MustIncludeCard(TienLenError):
    """The first play of the game must include a given card."""

    default_cause = Cause.MUST_INCLUDE


class CardsNotInHand(TienLenError):
    """The seat does not hold (all of) the cards it tried to play or give."""

    default_cause = Cause.NOT_HELD


class GameFinished(TienLenError):
    """The game is over; no further action is possible."""

    default_cause = Cause.GAME_OVER


class CannotPassOnLead(TienLenError):
    """The seat leads the trick and therefore must play."""

    default_cause = Cause.MUST_PLAY


class WrongPhase(TienLenError):
    """The action does not belong to the game's current phase (exchange or play)."""


class RuleOptionError(TienLenError):
    """A rule option text (``name=value``) that is not written so, names no option, or gives a
    value the option does not take."""
