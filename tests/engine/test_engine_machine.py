"""A Hypothesis state machine: arbitrary (often illegal) actions never corrupt a game."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from engine import Game, Played, Rules, TienLenError
from tests.support.volume import volume


class GameMachine(RuleBasedStateMachine):
    game: Game
    total: Counter[str]

    @initialize(
        preset=st.sampled_from(Rules.preset_names()),
        seats=st.integers(2, 8),
        seed=st.integers(0, 10_000),
    )
    def deal(self, preset: str, seats: int, seed: int) -> None:
        self.game = Game.new(Rules.preset(preset), seats, seed=seed)
        self.total = Counter(c.code for h in self.game.hands for c in h)

    @precondition(lambda self: not self.game.is_over)
    @rule(data=st.data())
    def legal_play(self, data: st.DataObject) -> None:
        seat = self.game.current
        if seat is None:
            return
        plays = self.game.legal_plays(seat)
        if plays:
            self.game.play(seat, data.draw(st.sampled_from(plays)))
        else:
            self.game.pass_turn(seat)

    @rule(seat=st.integers(0, 7), data=st.data())
    def any_play(self, seat: int, data: st.DataObject) -> None:
        if seat >= self.game.seat_count:
            return
        hand = self.game.hands[seat]
        cards = data.draw(st.lists(st.sampled_from(hand), max_size=5)) if hand else []
        before = self.game.to_json()
        try:
            self.game.play(seat, cards)
        except TienLenError:
            assert self.game.to_json() == before

    @rule(seat=st.integers(0, 7))
    def any_pass(self, seat: int) -> None:
        before = self.game.to_json()
        try:
            self.game.pass_turn(seat)
        except TienLenError:
            assert self.game.to_json() == before

    @invariant()
    def consistent(self) -> None:
        game = self.game
        played = Counter(c.code for e in game.events if isinstance(e, Played) for c in e.cards)
        held = Counter(c.code for h in game.hands for c in h)
        assert held + played == self.total
        assert (game.current is None) == game.is_over
        if not game.is_over:
            assert game.current is not None
            assert game.hands[game.current]

    def teardown(self) -> None:
        if hasattr(self, "game"):
            assert Game.from_json(self.game.to_json()) == self.game
            assert Game.replay(self.game.events) == self.game


GameMachine.TestCase.settings = settings(
    max_examples=volume(20, 60), stateful_step_count=40, deadline=None
)
# Many random steps: the unit tests cover these lines; coverage's tracer would triple the time.
TestGameMachine = pytest.mark.no_cover(GameMachine.TestCase)
