"""Live hands across an in-process restart (SimCord, virtual time): the kept hands are redrawn at
start-up and follow the table again without a press; a hand whose token ran out meanwhile is
left alone and its row deleted."""

from __future__ import annotations

from typing import Any

from cogs import words
from tests.support import layout

from .tablekit import board, lowest, open_hand, said, select
from .test_live_hand import current_message, person_on_turn, started


async def test_hands_follow_again_after_a_restart(world: Any) -> None:
    by_id, live = await started(world, 3, turn_seconds=600)
    hands = {pid: await open_hand(world, p) for pid, p in by_id.items()}
    await world.env.settle()
    kept = await world.store.live_hands()
    assert sorted(h.user_id for h in kept) == sorted(by_id)
    assert all(h.table_id == live.id for h in kept)

    await world.restart()
    await world.env.settle()
    live2 = world.bot.table_service.tables[live.id]
    assert world.bot.hands.restored_count == 3
    game = live2.game
    seat, mover = person_on_turn(live2, by_id)
    # The mover plays from a fresh hand; everyone else's old hand follows with no press.
    fresh = await open_hand(world, mover)
    await mover.click(await select(mover, fresh, lowest(game.legal_plays(seat)).cards),
                      label="Play")
    await world.env.settle()
    after = game.current
    for pid, person in by_id.items():
        if person is mover:
            continue
        shown = current_message(world, person, hands[pid])
        assert ("Your turn" in said(shown)) == (live2.seats[after].user_id == pid), said(shown)
        assert "To beat: " in said(shown), said(shown)  # the hand follows the table again
        seats = "\n".join(layout.alt_texts(board(world)))  # every seat's cards: the board's
        assert f"<@{mover.id}> — {len(game.hand(seat))} cards" in seats, seats
    # Closing the table deletes every kept hand.
    await world.bot.table_service.cancel(live2, live2.table.host_id)
    await world.env.settle()
    assert await world.store.live_hands() == []


async def test_restored_tokens_still_retire_and_say_so(world: Any) -> None:
    by_id, live = await started(world, 3, turn_seconds=3600)
    hands = {pid: await open_hand(world, p) for pid, p in by_id.items()}
    await world.env.advance_time(10 * 60)
    late = next(iter(by_id.values()))
    game = live.game
    card = game.hand(live.seat_of(late.id))[0]
    hands[late.id] = await select(late, hands[late.id], [card])  # a fresh token, 10 min younger
    await world.env.settle()
    await world.restart()
    await world.env.settle()
    assert world.bot.hands.restored_count == 3
    # 14 minutes after their `My hand`, the restored hands make their token's last edit.
    await world.env.advance_time(4 * 60 + 30)
    await world.env.settle()
    for pid, person in by_id.items():
        shown = current_message(world, person, hands[pid])
        assert (words.HAND_RETIRED in said(shown)) == (pid != late.id), said(shown)
    assert [h.user_id for h in await world.store.live_hands()] == [late.id]
