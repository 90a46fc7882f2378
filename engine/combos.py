"""Combinations: classification, the beating rules (chop tables) and legal-play generation.

Plays are generated on count masks (see :mod:`engine.cards`): a combination is a
:class:`Combo`, an immutable ``(kind, mask, layout)`` triple whose cards are decoded on demand,
so that generating hundreds of plays stays cheap.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum, unique

from engine.cards import Card, Layout, Rank, count_cards
from engine.rules import Rules

__all__ = [
    "Combo",
    "ComboKind",
    "can_beat",
    "classify",
    "classify_mask",
    "double_quad_beats",
    "double_quads",
    "legal_leads",
    "legal_responses",
]


@unique
class ComboKind(Enum):
    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    QUAD = "quad"
    SEQUENCE = "sequence"
    DOUBLE_SEQUENCE = "double_sequence"
    DOUBLE_QUAD = "double_quad"
    """Two quads of consecutive ranks (only with the ``double_quad`` rule)."""

    @property
    def is_bomb(self) -> bool:
        """Quads, double sequences and double quads are bombs ("chặt")."""
        return self in _BOMBS


SINGLE = ComboKind.SINGLE
PAIR = ComboKind.PAIR
TRIPLE = ComboKind.TRIPLE
QUAD = ComboKind.QUAD
SEQUENCE = ComboKind.SEQUENCE
DOUBLE_SEQUENCE = ComboKind.DOUBLE_SEQUENCE
DOUBLE_QUAD = ComboKind.DOUBLE_QUAD
_BOMBS = frozenset({QUAD, DOUBLE_SEQUENCE, DOUBLE_QUAD})
_OF_A_KIND: tuple[ComboKind | None, ...] = (None, SINGLE, PAIR, TRIPLE, QUAD)
_TWO = 12  # rank index of the 2


def _field_counts(p: int) -> tuple[int, int, int, int]:
    return (p & 3, (p >> 2) & 3, (p >> 4) & 3, (p >> 6) & 3)


# COUNT8[p]: number of cards in the rank byte p.
COUNT8: tuple[int, ...] = tuple(sum(_field_counts(p)) for p in range(256))


def _sub_patterns(p: int) -> list[list[int]]:
    """The distinct sub-multisets of rank byte ``p`` by size (index 0 … 4)."""
    fields = _field_counts(p)
    out: list[list[int]] = [[] for _ in range(9)]
    for a in range(fields[0] + 1):
        for b in range(fields[1] + 1):
            for c in range(fields[2] + 1):
                for d in range(fields[3] + 1):
                    out[a + b + c + d].append(a | b << 2 | c << 4 | d << 6)
    return [sorted(x) for x in out[:5]]


_VALID = [p for p in range(256) if all(f <= 2 for f in _field_counts(p))]
# SUBS[r][p][k]: the k-card sub-multisets of rank byte p, shifted to rank r.
SUBS: tuple[tuple[tuple[tuple[int, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(tuple(q << (8 * r) for q in subs) for subs in _sub_patterns(p))
        if p in _VALID
        else ((), (), (), (), ())
        for p in range(256)
    )
    for r in range(13)
)


class Combo(tuple[ComboKind, int, Layout]):
    """A combination: immutable and hashable; equal combos hold the same cards.

    ``combo.kind``, ``combo.cards`` (sorted low to high under the rule set's suit order),
    ``combo.top`` (the highest card), ``len(combo)`` (number of cards), ``combo.describe()``.
    """

    __slots__ = ()

    def __new__(cls, kind: ComboKind, mask: int, layout: Layout) -> Combo:
        return tuple.__new__(cls, (kind, mask, layout))

    @property
    def kind(self) -> ComboKind:
        return self[0]

    @property
    def mask(self) -> int:
        """The count mask of the cards (2 bits per card index)."""
        return self[1]

    @property
    def layout(self) -> Layout:
        return self[2]

    @property
    def cards(self) -> tuple[Card, ...]:
        return tuple(self[2].cards(self[1]))

    @property
    def top(self) -> Card:
        """The highest card (rank, then suit under the rule set's order)."""
        return self[2].card_at[(self[1].bit_length() - 1) >> 1]

    @property
    def rank(self) -> Rank:
        """The rank of the top card."""
        return Rank((self[1].bit_length() - 1) >> 3)

    @property
    def low_rank(self) -> Rank:
        mask = self[1]
        return Rank(((mask & -mask).bit_length() - 1) >> 3)

    @property
    def length(self) -> int:
        """Number of ranks spanned: the length of a sequence, the pairs of a double sequence."""
        return self.rank - self.low_rank + 1

    @property
    def is_bomb(self) -> bool:
        return self[0].is_bomb

    @property
    def is_twos(self) -> bool:
        """A single, pair or triple of 2s: what bombs chop."""
        return self[0] in (SINGLE, PAIR, TRIPLE) and (self[1].bit_length() - 1) >> 3 == _TWO

    def __len__(self) -> int:
        return count_cards(self[1])

    def __repr__(self) -> str:
        return f"Combo({self[0].value}: {self})"

    def __str__(self) -> str:
        return " ".join(str(c) for c in self.cards)

    def __getnewargs__(self) -> tuple[ComboKind, int, Layout]:
        return (self[0], self[1], self[2])

    def describe(self) -> str:
        """A phrase such as "pair of 7s, 7♥ high" or "sequence 8-9-10, 10♦ high"."""
        kind, top = self[0], self.top
        rank = top.rank
        if kind is SINGLE:
            return f"single {top}"
        if kind is PAIR:
            return f"pair of {rank.plural}, {top} high"
        if kind is TRIPLE:
            return f"three {rank.plural}, {top} high"
        if kind is QUAD:
            return f"four {rank.plural}"
        if kind is DOUBLE_QUAD:
            return f"four {Rank(rank - 1).plural} and four {rank.plural}"
        ranks = "-".join(Rank(r).label for r in range(self.low_rank, rank + 1))
        if kind is SEQUENCE:
            return f"sequence {ranks}, {top} high"
        return f"{self.length} consecutive pairs {ranks}, {top} high"


def classify_mask(mask: int, double_quad: bool = False) -> ComboKind | None:
    """The kind of combination a non-empty count mask forms, or ``None``.

    Two quads of consecutive ranks are a combination only with ``double_quad``.
    """
    if not mask:
        return None
    lo = ((mask & -mask).bit_length() - 1) >> 3
    hi = (mask.bit_length() - 1) >> 3
    if lo == hi:
        n = COUNT8[(mask >> (8 * lo)) & 255]
        return _OF_A_KIND[n] if n <= 4 else None
    if hi == _TWO:
        return None
    if hi - lo < 2:
        if (
            double_quad
            and hi - lo == 1
            and COUNT8[(mask >> (8 * lo)) & 255] == 4
            and COUNT8[(mask >> (8 * hi)) & 255] == 4
        ):
            return DOUBLE_QUAD
        return None
    g = mask >> (8 * lo)
    first = COUNT8[g & 255]
    if first > 2:
        return None
    for _ in range(hi - lo):
        g >>= 8
        if COUNT8[g & 255] != first:
            return None
    return SEQUENCE if first == 1 else DOUBLE_SEQUENCE


def classify(cards: Iterable[Card | str] | str, rules: Rules | None = None, *,
             decks: int = 1) -> Combo | None:
    """The combination the cards form, or ``None`` if they form none (or are empty).

    More copies of a card than ``decks`` raises :class:`~engine.errors.InvalidCards` (a
    ``ValueError``): with one deck a duplicate is an error, not a combination.
    """
    from engine.cards import parse_cards

    rules = rules or _DEFAULT_RULES
    layout = rules.layout
    mask = layout.to_mask(parse_cards(cards), decks)
    kind = classify_mask(mask, rules.double_quad)
    if kind is None:
        return None
    return Combo(kind, mask, layout)


_DEFAULT_RULES = Rules()

# A chop spec: (a quad may chop, least pairs of a chopping double sequence, most pairs).
ChopSpec = tuple[bool, int, int]
_NO_CHOP: ChopSpec = (False, 99, 0)
_TWOS_SPECS: dict[str, tuple[ChopSpec, ChopSpec, ChopSpec]] = {
    "default": ((True, 3, 12), (True, 4, 12), (False, 5, 12)),
    "narrow": ((True, 3, 3), (False, 4, 4), (False, 5, 5)),
    "online": ((True, 3, 4), (False, 4, 4), _NO_CHOP),
}


def chop_spec(rules: Rules, kind: ComboKind, mask: int, chop_context: bool) -> ChopSpec:
    """Which bombs, besides a higher combination of the same type and length, beat the table."""
    top_rank = (mask.bit_length() - 1) >> 3
    table = rules.chop_table
    if kind is SINGLE or kind is PAIR or kind is TRIPLE:
        if top_rank != _TWO:
            return _NO_CHOP
        return _TWOS_SPECS[table][COUNT8[(mask >> 96) & 255] - 1]
    if kind is SEQUENCE or kind is DOUBLE_QUAD or table == "narrow":
        return _NO_CHOP
    if rules.bombs_need_chop_context and not chop_context:
        return _NO_CHOP
    if kind is QUAD:
        if top_rank == _TWO:
            return _NO_CHOP
        return (False, 4, 12) if table == "default" else (False, 4, 4)
    pairs = top_rank - (((mask & -mask).bit_length() - 1) >> 3) + 1
    if table == "default":
        return (True, 4, 12) if pairs == 3 else (False, pairs + 1, 12)
    return (True, 4, 4) if pairs == 3 else _NO_CHOP


def double_quad_beats(rules: Rules, kind: ComboKind, mask: int, chop_context: bool) -> bool:
    """Whether a double quad (with the ``double_quad`` rule) beats the table (kind, mask) other
    than a lower double quad: 2s short of four, any quad and three to five consecutive pairs (a
    bomb on a bomb needs a chopped 2 with ``bombs_need_chop_context``), under every chop table."""
    if not rules.double_quad:
        return False
    top_rank = (mask.bit_length() - 1) >> 3
    if kind is SINGLE or kind is PAIR or kind is TRIPLE:
        return top_rank == _TWO
    if kind is QUAD:
        if top_rank == _TWO:
            return False
    elif kind is DOUBLE_SEQUENCE:
        if top_rank - (((mask & -mask).bit_length() - 1) >> 3) + 1 > 5:
            return False
    else:
        return False
    return chop_context or not rules.bombs_need_chop_context


def beats_mask(rules: Rules, pkind: ComboKind, pmask: int, tkind: ComboKind, tmask: int,
               chop_context: bool) -> bool:
    """Whether the play (kind, mask) beats the table (kind, mask); no lead checks."""
    if pkind is tkind:
        if pkind is SEQUENCE or pkind is DOUBLE_SEQUENCE:
            ptop = pmask.bit_length() - 1
            ttop = tmask.bit_length() - 1
            plen = (ptop >> 3) - (((pmask & -pmask).bit_length() - 1) >> 3)
            tlen = (ttop >> 3) - (((tmask & -tmask).bit_length() - 1) >> 3)
            if plen == tlen:
                return ptop >> 1 > ttop >> 1
            if pkind is SEQUENCE:
                return False
        else:
            return (pmask.bit_length() - 1) >> 1 > (tmask.bit_length() - 1) >> 1
    if pkind is DOUBLE_QUAD:
        return double_quad_beats(rules, tkind, tmask, chop_context)
    if not (pkind is QUAD or pkind is DOUBLE_SEQUENCE):
        return False
    quad_ok, lo, hi = chop_spec(rules, tkind, tmask, chop_context)
    if pkind is QUAD:
        return quad_ok
    pairs = ((pmask.bit_length() - 1) >> 3) - (((pmask & -pmask).bit_length() - 1) >> 3) + 1
    return lo <= pairs <= hi


def can_beat(play: Combo, table: Combo | None, rules: Rules | None = None, *,
             chop_context: bool = False) -> bool:
    """Whether ``play`` may be played on ``table``.

    ``table=None`` means leading: every combination may lead except three consecutive pairs when
    ``rules.double_seq3_may_lead`` is off. ``chop_context`` (a 2 has been chopped in this trick)
    matters only with ``rules.bombs_need_chop_context``. Identical cards never beat each other.
    """
    rules = rules or _DEFAULT_RULES
    if table is None:
        return may_lead(rules, play[0], play[1])
    if play[2] is not table[2]:
        play = Combo(play[0], rules.layout.to_mask(play.cards, 2), rules.layout)
        table = Combo(table[0], rules.layout.to_mask(table.cards, 2), rules.layout)
    return beats_mask(rules, play[0], play[1], table[0], table[1], chop_context)


def may_lead(rules: Rules, kind: ComboKind, mask: int) -> bool:
    if kind is DOUBLE_SEQUENCE and not rules.double_seq3_may_lead:
        return ((mask.bit_length() - 1) >> 3) - (((mask & -mask).bit_length() - 1) >> 3) != 2
    return True


def double_quads(hand: int, layout: Layout, above: int = -1) -> list[Combo]:
    """Every double quad in the hand whose top card index is above ``above``."""
    out: list[Combo] = []
    new = tuple.__new__
    lower: tuple[int, ...] = ()
    for r in range(_TWO):
        p = (hand >> (8 * r)) & 255
        quads = SUBS[r][p][4] if COUNT8[p] >= 4 else ()
        if lower and quads:
            for q in quads:
                if (q.bit_length() - 1) >> 1 > above:
                    for a in lower:
                        out.append(new(Combo, (DOUBLE_QUAD, a | q, layout)))
        lower = quads
    return out


# --------------------------------------------------------------------------- generation


def legal_leads(hand: int, layout: Layout, allow_ds3: bool = True,
                double_quad: bool = False) -> list[Combo]:
    """Every distinct combination in the hand (count mask), as combos (double quads too with
    ``double_quad``)."""
    out: list[Combo] = []
    app = out.append
    new = tuple.__new__
    s1: list[int] | tuple[int, ...] = ()
    s2: list[int] = []
    s3: list[int] = []  # sequences of 3+ ending at the previous rank
    d1: list[int] | tuple[int, ...] = ()
    d2: list[int] = []
    d3: list[int] = []  # exactly 3 pairs
    d4: list[int] = []  # 4+ pairs
    for r in range(13):
        p = (hand >> (8 * r)) & 255
        if not p:
            if s1 or d1:
                s1 = d1 = ()
                s2, s3, d2, d3, d4 = [], [], [], [], []
            continue
        subs = SUBS[r][p]
        singles = subs[1]
        for q in singles:
            app(new(Combo, (SINGLE, q, layout)))
        pairs = subs[2]
        if pairs:
            for q in pairs:
                app(new(Combo, (PAIR, q, layout)))
            for q in subs[3]:
                app(new(Combo, (TRIPLE, q, layout)))
            for q in subs[4]:
                app(new(Combo, (QUAD, q, layout)))
        if r == _TWO:
            break
        ns3 = [a | q for a in s2 for q in singles]
        if s3:
            ns3 += [a | q for a in s3 for q in singles]
        for m in ns3:
            app(new(Combo, (SEQUENCE, m, layout)))
        s2 = [a | q for a in s1 for q in singles]
        s1 = singles
        s3 = ns3
        if pairs:
            if d2 or d3:
                nd4 = [a | q for a in d3 for q in pairs]
                if d4:
                    nd4 += [a | q for a in d4 for q in pairs]
                nd3 = [a | q for a in d2 for q in pairs]
                if allow_ds3:
                    for m in nd3:
                        app(new(Combo, (DOUBLE_SEQUENCE, m, layout)))
                for m in nd4:
                    app(new(Combo, (DOUBLE_SEQUENCE, m, layout)))
                d3, d4 = nd3, nd4
            d2 = [a | q for a in d1 for q in pairs]
            d1 = pairs
        elif d1:
            d1 = ()
            d2, d3, d4 = [], [], []
    if double_quad:
        out += double_quads(hand, layout)
    return out


def _runs(hand: int, k: int, length: int, min_top: int) -> list[int]:
    """Masks of runs of ``length`` consecutive ranks (below the 2) with ``k`` cards per rank whose
    top card index is above ``min_top``."""
    out: list[int] = []
    top_rank = max(min_top >> 2, length - 1)
    groups = [(hand >> (8 * r)) & 255 for r in range(12)]
    for end in range(top_rank, 12):
        start = end - length + 1
        partial = [0]
        for r in range(start, end + 1):
            choices = SUBS[r][groups[r]][k]
            if not choices:
                break
            if r == end and end == min_top >> 2:
                choices = tuple(q for q in choices if (q.bit_length() - 1) >> 1 > min_top)
            partial = [a | q for a in partial for q in choices]
        else:
            out += partial
    return out


def legal_responses(hand: int, table: Combo, rules: Rules, chop_context: bool) -> list[Combo]:
    """Every distinct combination in the hand that beats ``table``."""
    layout = rules.layout
    tkind, tmask = table[0], table[1]
    t = (tmask.bit_length() - 1) >> 1
    out: list[Combo] = []
    app = out.append
    new = tuple.__new__
    if tkind is SINGLE:
        shift = 2 * (t + 1)
        above = (hand >> shift) << shift
        while above:
            pos = (above & -above).bit_length() - 1
            bit = 1 << (pos & ~1)
            app(new(Combo, (SINGLE, bit, layout)))
            above &= ~(3 * bit)
    elif tkind is PAIR or tkind is TRIPLE or tkind is QUAD:
        k = 2 if tkind is PAIR else 3 if tkind is TRIPLE else 4
        for r in range(t >> 2, 13):
            p = (hand >> (8 * r)) & 255
            if COUNT8[p] >= k:
                for q in SUBS[r][p][k]:
                    if (q.bit_length() - 1) >> 1 > t:
                        app(new(Combo, (tkind, q, layout)))
    elif tkind is DOUBLE_QUAD:
        out += double_quads(hand, layout, t)
    else:
        length = (t >> 2) - (((tmask & -tmask).bit_length() - 1) >> 3) + 1
        k = 1 if tkind is SEQUENCE else 2
        for m in _runs(hand, k, length, t):
            app(new(Combo, (tkind, m, layout)))
    quad_ok, lo, hi = chop_spec(rules, tkind, tmask, chop_context)
    if quad_ok:
        for r in range(13):
            p = (hand >> (8 * r)) & 255
            if COUNT8[p] >= 4:
                for q in SUBS[r][p][4]:
                    app(new(Combo, (QUAD, q, layout)))
    if lo <= hi:
        for n in range(lo, min(hi, 12) + 1):
            runs = _runs(hand, 2, n, -1)
            if not runs:
                break  # no run of n pairs means none longer either
            for m in runs:
                app(new(Combo, (DOUBLE_SEQUENCE, m, layout)))
    if rules.double_quad and double_quad_beats(rules, tkind, tmask, chop_context):
        out += double_quads(hand, layout)
    return out
