"""The live hand through SimCord (virtual time): hands redrawn after other people's moves, tokens
that expire, turn reminders that notify only the person on turn, hints that say why."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import discord

from cogs import words
from cogs.tienlen.hands import LiveHands
from engine import Phase
from tests.support import layout

from .tablekit import (
    board,
    board_text,
    button,
    lowest,
    only_table,
    open_hand,
    open_table,
    said,
    seat_people,
    select,
)


def people(world: Any, n: int) -> list[Any]:
    return [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n)]


async def started(world: Any, n: int, **options: Any) -> tuple[dict[int, Any], Any]:
    ps = people(world, n)
    live = await open_table(world, ps[0], **options)
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    return {p.id: p for p in ps}, live


def current_message(world: Any, person: Any, message: Any) -> discord.Message:
    """The message as the person's client shows it now (edits included)."""
    wanted = getattr(message, "message", message).id
    for m in world.channel.history(viewer=person):
        if m.id == wanted:
            return m  # type: ignore[no-any-return]
    raise AssertionError("the hand message is gone")


def reminders(world: Any) -> list[discord.Message]:
    return [m for m in world.channel.history() if m.author.bot and "your turn" in said(m)]


def person_on_turn(live: Any, by_id: dict[int, Any]) -> tuple[int, Any]:
    seat = live.game.current
    return seat, by_id[live.seats[seat].user_id]


async def test_hands_follow_the_table_without_a_press(world: Any) -> None:
    by_id, live = await started(world, 3, turn_seconds=600)
    game = live.game
    seat, mover = person_on_turn(live, by_id)
    hands = {pid: await open_hand(world, p) for pid, p in by_id.items()}
    after = game.next_seat(seat)
    waiting = by_id[live.seats[after].user_id]
    shown = current_message(world, waiting, hands[waiting.id])
    assert "Your turn" not in said(shown) and button(shown, "Pass").disabled
    chosen = lowest(game.legal_plays(seat)).cards
    await mover.click(await select(mover, hands[mover.id], chosen), label="Play")
    await world.env.settle()
    for pid, person in by_id.items():
        text = said(current_message(world, person, hands[pid]))
        assert f"To beat: {' '.join(map(str, chosen))} by <@{mover.id}>" in text, text
        # every seat's card count: the board picture's description (pictures on)
        seats = "\n".join(layout.alt_texts(board(world)))
        assert f"<@{mover.id}> — {len(game.hands[seat])} cards" in seats, seats
    shown = current_message(world, waiting, hands[waiting.id])
    assert "🟢 **Your turn**" in said(shown)
    assert not button(shown, "Pass").disabled and not button(shown, "Hint").disabled
    mover_now = current_message(world, mover, hands[mover.id])
    assert button(mover_now, "Pass").disabled and "Your turn" not in said(mover_now)


async def test_selected_cards_stay_selected_across_refreshes(world: Any) -> None:
    by_id, live = await started(world, 2, turn_seconds=600)
    game = live.game
    seat, mover = person_on_turn(live, by_id)
    other = by_id[live.seats[1 - seat].user_id]
    hand = await open_hand(world, other)
    keep = game.hands[1 - seat][-1]
    hand = await select(other, hand, [keep])
    await mover.click(await select(mover, await open_hand(world, mover),
                                   lowest(game.legal_plays(seat)).cards), label="Play")
    await world.env.settle()
    shown = current_message(world, other, hand)
    assert "Your turn" in said(shown)
    assert button(shown, str(keep)).style is discord.ButtonStyle.primary  # still selected


async def test_a_hand_opened_16_minutes_ago_refreshes_cleanly_on_the_next_press(
        world: Any) -> None:
    by_id, live = await started(world, 2, turn_seconds=3600, turn_reminder=0)
    game = live.game
    seat, mover = person_on_turn(live, by_id)
    other = by_id[live.seats[1 - seat].user_id]
    old = await open_hand(world, other)
    await world.env.advance_time(16 * 60)  # the token of `old` has expired
    await mover.click(await select(mover, await open_hand(world, mover),
                                   lowest(game.legal_plays(seat)).cards), label="Play")
    await world.env.settle()
    stale = current_message(world, other, old)
    assert "Your turn" not in said(stale)  # it could not be redrawn
    assert words.HAND_RETIRED in said(stale)  # its token's last edit, at 14 minutes, said so
    first = game.hands[1 - seat][0]
    r = await other.click(stale, label=str(first))  # any press: redrawn in place, up to date
    text = said(r.response)
    assert words.HAND_EXPIRED in text and "🟢 **Your turn**" in text
    assert not button(r.response, "Pass").disabled
    before = game.version
    r = await other.click(r.response, label="Pass")  # the fresh hand acts normally
    assert "You passed" in said(r.response) and game.version == before + 1


