"""After a SIGKILL and a restart, the hands on screen carry on: the real bot (`python -m bot`, a
subprocess) against the loopback fake Discord, on SQLite.

Four people open their hands and two moves are played. Ten minutes pass (by the fake's clock)
and everyone but one person who has not moved presses a card on their hand (fresh tokens). The
bot is killed with SIGKILL, the fake's clock moves on 5.5 minutes (the one person's token is now
past its 15 minutes, the others' are not) and the bot is started again. Every hand whose token
is still usable is redrawn at once, without a press, and follows every later move; the expired
one is not edited (no 401 at all), and its next press says it had stopped updating. Finally
no interaction token the fake issued appears in the bot's log (DEBUG level), its metrics page
or `data.check`'s output."""

from __future__ import annotations

import asyncio
import re
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import aiohttp
import pytest

from benchmarks.load import choose_play, hand_button, hand_cards
from cogs import words
from tests.support import layout
from tests.support.fake_discord import FakeDiscord, FakeUser, StoredMessage
from tests.support.wire import REPO_ROOT, bot_env, connected, kill, newest_board, start_bot
from tests.test_wire_live_hand import YOUR_TURN, enabled, press, state_of, to_beat

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGKILL"),
              pytest.mark.slow]

_DRAWING = re.compile(r"^tl:h:\d+:(\d+):")


def drawing(hand: StoredMessage) -> int | None:
    """The drawing number the hand's buttons carry."""
    for custom_id in hand.custom_ids():
        match = _DRAWING.match(custom_id)
        if match:
            return int(match.group(1))
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def unselect(hand: StoredMessage, pressed: str) -> str:
    """The custom id, on the hand as drawn now, of the card button ``pressed`` was."""
    op = pressed.rsplit(":", 1)[1]
    return next(c for c in hand.custom_ids() if c.endswith(":" + op))


async def move(fake: FakeDiscord, mover: FakeUser, hand: StoredMessage) -> None:
    """Play the lowest cards that beat the table from the hand, else pass."""
    choice = choose_play([card for card, _ in hand_cards(hand)], to_beat(hand))
    if choice is not None:
        for card in choice:
            button = next(c for k, c in hand_cards(hand) if k == card)
            await press(fake, mover, hand, button["custom_id"])
    if choice is not None and enabled(hand, "play"):
        op = "play"
    else:
        if choice is not None:
            await press(fake, mover, hand, hand_button(hand, "clear")["custom_id"])  # type: ignore[index]
        op = "pass"
    await press(fake, mover, hand, hand_button(hand, op)["custom_id"])  # type: ignore[index]
    if words.HAND_EXPIRED in hand.text():  # a stale hand: this press refreshed it
        await press(fake, mover, hand, hand_button(hand, op)["custom_id"])  # type: ignore[index]
    assert "You p" in hand.text(), hand.text()


