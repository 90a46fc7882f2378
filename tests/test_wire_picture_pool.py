"""Pictures drawn in the bot's process pool, over the wire: the real bot (`python -m bot`, a
subprocess, `PICTURE_WORKERS=1`) against the loopback fake Discord, which keeps, drops and refuses
attachments by id as Discord does and counts every upload.

- No picture twice: a hand edit whose picture did not change uploads nothing and keeps the
  attachment (same id); no upload anywhere re-sends the picture its message showed.
- An answer never waits for a drawing: with every drawing slowed by the test hook
  (`PICTURE_TEST_DELAY`), each press is answered well within Discord's 3 s and the picture comes
  in a later edit; a card press keeps the hand's picture (it shows the cards held, not the
  selection) and brings no second edit.
- A play's picture is drawn ahead: once the selection is one Play would take, the hand's
  picture after the play is drawn, so the answer to Play carries it (no second edit).
- A drawing process killed mid-job is replaced, the job drawn again: the table carries on and
  the picture arrives.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import os
import re
import secrets
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from benchmarks.load import choose_play, hand_button, hand_cards, read_board
from engine import Card, parse_cards
from tests.support.fake_discord import FakeDiscord, InteractionHandle, StoredMessage
from tests.support.wire import bot_env, connected, kill, start_bot, until_board

pytestmark = [pytest.mark.skipif(sys.platform != "linux", reason="reads /proc, uses SIGKILL"),
              pytest.mark.slow]

ANSWER_LIMIT = 3.0  # Discord's deadline for an interaction's answer


def _hand_picture(fake: FakeDiscord, message: StoredMessage) -> tuple[int, str] | None:
    """(attachment id, digest of its bytes) of the hand picture the message shows."""
    for attachment in message.data.get("attachments") or []:
        if attachment["filename"] == "hand.png":
            aid = int(attachment["id"])
            return aid, hashlib.blake2b(fake.attachment_bytes[aid], digest_size=16).hexdigest()
    return None


async def _press(fake: FakeDiscord, me: Any, message: StoredMessage,
                 custom_id: str) -> tuple[InteractionHandle, float]:
    start = time.monotonic()
    handle = await (await fake.click(me, message, custom_id)).response(5)
    return handle, time.monotonic() - start


def _to_beat(hand: StoredMessage) -> list[Card] | None:
    for line in hand.text().splitlines():
        if line.startswith("To beat: "):
            rest = line[len("To beat: "):]
            return None if rest.startswith("nothing") else parse_cards(rest.split(" by ", 1)[0])
    return None


async def _take_turn(fake: FakeDiscord, me: Any, board: StoredMessage, table: int,
                     answers: list[float]) -> None:
    """Open my hand and, if it is my turn there, play the lowest cards that beat what the hand
    says is on the table, else pass (what the hand shows is the truth: the board may lag)."""
    opened, took = await _press(fake, me, board, f"tl:b:{table}:hand")
    answers.append(took)
    hand = opened.original
    if hand is None or "Your turn" not in hand.text():
        return
    choice = choose_play([card for card, _ in hand_cards(hand)], _to_beat(hand))
    for card in choice or []:
        button = next((b for c, b in hand_cards(hand) if c == card), None)
        if button is None:
            return  # the hand moved on meanwhile
        _, took = await _press(fake, me, hand, button["custom_id"])
        answers.append(took)
    for op in ("play", "pass") if choice else ("pass",):
        button = hand_button(hand, op)
        if button is not None and not button.get("disabled"):
            _, took = await _press(fake, me, hand, button["custom_id"])
            answers.append(took)
            return


async def _open_table(fake: FakeDiscord, me: Any, channel: int) -> tuple[int, StoredMessage]:
    """A table with me and one computer, its game started; the table and its board."""
    opened = await (await fake.slash(me, "tienlen", "start", channel=channel)).response(5)
    table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]
    board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
    chooser = await (await fake.click(me, board, f"tl:b:{table}:addai")).response(5)
    assert chooser.original is not None
    await (await fake.click(me, chooser.original, f"tl:ai:{table}:normal")).response(5)
    board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 2)
    await asyncio.sleep(0.3)
    started = await (await fake.click(me, board, f"tl:b:{table}:start")).response(5)
    assert started.callback_type == 7, started.callback_data
    while read_board(board).phase == "over":  # an instant-win deal (deals are not seeded)
        await (await fake.click(me, board, f"tl:b:{table}:again")).response(5)
    return table, board


def _board_picture(board: StoredMessage) -> int | None:
    """The attachment id of the picture the board shows."""
    for attachment in board.data.get("attachments") or []:
        if attachment["filename"] == "board.png":
            return int(attachment["id"])
    return None


def _workers(bot_pid: int) -> list[int]:
    """The bot's drawing processes (its children running cogs.pictures.worker)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read()
        except OSError:
            continue
        if parent == bot_pid and b"cogs.pictures.worker" in command:
            found.append(int(entry))
    return found


