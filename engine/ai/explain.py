"""Why the Hint button suggests what it does: the suggestion of :func:`engine.ai.hint` with its
reason as structured data (the engine words nothing; the Discord side turns it into a sentence)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum, unique

from engine.ai.core import twos_or_bomb
from engine.ai.observation import Observation
from engine.ai.planner import split_mask
from engine.combos import Combo, ComboKind
from engine.game import Phase

__all__ = ["HintWhy", "Suggestion", "explain_hint"]


@unique
class HintWhy(StrEnum):
    GO_OUT = "go_out"
    """The play empties the hand."""
    LEAD_LOWEST = "lead_lowest"
    """Leading: the lowest single is the weakest part of the hand."""
    LEAD_PLAN = "lead_plan"
    """Leading: the weakest part of the hand's plan (``plays_left`` plays after it)."""
    CHOP = "chop"
    """A bomb on the 2s (or bomb) on the table."""
    BLOCK = "block"
    """An opponent is nearly out (``opponent_cards``): answer now."""
    FITS_PLAN = "fits_plan"
    """The cheapest answer: it costs the plan nothing (``plays_left`` plays after it)."""
    KEEP = "keep"
    """Pass: answering would break up ``kept``; passing keeps a ``plays_left``-play plan."""
    KEEP_CONTROL = "keep_control"
    """Pass: the only answers are 2s or bombs (``kept``), worth more later."""
    NO_PLAY = "no_play"
    """Pass: nothing in the hand beats the table."""
    NOT_NOW = "not_now"
    """Nothing to suggest: the seat may neither play nor pass now."""


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A hint: ``play`` (``None``: pass) and why."""

    play: Combo | None
    why: HintWhy
    plays_left: int = 0
    """Plays in the hand's plan after following the hint."""
    kept: Combo | None = None
    """For a suggested pass: the answer that passing keeps in the hand."""
    opponent_cards: int | None = None
    """For ``BLOCK``: the fewest cards an opponent holds."""


def _plan_size(mask: int) -> int:
    return len(split_mask(mask)[1]) if mask else 0


def explain_hint(obs: Observation, play: Combo | None) -> Suggestion:
    """The reason for ``play``, the hint for the seat of ``obs`` (``None``: pass)."""
    hand = obs.hand_mask
    legal = list(obs.legal)
    if obs.phase is not Phase.PLAY or (not legal and not obs.can_pass):
        return Suggestion(None, HintWhy.NOT_NOW)
    if play is None:
        if not legal:
            return Suggestion(None, HintWhy.NO_PLAY, _plan_size(hand))
        kept = min(legal, key=lambda c: (split_mask(hand - c.mask)[0], c.mask.bit_length()))
        why = HintWhy.KEEP_CONTROL if twos_or_bomb(kept) else HintWhy.KEEP
        return Suggestion(None, why, _plan_size(hand), kept=kept)
    rest = hand - play.mask
    left = _plan_size(rest)
    if not rest:
        return Suggestion(play, HintWhy.GO_OUT)
    if obs.table is None:
        singles = [c for c in legal if c.kind is ComboKind.SINGLE]
        if (play.kind is ComboKind.SINGLE and singles
                and play.mask == min(singles, key=lambda c: c.mask).mask):
            return Suggestion(play, HintWhy.LEAD_LOWEST, left)
        return Suggestion(play, HintWhy.LEAD_PLAN, left)
    if play.is_bomb and twos_or_bomb(obs.table):
        return Suggestion(play, HintWhy.CHOP, left)
    others = [n for s, n in enumerate(obs.counts) if s != obs.seat and n]
    fewest = min(others, default=0)
    if 0 < fewest <= 2:
        return Suggestion(play, HintWhy.BLOCK, left, opponent_cards=fewest)
    return Suggestion(play, HintWhy.FITS_PLAN, left)