async def test_a_hand_says_at_14_minutes_that_it_stops_following_and_then_is_left_alone(
        world: Any) -> None:
    by_id, live = await started(world, 2, turn_seconds=3600, turn_reminder=0)
    game = live.game
    hands = world.bot.hands
    seat, mover = person_on_turn(live, by_id)
    other = by_id[live.seats[1 - seat].user_id]
    old = await open_hand(world, other)
    await world.env.advance_time(13 * 60 + 50)
    assert words.HAND_RETIRED not in said(current_message(world, other, old))
    await world.env.advance_time(15)  # 14 minutes and 5 seconds: the token's last edit
    last = current_message(world, other, old)
    assert words.HAND_RETIRED in said(last) and "/tienlen hand" in said(last)
    assert hands.retired_count == 1 and hands.get(live.id, other.id).interaction is None
    edits = hands.edits
    await mover.click(await select(mover, await open_hand(world, mover),
                                   lowest(game.legal_plays(seat)).cards), label="Play")
    await world.env.settle()
    assert hands.edits == edits  # nothing more through the old token
    assert said(current_message(world, other, old)) == said(last)
    r = await other.click(last, label=str(game.hands[1 - seat][0]))  # any press: a live hand
    assert words.HAND_EXPIRED in said(r.response) and "🟢 **Your turn**" in said(r.response)
    assert words.HAND_RETIRED not in said(r.response)
    r = await other.click(r.response, label="Pass")
    assert "You passed" in said(r.response)
    # The mover leads again: the other's hand follows without a press.
    await mover.click(await select(mover, await open_hand(world, mover),
                                   lowest(game.legal_plays(seat)).cards), label="Play")
    await world.env.settle()
    followed = current_message(world, other, last)
    assert "🟢 **Your turn**" in said(followed) and words.HAND_RETIRED not in said(followed)
    assert hands.edits > edits


def channel_message(world: Any, message_id: int) -> discord.Message | None:
    for m in world.channel.history():
        if m.id == message_id:
            return m  # type: ignore[no-any-return]
    return None


async def test_a_reminder_at_half_the_turn_mentions_only_them_and_is_edited_when_they_act(
        world: Any) -> None:
    by_id, live = await started(world, 3, turn_seconds=60)  # the default reminder: half (30 s)
    assert live.turn_reminder is None and live.reminder_after == 30
    game = live.game
    seat, mover = person_on_turn(live, by_id)
    await world.env.advance_time(25)
    assert reminders(world) == []
    await world.env.advance_time(7)
    (reminder,) = reminders(world)
    assert reminder.content.startswith(f"<@{mover.id}>, your turn — it ends <t:")
    assert re.search(r"<t:(\d+):R>", reminder.content)  # counts down on every client
    assert int(re.search(r"<t:(\d+):R>", reminder.content)[1]) == int(live.deadline)  # type: ignore[index]
    assert [u.id for u in reminder.mentions] == [mover.id]  # the only person notified
    assert live.reminder is not None and live.reminder.message_id == reminder.id  # in the store
    await mover.click(await select(mover, await open_hand(world, mover),
                                   lowest(game.legal_plays(seat)).cards), label="Play")
    await world.env.settle()
    kept = channel_message(world, reminder.id)  # never deleted: edited to what happened
    assert kept is not None and kept.content == f"<@{mover.id}> played."
    assert [u.id for u in kept.mentions] == [mover.id]
    assert live.reminder is None
    nxt = by_id[live.seats[game.current].user_id]
    await world.env.advance_time(32)  # the next person waits too: one standing reminder
    (second,) = reminders(world)
    assert [u.id for u in second.mentions] == [nxt.id]


async def test_a_timeout_says_so_on_the_reminder_and_the_board(world: Any) -> None:
    by_id, live = await started(world, 3, turn_seconds=60)
    game = live.game
    seat, mover = person_on_turn(live, by_id)
    await world.env.advance_time(32)
    (reminder,) = reminders(world)
    await world.env.advance_time(30)  # the clock acts for them
    await world.env.settle()
    assert game.current != seat
    kept = channel_message(world, reminder.id)
    assert kept is not None and kept.content == f"<@{mover.id}> ran out of time."
    text = board_text(world)
    assert f"<@{mover.id}> ran out of time — played " in text, text  # they had to lead
    assert live.clock_events and game.events[live.clock_events[0]].seat == seat
    saved = json.loads((await world.store.get_game(live.game_id)).state_json)
    assert saved["clock_events"] == live.clock_events  # in the game's log in the store


