"""The game's words in the player's language: combinations, places, computer levels, instant
wins, chip reasons and rule options. Discord-free (the cogs and the terminal table use it).

The engine names things with identifiers (``ComboKind.PAIR``, ``"four_twos"``, ``"loser_pays"``,
``Rules.chop_table``); here they become words. The Vietnamese uses the table words players use
(đôi, sám cô, tứ quý, sảnh, đôi thông, heo, hàng for a bomb, tới trắng, chặt, bét, ...; the
word choices are in docs/I18N.md).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, get_args

from cogs.i18n import N_, NP_, Words
from engine import Card, Cause, Combo, ComboKind, Rank, Rules, TienLenError

__all__ = [
    "LEVELS",
    "OPTIONS",
    "cards",
    "combo",
    "engine_refusal",
    "instant_win",
    "instant_win_kind",
    "level",
    "option_label",
    "option_value",
    "place",
    "preset",
    "reason",
    "rules_lines",
]


def cards(items: Iterable[Card]) -> str:
    """Cards as players read them in both languages: ``9♠ 9♥``."""
    return " ".join(str(c) for c in items)


# ------------------------------------------------------------------ combinations
_RANKS = (
    N_("3s"), N_("4s"), N_("5s"), N_("6s"), N_("7s"), N_("8s"), N_("9s"), N_("10s"),
    N_("Jacks"), N_("Queens"), N_("Kings"), N_("Aces"), N_("2s"),
)


def _ranks(w: Words, rank: Rank) -> str:
    """A rank as in "pair of 7s" / "đôi 7", "pair of 2s" / "đôi heo"."""
    return w.marked(_RANKS[rank])


def _run(low: Rank, high: Rank) -> str:
    return "-".join(Rank(r).label for r in range(low, high + 1))


_PAIRS = {3: NP_("pairs", "three"), 4: NP_("pairs", "four"), 5: NP_("pairs", "five"),
          6: NP_("pairs", "six")}


def _pairs_count(w: Words, n: int) -> str:
    return w.pgettext(*_PAIRS[n]) if n in _PAIRS else w.num(n)


def combo(w: Words, play: Combo) -> str:
    """``pair of 7s, 7♥ high`` / ``đôi 7 (7♥)``."""
    kind, top = play.kind, play.top
    if kind is ComboKind.SINGLE:
        return w._("single {top}", top=top)
    if kind is ComboKind.PAIR:
        return w._("pair of {ranks}, {top} high", ranks=_ranks(w, top.rank), top=top)
    if kind is ComboKind.TRIPLE:
        return w._("three {ranks}, {top} high", ranks=_ranks(w, top.rank), top=top)
    if kind is ComboKind.QUAD:
        return w._("four {ranks}", ranks=_ranks(w, top.rank))
    run = _run(play.low_rank, top.rank)
    if kind is ComboKind.SEQUENCE:
        return w._("sequence {run}, {top} high", run=run, top=top)
    return w._("{count} consecutive pairs {run}, {top} high",
               count=_pairs_count(w, play.length), run=run, top=top)


_KINDS = {
    "single": NP_("kind", "single"),
    "pair": NP_("kind", "pair"),
    "triple": NP_("kind", "triple"),
    "quad": NP_("kind", "quad"),
    "sequence": NP_("kind", "sequence"),
    "double_sequence": NP_("kind", "consecutive pairs"),
}


def combo_short(w: Words, play: Combo) -> str:
    """A combination in a few words: ``pair of Queens`` / ``đôi Q``, ``sequence 8-9-10``."""
    kind, top = play.kind, play.top
    if kind is ComboKind.SINGLE:
        return w._("single {top}", top=top)
    if kind is ComboKind.PAIR:
        return w._("pair of {ranks}", ranks=_ranks(w, top.rank))
    if kind is ComboKind.TRIPLE:
        return w._("three {ranks}", ranks=_ranks(w, top.rank))
    if kind is ComboKind.QUAD:
        return w._("four {ranks}", ranks=_ranks(w, top.rank))
    run = _run(play.low_rank, top.rank)
    if kind is ComboKind.SEQUENCE:
        return w._("sequence {run}", run=run)
    return w._("{count} consecutive pairs {run}", count=_pairs_count(w, play.length), run=run)


def part(w: Words, kind: ComboKind, low: Rank, high: Rank) -> str:
    """A part of a hand by its ranks (no suits): ``pair of Queens`` / ``đôi Q``, ``single K``."""
    if kind is ComboKind.SINGLE:
        return w._("single {top}", top=Rank(high).label)
    if kind is ComboKind.PAIR:
        return w._("pair of {ranks}", ranks=_ranks(w, high))
    if kind is ComboKind.TRIPLE:
        return w._("three {ranks}", ranks=_ranks(w, high))
    if kind is ComboKind.QUAD:
        return w._("four {ranks}", ranks=_ranks(w, high))
    run = _run(low, high)
    if kind is ComboKind.SEQUENCE:
        return w._("sequence {run}", run=run)
    return w._("{count} consecutive pairs {run}", count=_pairs_count(w, high - low + 1), run=run)


def listing(w: Words, items: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` / ``a, b và c``."""
    if len(items) <= 1:
        return "".join(items)
    return w._("{items} and {last}", items=", ".join(items[:-1]), last=items[-1])


