"""Reactions on the board through SimCord: seated people and spectators throw an emote or a
quick phrase; the board shows it beside the seat for one refresh; the cooldown, a forged value, a
closed table and someone who cannot see the channel are refused privately and nothing is shown."""

from __future__ import annotations

from typing import Any

import discord

from cogs.reactions import ReactionSelect
from cogs.tables import TablePhase
from cogs.tienlen import _render as render
from tests.support import layout

from .forge import forge_select, reply_text
from .tablekit import board, board_text, bot_messages, open_table, seat_people, take_turn


async def started(world: Any, n: int = 2, **options: Any) -> tuple[list[Any], dict[int, Any], Any]:
    ps = [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n)]
    live = await open_table(world, ps[0], **options)
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    return ps, {p.id: p for p in ps}, live


def select_id(live: Any) -> str:
    return f"tl:r:{live.id}"


def menu(message: discord.Message) -> Any:
    for child in layout.walk(message.components):
        if getattr(child, "custom_id", None) and child.custom_id.startswith("tl:r:"):
            return child
    raise AssertionError("no reaction select on the board")


async def test_the_board_offers_six_emotes_and_four_phrases_in_the_tables_language(
        world: Any) -> None:
    _, _, live = await started(world)
    chooser = menu(board(world))
    assert [o.value for o in chooser.options] == [
        "like", "laugh", "wow", "angry", "cry", "fire", "nice", "cheat", "again", "hurry"]
    assert [str(o.emoji) for o in chooser.options[:6]] == ["👍", "😂", "😮", "😡", "😭", "🔥"]
    assert [o.label for o in chooser.options[6:]] == [
        "Nice!", "Cheater!", "Another game?", "Hurry up!"]
    assert len(list(layout.walk(board(world).components))) <= 40  # a V2 message's limit
    live.language = "vi"  # as after a change of the server's language setting
    view = render.board(live)["view"]
    (vi,) = [c for c in view.walk_children() if isinstance(c, ReactionSelect)]
    assert [o.label for o in vi.item.options[6:]] == [
        "Hay!", "Ăn gian!", "Chơi tiếp?", "Nhanh lên!"]
    assert vi.item.placeholder == "Thả biểu cảm…"


async def test_a_reaction_rides_the_next_refresh_and_shows_for_that_one_only(
        world: Any) -> None:
    ps, by_id, live = await started(world)
    watcher = world.guild.add_member(world.env.create_user("watcher"))
    messages = len(bot_messages(world))
    edits = live.last_board_edit
    result = await ps[1].select(board(world), ["nice"], custom_id=select_id(live))
    assert result.deferred and not result.followups  # a silent answer
    await watcher.select(board(world), ["fire"], custom_id=select_id(live))
    await world.env.advance_time(0.1)
    assert live.last_board_edit == edits  # no refresh of their own during a game
    assert "“Nice!”" not in board_text(world)
    await take_turn(world, live, by_id)  # the next move's edit carries them
    await world.env.advance_time(0.1)
    text = board_text(world)
    # beside the seat (no picture) or, with the picture showing the seats, in the text
    assert f"<@{ps[1].id}> — " in text and (
        " · “Nice!”" in text or f"<@{ps[1].id}> “Nice!”" in text), text
    assert f"<@{watcher.id}> 🔥" in text and "Reactions: " in text, text
    await take_turn(world, live, by_id)
    await world.env.advance_time(0.1)
    text = board_text(world)
    assert "🔥" not in text and "“Nice!”" not in text  # shown for one refresh only
    assert len(bot_messages(world)) == messages  # no message of their own
    assert live.phase is TablePhase.PLAYING


async def test_on_a_finished_board_a_reaction_asks_for_a_refresh(world: Any) -> None:
    ps, by_id, live = await started(world)
    for _ in range(400):
        if live.phase is not TablePhase.PLAYING:
            break
        await take_turn(world, live, by_id, shed=True)
    assert live.phase is TablePhase.FINISHED
    await ps[0].select(board(world), ["again"], custom_id=select_id(live))
    await world.env.advance_time(0.1)
    assert f"Reactions: <@{ps[0].id}> “Another game?”" in board_text(world)


async def test_one_reaction_per_person_every_3_seconds(world: Any) -> None:
    ps, _, live = await started(world)
    await ps[0].select(board(world), ["like"], custom_id=select_id(live))
    await world.env.advance_time(1.0)
    again = await ps[0].select(board(world), ["wow"], custom_id=select_id(live))
    assert reply_text(again) == "One reaction every 3 seconds: wait 2 more seconds."
    assert again.ephemeral
    await world.env.advance_time(0.1)
    assert "😮" not in board_text(world)
    await world.env.advance_time(2.0)
    later = await ps[0].select(board(world), ["wow"], custom_id=select_id(live))
    assert not later.followups
    assert [r.key for r in live.reactions] == ["wow"]  # the latest one per person


async def test_forged_closed_and_unseen_reactions_are_refused(world: Any) -> None:
    ps, _, live = await started(world)
    forged = await forge_select(ps[0], board(world), select_id(live), ["<@everyone>"])
    assert reply_text(forged) == "This reaction is not known."
    other_table = await forge_select(ps[0], board(world), "tl:r:999999", ["like"])
    assert reply_text(other_table) == "This table no longer exists."
    # a closed table
    old = board(world)
    await ps[0].slash(world.channel, "tienlen stop")
    closed = await forge_select(ps[1], old, select_id(live), ["like"])
    assert reply_text(closed) in ("This table is closed.", "This table was closed.",
                                 "This table no longer exists.")


async def test_someone_the_channel_does_not_let_see_the_table_is_refused(world: Any) -> None:
    hidden = world.guild.add_member(world.env.create_user("hidden"))
    world.channel = world.guild.create_text_channel(
        "secret", overwrites={hidden: discord.PermissionOverwrite(view_channel=False)})
    _, _, live = await started(world)
    unseen = await forge_select(hidden, board(world), select_id(live), ["like"], unseen=True)
    assert reply_text(unseen) == "You cannot see this table's channel."
    await world.env.advance_time(0.1)
    assert "👍" not in board_text(world) and live.reactions == []
