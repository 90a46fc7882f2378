"""Card pictures through Discord (SimCord): the board embed shows its picture, the hand carries
its picture, and `/tienlen settings images: off` turns both off for the server."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord
import pytest
from PIL import Image

from cogs.pictures import BoardView, HandView, Pictures
from engine import parse_cards
from tests.support import layout

from .tablekit import board, open_hand, open_table, said, seat_people
from .test_table_flow import people


def _admin(world: Any) -> Any:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


async def _start_two(world: Any) -> list[Any]:
    ps = people(world, 2)
    await open_table(world, ps[0])
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    return ps


async def test_board_and_hand_carry_their_pictures(world: Any) -> None:
    ps = await _start_two(world)
    message = board(world)
    (attachment,) = message.attachments
    assert attachment.filename == "board.png"
    # The V2 layout shows it in a media gallery (SimCord resolves the reference like Discord);
    # the seat list is its description (alt text), so the text leaves the seats out.
    assert layout.is_v2(message) and not message.embeds and not message.content
    (gallery,) = [c for c in layout.walk(message.components)
                  if isinstance(c, discord.MediaGalleryComponent)]
    assert gallery.items[0].media.url in (attachment.url, "attachment://board.png")
    (alt,) = layout.alt_texts(message)
    assert f"1. <@{ps[0].id}> — 13 cards" in alt, alt
    assert "Table #" in (attachment.description or "")
    assert "Stake **10**" in layout.lines(message)[0]  # the stake: in the one head line
    assert "1. <@" not in layout.text(message)  # the seats are the picture's
    assert len(layout.lines(message)) <= 6
    image = Image.open(io.BytesIO(await attachment.read()))
    assert image.size == (840, 560)
    hand = await open_hand(world, ps[0])
    (picture,) = hand.attachments
    assert picture.filename == "hand.png"
    assert Image.open(io.BytesIO(await picture.read())).format == "PNG"


async def test_images_off_gives_text_only_and_on_brings_them_back(world: Any) -> None:
    admin = _admin(world)
    r = await admin.slash(world.channel, "tienlen settings", images="off")
    assert r.ephemeral and "card pictures: **off**" in said(r.response)
    assert (await world.store.get_guild_settings(world.guild.id)).images is False
    ps = await _start_two(world)
    message = board(world)
    assert message.attachments == []
    assert layout.alt_texts(message) == []  # no picture
    assert "Stake" in layout.text(message)  # the full text, seats included
    assert f"1. <@{ps[0].id}> — 13 cards" in layout.text(message)
    assert (await open_hand(world, ps[0])).attachments == []
    r = await admin.slash(world.channel, "tienlen settings", images="on")
    assert "card pictures: **on**" in said(r.response)
    await ps[0].click(board(world), label="Rules")  # any board update
    hand = await open_hand(world, ps[1])
    assert [a.filename for a in hand.attachments] == ["hand.png"]


async def test_a_slow_picture_never_delays_its_answer() -> None:
    """A picture is asked for without waiting: while its drawing (slowed by the test hook) runs
    in a drawing process the answer goes without it, and the drawing, once done, says so."""
    slow = Pictures(workers=1, delay=0.5)
    view = HandView(tuple(parse_cards("3S 4S")))
    done: list[str] = []
    try:
        wanted = slow.want("hand", view, ("hand", 1, 2))
        assert not wanted.ready and wanted.png is None
        slow.on_ready(wanted, done.append)
        assert await slow.wait(wanted, 0.1) == wanted  # still being drawn
        drawn = await slow.wait(wanted, 30)
        assert drawn.png is not None and drawn.png.startswith(b"\x89PNG")
        await asyncio.sleep(0)
        assert done == [wanted.key]
        again = slow.want("hand", HandView(tuple(parse_cards("3S 4S"))), ("hand", 1, 3))
        assert again.png is drawn.png  # the same picture for another message: drawn once
        assert slow.pool is not None and slow.pool.drawn == 1
    finally:
        slow.close()


async def test_start_needs_attach_files_and_external_emoji_only_while_pictures_are_on(
        world: Any) -> None:
    no_pictures = discord.PermissionOverwrite(attach_files=False, use_external_emojis=False)
    channel = world.guild.create_text_channel("plain", overwrites={world.bot.user: no_pictures})
    host = people(world, 1)[0]
    r = await host.slash(channel, "tienlen start")
    text = said(r.response)
    assert r.ephemeral and "Attach Files" in text and "Use External Emojis" in text, text
    assert "Embed Links" not in text
    assert not world.bot.table_service.tables  # no table opened
    admin = _admin(world)
    await admin.slash(world.channel, "tienlen settings", images="off")
    r = await host.slash(channel, "tienlen start")
    assert "is open" in said(r.response), said(r.response)


async def test_pictures_that_cannot_be_drawn_leave_the_messages_as_text(
        world: Any, caplog: pytest.LogCaptureFixture) -> None:
    """A drawing that fails (a font that cannot be read past the fallbacks, or anything else)
    never stops the table: the board and the hand go out as text, and one line is logged."""

    class Broken(Pictures):
        def _draw_board(self, view: BoardView) -> bytes:
            raise OSError("cannot open resource")

        def _draw_hand(self, view: HandView) -> bytes:
            raise OSError("cannot open resource")

    world.bot.pictures = Broken()
    try:
        with caplog.at_level(logging.INFO, "cogs.pictures"):
            ps = await _start_two(world)
            message = board(world)
            assert message.attachments == [] and layout.alt_texts(message) == []
            assert "Stake" in layout.text(message)  # the full text
            hand = await open_hand(world, ps[0])
            assert hand.attachments == [] and "Your hand" in said(hand)
    finally:
        world.bot.pictures.close()
    failures = [r for r in caplog.records
                if r.levelno >= logging.WARNING and r.name.startswith("cogs.pictures")]
    assert len(failures) == 1 and "text only" in failures[0].getMessage()
