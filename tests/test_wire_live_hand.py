"""Four people play a whole game on the wire from the hand message alone: the real bot
(`python -m bot`, a subprocess) against the loopback fake Discord.

Each person presses `My hand` once; after that they only press buttons on the hand message they
were last given, which the bot keeps up to date through the interaction's token. One person
double-clicks Play and later Pass (both clicks sent before the bot answers the first). The test
measures how long after each move every other person's hand shows the new state (content and
enabled buttons) and prints the p95; it checks that no press that was legal when pressed is
refused, that a double click applies once, that a turn reminder notifies only the person on turn
(that it counts the turn down with a Discord timestamp, and that once they act it is edited to a
past-tense line, never deleted: the fake counts deletions of messages that mentioned someone, and
finds none), and that hands whose tokens expired (the fake's clock moved 16
minutes) say so in place on their next press and come back up to date and live. No hand refresh
goes through an expired token: the bot reads Discord's clock from the interactions' ids, and an
edit refused with 401 would count towards Discord's limit of invalid requests."""

from __future__ import annotations

import asyncio
import re
import secrets
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from benchmarks.load import choose_play, hand_button, hand_cards
from cogs import words
from cogs.i18n import words as words_of
from engine import Card, parse_cards
from tests.support import layout
from tests.support.fake_discord import FakeDiscord, FakeUser, InteractionHandle, StoredMessage
from tests.support.wire import bot_env, connected, kill, newest_board, start_bot

pytestmark = [pytest.mark.skipif(sys.platform == "win32", reason="uses SIGTERM"), pytest.mark.slow]

YOUR_TURN = "🟢 **Your turn**"
_TURN = re.compile(r"^<@(\d+)> to (?:play|lead|give back cards)", re.M)
_COUNT = re.compile(r"\*\*Your hand\*\* — table #\d+ · (\d+) cards?")


def to_beat(hand: StoredMessage) -> list[Card] | None:
    for line in hand.text().splitlines():
        if line.startswith("To beat: "):
            rest = line[len("To beat: "):]
            return None if rest.startswith("nothing") else parse_cards(rest.split(" by ", 1)[0])
    return None


def state_of(hand: StoredMessage) -> tuple[str, str]:
    """(whose turn, the play to beat) as a hand shows them."""
    content = hand.text()
    if YOUR_TURN in content:
        turn = "me"
    elif "Game over" in content:
        turn = "over"
    else:
        match = _TURN.search(content)
        turn = match.group(1) if match else "?"
    counts = next((line for line in content.splitlines() if line.startswith("To beat: ")), "")
    return turn, counts


def enabled(hand: StoredMessage, op: str) -> bool:
    button = hand_button(hand, op)
    return button is not None and not button.get("disabled")


def cards_held(hand: StoredMessage) -> int:
    match = _COUNT.search(hand.text())
    assert match is not None, hand.text()
    return int(match.group(1))


async def press(fake: FakeDiscord, who: FakeUser, hand: StoredMessage,
                custom_id: str) -> InteractionHandle:
    answer = await (await fake.click(who, hand, custom_id)).response(5)
    assert answer.callback_type == 7, answer.callback_data  # redrawn in place
    return answer


async def in_play(fake: FakeDiscord, board: Callable[[], StoredMessage | None], table: int,
                  people: list[FakeUser]) -> StoredMessage:
    """The board once a game is in play. The deal is not seeded: one that ends at once (an
    instant win, tới trắng) shows the finished board, and everyone's Play again deals anew."""
    hand, again = f"tl:b:{table}:hand", f"tl:b:{table}:again"
    for _ in range(5):
        await fake.wait_until(lambda: (b := board()) is not None and (
            hand in b.custom_ids() or again in b.custom_ids()), 10)
        b = board()
        assert b is not None
        if hand in b.custom_ids():
            return b
        for person in people:
            ready = await (await fake.click(person, b, again)).response(5)
            assert ready.callback_type == 7, ready.callback_data
    raise AssertionError("five deals in a row ended at once")


