"""A game of Tiến Lên: the state machine, its log, persistence and replay.

Every action has a ``verify_*`` (raises the specific :class:`~engine.errors.TienLenError`), a
``can_*`` (answers) and the action itself (re-checks, mutates, returns the new events). An action
that raises leaves the game exactly as it was.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from enum import StrEnum, unique
from typing import Any

from engine.cards import Card, Layout, count_cards, full_deck, parse_cards
from engine.combos import (
    DOUBLE_SEQUENCE,
    Combo,
    ComboKind,
    beats_mask,
    chop_spec,
    classify_mask,
    legal_leads,
    legal_responses,
    may_lead,
)
from engine.errors import (
    CannotPassOnLead,
    CardsNotInHand,
    Cause,
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
    Fed,
    Frozen,
    GameOver,
    InstantWin,
    Passed,
    Played,
    TrickWon,
    WentOut,
    event_from_dict,
)
from engine.house import feeds, next_active, two_last_refused
from engine.outcome import InstantWinKind, Outcome, Termination, instant_win_of
from engine.rules import Rules

__all__ = ["Game", "Outcome", "Phase", "instant_win_of"]

CardsLike = str | Iterable[Card | str]


@unique
class Phase(StrEnum):
    EXCHANGE = "exchange"
    """Between games with card exchange: the winner and second give cards back."""
    PLAY = "play"
    OVER = "over"


class Game:
    """One game at a table. Seats are ``0 … seat_count - 1``; ``players`` holds opaque ids.

    Create with :meth:`new` (first game) or :meth:`next` (the next game at the same table);
    restore with :meth:`from_json` or :meth:`replay`.
    """

    rules: Rules
    players: tuple[str, ...]
    seat_count: int
    decks: int
    direction: int
    first_game: bool
    leader: int
    phase: Phase
    current: int | None
    table: Combo | None
    last_play_seat: int | None
    trick: int
    chop_context: bool
    version: int
    events: list[Event]
    outcome: Outcome | None

    # ------------------------------------------------------------------ creation

    def __init__(self) -> None:  # use Game.new / Game.next / Game.from_json / Game.replay
        self._hands: list[int] = []
        self._passed: set[int] = set()
        self._places: list[int] = []
        self._must: int = 0  # count-mask bit of the card the first play must include, or 0
        self._pending: dict[int, int] = {}
        self._return_to: dict[int, int] = {}
        self._frozen: list[int] = []  # with cong: seats frozen when the first player went out
        # with anti_feed: (feeder, fed seat, how) of the latest feed, until the fed seat acts
        self._feed: tuple[int, int, str] | None = None
        self._layout: Layout = Rules().layout
        self.events = []
        self.outcome = None
        self.version = 0
        # ``to_dict`` of the events already in the log (events are frozen and the log only
        # grows), so saving after every move does not convert the whole log again.
        self._event_dicts: tuple[list[Event], list[Event], list[dict[str, Any]]] = (
            self.events, [], [])

    @classmethod
    def new(
        cls,
        rules: Rules | None = None,
        players: int | Sequence[str] = 4,
        *,
        seed: int | str | None = None,
        hands: Sequence[CardsLike] | None = None,
        first_game: bool = True,
        leader: int | None = None,
        direction: int = 1,
        previous_places: Sequence[int] | None = None,
    ) -> Game:
        """Deal a game.

        ``players``: a number of seats (ids ``"0"``, ``"1"``, …) or the players' ids (2 to 8;
        5 or more use two decks). ``hands``: fixed hands per seat (cards or text) instead of a
        shuffle with ``random.Random(seed)``. ``leader``: who leads, with any combination;
        by default the rules decide (lowest card, or a random seat with ``first_lead = "any"``).
        ``previous_places`` (with ``card_exchange`` and 4+ players) starts the exchange phase.
        """
        rules = rules or Rules()
        if isinstance(players, int):
            ids = tuple(str(i) for i in range(players))
        else:
            ids = tuple(str(p) for p in players)
        n = len(ids)
        if not 2 <= n <= 8:
            raise ValueError(f"Tiến Lên needs 2 to 8 players, not {n}")
        if len(set(ids)) != n:
            raise ValueError("every player may take only one seat")
        if direction not in (1, -1):
            raise ValueError("direction must be 1 or -1")
        decks = 1 if n <= 4 else 2
        layout = rules.layout
        rng = random.Random(seed)
        if hands is None:
            size = 17 if (n == 3 and rules.three_player_17) else 13
            deck = full_deck() * decks
            rng.shuffle(deck)
            dealt = [deck[i * size : (i + 1) * size] for i in range(n)]
        else:
            if len(hands) != n:
                raise InvalidCards(f"{len(hands)} hands were given for {n} seats",
                                   cause=Cause.BAD_DEAL)
            dealt = [parse_cards(h) for h in hands]
            layout.to_mask([c for h in dealt for c in h], decks)  # checks duplicates
            if any(not h for h in dealt):
                raise InvalidCards("every seat must be dealt at least one card",
                                   cause=Cause.BAD_DEAL)
        masks = [layout.to_mask(h, decks) for h in dealt]
        must: Card | None = None
        if leader is not None:
            if not 0 <= leader < n:
                raise ValueError(f"there is no seat {leader}")
        elif rules.first_lead == "any" and (first_game or not rules.winner_leads_next):
            leader = rng.randrange(n)
        else:
            lowest = min(((m & -m).bit_length(), seat) for seat, m in enumerate(masks))
            leader = lowest[1]
            if first_game or not rules.winner_leads_next:
                must = layout.card_at[(lowest[0] - 1) >> 1]
        prev = None
        if previous_places is not None and rules.card_exchange != "off" and n >= 4:
            prev = tuple(int(p) for p in previous_places)
            if sorted(prev) != list(range(n)):
                raise ValueError("previous_places must list every seat once")
        event = Dealt(
            hands=tuple(tuple(layout.cards(m)) for m in masks),
            leader=leader,
            first_game=first_game,
            decks=decks,
            players=ids,
            rules=rules,
            direction=direction,
            must_include=must,
            previous_places=prev,
        )
        return cls._from_dealt(event)

    @classmethod
    def next(
        cls,
        previous: Game | Outcome,
        *,
        rules: Rules | None = None,
        players: int | Sequence[str] | None = None,
        direction: int | None = None,
        seed: int | str | None = None,
        hands: Sequence[CardsLike] | None = None,
    ) -> Game:
        """The next game at the same table.

        The previous game's winner leads with any combination (``winner_leads_next``), the play
        direction flips with ``reverse_order_each_game`` and, with ``card_exchange`` and 4+
        players, the exchange phase starts. From an :class:`Outcome`, pass ``rules`` and
        ``players`` (and the previous ``direction``, default 1).
        """
        if isinstance(previous, Game):
            outcome = previous.outcome
            if outcome is None:
                raise WrongPhase("the previous game is not over yet", cause=Cause.NOT_OVER)
            rules = rules or previous.rules
            players = previous.players if players is None else players
            direction = previous.direction if direction is None else direction
        else:
            outcome = previous
            if rules is None or players is None:
                raise ValueError("pass rules and players with an Outcome")
            direction = 1 if direction is None else direction
        if rules.reverse_order_each_game:
            direction = -direction
        return cls.new(
            rules,
            players,
            seed=seed,
            hands=hands,
            first_game=False,
            leader=outcome.winner if rules.winner_leads_next else None,
            direction=direction,
            previous_places=outcome.places,
        )

    def next_game(self, *, seed: int | str | None = None,
                  hands: Sequence[CardsLike] | None = None) -> Game:
        """Shorthand for ``Game.next(self, seed=seed, hands=hands)``."""
        return Game.next(self, seed=seed, hands=hands)

    @classmethod
    def _from_dealt(cls, dealt: Dealt) -> Game:
        game = cls()
        rules = dealt.rules
        game.rules = rules
        game._layout = layout = rules.layout
        game.players = dealt.players
        game.seat_count = n = len(dealt.players)
        game.decks = dealt.decks
        game.direction = dealt.direction
        game.first_game = dealt.first_game
        game.leader = dealt.leader
        game._hands = [layout.to_mask(h, dealt.decks) for h in dealt.hands]
        game._must = 0 if dealt.must_include is None else layout.bit_of[dealt.must_include]
        game.table = None
        game.last_play_seat = None
        game.trick = 1
        game.chop_context = False
        game.current = None
        game.phase = Phase.PLAY
        game.events = [dealt]
        prev = dealt.previous_places
        if prev is not None and len(prev) == n and n >= 4 and rules.card_exchange != "off":
            winner, second, second_last, last = prev[0], prev[1], prev[-2], prev[-1]
            tribute = rules.card_exchange == "tribute"
            game._give(last, winner, game._top_cards(last, 2), returned=False)
            game._give(second_last, second, game._top_cards(second_last, 2 if tribute else 1),
                       returned=False)
            if tribute:  # nothing is given back: play starts at once
                game._start_play()
                return game
            game._pending = {winner: 2, second: 1}
            game._return_to = {winner: last, second: second_last}
            game.phase = Phase.EXCHANGE
            return game
        game._start_play()
        return game

    def _top_cards(self, seat: int, k: int) -> int:
        hand = self._hands[seat]
        out = 0
        for _ in range(k):
            if not hand:
                break
            pos = hand.bit_length() - 1
            bit = 1 << (pos & ~1)
            out += bit
            hand -= bit
        return out

    def _give(self, giver: int, receiver: int, mask: int, *, returned: bool) -> Exchanged:
        self._hands[giver] -= mask
        self._hands[receiver] += mask
        event = Exchanged(giver, receiver, tuple(self._layout.cards(mask)), returned)
        self.events.append(event)
        return event

    def _start_play(self) -> None:
        self.phase = Phase.PLAY
        self.current = self.leader
        if self.rules.instant_wins:
            self._check_instant_wins()

    def _check_instant_wins(self) -> None:
        best: tuple[int, int, InstantWinKind] | None = None
        for seat in self._turn_order(self.leader):
            kind = instant_win_of(self._hands[seat], self.rules)
            if kind is not None and (best is None or kind.multiplier > best[0]):
                best = (kind.multiplier, seat, kind)
        if best is None:
            return
        multiplier, seat, kind = best
        self.events.append(InstantWin(seat, kind, multiplier))
        places = self._turn_order(seat)
        self._finish(places, Termination.INSTANT_WIN, kind)

    def _turn_order(self, start: int) -> list[int]:
        n, d = self.seat_count, self.direction
        return [(start + i * d) % n for i in range(n)]

    # ------------------------------------------------------------------ views

    @property
    def hands(self) -> list[list[Card]]:
        """Every seat's hand, sorted low to high under the rules' suit order."""
        cards = self._layout.cards
        return [cards(m) for m in self._hands]

    def hand(self, seat: int) -> list[Card]:
        return self._layout.cards(self._hands[seat])

    @property
    def card_counts(self) -> list[int]:
        return [count_cards(m) for m in self._hands]

    @property
    def passed(self) -> frozenset[int]:
        """Seats that passed in this trick (locked out until the next lead with
        ``pass_locks_out``; otherwise those that passed since the last play)."""
        return frozenset(self._passed)

    @property
    def places(self) -> list[int]:
        """Seats that went out so far, in order (all seats once the game is over)."""
        return list(self.outcome.places) if self.outcome else list(self._places)

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def first_play_must_include(self) -> Card | None:
        m = self._must
        return self._layout.card_at[(m.bit_length() - 1) >> 1] if m else None

    @property
    def actor(self) -> int | None:
        """The seat expected to act now: during the exchange, the first seat that still owes
        cards back; in play, the current seat; ``None`` when nobody is (the game is over)."""
        if self.phase is Phase.EXCHANGE:
            return next((s for s, n in self._pending.items() if n), None)
        if self.phase is Phase.OVER:
            return None
        return self.current

    @property
    def pending_returns(self) -> dict[int, int]:
        """During the exchange phase: how many cards each seat must still give back."""
        return dict(self._pending)

    @property
    def return_targets(self) -> dict[int, int]:
        """During the exchange phase: who receives each returning seat's cards."""
        return {s: self._return_to[s] for s in self._pending}

    @property
    def seat_order(self) -> list[int]:
        """Seats in order of play starting from seat 0 (reversed when ``direction`` is -1)."""
        return self._turn_order(0)

    def next_seat(self, seat: int) -> int:
        """The seat after ``seat`` in order of play (whether or not it holds cards)."""
        return (seat + self.direction) % self.seat_count

    # ------------------------------------------------------------------ legal plays

    def legal_plays(self, seat: int) -> list[Combo]:
        """Every distinct play the seat may make now.

        For the seat to act: every lead or every combination that beats the table. For any other
        seat: the out-of-turn chops the rules allow right now (usually none).
        """
        if self.phase is not Phase.PLAY or not 0 <= seat < self.seat_count:
            return []
        hand = self._hands[seat]
        if seat == self.current:
            table = self.table
            if table is None:
                rules = self.rules
                plays = legal_leads(hand, self._layout, rules.double_seq3_may_lead,
                                    rules.double_quad)
                must = self._must
                if must:
                    plays = [c for c in plays if c[1] & must]
                return self._without_two_last(hand, plays, True)
            return self._without_two_last(
                hand, legal_responses(hand, table, self.rules, self.chop_context), False)
        if not self._out_of_turn_window(seat):
            return []
        assert self.table is not None
        return self._without_two_last(hand, [
            c
            for c in legal_responses(hand, self.table, self.rules, self.chop_context)
            if self._may_chop_out_of_turn(c)
        ], False)

    def _without_two_last(self, hand: int, plays: list[Combo], leading: bool) -> list[Combo]:
        rules = self.rules
        if not rules.no_two_last:
            return plays
        return [c for c in plays if not two_last_refused(rules, hand, c[1], leading)]

    def _check_two_last(self, seat: int, combo: Combo) -> None:
        hand = self._hands[seat]
        if two_last_refused(self.rules, hand, combo[1], self.table is None):
            out = hand == combo[1]
            raise IllegalPlay(
                "you may not go out on a 2" if out
                else "that would leave you only 2s, and you may not go out on a 2",
                cause=Cause.NO_TWO_LAST, out=out)

    def would_feed(self, seat: int, play: CardsLike | Combo | None) -> bool:
        """With ``anti_feed``: whether the seat on turn, playing ``play`` (``None``: passing),
        feeds the next player, who holds one card (see :func:`engine.house.feeds`)."""
        if self.rules.anti_feed == "off" or seat != self.current or self.phase is not Phase.PLAY:
            return False
        combo = None if play is None else self._combo_of(seat, play)
        return self._feed_of(seat, combo) is not None

    def _feed_of(self, seat: int, combo: Combo | None) -> tuple[int, int, str] | None:
        nxt = self._next_active(seat)
        if nxt is None:
            return None
        if not feeds(self.rules, self._hands[seat], self.table, combo,
                     count_cards(self._hands[nxt]), bool(self._places)):
            return None
        how = "pass" if combo is None else ("lead" if self.table is None else "answer")
        return (seat, nxt, how)

    def _out_of_turn_window(self, seat: int) -> bool:
        """Whether ``seat`` (not the one to act) may chop out of turn now: the table shows 2s or
        a bomb that chopped 2s in this trick, and ``chop_after_pass`` is not ``off``."""
        table = self.table
        return (
            table is not None
            and self.rules.chop_after_pass != "off"
            and seat != self.last_play_seat
            and self._hands[seat] != 0
            and seat not in self._frozen
            and (table.is_twos or (table[0].is_bomb and self.chop_context))
        )

    def _may_chop_out_of_turn(self, combo: Combo) -> bool:
        """Whether the kind of play may be made out of turn (it must also beat the table):
        four or more consecutive pairs, or with ``chop_after_pass = "any_bomb"`` any bomb."""
        if self.rules.chop_after_pass == "any_bomb":
            return combo[0].is_bomb
        return combo[0] is DOUBLE_SEQUENCE and _pairs(combo[1]) >= 4

    def has_out_of_turn_chop(self) -> list[int]:
        """Seats other than the one to act that could chop out of turn right now."""
        return [
            s for s in range(self.seat_count) if s != self.current and self.legal_plays(s)
        ]

    # ------------------------------------------------------------------ play

    def _combo_of(self, seat: int, cards: CardsLike | Combo) -> Combo:
        if isinstance(cards, Combo) and cards[2] is self._layout:
            mask = cards[1]
        else:
            if isinstance(cards, Combo):
                cards = cards.cards
            mask = self._layout.to_mask(parse_cards(cards), self.decks)
        if not mask:
            raise NotACombination("choose at least one card to play", cause=Cause.NO_CARDS)
        hand = self._hands[seat]
        if not _contains(hand, mask):
            missing = self._layout.cards(_missing(hand, mask))
            raise CardsNotInHand(f"you do not hold {' '.join(str(c) for c in missing)}",
                                 cards=tuple(missing))
        kind = classify_mask(mask, self.rules.double_quad)
        if kind is None:
            chosen = tuple(self._layout.cards(mask))
            raise NotACombination(f"{' '.join(str(c) for c in chosen)} is not a combination",
                                  cards=chosen)
        return Combo(kind, mask, self._layout)

    def verify_play(self, seat: int, cards: CardsLike | Combo) -> Combo:
        """Raise the specific error if the seat may not play these cards now; else the combo."""
        return self._verify_play(seat, cards)[0]

    def _verify_play(self, seat: int, cards: CardsLike | Combo) -> tuple[Combo, bool]:
        self._check_phase()
        self._check_seat(seat)
        if seat != self.current:
            if not self._out_of_turn_window(seat):
                self._raise_not_turn(seat)
            combo = self._combo_of(seat, cards)
            assert self.table is not None
            if not self._may_chop_out_of_turn(combo):
                self._raise_not_turn(seat)
            if not beats_mask(self.rules, combo[0], combo[1], self.table[0], self.table[1],
                              self.chop_context):
                raise self._does_not_beat(combo, self.table)
            self._check_two_last(seat, combo)
            return combo, True
        combo = self._combo_of(seat, cards)
        table = self.table
        if table is None:
            if self._must and not combo[1] & self._must:
                raise MustIncludeCard(
                    f"the first play must include {self.first_play_must_include}",
                    card=self.first_play_must_include,
                )
            if not may_lead(self.rules, combo[0], combo[1]):
                raise IllegalPlay("three consecutive pairs may not lead a trick",
                                  cause=Cause.THREE_PAIRS_MAY_NOT_LEAD)
        elif not beats_mask(self.rules, combo[0], combo[1], table[0], table[1],
                            self.chop_context):
            raise self._does_not_beat(combo, table)
        self._check_two_last(seat, combo)
        return combo, False

    def _raise_not_turn(self, seat: int) -> None:
        if seat in self._frozen:
            raise NotYourTurn("you are frozen (cóng): your hand is no longer played")
        if seat in self._passed and self.rules.pass_locks_out:
            raise PassedThisTrick("you passed this trick")
        if not self._hands[seat]:
            raise NotYourTurn("you have no cards left", cause=Cause.NO_CARDS_LEFT)
        raise NotYourTurn("it is not your turn")

    def _does_not_beat(self, play: Combo, table: Combo) -> IllegalPlay:
        same = play[0] is table[0] and (
            play[0] not in (ComboKind.SEQUENCE, DOUBLE_SEQUENCE) or play.length == table.length
        )
        quad_ok, lo, hi = chop_spec(self.rules, table[0], table[1], self.chop_context)
        chop = bool(quad_ok or lo <= hi)
        text = f"{play} does not beat {table} on the table"
        if not same:
            what = _kind_phrase(table)
            extra = ", or by a chop" if chop else ""
            text += f": {what} can only be beaten by a higher {_kind_phrase(table, False)}{extra}"
        return IllegalPlay(text, cause=Cause.DOES_NOT_BEAT, play=play, table=table,
                           same_kind=same, chop=chop)

    def can_play(self, seat: int, cards: CardsLike | Combo) -> bool:
        try:
            self._verify_play(seat, cards)
        except TienLenError:
            return False
        return True

    def play(self, seat: int, cards: CardsLike | Combo) -> list[Event]:
        """Play cards (a list of cards, text like ``"7S 7H"`` or a :class:`Combo`).

        Returns the new events, the :class:`~engine.events.Played` first.
        """
        combo, out_of_turn = self._verify_play(seat, cards)
        return self._apply_play(seat, combo, out_of_turn)

    def _apply_play(self, seat: int, combo: Combo, out_of_turn: bool = False) -> list[Event]:
        start = len(self.events)
        events = self.events
        layout = self._layout
        table = self.table
        kind, mask = combo[0], combo[1]
        chop = False
        chained = False
        if table is not None and kind.is_bomb:
            if table.is_twos:
                chop = chained = True
            elif table[0].is_bomb:
                chop = True
                chained = self.chop_context
        cards = tuple(layout.cards(mask))
        fed = self._feed
        if self.rules.anti_feed != "off":
            self._feed = None if out_of_turn else self._feed_of(seat, combo)
        events.append(Played(seat, cards, kind, self.trick, out_of_turn, chop))
        if chained:
            assert table is not None
            assert self.last_play_seat is not None
            events.append(Chopped(seat, self.last_play_seat, self.trick,
                                  tuple(layout.cards(table[1])), cards))
            self.chop_context = True
        self._hands[seat] -= mask
        self.table = combo
        self.last_play_seat = seat
        self._must = 0
        if not self.rules.pass_locks_out:
            self._passed.clear()
        else:
            self._passed.discard(seat)
        self.version += 1
        if not self._hands[seat]:
            self._places.append(seat)
            events.append(WentOut(seat, len(self._places)))
            if len(self._places) == 1 and fed is not None and fed[1] == seat:
                events.append(Fed(fed[0], seat, fed[2]))
            if len(self._places) == 1 and self.rules.cong:
                self._freeze(seat)
            if self.rules.end == "first_out":
                self._finish_first_out(seat)
                return events[start:]
            frozen = self._frozen
            holders = [s for s in range(self.seat_count) if self._hands[s] and s not in frozen]
            if len(holders) <= 1:
                self._finish(self._places + holders + frozen, Termination.EMPTIED_HANDS)
                return events[start:]
        nxt = self._next_active(seat)
        if nxt is None:
            self._end_trick(seat)
        else:
            self.current = nxt
        return events[start:]

    def _freeze(self, winner: int) -> None:
        """Cóng: the seats that have not played a card when ``winner`` went out first are frozen,
        in turn order from the winner; they will hold the last places."""
        started = {e.seat for e in self.events if isinstance(e, Played)}
        frozen = [s for s in self._turn_order(winner) if s not in started and self._hands[s]]
        if not frozen:
            return
        self._frozen = frozen
        n = self.seat_count
        self.events.append(
            Frozen(tuple(frozen), tuple(range(n - len(frozen) + 1, n + 1)))
        )

    @property
    def frozen(self) -> tuple[int, ...]:
        """With ``cong``: the frozen seats (their hands are no longer played), last places last."""
        return tuple(self._frozen)

    def _next_active(self, seat: int) -> int | None:
        return next_active(seat, self._hands, self._passed, self._frozen, self.direction)

    def _end_trick(self, winner: int) -> None:
        self.events.append(TrickWon(winner, self.trick))
        self.trick += 1
        self.table = None
        self.last_play_seat = None
        self.chop_context = False
        self._passed.clear()
        frozen = self._frozen
        if self._hands[winner] and winner not in frozen:
            self.current = winner
        else:
            n, d = self.seat_count, self.direction
            s = winner
            for _ in range(n - 1):
                s = (s + d) % n
                if self._hands[s] and s not in frozen:
                    break
            self.current = s

    def _finish_first_out(self, winner: int) -> None:
        n, d = self.seat_count, self.direction
        counts = self.card_counts
        frozen = self._frozen
        others = [(winner + i * d) % n for i in range(1, n)]
        others = [s for s in others if s not in frozen]
        others.sort(key=lambda s: counts[s])  # stable: ties keep turn order from the winner
        self._finish([winner, *others, *frozen], Termination.FIRST_OUT)

    def _finish(self, places: list[int], reason: Termination,
                instant: InstantWinKind | None = None) -> None:
        self.phase = Phase.OVER
        self.current = None
        self.events.append(GameOver(tuple(places), reason))
        self.outcome = Outcome(
            places=tuple(places),
            reason=reason,
            instant_win=instant,
            multiplier=None if instant is None else instant.multiplier,
            cards_left=tuple(self.card_counts),
            frozen=tuple(self._frozen),
        )

    # ------------------------------------------------------------------ pass

    def verify_pass(self, seat: int) -> None:
        self._check_phase()
        self._check_seat(seat)
        if seat != self.current:
            self._raise_not_turn(seat)
        if self.table is None:
            raise CannotPassOnLead("you lead this trick, so you must play")

    def can_pass(self, seat: int) -> bool:
        try:
            self.verify_pass(seat)
        except TienLenError:
            return False
        return True

    def pass_turn(self, seat: int) -> list[Event]:
        self.verify_pass(seat)
        return self._apply_pass(seat)

    def _apply_pass(self, seat: int) -> list[Event]:
        start = len(self.events)
        if self.rules.anti_feed != "off":
            self._feed = self._feed_of(seat, None)
        self.events.append(Passed(seat, self.trick))
        self._passed.add(seat)
        self.version += 1
        nxt = self._next_active(seat)
        if nxt is None or nxt == self.last_play_seat:
            assert self.last_play_seat is not None
            self._end_trick(self.last_play_seat)
        else:
            self.current = nxt
        return self.events[start:]

    # ------------------------------------------------------------------ exchange

    def verify_return(self, seat: int, cards: CardsLike) -> int:
        """Raise if the seat may not give these cards back now; else their count mask."""
        if self.phase is Phase.OVER:
            raise GameFinished("the game is over")
        if self.phase is not Phase.EXCHANGE:
            raise WrongPhase("cards are only given back before play starts",
                             cause=Cause.NOT_EXCHANGING)
        self._check_seat(seat)
        due = self._pending.get(seat)
        if not due:
            raise WrongPhase("you have no cards to give back", cause=Cause.NOTHING_TO_GIVE)
        mask = self._layout.to_mask(parse_cards(cards), self.decks)
        n = count_cards(mask)
        if n != due:
            raise IllegalPlay(f"you must give back exactly {due} card{'s' if due > 1 else ''}",
                              cause=Cause.GIVE_COUNT, count=due)
        if not _contains(self._hands[seat], mask):
            missing = self._layout.cards(_missing(self._hands[seat], mask))
            raise CardsNotInHand(f"you do not hold {' '.join(str(c) for c in missing)}",
                                 cards=tuple(missing))
        return mask

    def can_return(self, seat: int, cards: CardsLike) -> bool:
        try:
            self.verify_return(seat, cards)
        except TienLenError:
            return False
        return True

    def return_cards(self, seat: int, cards: CardsLike) -> list[Event]:
        """In the exchange phase, give back cards of your choice (winner 2, second 1)."""
        mask = self.verify_return(seat, cards)
        start = len(self.events)
        self._give(seat, self._return_to[seat], mask, returned=True)
        del self._pending[seat]
        self.version += 1
        if not self._pending:
            self._start_play()
        return self.events[start:]

    # ------------------------------------------------------------------ checks

    def _check_phase(self) -> None:
        if self.phase is Phase.OVER:
            raise GameFinished("the game is over")
        if self.phase is Phase.EXCHANGE:
            raise WrongPhase("cards are being exchanged; play starts when that is done",
                             cause=Cause.EXCHANGING)

    def _check_seat(self, seat: int) -> None:
        if not isinstance(seat, int) or not 0 <= seat < self.seat_count:
            raise NotYourTurn(f"there is no seat {seat} at this table", cause=Cause.NO_SEAT,
                              seat=seat)

    # ------------------------------------------------------------------ persistence

    def state(self) -> dict[str, Any]:
        """The whole state as JSON-friendly data (also what ``==`` compares)."""
        table = self.table
        must = self.first_play_must_include
        return {
            "format": 1,
            "rules": self.rules.model_dump(mode="json"),
            "players": list(self.players),
            "decks": self.decks,
            "direction": self.direction,
            "first_game": self.first_game,
            "leader": self.leader,
            "phase": str(self.phase),
            "hands": [[c.code for c in h] for h in self.hands],
            "current": self.current,
            "table": None if table is None else [c.code for c in table.cards],
            "last_play_seat": self.last_play_seat,
            "passed": sorted(self._passed),
            "trick": self.trick,
            "chop_context": self.chop_context,
            "must_include": None if must is None else must.code,
            "places": list(self._places),
            "frozen": list(self._frozen),
            "pending_returns": {str(k): v for k, v in sorted(self._pending.items())},
            "return_to": {str(k): v for k, v in sorted(self._return_to.items())},
            "version": self.version,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "events": self._logged(),
            **({} if self._feed is None else {"feed": list(self._feed)}),
        }

    def _logged(self) -> list[dict[str, Any]]:
        """The events as dicts (shallow copies of the cached ones, so a caller may change what
        it gets). The cache starts again when the log was replaced or changed other than by
        appending."""
        log, seen, dicts = self._event_dicts
        events = self.events
        n = len(seen)
        if log is not events or n > len(events) or (n and events[n - 1] is not seen[-1]):
            log, seen, dicts = events, [], []
            self._event_dicts = (log, seen, dicts)
        for event in events[len(seen):]:
            seen.append(event)
            dicts.append(event.to_dict())
        return [dict(d) for d in dicts]

    def to_json(self) -> str:
        return json.dumps(self.state(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> Game:
        game = cls()
        game.rules = rules = Rules.model_validate(data["rules"])
        game._layout = layout = rules.layout
        game.players = tuple(str(p) for p in data["players"])
        game.seat_count = len(game.players)
        game.decks = int(data["decks"])
        game.direction = int(data["direction"])
        game.first_game = bool(data["first_game"])
        game.leader = int(data["leader"])
        game.phase = Phase(data["phase"])
        game._hands = [layout.to_mask(parse_cards(h), game.decks) for h in data["hands"]]
        game.current = data["current"]
        table = data["table"]
        if table is None:
            game.table = None
        else:
            mask = layout.to_mask(parse_cards(table), game.decks)
            kind = classify_mask(mask, rules.double_quad)
            if kind is None:
                raise ValueError("the saved table is not a combination")
            game.table = Combo(kind, mask, layout)
        game.last_play_seat = data["last_play_seat"]
        game._passed = {int(s) for s in data["passed"]}
        game.trick = int(data["trick"])
        game.chop_context = bool(data["chop_context"])
        must = data["must_include"]
        game._must = 0 if must is None else layout.bit_of[parse_cards(must)[0]]
        game._places = [int(s) for s in data["places"]]
        game._frozen = [int(s) for s in data.get("frozen", [])]
        feed = data.get("feed")
        game._feed = None if feed is None else (int(feed[0]), int(feed[1]), str(feed[2]))
        game._pending = {int(k): int(v) for k, v in data["pending_returns"].items()}
        game._return_to = {int(k): int(v) for k, v in data["return_to"].items()}
        game.version = int(data["version"])
        out = data["outcome"]
        game.outcome = None if out is None else Outcome.from_dict(out)
        game.events = [event_from_dict(e) for e in data["events"]]
        return game

    @classmethod
    def from_json(cls, text: str) -> Game:
        return cls.from_state(json.loads(text))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.state() == other.state()

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"<Game {self.seat_count} seats, phase={self.phase}, trick={self.trick}, "
            f"current={self.current}, table={self.table!s}>"
        )

    @classmethod
    def replay(cls, events: Sequence[Event | dict[str, Any]]) -> Game:
        """Rebuild a game from its log by re-applying the players' actions.

        The derived events must match the log, or ``ValueError`` is raised.
        """
        log = [e if not isinstance(e, dict) else event_from_dict(e) for e in events]
        if not log or not isinstance(log[0], Dealt):
            raise ValueError("a game log starts with a Dealt event")
        game = cls._from_dealt(log[0])
        for event in log[1:]:
            if isinstance(event, Played):
                game.play(event.seat, event.cards)
            elif isinstance(event, Passed):
                game.pass_turn(event.seat)
            elif isinstance(event, Exchanged) and event.returned:
                game.return_cards(event.giver, event.cards)
        if game.events != log:
            raise ValueError("the log does not replay to the same events")
        return game


def _pairs(mask: int) -> int:
    return ((mask.bit_length() - 1) >> 3) - (((mask & -mask).bit_length() - 1) >> 3) + 1


def _contains(hand: int, mask: int) -> bool:
    """Whether every card count of ``mask`` is at most that of ``hand`` (2-bit fields)."""
    if not mask & ~hand:
        return True  # fields hold 0, 1 or 2 (never 3), so bitwise inclusion means equality
    return not _missing(hand, mask)


def _missing(hand: int, mask: int) -> int:
    out = 0
    while mask:
        pos = (mask & -mask).bit_length() - 1
        shift = pos & ~1
        want = (mask >> shift) & 3
        have = (hand >> shift) & 3
        if want > have:
            out += (want - have) << shift
        mask &= ~(3 << shift)
    return out


def _kind_phrase(combo: Combo, article: bool = True) -> str:
    kind = combo[0]
    if kind is ComboKind.SINGLE:
        text = "single card"
    elif kind is ComboKind.PAIR:
        text = "pair"
    elif kind is ComboKind.TRIPLE:
        text = "triple"
    elif kind is ComboKind.QUAD:
        text = "four of a kind"
    elif kind is ComboKind.SEQUENCE:
        text = f"{combo.length}-card sequence"
    elif kind is ComboKind.DOUBLE_QUAD:
        text = "double quad"
    else:
        text = f"run of {combo.length} consecutive pairs"
    if not article:
        return text
    return ("an " if text[0] in "aeiou" else "a ") + text