def kind(w: Words, value: ComboKind | str) -> str:
    """A kind of combination without its cards: ``pair`` / ``đôi``."""
    key = value.value if isinstance(value, ComboKind) else str(value)
    return w.pgettext(*_KINDS[key]) if key in _KINDS else key


# ------------------------------------------------------------------ places and people
_PLACES = {
    1: NP_("place", "1st"), 2: NP_("place", "2nd"), 3: NP_("place", "3rd"),
    4: NP_("place", "4th"), 5: NP_("place", "5th"), 6: NP_("place", "6th"),
    7: NP_("place", "7th"), 8: NP_("place", "8th"),
}


def place(w: Words, n: int, of: int | None = None) -> str:
    """A finishing place: ``1st`` / ``nhất``; with ``of`` (the number of places) the last place
    is ``last`` / ``bét``, as a table says it."""
    if of is not None and of >= 2 and n == of:
        return w.pgettext("place", "last")
    return w.pgettext(*_PLACES[n]) if n in _PLACES else w._("place {n}", n=w.num(n))


LEVELS = ("easy", "normal", "hard", "expert")


_LEVELS = {
    "easy": NP_("level", "easy"),
    "normal": NP_("level", "normal"),
    "hard": NP_("level", "hard"),
    "expert": NP_("level", "expert"),
}


def level(w: Words, value: object) -> str:
    """A computer player's level: ``hard`` / ``khó``."""
    key = str(getattr(value, "value", value))
    return w.pgettext(*_LEVELS[key]) if key in _LEVELS else key


# ------------------------------------------------------------------ results
_INSTANT_WINS = {
    "dragon": N_("dragon (3 to 2)"),
    "thirteen_one_colour": N_("thirteen cards of one colour"),
    "four_twos": N_("four 2s"),
    "partial_dragon": N_("dragon (3 to A)"),
    "six_pairs": N_("six pairs"),
    "five_consecutive_pairs": N_("five consecutive pairs"),
    "twelve_one_colour": N_("twelve cards of one colour"),
}


def instant_win_kind(w: Words, value: object) -> str:
    """The hand that won at once: ``dragon (3 to A)`` / ``sảnh rồng (3 đến A)``."""
    key = str(getattr(value, "value", value))
    return w.marked(_INSTANT_WINS[key]) if key in _INSTANT_WINS else key


def instant_win(w: Words, value: object, multiplier: int) -> str:
    """``instant win (four 2s) ×3`` / ``tới trắng (tứ quý heo) ×3``."""
    return w._("instant win ({hand}) ×{times}", hand=instant_win_kind(w, value),
               times=w.num(multiplier))


_REASONS = {
    "place": NP_("reason", "place"),
    "loser_pays": NP_("reason", "loser pays"),
    "cards_left": NP_("reason", "cards left"),
    "pot": NP_("reason", "pot"),
    "chop": NP_("reason", "chop"),
    "penalty": NP_("reason", "2s or bombs left"),
    "instant_win": NP_("reason", "instant win"),
    "feed": NP_("reason", "fed the last card"),
}


def reason(w: Words, value: str) -> str:
    """Why chips moved (a settlement reason): ``chop`` / ``chặt``."""
    key = str(value)
    return w.pgettext(*_REASONS[key]) if key in _REASONS else key


# ------------------------------------------------------------------ rules
_PRESETS = {
    "southern": NP_("preset", "southern"),
    "pagat": NP_("preset", "pagat"),
    "vc": NP_("preset", "vc"),
    "online": NP_("preset", "online"),
    "vn_house": NP_("preset", "Vietnamese house"),
}


def preset(w: Words, name: str | None) -> str:
    """A preset's name: ``southern`` / ``miền Nam``; None is a custom rule set."""
    if name is None:
        return w.pgettext("preset", "custom")
    return w.pgettext(*_PRESETS[name]) if name in _PRESETS else name


