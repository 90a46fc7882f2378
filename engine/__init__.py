"""The Tiến Lên rules engine: pure Python, no Discord, no I/O."""

from engine.cards import Card, Rank, Suit, format_cards, parse_card, parse_cards
from engine.combos import Combo, ComboKind, can_beat, classify
from engine.errors import (
    CannotPassOnLead,
    CardsNotInHand,
    GameFinished,
    IllegalPlay,
    InvalidCards,
    MustIncludeCard,
    NotACombination,
    NotYourTurn,
    PassedThisTrick,
    TienLenError,
    WrongPhase,
)
from engine.events import (
    Chopped,
    Dealt,
    Event,
    Exchanged,
    Frozen,
    GameOver,
    InstantWin,
    Passed,
    Played,
    TrickWon,
    WentOut,
    event_from_dict,
)
from engine.game import Game, Phase
from engine.level import Level
from engine.outcome import InstantWinKind, Outcome, Termination, instant_win_of
from engine.rules import Rules
from engine.settle import Settlement, Transfer, settle  # the function shadows the module name

__all__ = [
    "CannotPassOnLead",
    "Card",
    "CardsNotInHand",
    "Chopped",
    "Combo",
    "ComboKind",
    "Dealt",
    "Event",
    "Exchanged",
    "Frozen",
    "Game",
    "GameFinished",
    "GameOver",
    "IllegalPlay",
    "InstantWin",
    "InstantWinKind",
    "InvalidCards",
    "Level",
    "MustIncludeCard",
    "NotACombination",
    "NotYourTurn",
    "Outcome",
    "Passed",
    "PassedThisTrick",
    "Phase",
    "Played",
    "Rank",
    "Rules",
    "Settlement",
    "Suit",
    "Termination",
    "TienLenError",
    "Transfer",
    "TrickWon",
    "WentOut",
    "WrongPhase",
    "can_beat",
    "classify",
    "event_from_dict",
    "format_cards",
    "instant_win_of",
    "parse_card",
    "parse_cards",
    "settle",
]