async def test_four_people_play_from_the_hand_message_alone(tmp_path: Path) -> None:
    token = f"wire.{secrets.token_hex(16)}"
    fake = FakeDiscord(allowed_tokens={token})
    await fake.start()
    channel = fake.channel("tienlen").id
    people = [fake.user(name) for name in ("alice", "bob", "carol", "dave")]
    env = bot_env(fake, tmp_path / "wire.sqlite3", token)
    log_path = tmp_path / "bot.log"
    proc = await start_bot(tmp_path, env)
    try:
        await connected(fake)
        # Reminders after 2 s of a turn (the smallest useful on a real clock), 60 s turns.
        opened = await (await fake.slash(people[0], "tienlen", "start", channel=channel,
                                         options={"turn_reminder": 2})).response(5)
        table = int(re.search(r"Table #(\d+)", opened.callback_data["content"]).group(1))  # type: ignore[index, union-attr]

        def board() -> StoredMessage | None:
            return newest_board(fake, channel)

        await fake.wait_until(lambda: board() is not None, 5)
        for person in people[1:]:
            await asyncio.sleep(0.25)  # the board is edited at most every 0.2 s
            b = board()
            assert b is not None
            joined = await (await fake.click(person, b, f"tl:b:{table}:join")).response(5)
            assert joined.callback_type == 7, joined.callback_data
        b = board()
        assert b is not None
        started = await (await fake.click(people[0], b, f"tl:b:{table}:start")).response(5)
        assert started.callback_type == 7, started.callback_data
        b = await in_play(fake, board, table, people)

        hands: dict[int, StoredMessage] = {}
        for person in people:  # `My hand`, once each
            b = board()
            assert b is not None
            shown = await (await fake.click(person, b, f"tl:b:{table}:hand")).response(5)
            assert shown.original is not None and shown.original.ephemeral
            hands[person.id] = shown.original

        def on_turn() -> FakeUser | None:
            mine = [p for p in people if YOUR_TURN in hands[p.id].text()]
            return mine[0] if len(mine) == 1 else None

        latencies: list[float] = []
        refused: list[str] = []
        doubles = {"play": False, "pass": False}
        reminded = expired = False
        moves = 0

        async def others_follow(mover: FakeUser, after: StoredMessage) -> None:
            """Every other hand shows the state the mover's hand shows (turn, counts, buttons)."""
            turn, counts = state_of(after)
            if turn == "me":  # the mover won the trick and leads again
                turn = str(mover.id)
            start = time.perf_counter()
            for person in people:
                if person is mover:
                    continue
                hand = hands[person.id]

                def current(h: StoredMessage = hand, me: int = person.id) -> bool:
                    seen_turn, seen_counts = state_of(h)
                    if turn == "over":
                        return seen_turn == "over"
                    want = "me" if turn == str(me) else turn
                    if (seen_turn, seen_counts) != (want, counts):
                        return False
                    if want == "me":
                        return enabled(h, "hint")
                    # Off turn Pass is off; Hint is on only for an out-of-turn chop, which the
                    # deal (not seeded here) may or may not give this person.
                    return not enabled(h, "pass")

                try:
                    await fake.wait_until(current, 5)
                except TimeoutError:
                    buttons = [(c.get("label"), c.get("disabled")) for c in hand.iter_components()]
                    raise AssertionError(f"{person.username}'s hand did not follow the move "
                                         f"(want {turn!r}, {counts!r}):\n{hand.text()}\n"
                                         f"{buttons}") from None
                latencies.append(time.perf_counter() - start)

        while True:
            b = board()
            if b is not None and "Game over" in b.text():
                break
            await fake.wait_until(lambda: on_turn() is not None
                                  or "Game over" in hands[people[0].id].text(), 10)
            if "Game over" in hands[people[0].id].text():
                await asyncio.sleep(0.05)  # the board follows within its edit interval
                continue
            mover = on_turn()
            assert mover is not None
            hand = hands[mover.id]
            if not reminded and moves >= 2:  # wait on this turn for the reminder
                before = len(fake.notified(mover))
                await fake.wait_until(lambda m=mover, n=before: len(fake.notified(m)) > n, 10)
                reminder = fake.notified(mover)[-1]
                assert reminder.content.startswith(f"<@{mover.id}>, your turn")
                assert re.search(r"<t:\d+:R>", reminder.content), reminder.content
                assert not reminder.ephemeral
                assert [p for p in people if reminder in fake.notified(p)] == [mover]
                reminded = True
            else:
                reminder = None
            held = [card for card, _ in hand_cards(hand)]
            choice = choose_play(held, to_beat(hand))
            count = cards_held(hand)
            if choice is not None:
                for card in choice:
                    button = next(c for k, c in hand_cards(hand) if k == card)
                    await press(fake, mover, hand, button["custom_id"])
            if choice is not None and enabled(hand, "play"):
                op, note = "play", "You played"
            elif enabled(hand, "pass"):
                if choice is not None:  # not a legal play after all: unselect
                    await press(fake, mover, hand, hand_button(hand, "clear")["custom_id"])  # type: ignore[index]
                op, note = "pass", "You passed"
            else:
                raise AssertionError(f"neither Play nor Pass possible:\n{hand.text()}")
            button = hand_button(hand, op)
            assert button is not None
            if mover is people[1] and not doubles[op] and (op == "play" or to_beat(hand)):
                # A double click: both presses leave before the first is answered.
                first = await fake.click(mover, hand, button["custom_id"])
                second = await fake.click(mover, hand, button["custom_id"], unchecked=True)
                one, two = await first.response(5), await second.response(5)
                texts = [layout.text(one.callback_data or {}),
                         layout.text(two.callback_data or {})]
                assert sum(note in t for t in texts) == 1, texts
                again = words.already_done(words_of("en"), passed=op == "pass")
                assert sum(again in t for t in texts) == 1, texts
                doubles[op] = True
            else:
                await press(fake, mover, hand, button["custom_id"])
                if note not in hand.text():
                    refused.append(hand.text())
            played = len(choice) if op == "play" and choice is not None else 0
            assert cards_held(hand) == count - played, hand.text()  # applied exactly once
            if reminder is not None:  # edited to what happened, with its mention as it was
                await fake.wait_until(lambda r=reminder: r.edit_count > 0, 5)
                assert not reminder.deleted
                assert reminder.content in (f"<@{mover.id}> played.",
                                            f"<@{mover.id}> passed."), reminder.content
                assert [m["id"] for m in reminder.data["mentions"]] == [str(mover.id)]
            moves += 1
            await others_follow(mover, hand)
            if not expired and moves == 6:
                # Sixteen minutes pass on the fake's clock: every hand's token expires.
                await asyncio.sleep(0.3)
                fake.advance(16 * 60)
                expired = True
                mover = on_turn()
                assert mover is not None
                hand = hands[mover.id]
                if enabled(hand, "pass") and to_beat(hand):
                    op = "pass"
                else:
                    card = hand_cards(hand)[0][1]["custom_id"]
                    await press(fake, mover, hand, card)
                    op = "play"
                # The first press of the stale hand refreshes it; the press after acts.
                await press(fake, mover, hand, hand_button(hand, op)["custom_id"])  # type: ignore[index]
                if words.HAND_EXPIRED in hand.text():
                    await press(fake, mover, hand, hand_button(hand, op)["custom_id"])  # type: ignore[index]
                assert "You p" in hand.text(), hand.text()
                await asyncio.sleep(1.0)
                # The others' hands could not follow (their tokens were past 15 minutes and the
                # bot did not try them): a press refreshes, and the hand is live again (the
                # moves after this one check that every hand follows).
                for person in people:
                    if person is mover:
                        continue
                    other = hands[person.id]
                    card = hand_cards(other)[0][1]["custom_id"]
                    answer = await press(fake, person, other, card)
                    assert words.HAND_EXPIRED in layout.text(answer.callback_data)
                    await press(fake, person, other, hand_cards(other)[0][1]["custom_id"])
                moves += 1

        assert moves >= 8
        assert refused == [], refused
        assert reminded and expired
        assert fake.mention_deletions == []  # no ghost ping
        assert doubles["play"], "bob never had a play to double-click"
        latencies.sort()
        p95 = latencies[int(0.95 * (len(latencies) - 1))]
        print(f"\nhand refresh after a move: {len(latencies)} hands, median "
              f"{latencies[len(latencies) // 2] * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
              f"max {latencies[-1] * 1000:.0f} ms")
        assert p95 < 3.0  # the target is 1.5 s; a loaded test machine gets slack
        # No request was refused: in particular no hand refresh through an expired token.
        assert fake.status_counts[401] == 0 and not fake.errors, fake.errors
        assert not fake.unknown_routes, fake.unknown_routes
        assert all(lat < 3 for lat in fake.latencies)

        proc.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.wait(), 15)
        output = log_path.read_text(errors="replace")
        assert code == 0, output
        assert "Traceback" not in output, output
        assert "finished and settled" in output
    finally:
        await kill(proc)
        await fake.stop()
