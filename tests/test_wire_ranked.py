"""Ranked play on the wire (issue #25, docs/RATING.md): the real bot (`python -m bot`, a
subprocess) against the loopback fake Discord.

* Two people play two ranked games at one table: afterwards `/tienlen rank` of each shows the
  rating and the change the last game-over post announced, and `/leaderboard by: rating` lists
  them in rating order; then a casual table's game changes no rating and its post has none.
* The bot is SIGKILLed inside the settlement of a ranked game (after its last play, before the
  settlement commits): the restarted bot settles it, and the rating changed exactly once.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import signal
import sqlite3
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.support.fake_discord import FakeDiscord, StoredMessage
from tests.support.wire import bot_env, connected, kill, start_bot, until_board
from tests.test_wire_table_life import click, data_check, open_with, play_to_the_end

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL"),
              pytest.mark.slow]

#: seconds a game may take (a loaded CI machine plays slowly; the game ends as soon as it does)
PLAY_S = 240
CHANGE = re.compile(r"<@(\d+)>: ([\d,]+) → ([\d,]+) \(([+-]?[\d,]+)\)")


def _num(text: str) -> int:
    return int(text.replace(",", ""))


def posts(fake: FakeDiscord, channel: int) -> list[StoredMessage]:
    return [m for m in fake.channel_messages(channel) if m.embeds and str(
        m.embeds[0].get("title") or "").startswith("Game over — table")]


def announced(post: StoredMessage) -> dict[int, tuple[int, int, int]]:
    """The post's rating block: user -> (before, after, change)."""
    text = str(post.embeds[0].get("description") or "")
    return {int(u): (_num(b), _num(a), _num(c)) for u, b, a, c in CHANGE.findall(text)}


def ratings(db_path: Path) -> dict[tuple[int, int], tuple[int, int]]:
    """(guild, user) -> (display, games)."""
    with sqlite3.connect(db_path) as db:
        return {(int(g), int(u)): (int(d), int(n)) for g, u, d, n in db.execute(
            "SELECT guild_id, user_id, display, games FROM ratings")}


async def next_post(fake: FakeDiscord, channel: int, seen: int) -> StoredMessage:
    await fake.wait_until(lambda: len(posts(fake, channel)) > seen, 20)
    return posts(fake, channel)[seen]


async def test_two_ranked_games_rank_and_ladder_then_a_casual_game(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    alice, bob = fake.user("alice"), fake.user("bob")
    db_path = tmp_path / "wire.sqlite3"
    # Text boards (no pictures): this test is about ratings, and a busy machine draws slowly.
    proc = await start_bot(tmp_path, bot_env(fake, db_path, token, CARD_PICTURES="false"))
    try:
        await connected(fake)
        table = await open_with(fake, alice, channel)  # ranked: the server's default
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        assert "Ranked" in board.text()
        joined = await click(fake, bob, board, f"tl:b:{table}:join")
        assert joined.callback_type == 7, joined.callback_data
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 2)
        await click(fake, alice, board, f"tl:b:{table}:start")
        await play_to_the_end(fake, channel, table, [alice, bob], timeout=PLAY_S)
        first = announced(await next_post(fake, channel, 0))
        assert set(first) == {alice.id, bob.id}
        assert all(before == 1000 and change != 0 for before, _, change in first.values())
        # Play again, both ready: the second ranked game starts from the first one's ratings.
        board, _ = await until_board(fake, channel, lambda v: v.phase == "over")
        for who in (alice, bob):
            await click(fake, who, board, f"tl:b:{table}:again")
        await until_board(fake, channel, lambda v: v.phase == "playing")
        await play_to_the_end(fake, channel, table, [alice, bob], timeout=PLAY_S)
        second = announced(await next_post(fake, channel, 1))
        for user, (before, after, change) in second.items():
            assert before == first[user][1] and after - before == change
        stored = ratings(db_path)
        guild = fake.guild_id
        for who in (alice, bob):
            display, games = stored[(guild, who.id)]
            assert (display, games) == (second[who.id][1], 2)
            rank = await (await fake.slash(who, "tienlen", "rank", channel=channel)).response(5)
            text = str((rank.callback_data or {}).get("content"))
            assert rank.ephemeral, rank.callback_data
            assert f"{display:,}" in text, text
            change = second[who.id][2]
            shown = f"+{change:,}" if change > 0 else f"-{abs(change):,}"
            assert f"last game: {shown}" in text, text
        ladder = await (await fake.slash(alice, "leaderboard", None, {"by": "rating"},
                                         channel=channel)).response(5)
        assert not ladder.ephemeral, ladder.callback_data
        lines = str(ladder.callback_data["embeds"][0]["description"]).splitlines()  # type: ignore[index]
        order = [int(m) for m in re.findall(r"<@(\d+)>", "\n".join(lines))]
        by_rating = sorted((alice.id, bob.id), key=lambda u: (-stored[(guild, u)][0], u))
        assert order == by_rating, lines
        assert lines[0] == "*Provisional (fewer than 10 ranked games):*"  # 2 games each

        # A casual table: its game changes no rating and its post has no rating block.
        stopped = await (await fake.slash(alice, "tienlen", "stop", channel=channel)).response(5)
        assert stopped.ephemeral, stopped.callback_data  # the board tells the channel
        opened = await (await fake.slash(alice, "tienlen", "start", {"ranked": "off"},
                                         channel=channel)).response(5)
        found = re.search(r"Table #(\d+)", str((opened.callback_data or {}).get("content")))
        assert found is not None, opened.callback_data
        casual = int(found.group(1))
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        assert "Casual" in board.text()
        await click(fake, bob, board, f"tl:b:{casual}:join")
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 2)
        await click(fake, alice, board, f"tl:b:{casual}:start")
        await play_to_the_end(fake, channel, casual, [alice, bob], timeout=PLAY_S)
        third = await next_post(fake, channel, 2)
        assert announced(third) == {} and "Rating" not in str(third.embeds[0])
        assert ratings(db_path) == stored
        assert not fake.errors, fake.errors

        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
        assert "3 finished" in data_check(db_path)
    finally:
        await kill(proc)
        await fake.stop()


