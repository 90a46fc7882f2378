"""Who pays whom at the end of a game (docs/RULES_ENGINE.md, "Stakes"). Pure: reads a game's
outcome and log, no I/O.

``settle(outcome, log, stake, balances)`` returns a :class:`Settlement`: one :class:`Transfer` per
payer, payee and reason, each with what was ``owed`` and what is ``paid``.

Choices this module makes where the rules leave room:

* **Units and rounding.** Obligations are added up exactly in units (fractions: a black 2 left in
  hand is ½ unit) per payer, payee and reason; the chips owed are ``floor(units × stake)``. Half a
  chip is never owed: with an odd stake a single black 2 costs ``stake // 2``. Obligations that
  round to 0 chips are dropped.
* **Instant win.** The game is not played, so the scheme and the extras do not apply: every
  other player pays the winner ``multiplier`` units.
* **Schemes.** ``places``: place n−k+1 pays place k (⌊n/2⌋−k+1) units. ``loser_pays``: the last
  pays every other player 1 unit. ``cards_left``: every other player pays the winner 1 unit per
  card left (with ``end = "to_last"`` only the last player still holds cards). ``pot``: every
  other player's ante (1 unit) goes to the winner, so each pays the winner 1 unit.
* **Chop bonus.** Per trick, in order: the k-th chop of the trick (a :class:`Chopped` event) makes
  the owner of the chopped play pay the chopper the value of all 2s played in that trick (black 2 =
  1 unit, red 2 = 2 units) × 2^(k−1). Collected when the trick ends or the game ends inside it.
* **Deuce penalty.** A losing hand assessed (only the last player's with ``to_last``, every
  non-winner's with ``first_out``) pays the winner: ½ unit per black 2, 1 per red 2, 1 per quad
  (any rank, 2s included: four 2s also pay as four 2s), then, on the cards not in a quad, 1 per
  three consecutive pairs and 2 per four consecutive pairs (a longer run of pairs is split into
  fours first, then threes: 5 pairs = 2, 6 = 2, 7 = 3, 8 = 4).
* **Cóng.** With ``cong``, every scheme payment (places, loser_pays, cards_left, pot) a frozen
  seat makes is doubled: each payee receives twice its share. Chop bonuses and the deuce penalty
  are not doubled, and the caps below still apply.
* **Đền bài.** With ``anti_feed``, when the log holds a :class:`Fed` event, every scheme payment
  and every penalty for 2s left that another seat owes is owed by the feeder instead (reason
  ``feed``; a frozen seat's doubled share stays doubled); what a seat owed the feeder is dropped
  (the feeder cannot pay itself). Chop bonuses stay with who was chopped. The caps still apply.
* **Computer players hold no chips.** A seat whose balance is ``None`` is a computer player:
  obligations from or to it are listed (``owed``) but ``paid`` is 0, so people neither win chips
  from nor lose chips to the house (no farming easy computer players; the chips in a server only
  move between its members). Pass ``None`` for computer seats and each person's chips otherwise.
* **Leavers** (``left``: the seats whose people left a running game, in the order they left,
  each with the cards it held at that moment). A computer played such a seat to the end, but the
  person is settled exactly as the rules settle the last place: the leavers take the last places
  (the one who left first is last; the seats still played by their people keep their order
  above them), and for ``cards_left`` and the deuce penalty a leaver's hand is the one it held
  when it left. With ``pot`` and ``loser_pays`` only the place matters. Chop bonuses stay as
  played (the computer's chops count for the seat). An instant win is decided at the deal, before
  anyone can leave, so ``left`` does not change it.
* **Capped payers.** A person who owes more (to people) than they hold before the game pays what
  they hold, shared among their creditors in proportion to what each is owed, rounded down; the
  chips left over by rounding stay with the payer. Winnings of the same game do not count toward
  what a payer holds. Everyone's ``paid`` is thus ≤ ``owed``, every transfer pays out exactly what
  it takes in (chips are conserved) and no balance goes below zero.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from engine.cards import Card, Rank
from engine.errors import WrongPhase
from engine.events import Chopped, Dealt, Event, Exchanged, Fed, GameOver, Played, TrickWon
from engine.outcome import Outcome
from engine.rules import Rules

__all__ = [
    "REASONS",
    "Reason",
    "Settlement",
    "Transfer",
    "bombs_played",
    "deuce_penalty_units",
    "final_hands",
    "places_with_leavers",
    "settle",
]

Reason = Literal["place", "loser_pays", "cards_left", "pot", "chop", "penalty", "instant_win",
                 "feed"]
REASONS: tuple[Reason, ...] = (
    "instant_win",
    "place",
    "loser_pays",
    "cards_left",
    "pot",
    "feed",
    "chop",
    "penalty",
)

BalancesLike = Mapping[int, int | None] | Sequence[int | None]


@dataclass(frozen=True, slots=True)
class Transfer:
    """``payer`` (a seat) owed ``payee`` ``owed`` chips for ``reason`` and pays ``paid`` of them."""

    payer: int
    payee: int
    owed: int
    paid: int
    reason: Reason
    units: Fraction
    """The obligation in units of the stake (exact; ``owed == floor(units * stake)``)."""
    detail: str
    """A short readable account, e.g. ``"4th pays 1st"`` or ``"chop 1 of the trick, x1"``."""

    @property
    def shortfall(self) -> int:
        return self.owed - self.paid


@dataclass(frozen=True, slots=True)
class Settlement:
    stake: int
    places: tuple[int, ...]
    """Seats, best first."""
    transfers: tuple[Transfer, ...]
    bombs_played: tuple[int, ...]
    """Bombs (quads and double sequences) each seat played, for the stats."""

    @property
    def net(self) -> dict[int, int]:
        """Chips won (negative: lost) per seat, every seat listed."""
        out = dict.fromkeys(range(len(self.places)), 0)
        for t in self.transfers:
            out[t.payer] -= t.paid
            out[t.payee] += t.paid
        return out

    @property
    def owed_net(self) -> dict[int, int]:
        """What each seat would have won or lost with no caps and no computer players."""
        out = dict.fromkeys(range(len(self.places)), 0)
        for t in self.transfers:
            out[t.payer] -= t.owed
            out[t.payee] += t.owed
        return out

    def for_seat(self, seat: int) -> list[Transfer]:
        """The transfers a seat pays or receives."""
        return [t for t in self.transfers if seat in (t.payer, t.payee)]


@dataclass(frozen=True, slots=True)
class _Obligation:
    payer: int
    payee: int
    reason: Reason
    units: Fraction
    detail: str


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _two_value(cards: Iterable[Card]) -> int:
    """Units of the 2s among cards: black 2 = 1, red 2 = 2."""
    return sum(2 if c.is_red else 1 for c in cards if c.rank is Rank.TWO)


def deuce_penalty_units(hand: Iterable[Card]) -> Fraction:
    """What a losing hand pays for the 2s and bombs it still holds (see the module notes)."""
    counts = [0] * 13
    units = Fraction(0)
    for card in hand:
        counts[card.rank] += 1
        if card.rank is Rank.TWO:
            units += 1 if card.is_red else Fraction(1, 2)
    quads = [c // 4 for c in counts]
    units += sum(quads)
    pairs = [(c - 4 * q) >= 2 for c, q in zip(counts, quads, strict=True)]
    run = 0
    for rank in range(Rank.TWO + 1):  # the 2 ends every run (it is never in a double sequence)
        if rank < Rank.TWO and pairs[rank]:
            run += 1
            continue
        units += _run_units(run)
        run = 0
    return units


def _run_units(pairs: int) -> int:
    fours, rest = divmod(pairs, 4)
    units = 2 * fours
    if rest == 3:
        units += 1
    elif fours == 0:
        return 0
    return units


def _scheme(rules: Rules, outcome: Outcome, places: Sequence[int]) -> list[_Obligation]:
    n = len(places)
    winner, loser = places[0], places[-1]
    out: list[_Obligation] = []
    if rules.scoring == "places":
        half = n // 2
        for k in range(1, half + 1):
            out.append(
                _Obligation(
                    places[n - k],
                    places[k - 1],
                    "place",
                    Fraction(half - k + 1),
                    f"{_ordinal(n - k + 1)} pays {_ordinal(k)}",
                )
            )
    elif rules.scoring == "loser_pays":
        for seat in places[:-1]:
            out.append(_Obligation(loser, seat, "loser_pays", Fraction(1), "the last pays"))
    elif rules.scoring == "cards_left":
        counts = outcome.cards_left or (0,) * n
        for seat in places[1:]:
            if counts[seat]:
                out.append(
                    _Obligation(
                        seat,
                        winner,
                        "cards_left",
                        Fraction(counts[seat]),
                        f"{counts[seat]} card{'s' if counts[seat] != 1 else ''} left",
                    )
                )
    else:  # pot
        for seat in places[1:]:
            out.append(_Obligation(seat, winner, "pot", Fraction(1), "ante to the pot"))
    return out


def _chops(log: Sequence[Event]) -> list[_Obligation]:
    out: list[_Obligation] = []
    twos = 0
    pending: list[_Obligation] = []
    chops = 0
    trick: int | None = None
    for event in log:
        if isinstance(event, Played):
            if event.trick != trick:
                out.extend(pending)
                pending, twos, chops, trick = [], 0, 0, event.trick
            twos += _two_value(event.cards)
        elif isinstance(event, Chopped):
            chops += 1
            factor = 2 ** (chops - 1)
            pending.append(
                _Obligation(
                    event.victim,
                    event.seat,
                    "chop",
                    Fraction(twos * factor),
                    f"chop {chops} of the trick, 2s worth {twos} x{factor}",
                )
            )
        elif isinstance(event, TrickWon | GameOver):
            out.extend(pending)
            pending, twos, chops, trick = [], 0, 0, None
    out.extend(pending)
    return out


def _penalties(rules: Rules, log: Sequence[Event], places: Sequence[int],
               left: Mapping[int, Sequence[Card]]) -> list[_Obligation]:
    assessed = places[1:] if rules.end == "first_out" else places[-1:]
    winner = places[0]
    hands: list[Sequence[Card]] = list(final_hands(log))
    for seat, held in left.items():
        hands[seat] = held
    out: list[_Obligation] = []
    for seat in assessed:
        units = deuce_penalty_units(hands[seat])
        if units:
            out.append(_Obligation(seat, winner, "penalty", units, "2s and bombs left in hand"))
    return out


def _balances(balances: BalancesLike, seats: int) -> list[int | None]:
    if isinstance(balances, Mapping):
        missing = [s for s in range(seats) if s not in balances]
        if missing:
            raise ValueError(f"no balance given for seats {missing}")
        held = [balances[s] for s in range(seats)]
    else:
        held = list(balances)
        if len(held) != seats:
            raise ValueError(f"{len(held)} balances were given for {seats} seats")
    for seat, chips in enumerate(held):
        if chips is not None and (not isinstance(chips, int) or chips < 0):
            raise ValueError(f"seat {seat}'s balance must be a whole number of chips >= 0")
    return held


def _dealt(log: Sequence[Event]) -> Dealt:
    if not log or not isinstance(log[0], Dealt):
        raise ValueError("a game log starts with a Dealt event")
    return log[0]


def final_hands(log: Sequence[Event]) -> list[list[Card]]:
    """Every seat's cards at the end of the log: the deal, less the exchanges and the plays."""
    dealt = _dealt(log)
    layout = dealt.rules.layout
    hands = [layout.to_mask(h, dealt.decks) for h in dealt.hands]
    bit_of = layout.bit_of
    for event in log:
        if isinstance(event, Played):
            hands[event.seat] -= sum(bit_of[c] for c in event.cards)
        elif isinstance(event, Exchanged):
            mask = sum(bit_of[c] for c in event.cards)
            hands[event.giver] -= mask
            hands[event.receiver] += mask
    return [layout.cards(m) for m in hands]