async def test_hands_follow_again_after_a_sigkill(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    people = [fake.user(name) for name in ("alice", "bob", "carol", "dave")]
    alice = people[0]
    db = tmp_path / "wire.sqlite3"
    port = free_port()
    env = bot_env(fake, db, token, LOG_LEVEL="DEBUG", METRICS_PORT=str(port))
    logs: list[str] = []
    proc = await start_bot(tmp_path, env)
    try:
        await connected(fake)
        opened = await (await fake.slash(alice, "tienlen", "start", channel=channel,
                                         options={"turn_reminder": 0})).response(5)
        table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]
        await fake.wait_until(lambda: newest_board(fake, channel) is not None, 5)
        for person in people[1:]:
            await asyncio.sleep(0.25)
            b = newest_board(fake, channel)
            assert b is not None
            assert (await (await fake.click(person, b, f"tl:b:{table}:join")).response(5)
                    ).callback_type == 7
        b = newest_board(fake, channel)
        assert b is not None
        assert (await (await fake.click(alice, b, f"tl:b:{table}:start")).response(5)
                ).callback_type == 7

        for _ in range(5):  # a deal may end at once (an instant win): deal again
            await asyncio.sleep(0.3)
            b = newest_board(fake, channel)
            assert b is not None
            if f"tl:b:{table}:hand" in b.custom_ids():
                break
            if f"tl:b:{table}:again" in b.custom_ids():
                await (await fake.click(alice, b, f"tl:b:{table}:again")).response(5)

        hands: dict[int, StoredMessage] = {}
        for person in people:
            b = newest_board(fake, channel)
            assert b is not None
            shown = await (await fake.click(person, b, f"tl:b:{table}:hand")).response(5)
            assert shown.original is not None and shown.original.ephemeral
            hands[person.id] = shown.original

        def on_turn() -> FakeUser | None:
            mine = [p for p in people if YOUR_TURN in hands[p.id].text()]
            return mine[0] if len(mine) == 1 else None

        async def everyone_follows(live: list[FakeUser]) -> None:
            """The hands of ``live`` agree on whose turn it is and the card counts."""
            def agree() -> bool:
                states = []
                for person in live:
                    turn, counts = state_of(hands[person.id])
                    states.append((str(person.id) if turn == "me" else turn, counts))
                return len(set(states)) == 1 and states[0][0] != "?"
            try:
                await fake.wait_until(agree, 10)
            except TimeoutError:
                shown = "\n---\n".join(hands[p.id].text() for p in live)
                raise AssertionError(f"the hands did not follow:\n{shown}") from None

        movers: list[FakeUser] = []
        for _ in range(2):  # two moves before the kill
            await fake.wait_until(lambda: on_turn() is not None, 10)
            mover = on_turn()
            assert mover is not None
            await move(fake, mover, hands[mover.id])
            movers.append(mover)
            await everyone_follows(people)
        # Ten minutes pass; everyone but `stale` (who has not pressed since `My hand`) presses
        # a card twice: their hands now go through tokens ten minutes younger than stale's.
        stale = next(p for p in reversed(people) if p not in movers)
        live = [p for p in people if p is not stale]
        fake.advance(10 * 60)
        for person in live:
            first = hand_cards(hands[person.id])[0][1]["custom_id"]
            await press(fake, person, hands[person.id], first)
            await press(fake, person, hands[person.id], unselect(hands[person.id], first))

        await asyncio.sleep(0.5)  # the hands' store writes are in the background
        proc.send_signal(signal.SIGKILL)
        await proc.wait()
        logs.append((tmp_path / "bot.log").read_text(errors="replace"))
        fake.advance(5.5 * 60)  # stale's token: 15.5 minutes old; the others': 5.5
        before = {p.id: drawing(hands[p.id]) for p in people}
        stale_before = (hands[stale.id].text(), hands[stale.id].custom_ids())

        proc = await start_bot(tmp_path, env)
        started = time.perf_counter()
        # Without a press, every usable hand is drawn again (a new drawing number) at once.
        await fake.wait_until(lambda: all(drawing(hands[p.id]) != before[p.id] for p in live),
                              20)
        print(f"\nhands redrawn {time.perf_counter() - started:.2f} s after the restart "
              "(process start included)")
        await everyone_follows(live)
        await connected(fake)
        await asyncio.sleep(0.5)
        assert (hands[stale.id].text(), hands[stale.id].custom_ids()) == stale_before
        # stale's hand stopped updating: a press brings it back, and says so.
        first = hand_cards(hands[stale.id])[0][1]["custom_id"]
        answer = await press(fake, stale, hands[stale.id], first)
        assert words.HAND_EXPIRED in layout.text(answer.callback_data)
        await press(fake, stale, hands[stale.id], unselect(hands[stale.id], first))
        await everyone_follows(people)

        for _ in range(4):  # later moves: every hand follows with no press of its owner's
            await fake.wait_until(lambda: on_turn() is not None
                                  or "Game over" in hands[alice.id].text(), 10)
            if "Game over" in hands[alice.id].text():
                break
            mover = on_turn()
            assert mover is not None
            await move(fake, mover, hands[mover.id])
            await everyone_follows(people)

        assert fake.status_counts[401] == 0, fake.errors  # no edit through an expired token
        assert not fake.unknown_routes, fake.unknown_routes

        async with aiohttp.ClientSession() as session, session.get(
                f"http://127.0.0.1:{port}/metrics") as response:
            metrics = await response.text()
        assert re.search(r"^tienlen_live_hands_restored_total 3\.0$", metrics, re.M), metrics
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 15) == 0
        logs.append((tmp_path / "bot.log").read_text(errors="replace"))
        check = subprocess.run([sys.executable, "-m", "data.check", str(db)], cwd=REPO_ROOT,
                               capture_output=True, text=True, check=False)
        assert check.returncode == 0, check.stdout + check.stderr
        assert "live hands kept" in check.stdout
        assert "resumed" in logs[-1] and "live hands" in logs[-1], logs[-1]
        issued = {h.token for h in fake._handle_order} | set(fake._expired_tokens)
        assert len(issued) > 10
        shown = "\n".join([*logs, metrics, check.stdout, check.stderr])
        leaked = [t for t in issued if t in shown or t.split(".", 1)[1] in shown]
        assert leaked == [], "interaction tokens leaked into the log, metrics or data.check"
    finally:
        await kill(proc)
        await fake.stop()