#: `python -m bot`, unchanged, except that the store kills its own process (SIGKILL) the first
#: time a settlement reaches its commit: the game is over and saved, its settlement not written.
KILLED_AT_COMMIT = textwrap.dedent(
    """
    import os, runpy, signal, sys
    from pathlib import Path
    from data.store import Store

    mark = Path(os.environ["KILL_MARK"])

    def fault(self, point):
        if point == "settle:before_commit" and not mark.exists():
            mark.write_text("killed")
            os.kill(os.getpid(), signal.SIGKILL)

    Store._fault = fault
    sys.argv = ["bot"]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)
    """
)


async def start_killable(tmp_path: Path, env: dict[str, str]) -> asyncio.subprocess.Process:
    with open(tmp_path / "bot.log", "wb") as log:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-c", KILLED_AT_COMMIT, cwd=tmp_path, env=env, stdout=log,
            stderr=log)


async def test_sigkill_inside_settlement_rates_once_after_restart(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    alice = fake.user("alice")
    db_path = tmp_path / "wire.sqlite3"
    mark = tmp_path / "killed"
    env = bot_env(fake, db_path, token, KILL_MARK=str(mark), CARD_PICTURES="false")
    proc = await start_killable(tmp_path, env)
    again: Any = None
    try:
        await connected(fake)
        table = await open_with(fake, alice, channel)
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby")
        chooser = await click(fake, alice, board, f"tl:b:{table}:addai")
        assert chooser.original is not None, chooser.callback_data
        await click(fake, alice, chooser.original, f"tl:ai:{table}:hard")
        board, _ = await until_board(fake, channel, lambda v: v.phase == "lobby" and v.seats == 2)
        await click(fake, alice, board, f"tl:b:{table}:start")
        ended = asyncio.ensure_future(play_to_the_end(fake, channel, table, [alice],
                                                     timeout=PLAY_S))
        # The last play ends the game; its settlement kills the bot before committing.
        assert await asyncio.wait_for(proc.wait(), 120) == -signal.SIGKILL
        ended.cancel()
        assert mark.exists()
        assert ratings(db_path) == {}  # nothing of the settlement was written
        (tmp_path / "again").mkdir()
        again = await start_bot(tmp_path / "again", env)
        # The restarted bot settles the saved, finished game once.
        await fake.wait_until(lambda: len(posts(fake, channel)) >= 1, 60)
        stored = ratings(db_path)
        guild = fake.guild_id
        assert stored[(guild, alice.id)][1] == 1 and stored[(0, alice.id)][1] == 1
        with sqlite3.connect(db_path) as db:
            logged = db.execute("SELECT COUNT(*) FROM rating_changes WHERE user_id = ?",
                                (alice.id,)).fetchone()[0]
        assert logged == 2  # her server rating and her global one, once each
        [post] = posts(fake, channel)
        before, after, change = announced(post)[alice.id]
        assert (before, after) == (1000, stored[(guild, alice.id)][0]) and change == after - 1000
        again.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(again.wait(), 15) == 0
        assert "1 finished" in data_check(db_path)
    finally:
        await kill(proc)
        if again is not None:
            await kill(again)
        await fake.stop()