def _fed(losses: list[_Obligation], feeder: int) -> list[_Obligation]:
    """Đền bài: the feeder owes what the others owe; what they owed the feeder is dropped."""
    out: list[_Obligation] = []
    for ob in losses:
        if ob.payer == feeder:
            out.append(ob)
        elif ob.payee != feeder:
            out.append(_Obligation(feeder, ob.payee, "feed", ob.units,
                                   f"đền bài: {ob.detail} (seat {ob.payer})"))
    return out


_DOUBLED_BY_CONG: frozenset[Reason] = frozenset({"place", "loser_pays", "cards_left", "pot"})


def places_with_leavers(places: Sequence[int], left: Sequence[int]) -> tuple[int, ...]:
    """The places once the seats in ``left`` (in the order their people left) take the last
    places: the seats still played by their people keep their order, then the leavers, the one
    who left first at the very end."""
    gone = set(left)
    return (*(seat for seat in places if seat not in gone), *reversed(tuple(dict.fromkeys(left))))


def _with_leavers(outcome: Outcome, left: Sequence[tuple[int, Sequence[Card]]]) -> Outcome:
    places = places_with_leavers(outcome.places, [seat for seat, _ in left])
    counts = list(outcome.cards_left or (0,) * len(places))
    for seat, held in left:
        counts[seat] = len(held)
    return dataclasses.replace(outcome, places=places, cards_left=tuple(counts))


