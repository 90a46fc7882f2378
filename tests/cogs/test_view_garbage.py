"""Views and interactions leave no reference cycles behind: each press would otherwise leave two
views (the one the bot sent, the one discord.py rebuilt from the pressed message) with their
buttons, and the interaction with its message, over 100 objects, to the cyclic garbage
collector, whose full collections stalled the event loop by 100 ms and more at 200 busy tables
(docs/BENCHMARKS.md)."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import discord

from cogs.tienlen._views import BoardButton, HandButton, SentView

from .tablekit import lowest, open_hand, select
from .test_live_hand import started


def test_a_sent_view_is_freed_by_reference_counting() -> None:
    gc.disable()
    try:
        sent, plain = SentView(), discord.ui.View(timeout=None)
        for view in (sent, plain):
            view.add_item(BoardButton(1, "join", label="Join"))
            view.add_item(HandButton(1, 2, 0, "play", label="Play"))
        assert [item.custom_id for item in sent.children] == [   # type: ignore[attr-defined]
            "tl:b:1:join", "tl:h:1:2:0:play"]
        assert sent.to_components() == plain.to_components()
        sent_ref, plain_ref = weakref.ref(sent), weakref.ref(plain)
        del sent, plain, view
        assert sent_ref() is None
        assert plain_ref() is not None  # a plain view waits for the cyclic collector
    finally:
        gc.enable()
        gc.collect()


async def test_presses_leave_no_view_for_the_cyclic_collector(world: Any) -> None:
    by_id, live = await started(world, 2, turn_seconds=600)
    game = live.game
    seat = game.current
    mover = by_id[live.seats[seat].user_id]
    hand = await open_hand(world, mover)
    await world.env.settle()
    with_cycles: list[Any] = []
    gc.collect()
    gc.disable()
    try:
        chosen = lowest(game.legal_plays(seat)).cards
        message = await select(mover, hand, chosen)
        await mover.click(message, label="Play")
        await world.env.settle()
        assert game.version > 0 and game.current != seat
    finally:
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        gc.set_debug(0)
        # SimCord wraps the on_error of each view it sees (a closure on the view: a cycle that the
        # test harness makes and a real bot does not); any other cycle is the bot's.
        with_cycles.extend(o for o in gc.garbage
                           if (isinstance(o, discord.ui.View) and "on_error" not in vars(o))
                           or isinstance(o, discord.Interaction | discord.Message))
        gc.garbage.clear()
        gc.enable()
    assert with_cycles == []
