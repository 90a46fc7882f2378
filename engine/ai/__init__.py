"""Computer players: four levels that see only what their seat sees.

* ``easy``: a random legal play (passing is one more option when not leading).
* ``normal``: the lowest legal play (lowest top card; at an equal top, more cards).
* ``hard``: plans its hand into the fewest, strongest plays, keeps 2s and bombs for when they win
  a trick or end the game, counts the cards it has not seen, plays out when it can, bombs 2s.
* ``expert``: determinized search with ``hard`` rollouts (:mod:`engine.ai.search`).

Entry points: :func:`observe`, :func:`decide`, :func:`decide_json` (for a process pool),
:func:`choose_returns` (card exchange) and :func:`hint` (the Hint button).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from engine.ai.core import (
    SHARP,
    Ctx,
    easy_choice,
    full_mask,
    hard_choice,
    hard_respond,
    normal_choice,
)
from engine.ai.explain import HintWhy, Suggestion, explain_hint
from engine.ai.observation import Observation, observe
from engine.ai.planner import S1, split_mask
from engine.ai.search import DEFAULT_BUDGET_MS, expert_choice, keep_up
from engine.cards import Card
from engine.combos import Combo
from engine.events import Exchanged, Played
from engine.game import Game, Phase
from engine.house import feeds, next_active
from engine.level import Level

__all__ = [
    "DEFAULT_BUDGET_MS",
    "HintWhy",
    "Level",
    "Observation",
    "Suggestion",
    "choose",
    "choose_returns",
    "decide",
    "decide_json",
    "explain_hint",
    "hint",
    "observe",
    "suggest",
]

def _ctx(obs: Observation) -> Ctx:
    n, d = obs.players, obs.direction
    seat = obs.seat
    counts = obs.counts
    frozen = obs.frozen
    opponents = [
        s for s in ((seat + d * i) % n for i in range(1, n)) if counts[s] and s not in frozen
    ]
    hand = obs.hand_mask
    return Ctx(
        seat=seat,
        hand=hand,
        counts=counts,
        table=obs.table,
        owner=obs.table_seat,
        chop_ctx=obs.chop_context,
        unseen=full_mask(obs.decks) - hand - obs.played_mask,
        opponents=opponents,
        rules=obs.rules,
        layout=obs.layout,
        fresh=obs.rules.cong and not any(
            isinstance(e, Played) and e.seat == seat for e in obs.log
        ),
    )


def _known(obs: Observation, unseen: int) -> dict[int, int]:
    """Cards this seat gave to others in an exchange and not seen played since."""
    bit_of = obs.layout.bit_of
    known: dict[int, int] = {}
    for e in obs.log:
        if isinstance(e, Exchanged) and e.giver == obs.seat:
            for c in e.cards:
                known[e.receiver] = known.get(e.receiver, 0) + bit_of[c]
    out: dict[int, int] = {}
    for s, mask in known.items():
        kept = 0
        for c in obs.layout.cards(mask):
            b = bit_of[c]
            if ((unseen - kept) // b) & 3:
                kept += b
        if kept and obs.counts[s]:
            out[s] = kept
    return out


def _no_feeding(obs: Observation, legal: list[Combo], can_pass: bool,
                ) -> tuple[list[Combo], bool]:
    """With ``anti_feed``: the plays (and whether passing) that feed nobody. A safe play is always
    left: the highest single is never a feed, and passing is one only when it beats the table."""
    rules = obs.rules
    if rules.anti_feed == "off":
        return legal, can_pass
    nxt = next_active(obs.seat, obs.counts, obs.passed, obs.frozen, obs.direction)
    if nxt is None or obs.counts[nxt] != 1 or obs.finished:
        return legal, can_pass
    hand, table = obs.hand_mask, obs.table
    safe = [c for c in legal if not feeds(rules, hand, table, c, 1, False)]
    if can_pass and feeds(rules, hand, table, None, 1, False):
        can_pass = False
    return (safe or legal), can_pass


def choose(
    obs: Observation,
    level: Level | str,
    *,
    seed: int | None = None,
    budget_ms: int | None = None,
    levels: Sequence[Level | str | None] | None = None,
    thresholds: Mapping[str, float] | None = None,
) -> Combo | None:
    """The play of a computer player of ``level`` from its observation (``None``: pass).
    ``levels``: per seat, the level of a computer seat (public at the table) or None for a
    person; the expert's belief models a seat of known level as that level. ``thresholds``:
    those of ``hard``'s answers (:data:`engine.ai.core.HARD` unless given; the hint gives
    :data:`engine.ai.core.SHARP`)."""
    level = Level.parse(level)
    known = None if levels is None else tuple(
        None if x is None else Level.parse(x).value for x in levels)
    legal = list(obs.legal)
    if obs.phase is not Phase.PLAY or not legal:
        if level is Level.EXPERT and obs.phase is Phase.PLAY and obs.my_turn:
            # Nothing to play: the expert's carried belief still takes this decision's step.
            keep_up(_ctx(obs), n=obs.players, direction=obs.direction, full=full_mask(obs.decks),
                    log=obs.log, budget_ms=DEFAULT_BUDGET_MS if budget_ms is None else budget_ms,
                    levels=known)
        return None
    rng = random.Random(seed)
    if not obs.my_turn:
        # Out-of-turn chops only.
        if level is Level.EASY:
            return easy_choice(legal, True, rng)
        if level is Level.NORMAL:
            return normal_choice(legal)
        return hard_respond(_ctx(obs), legal, thresholds)
    legal, can_pass = _no_feeding(obs, legal, obs.can_pass)
    if level is Level.EASY:
        choice = easy_choice(legal, can_pass, rng)
    elif level is Level.NORMAL:
        choice = normal_choice(legal)
    elif level is Level.HARD:
        choice = hard_choice(_ctx(obs), legal, can_pass, thresholds)
    else:
        ctx = _ctx(obs)
        choice = expert_choice(
            ctx,
            legal,
            can_pass,
            rng=rng,
            budget_ms=DEFAULT_BUDGET_MS if budget_ms is None else budget_ms,
            n=obs.players,
            direction=obs.direction,
            passed=obs.passed,
            finished=obs.finished,
            played=obs.played_mask,
            full=full_mask(obs.decks),
            known=_known(obs, ctx.unseen),
            log=obs.log,
            levels=known,
        )
    if choice is None and not can_pass:
        choice = normal_choice(legal)
    return choice


def decide(
    game: Game,
    seat: int,
    level: Level | str,
    *,
    seed: int | None = None,
    budget_ms: int | None = None,
    levels: Sequence[Level | str | None] | None = None,
) -> list[Card] | None:
    """The cards ``seat`` plays now (``None``: pass). Looks only at ``observe(game, seat)``
    and the public ``levels`` of the computer seats (:func:`choose`).

    For a seat that is not the current one, an out-of-turn chop or ``None``.
    """
    choice = choose(observe(game, seat), level, seed=seed, budget_ms=budget_ms, levels=levels)
    return None if choice is None else list(choice.cards)


def decide_json(
    game_json: str, seat: int, level: Level | str, seed: int | None,
    budget_ms: int | None = None, levels: Sequence[Level | str | None] | None = None,
) -> list[str] | None:
    """:func:`decide` on a game rebuilt from JSON, returning card codes: for a process pool."""
    game = Game.from_json(game_json)
    cards = decide(game, seat, level, seed=seed, budget_ms=budget_ms, levels=levels)
    return None if cards is None else [c.code for c in cards]


def choose_returns(game: Game, seat: int, level: Level | str) -> list[Card]:
    """The cards ``seat`` gives back in the exchange phase: the lowest singles that belong to no
    combination of its planned hand (the lowest cards for ``easy``)."""
    obs = observe(game, seat)
    k = obs.pending_returns
    if k <= 0:
        return []
    layout = obs.layout
    hand = obs.hand_mask
    out: list[Card] = []
    if Level.parse(level) is Level.EASY:
        return list(layout.sort(obs.hand))[:k]
    for _ in range(k):
        _, plan = split_mask(hand)
        singles = sorted(s[1] for s in plan if s[0] == S1 and s[1] < 12)
        if singles:
            r = singles[0]
            byte = (hand >> (8 * r)) & 255
            pos = (byte & -byte).bit_length() - 1
            bit = 1 << (8 * r + (pos & ~1))
        else:
            best_bit, best_cost = 0, 1e9
            m = hand
            while m:
                low = m & -m
                pos = low.bit_length() - 1
                bit = 1 << (pos & ~1)
                cost = split_mask(hand - bit)[0]
                if cost < best_cost - 1e-9:
                    best_bit, best_cost = bit, cost
                m &= ~(3 * bit)
            bit = best_bit
        out.append(layout.cards(bit)[0])
        hand -= bit
    return out


def hint(observation: Observation) -> Combo | None:
    """A good play for a human in this seat (``None``: passing is suggested): ``hard``'s plan
    with the expert's own thresholds (:data:`engine.ai.core.SHARP`: a 2 that could still be
    beaten is played once an opponent holds 8 cards or fewer, a 2 kept for later is no reason to
    pass when another answer is cheap, and an answer costs more once an opponent holds 5 cards or
    fewer), which took 33.8% of first places against three ``hard`` where ``hard`` takes 25%."""
    return choose(observation, Level.HARD, thresholds=SHARP)


def suggest(observation: Observation) -> Suggestion:
    """The hint with its reason (:mod:`engine.ai.explain`)."""
    return explain_hint(observation, hint(observation))
