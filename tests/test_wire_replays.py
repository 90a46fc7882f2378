"""History, the replay viewer and Share on the wire: the real bot (`python -m bot`, a
subprocess) against the loopback fake Discord, after a whole game against a computer player."""

from __future__ import annotations

import asyncio
import io
import re
import secrets
import sys
import time
from pathlib import Path

import pytest
from PIL import Image

from benchmarks.load import read_board
from tests.support.fake_discord import FakeDiscord, StoredMessage
from tests.support.wire import bot_env, kill, play_turn, start_bot, until_board

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM"), pytest.mark.slow]


def _ids(message: StoredMessage) -> list[str]:
    return message.custom_ids()


def _title(message: StoredMessage) -> str:
    return str(message.embeds[0].get("title", ""))


async def test_history_replay_and_share_over_the_wire(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    me = fake.user("alice")
    proc = await start_bot(tmp_path, bot_env(fake, tmp_path / "wire.sqlite3", token))
    try:
        await asyncio.wait_for(fake.commands_synced.wait(), 30)
        await fake.wait_ready(30)
        opened = await (await fake.slash(me, "tienlen", "start", channel=channel)).response(5)
        table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        chooser = await (await fake.click(me, board, f"tl:b:{table}:addai")).response(5)
        assert chooser.original is not None
        await (await fake.click(me, chooser.original, f"tl:ai:{table}:easy")).response(5)
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 2)
        await asyncio.sleep(0.3)
        await (await fake.click(me, board, f"tl:b:{table}:start")).response(5)
        deadline = time.monotonic() + 120
        while True:
            board, view = await until_board(
                fake, channel, lambda v: v.phase == "over" or v.turn_user == me.id, timeout=30)
            if view.phase == "over":
                break
            await play_turn(fake, me, board, view, table)
            assert time.monotonic() < deadline, "the game did not end within 120 s"
            try:  # the board moves on; if not (a busy CI, the board a moment behind), look again
                await fake.wait_until(
                    lambda b=board, e=board.edit_count: (
                        b.deleted or fake.channel_messages(channel)[-1:] != [b]
                        or b.edit_count > e),
                    10)
            except TimeoutError:
                continue
        assert read_board(board).phase == "over"

        # History lists the game, with its Replay button.
        shown = await (await fake.slash(me, "tienlen", "history", channel=channel)).response(5)
        page = shown.original
        assert page is not None and page.ephemeral
        replay_ids = [c for c in _ids(page) if c.startswith("tl:rp:")]
        assert len(replay_ids) == 1, _ids(page)
        game = int(replay_ids[0].split(":")[2])
        assert f"Game #{game}" in str(page.embeds[0].get("description"))

        # The viewer: step 0, ⏭ to the end, ◀, ⏮ back to the start.
        viewer = (await (await fake.click(me, page, replay_ids[0])).response(5)).original
        assert viewer is not None and viewer.ephemeral
        match = re.search(r"step 0 of (\d+)", _title(viewer))
        assert match, _title(viewer)
        last = int(match[1])
        assert f"tl:rv:{game}:{last}:l" in _ids(viewer)
        if last < 2:  # the deal (not seeded here) ended at once: an instant win, nothing to step
            pytest.skip("the deal was an instant win: no steps to replay")
        await (await fake.click(me, viewer, f"tl:rv:{game}:1:n")).response(5)
        assert "step 1 of" in _title(viewer)
        await (await fake.click(me, viewer, f"tl:rv:{game}:{last}:l")).response(5)
        assert f"step {last} of {last}" in _title(viewer)
        assert "Game over" in str(viewer.embeds[0].get("description"))
        await (await fake.click(me, viewer, f"tl:rv:{game}:{last - 1}:p")).response(5)
        assert f"step {last - 1} of" in _title(viewer)
        await (await fake.click(me, viewer, f"tl:rv:{game}:0:f")).response(5)
        assert "step 0 of" in _title(viewer)

        # Share: one public post with one animated attachment.
        def replays() -> list[StoredMessage]:  # (the game-over post may land late)
            return [m for m in fake.channel_messages(channel)
                    if f"Replay of game #{game}" in (m.content or "")]

        assert replays() == []
        shared = await (await fake.click(me, viewer, f"tl:rs:{game}")).response(5)
        await fake.wait_until(lambda: len(replays()) == 1, 20)
        (post,) = replays()
        assert not post.ephemeral
        (attachment,) = post.data["attachments"]
        assert attachment["filename"] == "replay.gif"
        data = fake.attachment_bytes[int(attachment["id"])]
        gif = Image.open(io.BytesIO(data))
        assert gif.format == "GIF" and gif.n_frames >= 3 and len(data) <= 300_000
        await fake.wait_until(lambda: any(  # the deferred answer's first followup edits it
            m is not None and "posted" in m.content for m in [shared.original, *shared.followups]),
            10)
        assert len(replays()) == 1  # posted once
    finally:
        await kill(proc)
        await fake.stop()
