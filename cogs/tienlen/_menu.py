"""The hand's menu of the plays its owner may make now (fewer taps than a card at a time).

The plays are the engine's own list (`Game.legal_plays`: every lead, every play that beats the
table, or the out-of-turn chops the rules allow), never a second rules implementation; choosing
one goes the same way through the table as selecting its cards and pressing Play. At most 25
(Discord's limit for a menu): the hint's choice first; with more legal plays, see `choose`."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from cogs import glossary, words
from cogs.i18n import Words
from cogs.tables import LiveTable
from engine import Combo, Phase
from engine.ai import observe, suggest

from . import selection as sel
from ._views import PlayMenu

MAX_OPTIONS = 25


def _order(play: Combo) -> tuple[int, int, int]:
    """Lowest first: by the top card, then the shorter play."""
    return (play.top.rank.value, len(play), play.top.suit.value)


def choose(plays: Sequence[Combo], hint: Combo | None, limit: int = MAX_OPTIONS) -> list[Combo]:
    """The plays the menu offers, in its order: the hint's first; then, when there are more than
    ``limit``, those a person is likeliest to want: every chop (a bomb is kept for the moment it
    matters), the lowest play of each kind and length (every shape is offered once), then the
    rest lowest first (players shed low cards and keep high ones). Shown lowest first after
    the hint."""
    plays = list(dict.fromkeys(plays))
    first = [hint] if hint is not None and hint in plays else []
    rest = sorted((p for p in plays if p not in first), key=_order)
    room = limit - len(first)
    if len(rest) > room:
        picked: list[Combo] = [p for p in rest if p.kind.is_bomb][:room]
        shapes: set[tuple[object, int]] = set()
        for play in rest:
            shape = (play.kind, len(play))
            if shape not in shapes and play not in picked and len(picked) < room:
                shapes.add(shape)
                picked.append(play)
        for play in rest:
            if len(picked) >= room:
                break
            if play not in picked:
                picked.append(play)
        rest = sorted(picked, key=_order)
    return [*first, *rest]


def plays_now(live: LiveTable, seat: int) -> list[Combo]:
    """What the menu offers ``seat`` now (empty: no menu): its legal plays, the hint's first."""
    game = live.game
    if game is None or not live.playing or game.is_over or game.phase is not Phase.PLAY:
        return []
    plays = game.legal_plays(seat)
    if not plays:
        return []
    hint = suggest(observe(game, seat)).play if game.current == seat else None
    return choose(plays, hint)


def play_menu(w: Words, live: LiveTable, seat: int, press: int) -> PlayMenu | None:
    """The menu for the hand of ``seat`` (drawing ``press``), or None when there is no play to
    make now."""
    plays = plays_now(live, seat)
    game = live.game
    if not plays or game is None:
        return None
    hand = game.hand(seat)
    table = game.table
    options: list[discord.SelectOption] = []
    seen: set[str] = set()
    for play in plays:
        value = sel.encode(sel.mask_for(hand, play.cards))
        if value in seen:
            continue
        seen.add(value)
        chop = table is not None and play.kind is not table.kind and play.kind.is_bomb
        options.append(discord.SelectOption(
            label=words.play_choice(w, play, chop=chop)[:100], value=value,
            description=glossary.cards(play.cards)[:100]))
    return PlayMenu(live.id, press, options, placeholder=w.marked(words.PLAY_MENU))