async def test_a_standing_reminder_is_found_again_after_a_restart(world: Any) -> None:
    by_id, live = await started(world, 3, turn_seconds=60)
    seat, mover = person_on_turn(live, by_id)
    await world.env.advance_time(32)
    (reminder,) = reminders(world)
    await world.restart()
    live = only_table(world)
    assert live.reminder is not None and live.reminder.message_id == reminder.id
    await world.env.advance_time(10)
    assert len(reminders(world)) == 1  # not reminded twice
    game = live.game
    await mover.click(await select(mover, await open_hand(world, mover),
                                   lowest(game.legal_plays(seat)).cards), label="Play")
    await world.env.settle()
    kept = channel_message(world, reminder.id)
    assert kept is not None and kept.content == f"<@{mover.id}> played."
    assert reminders(world) == []


async def test_no_reminder_when_the_setting_is_0(world: Any) -> None:
    _by_id, live = await started(world, 2, turn_seconds=60, turn_reminder=0)
    assert live.turn_reminder == 0
    await world.env.advance_time(12)
    assert reminders(world) == []


async def test_the_server_setting_and_the_start_option(world: Any) -> None:
    admin_role = world.guild.create_role("admins",
                                         permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admin_role])
    r = await admin.slash(world.channel, "tienlen settings")
    assert "turn reminder: **half the turn**" in said(r.response)  # the bot's default
    r = await admin.slash(world.channel, "tienlen settings", turn_reminder=0)
    assert "turn reminder: **off**" in said(r.response)
    assert (await world.store.get_guild_settings(world.guild.id)).turn_reminder == 0
    by_id, live = await started(world, 2, turn_seconds=60)
    assert live.turn_reminder == 0  # the server's default
    await world.env.advance_time(12)
    assert reminders(world) == []
    host = by_id[live.table.host_id]
    await host.slash(world.channel, "tienlen stop")
    live = await open_table(world, host, turn_reminder=20)  # the option wins
    assert live.turn_reminder == 20


async def test_no_reminder_for_a_computer_seat(world: Any) -> None:
    (me,) = people(world, 1)
    live = await open_table(world, me, turn_seconds=60)
    chooser = await me.click(board(world), label="Add computer player")
    await me.click(chooser.response, label="Normal")
    world.bot.table_service.ai_delay = 20.0  # the computer thinks longer than the reminder
    await me.click(board(world), label="Start")
    game = live.game
    if game.current == live.seat_of(me.id):
        await me.click(await select(me, await open_hand(world, me),
                                    lowest(game.legal_plays(game.current)).cards), label="Play")
    assert live.controlled_by_computer(game.current)
    await world.env.advance_time(12)
    assert reminders(world) == []


async def test_hint_selects_and_says_why(world: Any) -> None:
    by_id, live = await started(world, 2, turn_seconds=600)
    game = live.game
    _seat, mover = person_on_turn(live, by_id)
    assert game.phase is Phase.PLAY
    r = await mover.click(await open_hand(world, mover), label="Hint")
    text = said(r.response)
    assert "Hint: lead" in text or "Hint: play your last" in text, text
    assert not button(r.response, "Play").disabled  # the suggested cards are selected


class SlowToken:
    """An interaction whose edits take as long as the test decides (to hold one in flight)."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.most_in_flight = 0
        self.contents: list[str] = []
        self.release = asyncio.Event()

    async def edit_original_response(self, **payload: Any) -> None:
        self.in_flight += 1
        self.most_in_flight = max(self.most_in_flight, self.in_flight)
        self.contents.append(layout.text_of_view(payload["view"]))
        await self.release.wait()
        self.release.clear()
        self.in_flight -= 1


async def test_edits_to_one_hand_are_coalesced_and_the_latest_state_wins(world: Any) -> None:
    _by_id, live = await started(world, 2, turn_seconds=600)
    hands = LiveHands()
    user = live.seats[0].user_id
    hand = hands.get(live.id, user)
    token = SlowToken()
    hand.interaction = token  # type: ignore[assignment]
    hand.issued = hands.now()
    hands.table_changed(live)
    await asyncio.sleep(0.01)
    assert token.in_flight == 1
    for _ in range(3):  # three changes while the edit is in flight
        live.changes += 1
        hand.mask = 0
        hands.table_changed(live)
        await asyncio.sleep(0)
    assert token.most_in_flight == 1 and len(token.contents) == 1
    token.release.set()
    await asyncio.sleep(0.01)
    assert len(token.contents) == 2  # one more edit, for the latest state only
    token.release.set()
    await asyncio.sleep(0.01)
    assert hand.task is not None and hand.task.done()
    assert token.most_in_flight == 1 and len(token.contents) == 2
    assert hands.edits == 2
    assert hand.shown_key is not None and hand.shown_key[0] == live.changes  # the latest state
