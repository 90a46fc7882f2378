"""A table's life around its games, through SimCord (real discord.py, a real SQLite file): the
ready check of Play again, people coming and going between games, leaving a running game,
tables that close themselves, a host who can be replaced."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import discord
import pytest

from cogs import words
from cogs.i18n import words as words_of
from cogs.tables import GameInProgress, GameResults, LiveTable, TableClosed, TablePhase

from .tablekit import board, board_text, labels, open_hand, open_table, said, seat_people, take_turn


def people(world: Any, n: int, prefix: str = "p") -> list[Any]:
    return [world.guild.add_member(world.env.create_user(f"{prefix}{i}")) for i in range(n)]


async def finish(world: Any, live: LiveTable, by_id: dict[int, Any], limit: int = 400) -> None:
    """Play to the end through the buttons; seats a computer holds play by themselves."""
    for step in range(limit):
        game = live.game
        if live.phase is not TablePhase.PLAYING or game is None:
            return
        actor = game.actor
        if actor is not None and live.controlled_by_computer(actor):
            await world.env.advance_time(0.5)  # the computer's move
            continue
        await take_turn(world, live, by_id, prefer_pass=step % 7 == 3, shed=True)
    raise AssertionError("the game did not finish")


async def chips(world: Any, person: Any) -> int:
    return await world.store.get_chips(world.guild.id, person.id) or 0


def data_check(world: Any) -> None:
    check = subprocess.run([sys.executable, "-m", "data.check", str(world.path)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


async def played_once(world: Any, n: int) -> tuple[list[Any], dict[int, Any], LiveTable]:
    ps = people(world, n)
    live = await open_table(world, ps[0], stake=5)
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    by_id = {p.id: p for p in ps}
    await finish(world, live, by_id)
    assert live.phase is TablePhase.FINISHED
    return ps, by_id, live


async def test_ready_check_host_starts_and_the_one_not_ready_leaves_free(world: Any) -> None:
    ps, by_id, live = await played_once(world, 3)
    assert labels(board(world)) == ["Join", "Leave", "Add computer player", "Play again",
                                    "Start", "Cancel", "Rules"]
    first = live.game
    await ps[1].click(board(world), label="Play again")
    assert live.phase is TablePhase.FINISHED and live.ready == [ps[1].id]
    assert "ready" in board_text(world) and "<t:" in board_text(world)
    twice = await ps[1].click(board(world), label="Play again")
    assert twice.ephemeral and "already ready" in said(twice.response)
    assert live.ready == [ps[1].id]
    stranger = people(world, 1, "s")[0]
    r = await stranger.click(board(world), label="Play again")
    assert r.ephemeral and "not seated" in said(r.response)
    r = await ps[1].click(board(world), label="Start")
    assert r.ephemeral and "Only the host" in said(r.response)
    await ps[0].click(board(world), label="Play again")
    before = await chips(world, ps[2])
    await ps[0].click(board(world), label="Start")  # ps[2] never pressed Play again
    assert live.phase is TablePhase.PLAYING and live.game is not first
    assert [s.user_id for s in live.seats] == [ps[0].id, ps[1].id]
    with pytest.raises(GameInProgress):  # Start pressed twice (the board has no Start now)
        await world.bot.table_service.start(live, ps[0].id)
    await finish(world, live, by_id)
    assert await chips(world, ps[2]) == before  # unseated, charged nothing
    total = sum([await chips(world, p) for p in ps])
    assert total == 3 * 1000
    data_check(world)


async def test_everyone_ready_deals_and_the_ready_check_times_out(world: Any) -> None:
    ps, by_id, live = await played_once(world, 3)
    await ps[0].click(board(world), label="Play again")
    await ps[2].click(board(world), label="Play again")
    assert live.phase is TablePhase.FINISHED
    await world.env.advance_time(world.bot.table_service.ready_seconds + 1)
    # the ready check ran out with two ready: they play, the third is unseated
    assert live.phase is TablePhase.PLAYING
    assert [s.user_id for s in live.seats] == [ps[0].id, ps[2].id]
    await finish(world, live, by_id)
    for p in (ps[0], ps[2]):
        await p.click(board(world), label="Play again")
    assert live.phase is TablePhase.PLAYING  # everyone seated was ready: dealt at once


async def test_a_spectator_joins_the_finished_board_and_plays_the_next_game(world: Any) -> None:
    ps, by_id, live = await played_once(world, 2)
    (spectator,) = people(world, 1, "spectator")
    by_id[spectator.id] = spectator
    r = await spectator.click(board(world), label="Join")
    assert not r.ephemeral
    assert [s.user_id for s in live.seats] == [ps[0].id, ps[1].id, spectator.id]
    assert "Play again" in labels(board(world))
    r = await spectator.click(board(world), label="Join")
    assert r.ephemeral and "already seated" in said(r.response)
    for p in (*ps, spectator):
        await p.click(board(world), label="Play again")
    assert live.phase is TablePhase.PLAYING
    game = live.game
    assert game is not None and str(spectator.id) in game.players
    await finish(world, live, by_id)
    results = live.results
    assert isinstance(results, GameResults)
    assert spectator.id in {p.player.user_id for p in results.places}
    assert sum([await chips(world, p) for p in (*ps, spectator)]) == 3 * 1000
    data_check(world)


async def test_leaving_a_running_game_a_computer_finishes_and_the_leaver_pays_last(
        world: Any) -> None:
    ps = people(world, 3)
    live = await open_table(world, ps[0], stake=5)
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    by_id = {p.id: p for p in ps}
    leaver = ps[0]  # the host leaves: the role passes on after the game
    kept = await open_hand(world, ps[1])  # seat 1 now, seat 0 once the leaver is unseated
    asked = await leaver.click(board(world), label="Leave game")
    assert asked.ephemeral and "Leave the game" in said(asked.response)
    assert not live.left  # nothing changes until the confirmation
    stranger = people(world, 1, "s")[0]
    r = await stranger.click(board(world), label="Leave game")
    assert r.ephemeral and "not seated" in said(r.response)
    done = await leaver.click(asked.response, label="Yes, leave the game")
    assert "You left the game" in said(done.response)
    assert live.has_left(0) and live.controlled_by_computer(0)
    again = await leaver.click(board(world), label="Leave game")
    assert again.ephemeral and "You left this game" in said(again.response)
    r = await leaver.click(board(world), label="My hand")
    assert r.ephemeral and "You left this game" in said(r.response)
    # the leave is in the store with the game (a restart keeps it)
    await world.restart()
    live = world.bot.table_service.tables[live.id]
    assert live.has_left(0)
    await finish(world, live, by_id)
    results = live.results
    assert isinstance(results, GameResults)
    assert results.places[-1].player.user_id == leaver.id and results.places[-1].left
    assert not any(p.left for p in results.places[:-1])
    assert results.places[-1].chips < 0  # pays as the last place
    assert "left the game" in board_text(world)
    assert [s.user_id for s in live.seats] == [ps[1].id, ps[2].id]  # unseated after the game
    # A hand from the game, pressed after the seats moved up, is never drawn from another seat.
    card = next(c for c in labels(kept) if c[0].isdigit() or c[0] in "JQKA")
    r = await ps[1].click(kept, label=card)
    assert "This game is over" in (said(r.response) or ""), r
    assert live.table.host_id == ps[1].id  # the longest seated hosts now
    assert "(host" in board_text(world)
    assert sum([await chips(world, p) for p in ps]) == 3 * 1000
    data_check(world)


async def test_everyone_leaves_the_computers_play_out_and_the_table_closes(world: Any) -> None:
    ps = people(world, 2)
    live = await open_table(world, ps[0], stake=5)
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    for p in ps:
        asked = await p.click(board(world), label="Leave game")
        await p.click(asked.response, label="Yes, leave the game")
    for _ in range(400):
        if live.table.status != "open":
            break
        await world.env.advance_time(0.5)
    assert live.table.status == "closed"
    assert "computers finished it" in board_text(world)
    assert sum([await chips(world, p) for p in ps]) == 2 * 1000
    data_check(world)
    r = await ps[0].slash(world.channel, "tienlen start")  # the channel is free again
    assert r.ephemeral and "is open" in said(r.response)


async def test_an_idle_lobby_closes_itself_and_a_late_press_is_told(world: Any) -> None:
    world.bot.table_service.idle_seconds = 120
    ps = people(world, 2)
    live = await open_table(world, ps[0])
    await world.env.advance_time(100)
    await ps[1].click(board(world), label="Join")  # a press: the idle time starts again
    await world.env.advance_time(100)
    assert live.table.status == "open"
    await world.env.advance_time(30)
    assert live.table.status == "closed"
    assert "nobody pressed anything for 2 minutes" in board_text(world)
    # a press that arrives now (its board drawn before the close) is told why
    with pytest.raises(TableClosed) as closed:
        await world.bot.table_service.get(live.id)
    assert "was closed" in words.refusal(words_of("en"), closed.value)
    with pytest.raises(TableClosed):
        await world.bot.table_service.join(live, ps[0].id, "late")
    assert await world.bot.table_service.table_in_channel(world.channel.id) is None


async def test_an_idle_finished_table_closes_itself_keeping_the_results(world: Any) -> None:
    world.bot.table_service.idle_seconds = 60
    ps, _, live = await played_once(world, 2)
    await world.env.advance_time(61)
    assert live.table.status == "closed"
    text = board_text(world)
    assert "nobody pressed anything for 1 minute" in text
    assert f"<@{ps[0].id}>" in text  # the last game's results stay on the board


async def test_the_host_leaves_the_lobby_and_a_person_alone_may_close(world: Any) -> None:
    ps = people(world, 3)
    live = await open_table(world, ps[0])
    await seat_people(world, ps[1:])
    r = await ps[2].click(board(world), label="Cancel")
    assert r.ephemeral and "Only the host" in said(r.response)
    await ps[0].click(board(world), label="Leave")
    assert live.table.host_id == ps[1].id
    assert f"<@{ps[1].id}> (host)" in board_text(world)
    await ps[1].click(board(world), label="Leave")
    assert live.table.host_id == ps[2].id
    await ps[2].click(board(world), label="Add computer player")  # computers do not count
    r = await ps[2].slash(world.channel, "tienlen stop")
    assert r.ephemeral  # only the person who stopped it is answered: the board tells the channel
    assert live.table.status == "closed"


async def test_a_server_sets_the_idle_time_of_its_tables(world: Any) -> None:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    boss = world.guild.add_member(world.env.create_user("boss"), roles=[role])
    (player,) = people(world, 1)
    r = await player.slash(world.channel, "tienlen settings", idle_minutes=3)
    assert r.ephemeral and "Manage Server" in said(r.response)
    assert await world.store.get_idle_minutes(world.guild.id) is None
    r = await boss.slash(world.channel, "tienlen settings", idle_minutes=3)
    assert r.ephemeral and "after 3 minutes without a press" in said(r.response)
    live = await open_table(world, player)
    assert live.idle_seconds == 180
    await world.env.advance_time(181)
    assert live.table.status == "closed"
    await boss.slash(world.channel, "tienlen settings", idle_minutes=0)
    live = await open_table(world, player)
    await world.env.advance_time(10_000)
    assert live.table.status == "open"  # 0: never


async def test_the_ready_check_and_the_idle_time_survive_a_restart(world: Any) -> None:
    world.bot.table_service.idle_seconds = 600
    ps, _, live = await played_once(world, 3)
    await ps[0].click(board(world), label="Play again")
    await ps[1].click(board(world), label="Play again")
    await world.restart()
    live = world.bot.table_service.tables[live.id]
    assert live.ready == [ps[0].id, ps[1].id] and live.ready_deadline is not None
    assert live.idle_seconds == 600
    await world.env.advance_time(world.bot.table_service.ready_seconds + 1)
    assert live.phase is TablePhase.PLAYING  # the saved ready check ended and dealt
    assert [s.user_id for s in live.seats] == [ps[0].id, ps[1].id]


async def test_an_idle_lobby_closes_itself_after_a_restart(world: Any) -> None:
    world.bot.table_service.idle_seconds = 300
    ps = people(world, 1)
    live = await open_table(world, ps[0])
    await world.restart()
    live = world.bot.table_service.tables[live.id]
    await world.env.advance_time(301)
    assert live.table.status == "closed"
