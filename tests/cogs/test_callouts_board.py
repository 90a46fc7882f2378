"""Call-outs on the board through SimCord: a seat down to its last card is shouted on the board
in the same message that shows the move (no message of its own), in the table's language."""

from __future__ import annotations

from typing import Any

import pytest

from cogs.tables import TablePhase

from .tablekit import board, board_text, bot_messages, open_table, said, seat_people, take_turn


@pytest.mark.no_cover
async def test_last_card_is_called_out_on_the_board_in_the_same_message(world: Any) -> None:
    ps = [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(2)]
    by_id = {p.id: p for p in ps}
    live = await open_table(world, ps[0], options="anti_feed=on no_two_last=on")
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    board_id = board(world).id
    messages = len(bot_messages(world))
    called: set[int] = set()
    for _ in range(200):
        if live.phase is not TablePhase.PLAYING:
            break
        await take_turn(world, live, by_id)
        assert live.game is not None
        text = board_text(world)
        for seat, count in enumerate(live.game.card_counts):
            user = live.seats[seat].user_id
            if count == 1 and seat not in called:
                assert f"📣 <@{user}>: last card!" in text, text
                called.add(seat)
        assert board(world).id == board_id  # the same board message, edited
        if live.phase is TablePhase.PLAYING:  # (the game-over post is the end's own message)
            assert len(bot_messages(world)) == messages  # no message of its own
    assert called, "nobody reached a last card in this seeded game"
    assert live.phase is TablePhase.FINISHED


async def test_the_hands_play_stays_disabled_for_going_out_on_a_2(world: Any) -> None:
    from engine import Game

    from .tablekit import button, open_hand, select

    ps = [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(2)]
    live = await open_table(world, ps[0], options="no_two_last=on")
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    assert live.game is not None
    game = Game.new(live.rules, live.game.players, hands=["3S 9C", "2H"], leader=0)
    game.play(0, "3S")
    live.game = game  # a position where seat 1 could only go out on a 2
    seat = 1
    person = ps[seat] if live.seats[seat].user_id == ps[seat].id else ps[0]
    hand = await open_hand(world, person)
    chosen = await select(person, hand, game.hand(seat))
    assert button(chosen, "Play").disabled
    assert "but you may not go out on a 2 at this table." in said(chosen), said(chosen)
