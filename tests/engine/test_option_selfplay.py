"""Fast random self-play per new option (double_quad, chop_after_pass = "any_bomb", cong,
card_exchange = "tribute"): 300 games each, 1,000 at ``TEST_VOLUME=full``; and chips conserved
with every option on at once.

Every game checks the flow invariants (cards conserved, the seat to act holds cards, places are a
permutation, frozen seats never played and hold the last places) and settles with random balances
(zero-sum, nobody below zero, paid <= owed); every 50th game must replay from its log.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable

import pytest

from engine import Frozen, Game, Played, Rules
from engine.cards import Card, full_deck
from engine.combos import ComboKind
from engine.settle import settle
from tests.support.volume import volume

# Many random games: the unit tests cover these lines; coverage's tracer would triple the time.
pytestmark = pytest.mark.no_cover

GAMES = volume(300, 1000)
ALL_ON_GAMES = volume(100, 300)  # each followed by a second game at the same table
BASE = Rules()


def _rigged_hands(rng: random.Random, n: int) -> list[list[Card]]:
    """A deal in which one seat holds two quads of consecutive ranks (and another often a
    quad), so that double quads, chops and the double quad's answers come up."""
    deck = full_deck()
    low = rng.randrange(11)
    dq = [c for c in deck if c.rank in (low, low + 1)]
    rest = [c for c in deck if c not in dq]
    rng.shuffle(rest)
    size = 13 if n <= 4 else 10
    hands = [dq + rest[: size - 8]]
    rest = rest[size - 8 :]
    for _ in range(n - 1):
        hands.append(rest[:size])
        rest = rest[size:]
    rng.shuffle(hands)
    return hands


def _short_hands(rng: random.Random, n: int) -> list[list[Card]]:
    """Short hands (3 to 7 cards): players go out before others have played (cóng)."""
    deck = full_deck()
    rng.shuffle(deck)
    size = rng.randint(3, 7)
    return [deck[i * size : (i + 1) * size] for i in range(n)]


def _play(game: Game, rng: random.Random) -> Game:
    """Random legal actions, out-of-turn chops taken half of the time."""
    held0 = Counter(c.code for hand in game.hands for c in hand)
    steps = 0
    while not game.is_over:
        steps += 1
        assert steps < 3000, "every game ends"
        table = game.table  # out-of-turn chops answer 2s or bombs only: skip the scan otherwise
        chances = game.has_out_of_turn_chop() if table and (table.is_twos or table.is_bomb) else []
        if chances and rng.random() < 0.5:
            seat = rng.choice(chances)
            assert seat not in game.frozen
            game.play(seat, rng.choice(game.legal_plays(seat)))
            continue
        seat = game.current  # type: ignore[assignment]
        assert seat is not None and game.card_counts[seat] and seat not in game.frozen
        plays = game.legal_plays(seat)
        bombs = [c for c in plays if c.kind.is_bomb]
        if bombs and rng.random() < 0.5:
            game.play(seat, rng.choice(bombs))
        elif game.can_pass(seat) and (not plays or rng.random() < 0.4):
            game.pass_turn(seat)
        else:
            game.play(seat, rng.choice(plays))
    held = Counter(c.code for hand in game.hands for c in hand)
    played = Counter(c.code for e in game.events if isinstance(e, Played) for c in e.cards)
    assert held + played == held0
    return game


def _check_outcome(game: Game, rng: random.Random, replay: bool) -> None:
    out = game.outcome
    assert out is not None
    n = game.seat_count
    assert sorted(out.places) == list(range(n))
    if out.frozen:
        assert game.rules.cong
        assert out.places[n - len(out.frozen) :] == out.frozen
        played = {e.seat for e in game.events if isinstance(e, Played)}
        assert not played & set(out.frozen)
        assert next(e for e in game.events if isinstance(e, Frozen)).seats == out.frozen
    stake = rng.choice([1, 3, 10])
    balances: list[int | None] = [
        None if rng.random() < 0.1 else rng.randrange(0, 6 * stake) for _ in range(n)
    ]
    s = settle(out, game.events, stake, balances)
    assert sum(s.net.values()) == 0
    for seat, chips in enumerate(balances):
        if chips is not None:
            assert chips + s.net[seat] >= 0
    assert all(0 <= t.paid <= t.owed for t in s.transfers)
    if replay:
        assert Game.replay(game.events) == game