OPTIONS: dict[str, str] = {
    "suit_order": N_("Suit order (low → high)"),
    "first_lead": N_("First game lead"),
    "winner_leads_next": N_("Winner leads next game"),
    "reverse_order_each_game": N_("Reverse play order each game"),
    "double_seq3_may_lead": N_("Three consecutive pairs may lead"),
    "pass_locks_out": N_("Passing locks you out of the trick"),
    "chop_after_pass": N_("Chop out of turn (after passing)"),
    "bombs_need_chop_context": N_("Bomb on bomb needs a chopped 2"),
    "chop_table": N_("Chop table"),
    "end": N_("Game ends"),
    "instant_wins": N_("Instant wins"),
    "scoring": N_("Scoring"),
    "chop_bonus": N_("Chop bonus"),
    "deuce_penalty": N_("Penalty for 2s and bombs left"),
    "card_exchange": N_("Card exchange between games"),
    "three_player_17": N_("17 cards each with 3 players"),
    "double_quad": N_("Two consecutive quads are a bomb"),
    "cong": N_("Frozen players (no card played when someone goes out) pay double"),
    "anti_feed": N_("Who lets a last card out pays for everyone"),
    "no_two_last": N_("No going out on a 2"),
}
"""Every rule option's label (a test checks that every field of :class:`Rules` has one)."""

_VALUES: dict[tuple[str, str], str] = {
    ("first_lead", "lowest_card"): N_("lowest card ({card}), must include it"),
    ("first_lead", "any"): N_("random player, any combination"),
    ("chop_after_pass", "off"): N_("never out of turn"),
    ("chop_after_pass", "pairs"): N_("with 4+ consecutive pairs, on 2s"),
    ("chop_after_pass", "any_bomb"): N_("with any bomb that beats 2s or their chopper"),
    ("chop_table", "default"): N_("southern: 3 pairs or quad chop a 2, 4+ pairs chop a pair of 2s"),
    ("chop_table", "narrow"): N_("narrow: bombs only chop 2s, and only higher bombs of one type"),
    ("chop_table", "online"): N_("online: 3 pairs/quad/4 pairs chop a 2, 4 pairs chop a pair of "
                                 "2s"),
    ("end", "to_last"): N_("when one player is left"),
    ("end", "first_out"): N_("when the first player goes out"),
    ("scoring", "places"): N_("by places"),
    ("scoring", "loser_pays"): N_("loser pays everyone"),
    ("scoring", "cards_left"): N_("the stake for each card left"),
    ("scoring", "pot"): N_("winner takes the pot"),
    ("card_exchange", "off"): N_("no exchange"),
    ("card_exchange", "san_jose"): N_("losers give their highest, winners give back"),
    ("card_exchange", "tribute"): N_("losers give their two highest, nothing back"),
    ("anti_feed", "off"): N_("nobody pays for feeding"),
    ("anti_feed", "on"): N_("on: a low single led or answered, or a pass, that lets it out"),
    ("anti_feed", "lead_only"): N_("only a low single led that lets it out"),
}
"""The words of every value of options that are not on/off."""


def option_label(w: Words, name: str) -> str:
    return w.marked(OPTIONS[name]) if name in OPTIONS else name


def option_value(w: Words, name: str, value: Any, rules: Rules | None = None) -> str:
    """The value of a rule option in words: ``on`` / ``bật``, ``by places`` / ``theo thứ hạng``."""
    if isinstance(value, bool):
        return w.pgettext("option", "on") if value else w.pgettext("option", "off")
    if name == "suit_order":
        return " < ".join(getattr(s, "symbol", str(s)) for s in value)
    text = _VALUES.get((name, str(value)))
    if text is None:
        return str(value)
    if name == "first_lead":
        order = rules.suit_order if rules is not None else Rules().suit_order
        return w.marked(text, card=f"3{order[0].symbol}")
    return w.marked(text)


def rules_lines(w: Words, rules: Rules) -> list[tuple[str, str]]:
    """(label, value) of every option, in the model's order, for a rules embed."""
    return [
        (option_label(w, name), option_value(w, name, getattr(rules, name), rules))
        for name in type(rules).model_fields
    ]


def option_values(name: str) -> tuple[Any, ...]:
    """The values an option can take when it is a choice of words (for tests and menus)."""
    annotation = Rules.model_fields[name].annotation
    return tuple(v for v in get_args(annotation) if isinstance(v, str))


