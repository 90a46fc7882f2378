"""Call-outs: the short shouts of a Vietnamese table ("@bob báo 1 lá!", "chặt heo!"), worded
from the game's events in the reader's language. Pure and Discord-free: the board shows the
latest :data:`KEPT` of them in the same edit that shows the move.

:func:`callouts` walks a game's log (from its :class:`~engine.events.Dealt`) and returns one line
per call-out, oldest first:

* a seat down to one card;
* a chop of 2s ("chặt heo!") naming who chopped whom, with the chips it costs when the table pays
  chop bonuses (``stake`` given); a chop of a bomb that chopped 2s ("chặt chồng!");
* the seats frozen (cóng), an instant win (tới trắng) and its kind, a feed paid for (đền bài);
* a turn the clock played (``timeouts``: the log's length at that moment and the seat).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from cogs import glossary
from cogs.i18n import N_, Words
from engine import Chopped, Dealt, Event, Fed, Frozen, InstantWin, Played, Rank, TrickWon
from engine.events import Exchanged, GameOver

__all__ = ["KEPT", "PHRASE_WORDS", "callouts", "latest", "reaction_label", "reaction_text"]

KEPT = 3
"""How many call-outs the board shows (the latest ones)."""


def _two_units(cards: Sequence[object]) -> int:
    """Chop-bonus units of the 2s among cards: black 2 = 1, red 2 = 2 (as engine.settle)."""
    out = 0
    for c in cards:
        if getattr(c, "rank", None) is Rank.TWO:
            out += 2 if getattr(c, "is_red", False) else 1
    return out


def _chop(w: Words, event: Chopped, name: Callable[[int], str], cost: int | None) -> str:
    on_twos = all(c.rank is Rank.TWO for c in event.chopped)
    player, victim = name(event.seat), name(event.victim)
    cards = glossary.cards(event.chopped)
    if cost is None:
        if on_twos:
            return w._("Chop! {player} chopped {victim}'s {cards}", player=player,
                       victim=victim, cards=cards)
        return w._("Chop on a chop! {player} chopped {victim}'s {cards}", player=player,
                   victim=victim, cards=cards)
    if on_twos:
        return w.ngettext("Chop! {player} chopped {victim}'s {cards}: {victim} pays {n} chip",
                          "Chop! {player} chopped {victim}'s {cards}: {victim} pays {n} chips",
                          cost, player=player, victim=victim, cards=cards)
    return w.ngettext(
        "Chop on a chop! {player} chopped {victim}'s {cards}: {victim} pays {n} chip",
        "Chop on a chop! {player} chopped {victim}'s {cards}: {victim} pays {n} chips",
        cost, player=player, victim=victim, cards=cards)


def callouts(w: Words, events: Sequence[Event], name: Callable[[int], str], *,
             stake: int | None = None, timeouts: Sequence[tuple[int, int]] = ()) -> list[str]:
    """Every call-out of a game's log, oldest first (see the module's notes). ``name`` names a
    seat; ``stake``: the table's stake, for the cost of a chop when chop bonuses are on."""
    if not events or not isinstance(events[0], Dealt):
        return []
    dealt = events[0]
    counts = [len(h) for h in dealt.hands]
    bonus = dealt.rules.chop_bonus and stake is not None and stake > 0
    clock: dict[int, list[int]] = {}
    for at, seat in timeouts:
        clock.setdefault(at, []).append(seat)
    out: list[str] = []
    twos, chops, trick = 0, 0, None
    for index, event in enumerate(events):
        for seat in clock.get(index, ()):
            out.append(w._("{player} ran out of time", player=name(seat)))
        match event:
            case Exchanged(giver=giver, receiver=receiver, cards=cards):
                counts[giver] -= len(cards)
                counts[receiver] += len(cards)
            case Played(seat=seat, cards=cards, trick=t):
                if t != trick:
                    twos, chops, trick = 0, 0, t
                twos += _two_units(cards)
                counts[seat] -= len(cards)
                if counts[seat] == 1:
                    out.append(w._("{player}: last card!", player=name(seat)))
            case Chopped():
                chops += 1
                cost = None
                if bonus:
                    assert stake is not None
                    cost = int(Fraction(twos * 2 ** (chops - 1)) * stake)
                out.append(_chop(w, event, name, cost))
            case Frozen(seats=seats):
                out.append(w._("Frozen! {players} never played a card",
                               players=", ".join(name(s) for s in seats)))
            case InstantWin(seat=seat, kind=kind):
                out.append(w._("Instant win! {player}: {hand}", player=name(seat),
                               hand=glossary.instant_win_kind(w, kind)))
            case Fed(feeder=feeder, seat=seat):
                out.append(w._("Fed! {feeder} let {player} out and pays for everyone",
                               feeder=name(feeder), player=name(seat)))
            case TrickWon() | GameOver():
                twos, chops, trick = 0, 0, None
            case _:
                pass
        # LEAVER: when the table layer logs a person leaving a running game (an event of the
        # branch that adds leaving), add its call-out here: "{player} left the table".
    for seat in clock.get(len(events), ()):
        out.append(w._("{player} ran out of time", player=name(seat)))
    return out


def latest(w: Words, events: Sequence[Event], name: Callable[[int], str], *,
           stake: int | None = None, timeouts: Sequence[tuple[int, int]] = (),
           kept: int = KEPT) -> list[str]:
    """The latest ``kept`` call-outs, oldest first (what the board shows)."""
    return callouts(w, events, name, stake=stake, timeouts=timeouts)[-kept:] if kept > 0 else []


PHRASE_WORDS: dict[str, str] = {
    "nice": N_("Nice!"),
    "cheat": N_("Cheater!"),
    "again": N_("Another game?"),
    "hurry": N_("Hurry up!"),
}
"""The quick phrases of the reaction select (keys of ``cogs.tables.reactions.PHRASES``)."""

_EMOTE_WORDS: dict[str, str] = {
    "like": N_("Like"),
    "laugh": N_("Laugh"),
    "wow": N_("Wow"),
    "angry": N_("Angry"),
    "cry": N_("Cry"),
    "fire": N_("On fire"),
}


def reaction_label(w: Words, key: str) -> str:
    """The select option's label: an emote's name or a quick phrase, in the reader's language."""
    text = PHRASE_WORDS.get(key) or _EMOTE_WORDS.get(key)
    return w.marked(text) if text else key


def reaction_text(w: Words, key: str, emoji: str | None) -> str:
    """What the board shows for a reaction: the emoji itself, or the phrase in quotes."""
    if emoji:
        return emoji
    return f"“{reaction_label(w, key)}”"
