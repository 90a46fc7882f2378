"""The words of `/tienlen help`: a short guide to Tiến Lên, one topic a page, in the reader's
language. It describes the default rules (the `southern` preset); a table's own rules are one
`/tienlen rules` away, and every page that depends on them says so.

Each page is well under Discord's 4,096 characters of an embed's text (a test checks it in both
languages); button names are the buttons' own labels, so the guide and the table never disagree.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, get_args

from cogs import glossary
from cogs.i18n import N_, Words
from engine import Combo

__all__ = ["LABELS", "TOPICS", "Topic", "page_text", "picture_alt", "title", "topic_label"]

Topic = Literal["basics", "order", "beating", "chops", "end", "buttons"]
TOPICS: tuple[Topic, ...] = get_args(Topic)

LABELS: dict[str, str] = {
    "basics": N_("Goal and combinations"),
    "order": N_("Rank and suit order"),
    "beating": N_("Beating and passing"),
    "chops": N_("Chops"),
    "end": N_("End of a game and chips"),
    "buttons": N_("The table's buttons"),
}


def topic_label(w: Words, topic: Topic) -> str:
    return w.marked(LABELS[topic])


def title(w: Words, topic: Topic) -> str:
    return w._("How to play Tiến Lên — {topic}", topic=topic_label(w, topic))


def picture_alt(w: Words, examples: Sequence[Combo]) -> str:
    """The picture's description, for screen readers: the combinations it shows."""
    return w._("Examples: {plays}", plays="; ".join(
        f"{glossary.combo_short(w, c)} ({glossary.cards(c.cards)})" for c in examples))


def page_text(w: Words, topic: Topic, *, pictured: bool) -> str:
    """A topic's page; ``pictured``: the examples are shown in a picture below it."""
    lines = _PAGES[topic](w)
    if pictured and topic in ("basics", "order", "chops"):
        lines.append(w._("The picture shows the examples, each raised or lowered in turn."))
    return "\n".join(lines)


def _basics(w: Words) -> list[str]:
    return [
        w._("Be the first to play all your cards. Each player gets 13 cards; in turn, each "
            "plays one combination or passes:"),
        w._("• **single**: one card — 7♥"),
        w._("• **pair**: two cards of one rank — 9♠ 9♥"),
        w._("• **triple**: three cards of one rank — Q♠ Q♦ Q♥"),
        w._("• **quad**: all four cards of one rank — K♠ K♣ K♦ K♥ (a bomb)"),
        w._("• **sequence**: three or more cards of consecutive ranks, any suits — 4♠ 5♦ 6♣ 7♣ "
            "(never with a 2 in it)"),
        w._("• **consecutive pairs**: three or more pairs of consecutive ranks — 5♠ 5♥ 6♦ 6♥ "
            "7♠ 7♦ (a bomb)"),
        w._("Any other set of cards is not a combination."),
    ]


def _order(w: Words) -> list[str]:
    return [
        w._("Ranks, low to high: **3 4 5 6 7 8 9 10 J Q K A 2**. The 2 is the highest card."),
        w._("Between cards of one rank the suit decides: **♠ < ♣ < ♦ < ♥**. So 3♠ is the lowest "
            "card and 2♥ the highest, and 7♥ beats 7♦."),
        w._("A pair, a triple or a sequence is compared by its highest card: 8♠ 9♠ 10♦ beats "
            "8♥ 9♥ 10♣, because 10♦ beats 10♣."),
        w._("Some tables use another suit order: `/tienlen rules` shows a table's rules."),
    ]


def _beating(w: Words) -> list[str]:
    return [
        w._("In a table's first game the player holding the lowest card (3♠, when it was dealt) "
            "leads, and the first play must include it. After that, the winner of the last game "
            "leads with anything."),
        w._("On your turn, beat the play on the table with the same kind and the same number of "
            "cards, higher; or pass. A 3-card sequence beats only a higher 3-card sequence."),
        w._("Once you pass, you sit out the rest of the trick."),
        w._("When everyone else has passed, whoever played last wins the trick and leads the "
            "next one with any combination. Whoever leads must play."),
    ]


def _chops(w: Words) -> list[str]:
    return [
        w._("Bombs (a quad, or three or more consecutive pairs) beat 2s, whatever their ranks: "
            "that is a **chop**."),
        w._("• a single 2: three consecutive pairs, a quad, or four or more consecutive pairs"),
        w._("• a pair of 2s: a quad, or four or more consecutive pairs"),
        w._("• three 2s: five or more consecutive pairs"),
        w._("A bomb that chopped is the play to beat: a higher bomb can chop it in turn. Four or "
            "more consecutive pairs may even chop 2s out of turn, after you passed."),
        w._("Tables may chop differently: `/tienlen rules` shows a table's rules."),
    ]


def _end(w: Words) -> list[str]:
    return [
        w._("Whoever plays their last card goes out and takes the next place. Play goes on until "
            "one player still holds cards: the last place."),
        w._("Chips move by places, counted in stakes: with four players the last pays the first "
            "2 stakes and the third pays the second 1; with two or three, the last pays the "
            "first 1 stake."),
        w._("An **instant win** (a dragon 3 to 2, four 2s, six pairs, …) is checked right after "
            "the deal: that hand wins at once and everyone pays it 2 to 4 stakes."),
        w._("Leaving a game before it ends pays as the last place. Computer players hold no "
            "chips: nobody wins chips from them or loses chips to them."),
        w._("Tables may end and pay differently: `/tienlen rules` shows a table's rules."),
    ]


def _buttons(w: Words) -> list[str]:
    return [
        w._("**On the board:** **{join}** sits you down and **{leave}** gets you up; **{add}** "
            "fills a seat; the host presses **{start}**; **{cancel}** closes the table.",
            join=w._("Join"), leave=w._("Leave"), add=w._("Add computer player"),
            start=w._("Start"), cancel=w._("Cancel")),
        w._("**During a game:** **{hand}** shows you your cards (only you see them); **{leave}** "
            "hands your seat to a computer player, and you pay as the last place; **{rules}** "
            "shows the table's rules.",
            hand=w._("My hand"), leave=w._("Leave game"), rules=w._("Rules")),
        w._("**On your hand:** press cards to select them, then **{play}**; **{pass_}** sits out "
            "the trick; **{hint}** suggests a play and says why; **{clear}** unselects.",
            play=w._("Play"), pass_=w._("Pass"), hint=w._("Hint"), clear=w._("Clear")),
        w._("**After a game:** **{again}** when you are ready for the next one.",
            again=w._("Play again")),
    ]


_PAGES = {"basics": _basics, "order": _order, "beating": _beating, "chops": _chops,
          "end": _end, "buttons": _buttons}