# ------------------------------------------------------------------ refusals of the engine
def engine_refusal(w: Words, error: TienLenError, waiting_for: str | None = None) -> str:
    """The sentence for a refused action, from the error's cause and data.

    ``waiting_for`` names whose turn it is (a mention or a name), for "not your turn"."""
    data = error.data
    match error.cause:
        case Cause.NO_CARDS:
            return w._("Choose at least one card to play.")
        case Cause.NOT_HELD:
            return w._("You do not hold {cards}.", cards=cards(data.get("cards", ())))
        case Cause.NOT_A_COMBINATION:
            return w._("{cards} is not a combination.", cards=cards(data.get("cards", ())))
        case Cause.DOES_NOT_BEAT:
            return _does_not_beat(w, data)
        case Cause.MUST_INCLUDE:
            return w._("The first play must include {card}.", card=data.get("card", "3♠"))
        case Cause.THREE_PAIRS_MAY_NOT_LEAD:
            return w._("Three consecutive pairs may not lead a trick.")
        case Cause.PASSED:
            return w._("You passed this trick; wait for the next lead.")
        case Cause.NOT_YOUR_TURN if waiting_for:
            return w._("It is not your turn — waiting for {player}.", player=waiting_for)
        case Cause.NOT_YOUR_TURN:
            return w._("It is not your turn.")
        case Cause.NO_CARDS_LEFT:
            return w._("You have no cards left.")
        case Cause.NO_SEAT:
            return w._("You have no seat at this table.")
        case Cause.MUST_PLAY:
            return w._("You lead this trick, so you must play.")
        case Cause.GAME_OVER:
            return w._("The game is over.")
        case Cause.NOT_EXCHANGING:
            return w._("Cards are only given back before play starts.")
        case Cause.NOTHING_TO_GIVE:
            return w._("You have no cards to give back.")
        case Cause.GIVE_COUNT:
            return w.ngettext("Give back exactly {n} card.", "Give back exactly {n} cards.",
                              int(data.get("count", 1)))
        case Cause.EXCHANGING:
            return w._("Cards are being exchanged; play starts when that is done.")
        case Cause.NOT_OVER:
            return w._("The game is not over yet.")
        case Cause.BAD_CARD:
            return w._("{token} is not a card (write cards like 3S, 10H, QC or 2♥).",
                       token=data.get("token", "?"))
        case Cause.DUPLICATE:
            return w._("{card} is given more than once.", card=data.get("card", "?"))
        case Cause.NO_TWO_LAST if data.get("out"):
            return w._("You may not go out on a 2 at this table.")
        case Cause.NO_TWO_LAST:
            return w._("That would leave you only 2s, and you may not go out on a 2 at this "
                       "table.")
        case Cause.OPTION_FORMAT:
            return w._("Write each option as name=value; {part} is not.",
                       part=data.get("part", "?"))
        case Cause.UNKNOWN_OPTION:
            return w._("There is no rule option {name}. Options: {options}.",
                       name=data.get("name", "?"), options=", ".join(data.get("options", ())))
        case Cause.OPTION_VALUE if data.get("choices"):
            return w._("Option {option}: {value} is not allowed; choose one of {choices}.",
                       option=data.get("name", "options"), value=data.get("value", "?"),
                       choices=", ".join(data["choices"]))
        case Cause.OPTION_VALUE:
            return w._("Option {option}: {value} is not allowed.",
                       option=data.get("name", "options"), value=data.get("value", "?"))
        case _:
            return w._("That is not allowed now.")


def _does_not_beat(w: Words, data: dict[str, Any]) -> str:
    play, table = data.get("play"), data.get("table")
    if not isinstance(play, Combo) or not isinstance(table, Combo):
        return w._("That does not beat the cards on the table.")
    if data.get("same_kind"):
        return w._("{play} does not beat {table} on the table.", play=cards(play.cards),
                   table=cards(table.cards))
    if data.get("chop"):
        return w._("{play} does not beat {table} on the table: only a higher {kind}, or a chop, "
                   "beats it.", play=cards(play.cards), table=cards(table.cards),
                   kind=_kind_of(w, table))
    return w._("{play} does not beat {table} on the table: only a higher {kind} beats it.",
               play=cards(play.cards), table=cards(table.cards), kind=_kind_of(w, table))


def _kind_of(w: Words, play: Combo) -> str:
    """What may beat ``play``: "pair", "4-card sequence", "3 consecutive pairs"."""
    if play.kind is ComboKind.SEQUENCE:
        return w._("{n}-card sequence", n=w.num(play.length))
    if play.kind is ComboKind.DOUBLE_SEQUENCE:
        return w._("{count} consecutive pairs", count=_pairs_count(w, play.length))
    return kind(w, play.kind)
