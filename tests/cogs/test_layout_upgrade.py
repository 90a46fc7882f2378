"""The move to Discord's V2 layout keeps old tables working: a board drawn before it (a classic
message: content and embed) is replaced by a new V2 board, never edited into V2, and says it
moved in its own classic form; the live hands kept from before are not edited into V2 after the
first start with the layout (their next press brings a new hand); the bot's own V2 board and
hands pass SimCord's checks of Discord's limits."""

from __future__ import annotations

from typing import Any

import discord

from cogs import words
from cogs.tienlen import _layout
from cogs.tienlen._views import BoardButton, SentView
from tests.support import layout

from .tablekit import board, open_hand, open_table, said, seat_people
from .test_live_hand import people, started


async def _classic_board(world: Any, live: Any) -> discord.Message:
    """A board as the bot drew it before the V2 layout: an embed and classic buttons, posted
    before the layout was first used."""
    channel = world.bot.get_channel(world.channel.id)
    view = SentView()
    for action in ("join", "start"):
        view.add_item(BoardButton(live.id, action, label=action.capitalize()))
    embed = discord.Embed(title=f"Tiến Lên — table #{live.id}", description="Seats (2/4)")
    message = await channel.send(embed=embed, view=view)
    await world.bot.table_service.set_board_message(live, message.id)
    posted = live.table.board_posted_at
    world.bot.hands.layout_since = posted.timestamp() + 1  # the upgrade came after it
    await world.env.settle()
    return message  # type: ignore[no-any-return]


def _message(world: Any, message_id: int) -> discord.Message:
    for m in world.channel.history():
        if m.id == message_id:
            return m  # type: ignore[no-any-return]
    raise AssertionError("no such message")


async def test_a_classic_board_is_replaced_by_a_v2_board_not_edited(world: Any) -> None:
    host, guest = people(world, 2)
    live = await open_table(world, host)
    await seat_people(world, [guest])
    old = await _classic_board(world, live)
    assert not layout.is_v2(old)
    result = await host.click(old, label="Start")  # a press on the classic board
    assert result.deferred  # answered without editing it into V2
    await world.env.settle()
    assert live.playing
    new = board(world)
    assert new.id != old.id and layout.is_v2(new)
    assert "to lead" in layout.text(new) or "to give back" in layout.text(new)
    moved = _message(world, old.id)
    assert not layout.is_v2(moved)  # still classic: its content says it moved
    assert moved.content == words.BOARD_MOVED and not moved.embeds and not moved.components
    assert live.table.board_message_id == new.id


async def test_the_first_start_with_the_layout_does_not_edit_kept_classic_hands(
        world: Any) -> None:
    by_id, _ = await started(world, 3, turn_seconds=600)
    for person in by_id.values():
        await open_hand(world, person)
    await world.env.settle()
    assert len(await world.store.live_hands()) == 3
    async with world.store._write() as db:  # as before the upgrade: the layout never used
        await db.execute("DELETE FROM bot_meta WHERE key = ?", (_layout.LAYOUT_SINCE,))
    await world.restart()
    await world.env.settle()
    assert world.bot.hands.classic_kept
    assert world.bot.hands.restored_count == 0
    assert await world.store.live_hands() == []  # no edit through them: forgotten
    person = next(iter(by_id.values()))
    fresh = await open_hand(world, person)  # a new hand, in the V2 layout, live again
    assert layout.is_v2(fresh.message) and "**Your hand**" in said(fresh)
    await world.restart()  # the next start: hands drawn since are V2 and restored
    await world.env.settle()
    assert not world.bot.hands.classic_kept and world.bot.hands.restored_count == 1
