"""The hand's menu of plays: it lists only legal plays (the engine's own list, the hint's choice
first, at most 25), and choosing one is judged exactly like selecting its cards and pressing
Play (the same path through the table). Forged choices are refused and change nothing."""

from __future__ import annotations

import random
from typing import Any

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from cogs.tables import LiveTable, TablePhase
from cogs.tienlen import _menu
from cogs.tienlen import selection as sel
from data.models import Seat, TableRecord
from engine import Game, Phase, Rules
from engine.ai import observe, suggest
from tests.support import layout

from .forge import forge_select
from .tablekit import open_hand, play, said
from .test_live_hand import started


def menu_of(message: Any) -> Any:
    """The hand's play menu (None: the hand offers none)."""
    message = getattr(message, "message", message)
    for child in layout.walk(message.components):
        if str(getattr(child, "custom_id", "")).startswith("tl:m:"):
            return child
    return None


def _live(game: Game) -> LiveTable:
    from datetime import UTC, datetime

    now = datetime(2026, 12, 1, tzinfo=UTC)
    seats = tuple(Seat(f"p{i}", 100 + i) for i in range(game.seat_count))
    record = TableRecord(1, 5, 6, 100, "open", game.rules.model_dump_json(), 10, 60, seats,
                         None, None, None, None, 1, now, now)
    return LiveTable(record, phase=TablePhase.PLAYING, max_seats=game.seat_count, game=game,
                     game_id=1)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 30), seats=st.integers(2, 4))
def test_the_menu_lists_only_legal_plays_the_hint_first(seed: int, moves: int,
                                                        seats: int) -> None:
    rng = random.Random(seed)
    game = Game.new(Rules(), seats, seed=seed)
    for _ in range(moves):  # a random position of a random legal game
        if game.is_over or game.phase is not Phase.PLAY or game.current is None:
            break
        seat = game.current
        plays = game.legal_plays(seat)
        if game.table is not None and (not plays or rng.random() < 0.3):
            game.pass_turn(seat)
        else:
            game.play(seat, rng.choice(plays))
    if game.is_over or game.current is None:
        return
    live = _live(game)
    for seat in range(game.seat_count):
        offered = _menu.plays_now(live, seat)
        legal = game.legal_plays(seat)
        assert len(offered) <= _menu.MAX_OPTIONS
        assert all(play in legal for play in offered)  # never an illegal play
        if len(legal) <= _menu.MAX_OPTIONS:
            assert set(offered) == set(legal)  # every legal play, when they fit
        hand = game.hand(seat)
        for combo in offered:
            cards = sel.chosen_cards(hand, sel.mask_for(hand, combo.cards))
            assert sorted(cards) == sorted(combo.cards) and game.can_play(seat, cards)
        if seat == game.current and offered:
            hint = suggest(observe(game, seat)).play
            if hint is not None:
                assert offered[0] == hint


def test_more_than_25_plays_keep_the_hint_every_chop_and_every_shape() -> None:
    game = Game.new(Rules(), 4, seed=3, first_game=False, leader=0)
    seat = game.current
    assert seat is not None
    plays = game.legal_plays(seat)
    assert len(plays) > _menu.MAX_OPTIONS  # a lead of 13 cards has many
    hint = suggest(observe(game, seat)).play
    chosen = _menu.choose(plays, hint)
    assert len(chosen) == _menu.MAX_OPTIONS and chosen[0] == hint
    assert {(p.kind, len(p)) for p in plays} <= {(p.kind, len(p)) for p in chosen}
    assert all(p in chosen for p in plays if p.kind.is_bomb)
    lowest = min(plays, key=lambda p: (p.top.rank, len(p), p.top.suit))
    assert lowest in chosen


async def test_a_choice_plays_exactly_as_its_cards_and_play(world: Any) -> None:
    """At several positions of one game: the person on turn chooses each time a menu play;
    the same position replayed with the cards selected and Play gives the same game."""
    by_id, live = await started(world, 3, turn_seconds=600)
    service = world.bot.table_service
    rng = random.Random(7)
    checked = 0
    while checked < 6 and live.playing and live.game is not None and not live.game.is_over:
        game = live.game
        seat = game.current
        assert seat is not None
        person = by_id[live.seats[seat].user_id]
        hand = await open_hand(world, person)
        menu = menu_of(hand)
        if menu is None:  # nothing beats the table: pass
            await person.click(hand, label="Pass")
            continue
        options = menu.options
        assert len(options) <= 25 and options[0].label
        choice = rng.choice(options)
        before = game.to_json()
        chosen = await person.select(hand, [choice.value], custom_id=menu.custom_id)
        assert "You played" in said(chosen.response), said(chosen.response)
        by_menu = live.game.to_json()
        cards = sel.chosen_cards(Game.from_json(before).hand(seat), sel.decode(choice.value))
        async with live.lock:  # the same position again
            live.game = Game.from_json(before)
            await service._commit(live)
        again = await play(person, await open_hand(world, person), cards)
        assert "You played" in said(again.response), said(again.response)
        assert live.game.to_json() == by_menu
        checked += 1
    assert checked >= 3


async def test_forged_choices_are_refused_and_change_nothing(world: Any) -> None:
    by_id, live = await started(world, 2, turn_seconds=600)
    game = live.game
    assert game is not None and game.current is not None
    person = by_id[live.seats[game.current].user_id]
    other = by_id[live.seats[1 - game.current].user_id]
    hand = await open_hand(world, person)
    menu = menu_of(hand)
    assert menu is not None and isinstance(menu, discord.SelectMenu)
    before = game.to_json()
    for value in ("zz", "1" * 40, ""):  # not a selection, too long, empty
        r = await forge_select(person, hand, menu.custom_id, [value])
        assert "not a play of your hand" in said(r.response) or r.response is None
    held = sel.mask_for(game.hand(game.current), game.hand(game.current))
    stranger = sel.encode(((1 << sel.MAX_CODES) - 1) & ~held)  # cards not held
    r = await forge_select(person, hand, menu.custom_id, [stranger])
    assert "You played" not in layout.text(r.response)
    r = await forge_select(person, hand, "tl:m:99999999999999999999:1", ["1"])
    assert "not known any more" in said(r.response)  # 20 digits: no template takes it
    r = await forge_select(person, hand, "tl:m:9999999999999999999:1", ["1"])
    assert "not valid" in said(r.response)  # 19 digits beyond 64 bits
    theirs = await open_hand(world, other)  # off turn: no menu (nothing to play now)
    assert menu_of(theirs) is None
    r = await forge_select(other, theirs, menu.custom_id.replace(
        menu.custom_id.split(":")[3], "1"), [menu.options[0].value])
    assert "You played" not in layout.text(r.response)
    assert live.game is not None and live.game.to_json() == before  # nothing changed