Dealer = Callable[[random.Random, int], list[list[Card]] | None]

OPTIONS: dict[str, tuple[Rules, Dealer]] = {
    "double_quad": (
        BASE.model_copy(update={"double_quad": True, "chop_bonus": True}),
        lambda rng, n: _rigged_hands(rng, n),
    ),
    "any_bomb": (
        BASE.model_copy(update={"chop_after_pass": "any_bomb", "chop_bonus": True}),
        lambda rng, n: _rigged_hands(rng, n) if rng.random() < 0.3 else None,
    ),
    "cong": (
        BASE.model_copy(update={"cong": True}),
        lambda rng, n: _short_hands(rng, n) if rng.random() < 0.7 else None,
    ),
    "tribute": (BASE.model_copy(update={"card_exchange": "tribute"}), lambda rng, n: None),
}


@pytest.mark.slow
@pytest.mark.parametrize("option", list(OPTIONS))
def test_a_thousand_random_games_per_option(option: str) -> None:
    rules, deal = OPTIONS[option]
    rng = random.Random(option)
    seen: Counter[str] = Counter()
    previous: Game | None = None
    for i in range(GAMES):
        n = rng.choice([4, 4, 4, 5, 3, 2]) if previous is None else previous.seat_count
        hands = deal(rng, n)
        if previous is not None:  # the next game at the same table: the exchange happens
            game = previous.next_game(seed=i)
        elif hands is not None:
            game = Game.new(rules, n, hands=hands, seed=i)
        else:
            game = Game.new(rules, n, seed=i)
        if option == "tribute" and game.events[1:2] and n >= 4 and not game.first_game:
            seen["exchange"] += 1
            assert game.phase != "exchange"  # nothing to give back
        _play(game, rng)
        _check_outcome(game, rng, replay=i % 50 == 0)
        out = game.outcome
        assert out is not None
        seen["frozen"] += bool(out.frozen)
        for e in game.events:
            if isinstance(e, Played):
                seen["double_quad"] += e.kind is ComboKind.DOUBLE_QUAD
                seen["oot_bomb"] += e.out_of_turn and e.kind is not ComboKind.DOUBLE_SEQUENCE
        previous = game if option == "tribute" and i % 4 != 3 else None
    # each option really came up
    want = {"double_quad": "double_quad", "any_bomb": "oot_bomb", "cong": "frozen",
            "tribute": "exchange"}[option]
    assert seen[want] > 20, seen


@pytest.mark.slow
def test_chips_conserved_with_every_option_on() -> None:
    everything = Rules.preset("online").model_copy(update={
        "double_quad": True, "chop_after_pass": "any_bomb", "cong": True,
        "card_exchange": "tribute", "chop_bonus": True, "deuce_penalty": True,
        "bombs_need_chop_context": True,
    })
    rng = random.Random(11)
    for i in range(ALL_ON_GAMES):
        rules = everything.model_copy(update={
            "scoring": rng.choice(["places", "loser_pays", "cards_left", "pot"]),
            "end": rng.choice(["to_last", "first_out"]),
            "chop_table": rng.choice(["default", "narrow", "online"]),
            "instant_wins": rng.random() < 0.3,
        })
        n = rng.choice([2, 3, 4, 4, 5, 6])
        roll = rng.random()
        hands = (
            _rigged_hands(rng, n) if roll < 0.4 else _short_hands(rng, n) if roll < 0.7 else None
        )
        first = _play(Game.new(rules, n, hands=hands, seed=i), rng)
        _check_outcome(first, rng, replay=i % 25 == 0)
        second = _play(first.next_game(seed=i), rng)
        _check_outcome(second, rng, replay=i % 25 == 0)