async def _stop(proc: asyncio.subprocess.Process, log_path: Path) -> str:
    proc.send_signal(signal.SIGTERM)
    code = await asyncio.wait_for(proc.wait(), 15)
    output = await asyncio.to_thread(log_path.read_text, errors="replace")
    assert code == 0, output
    return output


async def test_a_picture_that_did_not_change_is_kept_not_sent_again(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    seen: dict[int, list[tuple[int, int, tuple[int, str] | None]]] = {}  # hand -> updates

    def watch(message: StoredMessage) -> None:
        if message.ephemeral and "Your hand" in message.text():
            seen.setdefault(message.id, []).append(
                (message.edit_count, message.uploads, _hand_picture(fake, message)))

    fake.message_listeners.append(watch)
    env = bot_env(fake, tmp_path / "wire.sqlite3", token, PICTURE_WORKERS="1")
    proc = await start_bot(tmp_path, env)
    try:
        await connected(fake)
        await fake.wait_until(lambda: len(fake.application_emojis) == 53, 30)
        table, board = await _open_table(fake, me, channel)
        deadline = time.monotonic() + 240  # a busy CI: the game progresses, slowly
        while True:
            board, view = await until_board(
                fake, channel, lambda v: v.phase == "over" or v.turn_user == me.id, timeout=20)
            if view.phase == "over":
                break
            before = board.edit_count
            await _take_turn(fake, me, board, table, [])
            assert time.monotonic() < deadline, "the game did not end within 240 s"
            with contextlib.suppress(TimeoutError):  # (my hand was a moment behind: again)
                await fake.wait_until(lambda b=board, e=before: b.edit_count > e, 10)
        await asyncio.sleep(1.0)  # the last hand refreshes
        kept = 0
        for updates in seen.values():
            for (_, uploads_before, before), (_, uploads, after) in itertools.pairwise(updates):
                if before is not None and after is not None and before[1] == after[1]:
                    # the same picture: the same attachment, no new file
                    assert after[0] == before[0] and uploads == uploads_before, updates
                    kept += 1
        assert kept >= 1, seen  # hands were edited with their picture unchanged
        assert fake.uploads_total > 0 and fake.reuploads_total == 0
        assert not fake.take_refusals()
        output = await _stop(proc, tmp_path / "bot.log")
        assert " ERROR " not in output and "Traceback" not in output, output
        assert not [e for e in fake.errors if "-> 404" not in e], fake.errors
    finally:
        await kill(proc)
        await fake.stop()


async def test_slow_drawings_never_delay_an_answer_and_a_killed_worker_is_replaced(
        tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    env = bot_env(fake, tmp_path / "wire.sqlite3", token, PICTURE_WORKERS="1",
                  PICTURE_TEST_DELAY="1.5", AI_DELAY_SECONDS="0.5")
    proc = await start_bot(tmp_path, env)
    answers: list[float] = []
    try:
        await connected(fake)
        await fake.wait_until(lambda: len(_workers(proc.pid)) == 1, 30)
        table, board = await _open_table(fake, me, channel)
        # My hand: answered at once, as text; its picture follows in an edit.
        opened, took = await _press(fake, me, board, f"tl:b:{table}:hand")
        answers.append(took)
        hand = opened.original
        assert hand is not None and hand.ephemeral
        assert _hand_picture(fake, hand) is None, "the answer waited for a slow drawing"
        await fake.wait_until(lambda: _hand_picture(fake, hand) is not None, 20)
        first = _hand_picture(fake, hand)
        assert first is not None and hand.edit_count >= 1  # it came in a later edit

        # A card pressed: the answer keeps the picture on screen by its id (the picture shows
        # the cards held, not the selection): nothing drawn, nothing uploaded, no second edit.
        uploads, edits = hand.uploads, hand.edit_count
        card = hand_cards(hand)[0][1]
        answer, took = await _press(fake, me, hand, card["custom_id"])
        answers.append(took)
        assert answer.callback_type == 7
        assert _hand_picture(fake, hand) == first and hand.uploads == uploads
        await asyncio.sleep(2.0)  # longer than a drawing takes here: no edit follows
        assert hand.edit_count == edits + 1 and _hand_picture(fake, hand) == first
        clear = hand_button(hand, "clear")
        assert clear is not None
        answer, took = await _press(fake, me, hand, clear["custom_id"])
        answers.append(took)

        # My turn: my action changes the board, whose drawing's process is killed mid-job
        # (each drawing sleeps 1.5 s); the drawing is retried in a new process and the board
        # shows its new picture.
        board, _ = await until_board(fake, channel, lambda v: v.turn_user == me.id, 30)
        await fake.wait_until(lambda: _board_picture(board) is not None, 20)
        (worker,) = _workers(proc.pid)
        shown = _board_picture(board)
        await _take_turn(fake, me, board, table, answers)
        await asyncio.sleep(0.3)
        os.kill(worker, signal.SIGKILL)
        await fake.wait_until(lambda: _board_picture(board) not in (shown, None), 30)
        replacement = _workers(proc.pid)
        assert replacement and worker not in replacement
        assert max(answers) < ANSWER_LIMIT, answers
        assert not fake.take_refusals()
        output = await _stop(proc, tmp_path / "bot.log")
        assert "a drawing process stopped" in output, output
        assert "Traceback" not in output, output
        assert not [e for e in fake.errors if "-> 404" not in e], fake.errors
    finally:
        await kill(proc)
        await fake.stop()


async def test_the_answer_to_play_carries_the_picture_drawn_ahead(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    env = bot_env(fake, tmp_path / "wire.sqlite3", token, PICTURE_WORKERS="1",
                  AI_DELAY_SECONDS="0.5")
    proc = await start_bot(tmp_path, env)
    try:
        await connected(fake)
        await fake.wait_until(lambda: len(_workers(proc.pid)) == 1, 30)
        table, board = await _open_table(fake, me, channel)
        board, _ = await until_board(fake, channel, lambda v: v.turn_user == me.id, 30)
        opened, _ = await _press(fake, me, board, f"tl:b:{table}:hand")
        hand = opened.original
        assert hand is not None and "Your turn" in hand.text()
        await fake.wait_until(lambda: _hand_picture(fake, hand) is not None, 20)
        before = _hand_picture(fake, hand)
        choice = choose_play([card for card, _ in hand_cards(hand)], _to_beat(hand))
        assert choice, hand.text()
        for card in choice:
            button = next(b for c, b in hand_cards(hand) if c == card)
            await _press(fake, me, hand, button["custom_id"])
        assert _hand_picture(fake, hand) == before  # a selection keeps the picture by its id
        await asyncio.sleep(2.0)  # the picture after the play: drawn meanwhile, not sent
        assert _hand_picture(fake, hand) == before
        uploads = hand.uploads
        play = hand_button(hand, "play")
        assert play is not None and not play.get("disabled")
        answer, took = await _press(fake, me, hand, play["custom_id"])
        assert answer.callback_type == 7 and took < ANSWER_LIMIT
        after = _hand_picture(fake, hand)
        # the answer itself brought the new picture: one upload, in the answer
        assert after is not None and after != before and hand.uploads == uploads + 1
        await asyncio.sleep(2.0)  # the computer moves; no edit brings another picture
        assert _hand_picture(fake, hand) == after and hand.uploads == uploads + 1
        assert fake.reuploads_total == 0 and not fake.take_refusals()
        output = await _stop(proc, tmp_path / "bot.log")
        assert "Traceback" not in output, output
    finally:
        await kill(proc)
        await fake.stop()