def settle(outcome: Outcome | None, log: Sequence[Event], stake: int,
           balances: BalancesLike,
           left: Sequence[tuple[int, Sequence[Card]]] = ()) -> Settlement:
    """The chip transfers for a finished game at ``stake`` chips per unit.

    ``outcome``: how the game ended (``game.outcome``); ``log``: the game's events, starting with
    its :class:`~engine.events.Dealt` (which carries the rules). ``balances``: chips each seat
    holds (a mapping or a sequence by seat), ``None`` for a computer player. Raises
    :class:`~engine.errors.WrongPhase` if there is no outcome yet and ``ValueError`` for a
    negative stake, bad balances or a log that does not start with the deal. ``left``: the seats
    whose people left the game, in the order they left, each with the cards it held then (see
    the module notes); they are settled as the last places.
    """
    if outcome is None:
        raise WrongPhase("the game is not over yet, so nothing can be settled")
    seats_left = [seat for seat, _ in left]
    if len(set(seats_left)) != len(seats_left) or any(
            not 0 <= seat < len(outcome.places) for seat in seats_left):
        raise ValueError(f"seats that left must be distinct seats of the game: {seats_left}")
    if left and outcome.instant_win is None:
        outcome = _with_leavers(outcome, left)
    if not isinstance(stake, int) or isinstance(stake, bool) or stake < 0:
        raise ValueError(f"the stake must be a whole number of chips >= 0, not {stake!r}")
    rules = _dealt(log).rules
    places = tuple(outcome.places)
    n = len(places)
    held = _balances(balances, n)

    obligations: list[_Obligation] = []
    if outcome.instant_win is not None:
        multiplier = outcome.multiplier or outcome.instant_win.multiplier
        for seat in places[1:]:
            obligations.append(
                _Obligation(
                    seat,
                    places[0],
                    "instant_win",
                    Fraction(multiplier),
                    f"{outcome.instant_win.label} x{multiplier}",
                )
            )
    else:
        scheme = _scheme(rules, outcome, places)
        if outcome.frozen:
            frozen = set(outcome.frozen)
            scheme = [
                _Obligation(ob.payer, ob.payee, ob.reason, 2 * ob.units, f"{ob.detail}, x2 cóng")
                if ob.payer in frozen and ob.reason in _DOUBLED_BY_CONG
                else ob
                for ob in scheme
            ]
        penalties = _penalties(rules, log, places, dict(left)) if rules.deuce_penalty else []
        losses = scheme + penalties
        fed = next((e for e in log if isinstance(e, Fed)), None)
        if fed is not None and rules.anti_feed != "off":
            losses = _fed(losses, fed.feeder)
        obligations += losses
        if rules.chop_bonus:
            obligations += _chops(log)

    # One line per payer, payee and reason, in a stable order.
    merged: dict[tuple[int, int, Reason], tuple[Fraction, list[str]]] = {}
    for ob in obligations:
        key = (ob.payer, ob.payee, ob.reason)
        units, details = merged.get(key, (Fraction(0), []))
        merged[key] = (units + ob.units, [*details, ob.detail])
    lines = [
        (payer, payee, reason, units, "; ".join(details), int(units * stake))
        for (payer, payee, reason), (units, details) in merged.items()
        if units > 0
    ]
    lines = [line for line in lines if line[5] > 0]
    # Chops in the order they happened; other lines by the payee's place, then the payer's.
    first_seen = {key: i for i, key in enumerate(merged)}

    def order(line: tuple[int, int, Reason, Fraction, str, int]) -> tuple[int, int, int]:
        payer, payee, reason = line[0], line[1], line[2]
        if reason == "chop":
            return (REASONS.index(reason), first_seen[(payer, payee, reason)], 0)
        return (REASONS.index(reason), places.index(payee), places.index(payer))

    lines.sort(key=order)

    # Caps: a person pays at most what they hold, shared in proportion among people owed.
    owed_to_people: dict[int, int] = {}
    for payer, payee, _, _, _, owed in lines:
        if held[payer] is not None and held[payee] is not None:
            owed_to_people[payer] = owed_to_people.get(payer, 0) + owed
    transfers: list[Transfer] = []
    for payer, payee, reason, units, detail, owed in lines:
        payer_chips, payee_chips = held[payer], held[payee]
        if payer_chips is None or payee_chips is None:
            paid = 0
        else:
            total = owed_to_people[payer]
            paid = owed if total <= payer_chips else owed * payer_chips // total
        transfers.append(Transfer(payer, payee, owed, paid, reason, units, detail))

    return Settlement(stake, places, tuple(transfers), bombs_played(log))


def bombs_played(log: Sequence[Event]) -> tuple[int, ...]:
    """How many bombs (quads, double sequences, double quads) each seat played in the log."""
    bombs = [0] * len(_dealt(log).players)
    for event in log:
        if isinstance(event, Played) and event.kind.is_bomb:
            bombs[event.seat] += 1
    return tuple(bombs)
