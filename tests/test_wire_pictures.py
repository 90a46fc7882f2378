"""A whole game on the wire with card pictures on (the default): the real bot (`python -m bot`,
a subprocess) against the loopback fake Discord. Board updates during the game carry the board
picture once it is drawn (an answer never waits for a drawing: before it, the board is text) and
the embed points at it; no upload re-sends the picture a message shows; the hand shows its
picture and its card buttons carry the card emoji the bot created at start-up."""

from __future__ import annotations

import asyncio
import io
import re
import secrets
import signal
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from benchmarks.load import board_table_id, choose_play, hand_button, hand_cards, read_board
from cogs.pictures import emoji_names
from tests.support.fake_discord import FakeDiscord, StoredMessage, validate
from tests.support.wire import bot_env, kill, play_turn, start_bot, until_board

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM"), pytest.mark.slow]


def _image_of(fake: FakeDiscord, message: StoredMessage, name: str) -> Image.Image:
    (attachment,) = [a for a in message.data["attachments"] if a["filename"] == name]
    return Image.open(io.BytesIO(fake.attachment_bytes[int(attachment["id"])]))


async def _act_after_deleting_the_board(fake: FakeDiscord, me: object, board: StoredMessage,
                                       table: int) -> None:
    """Open my hand, then someone deletes the board; I play my lowest card or pass, so the
    bot's next board edit finds no message and posts a new board (with its picture)."""
    opened = await (await fake.click(me, board, f"tl:b:{table}:hand")).response(5)  # type: ignore[arg-type]
    hand = opened.original
    assert hand is not None
    fake._delete_message(board)
    lead = "you lead" in hand.text()
    choice = choose_play([c for c, _ in hand_cards(hand)], None) if lead else None
    if choice is not None:
        for card in choice:
            button = next(b for c, b in hand_cards(hand) if c == card)
            await (await fake.click(me, hand, button["custom_id"])).response(5)  # type: ignore[arg-type]
        op = "play"
    else:
        op = "pass"
    button = hand_button(hand, op)
    assert button is not None, hand.text()
    await (await fake.click(me, hand, button["custom_id"])).response(5)  # type: ignore[arg-type]


async def test_a_game_with_pictures_over_the_wire(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    updates: list[tuple[str, list[str], str | None]] = []  # phase, attachments, gallery image

    def watch(message: StoredMessage) -> None:
        if board_table_id(message) is None:
            return
        # the V2 layout shows the picture in a media gallery, resolved to the attachment
        media = [m for m, _ in validate.media_references(message.components)]
        image = media[0].get("url") if media else None
        names = [a["url"] for a in message.data.get("attachments") or []]
        updates.append((read_board(message).phase, names, image))

    fake.message_listeners.append(watch)
    env = bot_env(fake, tmp_path / "wire.sqlite3", token)
    log_path = tmp_path / "bot.log"
    proc = await start_bot(tmp_path, env)
    try:
        await asyncio.wait_for(fake.commands_synced.wait(), 30)
        await fake.wait_ready(30)
        await fake.wait_until(lambda: len(fake.application_emojis) == 53, 30)
        assert {e["name"] for e in fake.application_emojis.values()} == set(emoji_names())

        opened = await (await fake.slash(me, "tienlen", "start", channel=channel)).response(5)
        table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        assert board.data["attachments"] == []  # no picture before the game
        chooser = await (await fake.click(me, board, f"tl:b:{table}:addai")).response(5)
        assert chooser.original is not None
        await (await fake.click(me, chooser.original, f"tl:ai:{table}:normal")).response(5)
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 2)
        await asyncio.sleep(0.3)
        started = await (await fake.click(me, board, f"tl:b:{table}:start")).response(5)
        assert started.callback_type == 7, started.callback_data
        while read_board(board).phase == "over":  # an instant-win deal (deals are not seeded)
            again = await (await fake.click(me, board, f"tl:b:{table}:again")).response(5)
            assert again.callback_type == 7, again.callback_data

        # The hand: its picture above the buttons, card emoji on the card buttons.
        shown = await (await fake.click(me, board, f"tl:b:{table}:hand")).response(5)
        hand = shown.original
        assert hand is not None and hand.ephemeral
        # The answer never waits for a drawing: a picture not drawn yet (the drawing process
        # may still be starting) comes in a later edit of the same message.
        await fake.wait_until(lambda: bool(hand.data["attachments"]), 30)
        assert _image_of(fake, hand, "hand.png").format == "PNG"
        cards = hand_cards(hand)
        assert cards
        for card, button in cards:
            assert button["emoji"]["name"] == "tl_" + card.code.lower(), button
            assert int(button["emoji"]["id"]) in fake.application_emojis

        first_board: int | None = None
        deadline = time.monotonic() + 240
        while True:
            board, view = await until_board(
                fake, channel, lambda v: v.phase == "over" or v.turn_user == me.id, timeout=20
            )
            if view.phase == "over":
                break
            if first_board is None:
                first_board = board.id
                await _act_after_deleting_the_board(fake, me, board, table)
            else:
                await play_turn(fake, me, board, view, table)
            assert time.monotonic() < deadline, "the game did not end within 240 s"
            try:  # the board moves on; if not (a busy CI, the board a moment behind), play again
                await fake.wait_until(
                    lambda b=board, e=board.edit_count: (
                        b.deleted or fake.channel_messages(channel)[-1:] != [b]
                        or b.edit_count > e
                    ),
                    10,
                )
            except TimeoutError:
                continue
        boards = {m.id for m in fake.channel_messages(channel) if board_table_id(m) is not None}
        assert boards and first_board not in boards  # a new board was posted after the delete
        in_game = [(atts, image) for phase, atts, image in updates if phase in ("playing", "over")]
        pictured = [(atts, image) for atts, image in in_game if atts]
        assert len(pictured) >= 3
        for attachments, image in in_game:  # a picture not drawn yet: text, never a bad link
            assert (attachments, image) == ([], None) or (
                len(attachments) == 1 and image == attachments[0]), (attachments, image)
        assert in_game[-1][0], "the final board shows its picture"
        # No picture twice: no upload ever re-sent the picture a message already showed.
        assert fake.uploads_total > 0 and fake.reuploads_total == 0
        final = _image_of(fake, board, "board.png")
        assert final.size == (840, 560)
        assert len(fake.attachment_bytes[int(board.data["attachments"][0]["id"])]) <= 60_000
        assert "Table #" in board.data["attachments"][0].get("description", "")
        gone = f"/messages/{first_board} -> 404"  # the edits of the deleted board, expected
        assert not [e for e in fake.errors if gone not in e], fake.errors
        assert not fake.unknown_routes, fake.unknown_routes

        proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), 15)
        output = log_path.read_text(errors="replace")
        assert code == 0, output
        assert " ERROR " not in output and "Traceback" not in output, output
        assert "card emoji ready: 0 present, 53 created" in output
    finally:
        await kill(proc)
        await fake.stop()
