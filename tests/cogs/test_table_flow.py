"""End-to-end table flows through SimCord: real discord.py, real SQLite, clicks and commands."""

from __future__ import annotations

import asyncio
import logging
import random
import subprocess
import sys
from datetime import timedelta
from typing import Any

import discord
import pytest

from cogs import words
from cogs.i18n import words as words_of
from cogs.tables import CardsGone, LiveTable, TablePhase
from engine import Game, Passed, Phase, Played, Rank, parse_cards

from .tablekit import (
    add_computers,
    board,
    board_text,
    button,
    labels,
    lowest,
    open_hand,
    open_table,
    play,
    said,
    seat_people,
    select,
    take_turn,
)


def people(world: Any, n: int) -> list[Any]:
    return [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n)]


async def started(world: Any, n: int, **options: Any
                  ) -> tuple[list[Any], dict[int, Any], LiveTable]:
    """n people at one table (the first hosts), the game started by the host."""
    ps = people(world, n)
    live = await open_table(world, ps[0], **options)
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    return ps, {p.id: p for p in ps}, live


async def finish(world: Any, live: LiveTable, by_id: dict[int, Any], limit: int = 400) -> None:
    """Play the game to its end through the buttons, shedding as many cards a turn as the
    rules allow (a short game), passing now and then."""
    for step in range(limit):
        if live.phase is not TablePhase.PLAYING:
            return
        await take_turn(world, live, by_id, prefer_pass=step % 7 == 3, shed=True)
    raise AssertionError("the game did not finish")


@pytest.mark.no_cover  # a whole game: its lines are measured by the other games
async def test_four_humans_play_to_settlement_and_leaderboard(world: Any) -> None:
    ps = people(world, 4)
    by_id = {p.id: p for p in ps}
    live = await open_table(world, ps[0], stake=5)
    assert labels(board(world)) == ["Join", "Leave", "Add computer player", "Start", "Cancel"]
    await seat_people(world, ps[1:])
    assert len(live.seats) == 4
    await ps[0].click(board(world), label="Start")
    assert live.phase is TablePhase.PLAYING and live.game is not None
    text = board_text(world)
    current = live.game.current
    assert current is not None
    assert f"<@{live.seats[current].user_id}>" in text
    for i in range(4):
        assert f"<@{ps[i].id}> — 13 cards" in text
    assert set(labels(board(world))) == {"My hand", "Leave game", "Rules"}
    await finish(world, live, by_id)
    assert live.phase is TablePhase.FINISHED
    text = board_text(world)
    assert "Game over" in text
    assert labels(board(world)) == ["Join", "Leave", "Add computer player", "Play again", "Start",
                                    "Cancel", "Rules"]
    total = 0
    for p in ps:
        total += await world.store.get_chips(world.guild.id, p.id) or 0
    assert total == 4 * 1000  # chips conserved among the four
    result = await ps[1].slash(world.channel, "leaderboard")
    description = result.response.embeds[0].description
    for p in ps:
        assert f"<@{p.id}>" in description
    check = subprocess.run([sys.executable, "-m", "data.check", str(world.path)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


async def test_one_human_against_three_computers(world: Any) -> None:
    (alice,) = people(world, 1)
    live = await open_table(world, alice, stake=3)
    await add_computers(world, alice, "normal", 3)
    assert [s.bot for s in live.seats] == [None, "normal", "normal", "normal"]
    await alice.click(board(world), label="Start")
    await finish(world, live, {alice.id: alice})
    assert live.phase is TablePhase.FINISHED
    assert "Game over" in board_text(world)
    # Computer seats hold no chips: a game against computers only moves chips between humans.
    assert await world.store.get_chips(world.guild.id, alice.id) == 1000


async def test_rejections_are_private_sentences(world: Any) -> None:
    ps = people(world, 3)
    live = await open_table(world, ps[0])
    await seat_people(world, ps[1:2])
    spectator = ps[2]
    await ps[0].click(board(world), label="Start")
    game = live.game
    assert game is not None
    r = await spectator.click(board(world), label="My hand")
    assert r.ephemeral and "not seated" in said(r.response)
    turn = game.current
    assert turn is not None
    other = 1 - turn
    seat_user = {0: ps[0], 1: ps[1]}
    hand = await open_hand(world, seat_user[other])
    before = game.to_json()
    # Buttons are enabled exactly when a press would be accepted: not your turn, no Pass.
    assert button(hand, "Pass").disabled and button(hand, "Hint").disabled
    # Not a combination: the line says so and Play stays disabled.
    mine = game.hands[other]
    ranks = list(type(mine[0].rank))
    far = [c for c in mine if abs(ranks.index(c.rank) - ranks.index(mine[0].rank)) > 1]
    odd = [mine[0], far[0]]
    msg = await select(seat_user[other], hand, odd)
    assert "not a combination" in said(msg)
    assert button(msg, "Play").disabled
    # Pass is disabled for the leader (leading).
    lead_hand = await open_hand(world, seat_user[turn])
    assert button(lead_hand, "Pass").disabled
    assert not button(lead_hand, "Hint").disabled
    # The first play must include 3♠ (or the lowest card): the engine's sentence, Play disabled.
    must = game.first_play_must_include
    if must is not None:
        candidates = [c for c in game.hands[turn] if c != must]
        msg = await select(seat_user[turn], lead_hand, [candidates[0]])
        assert "must include" in said(msg) and button(msg, "Play").disabled
        msg = await select(seat_user[turn], msg, [candidates[0]])  # unselect again
    assert game.to_json() == before
    # A press that was possible when the hand was drawn, but is not any more: refused with the
    # reason, the hand redrawn in the same response. The leader's older hand still offers Play
    # after a newer hand (the live one) played.
    leader = seat_user[turn]
    first = lowest(game.legal_plays(turn)).cards
    older = await select(leader, await open_hand(world, leader), first)
    newer = await open_hand(world, leader)  # the selection is remembered
    assert "You played" in said((await leader.click(newer, label="Play")).response)
    after = game.to_json()
    r = await leader.click(older, label="Play")
    assert "already played" in said(r.response) and "Your hand" in said(r.response)
    assert game.to_json() == after


async def test_a_press_on_an_older_hand_is_judged_by_the_table_now(world: Any) -> None:
    _ps, by_id, live = await started(world, 2)
    game = live.game
    assert game is not None
    seat = game.current
    assert seat is not None
    person = by_id[live.seats[seat].user_id]  # type: ignore[index]
    chosen = lowest(game.legal_plays(seat)).cards
    old = await select(person, await open_hand(world, person), chosen)
    assert not button(old, "Play").disabled
    cleared = (await person.click(old, label="Clear")).response
    assert button(cleared, "Play").disabled
    assert button(cleared, "Clear").disabled
    old = await select(person, cleared, chosen)
    # A newer hand is the live one (the older message is no longer redrawn); the selection is
    # remembered for the person, so the new hand shows it too.
    fresh = await open_hand(world, person)
    assert not button(fresh, "Play").disabled
    r = await person.click(fresh, label="Play")
    assert "You played" in said(r.response)
    version = game.version
    gone = await person.click(old, label="Play")  # the same cards again, from the older hand
    text = said(gone.response)
    assert "already played" in text and str(chosen[0]) in text, text
    assert "Your hand" in text  # the hand redrawn with the reason, in the same response
    assert game.version == version
    played = [e for e in game.events if isinstance(e, Played)]
    assert len(played) == 1


async def test_simultaneous_presses_are_judged_one_after_the_other(world: Any) -> None:
    """SimCord refuses overlapping clicks, so the presses race at the service the callbacks call
    (the wire-level test double-clicks real buttons through the loopback fake)."""
    _ps, _, live = await started(world, 2)
    game = live.game
    assert game is not None
    seat = game.current
    assert seat is not None
    me = live.seats[seat].user_id
    other = live.seats[1 - seat].user_id
    assert me is not None
    assert other is not None
    service = world.bot.table_service
    cards = list(lowest(game.legal_plays(seat)).cards)
    version = game.version
    results = await asyncio.gather(
        service.act(live, me, cards),
        service.act(live, me, cards),  # the same cards again: they are gone
        service.act(live, other, None),  # the other player passes, now on turn
        return_exceptions=True,
    )
    assert game.version == version + 2, results
    assert results[0] is None and results[2] is None
    assert isinstance(results[1], CardsGone)
    assert "already played" in words.refusal(words_of("en"), results[1])
    names = [type(e).__name__ for e in game.events]
    assert names.count("Played") == 1
    assert names.count("Passed") == 1


async def test_hand_privacy(world: Any, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    ps, by_id, live = await started(world, 3)
    for step in range(12):
        await take_turn(world, live, by_id, prefer_pass=step % 4 == 1)
        for p in ps:
            await open_hand(world, p)
    game = live.game
    assert game is not None
    played = {str(c) for e in game.events if isinstance(e, Played) for c in e.cards}
    for viewer in [*ps, world.guild.add_member(world.env.create_user("watcher"))]:
        for message in world.channel.history(viewer=viewer):
            if not message.author.bot:
                continue
            seat = live.seat_of(viewer.id)
            own = {str(c) for c in game.hands[seat]} if seat is not None else set()
            is_hand = said(message).startswith("**Your hand**")
            text = said(message) + " ".join(e.description or "" for e in message.embeds)
            card_labels = set(labels(message))
            for other in range(len(live.seats)):
                if other == seat:
                    continue
                for card in game.hands[other]:
                    shown = str(card) in card_labels or f" {card}" in text
                    assert not shown or str(card) in played or str(card) in own, (
                        f"{card} of seat {other} visible to {viewer.name}")
            if is_hand:
                assert message.flags.ephemeral
    for record in caplog.records:  # no log line names a card (so never a hand)
        assert not set("♠♣♦♥") & set(record.getMessage()), record.getMessage()


async def test_one_table_per_channel_and_stake_checks(world: Any) -> None:
    ps = people(world, 2)
    await open_table(world, ps[0], stake=900)
    r = await ps[1].slash(world.channel, "tienlen start")
    assert r.ephemeral and "already has a table" in said(r.response)
    await world.store.adjust_chips(world.guild.id, ps[1].id, -500, "test")
    r = await ps[1].click(board(world), label="Join")
    assert r.ephemeral and "less than the stake" in said(r.response)


async def test_stop_and_settings_permissions(world: Any) -> None:
    host, other = people(world, 2)
    admin_role = world.guild.create_role("admins",
                                         permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admin_role])
    await open_table(world, host)
    r = await other.slash(world.channel, "tienlen stop")
    assert r.ephemeral and "Only the host" in said(r.response)
    r = await admin.slash(world.channel, "tienlen settings", stake=25, preset="vc")
    assert r.ephemeral and "stake: **25**" in said(r.response)
    r = await admin.slash(world.channel, "tienlen stop")
    assert "closed" in said(r.response)
    assert await world.bot.table_service.table_in_channel(world.channel.id) is None
    # The next table uses the server's defaults.
    live = await open_table(world, host)
    assert live.table.stake == 25


async def test_daily_once_per_day(world: Any) -> None:
    (p,) = people(world, 1)
    r = await p.slash(world.channel, "daily")
    assert r.ephemeral and "**200**" in said(r.response) and "**1,200**" in said(r.response)
    r = await p.slash(world.channel, "daily")
    assert r.ephemeral and "already claimed" in said(r.response)
    assert await world.store.get_chips(world.guild.id, p.id) == 1200


async def test_rules_embed_comes_from_the_model(world: Any) -> None:
    (p,) = people(world, 1)
    r = await p.slash(world.channel, "tienlen rules", preset="online")
    embed = r.response.embeds[0]
    names = {f.name for f in embed.fields}
    assert "end" in " ".join(names) or "end" in str(embed.to_dict())


def seat_events(game: Any, seat: int) -> list[Any]:
    return [e for e in game.events if isinstance(e, Played | Passed) and e.seat == seat]


async def test_turn_clock_auto_lead_auto_pass_takeover_and_reclaim(world: Any) -> None:
    _ps, by_id, live = await started(world, 2, turn_seconds=30)
    game = live.game
    assert game is not None
    a = game.current
    assert a is not None
    b = 1 - a
    must = game.first_play_must_include
    await world.env.advance_time(31)  # A must lead: the lowest single, which includes 3♠
    (lead,) = seat_events(game, a)
    assert isinstance(lead, Played) and len(lead.cards) == 1
    if must is not None:
        assert lead.cards[0] == must
    assert live.afk[a] == 1 and not live.auto[a]
    await take_turn(world, live, by_id)  # B answers (or passes) in person
    assert seat_events(game, b)
    if game.current == a:
        before = len(seat_events(game, a))
        await world.env.advance_time(31)  # A's second timeout in a row: pass or lowest lead
        assert len(seat_events(game, a)) >= before + 1
        assert live.auto[a], "after two timeouts the computer holds the seat"
        assert "away: computer playing" in board_text(world)
        # While B plays in person, the computer answers for A at once, without the clock.
        for _ in range(3):
            if live.phase is not TablePhase.PLAYING or game.current != b:
                break
            count = len(seat_events(game, a))
            await take_turn(world, live, by_id)
            if live.phase is TablePhase.PLAYING:
                assert len(seat_events(game, a)) > count
        if live.phase is TablePhase.PLAYING:
            # A comes back: My hand returns the seat to its owner.
            await open_hand(world, by_id[live.seats[a].user_id])  # type: ignore[index]
            assert not live.auto[a] and live.afk[a] == 0


async def test_restart_mid_game_old_buttons_finish_it(world: Any) -> None:
    ps, by_id, live = await started(world, 2, stake=7)
    for _ in range(3):
        await take_turn(world, live, by_id)
    game = live.game
    assert game is not None and game.current is not None
    seat = game.current
    person = by_id[live.seats[seat].user_id]  # type: ignore[index]
    old_hand = await select(person, await open_hand(world, person),
                            lowest(game.legal_plays(seat)).cards)
    version = game.version
    await world.restart()
    live2 = world.bot.table_service.tables[live.id]
    assert live2.game is not None and live2.game.version == version
    r = await person.click(old_hand, label="Play")  # a button from before the restart
    assert "You played" in said(r.response)
    assert live2.game.version == version + 1
    await finish(world, live2, by_id)
    assert live2.phase is TablePhase.FINISHED
    total = sum([await world.store.get_chips(world.guild.id, p.id) or 0 for p in ps])
    assert total == 2000
    check = subprocess.run([sys.executable, "-m", "data.check", str(world.path)],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


async def test_play_again_winner_leads_and_stats(world: Any) -> None:
    ps, by_id, live = await started(world, 2, stake=4)
    await finish(world, live, by_id)
    first = live.game
    assert first is not None
    assert first.outcome is not None
    winner = first.outcome.winner
    await ps[1].click(board(world), label="Play again")
    assert live.phase is TablePhase.FINISHED  # a ready check: the other one is not ready yet
    assert live.ready == [ps[1].id]
    await ps[0].click(board(world), label="Play again")
    assert live.phase is TablePhase.PLAYING
    second = live.game
    assert second is not None
    assert second is not first
    assert second.current == winner  # the winner leads the next game, with anything
    assert second.first_play_must_include is None
    r = await ps[0].slash(world.channel, "tienlen stats")
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert fields["Games"] == "1"
    winner_user = by_id[live.seats[winner].user_id]  # type: ignore[index]
    r = await winner_user.slash(world.channel, "tienlen stats")
    fields = {f.name: f.value for f in r.response.embeds[0].fields}
    assert fields["Wins"].startswith("1 ")


async def test_old_board_is_replaced_by_a_fresh_message(world: Any) -> None:
    ps = people(world, 2)
    live = await open_table(world, ps[0])
    first_board = board(world).id
    service = world.bot.table_service
    real_clock = service.wall_clock
    service.wall_clock = lambda: real_clock() + 3600  # an hour later
    await seat_people(world, ps[1:])  # a change, and the board is too old to edit
    assert board(world).id != first_board
    assert live.table.board_message_id == board(world).id


@pytest.mark.slow
async def test_rule_options_and_card_exchange_between_games(world: Any) -> None:
    ps = people(world, 4)
    by_id = {p.id: p for p in ps}
    r = await ps[0].slash(world.channel, "tienlen start", options="card_exchange=maybe")
    assert r.ephemeral
    assert "card_exchange" in said(r.response)
    r = await ps[0].slash(world.channel, "tienlen start", options="no_such_rule=on")
    assert "no_such_rule" in said(r.response)
    assert await world.bot.table_service.table_in_channel(world.channel.id) is None
    live = await open_table(world, ps[0], options="card_exchange=on end=first_out")
    assert live.rules.card_exchange == "san_jose"  # "on", as saved before, means San Jose
    assert live.rules.end == "first_out"
    await seat_people(world, ps[1:])
    await ps[0].click(board(world), label="Start")
    await finish(world, live, by_id)
    await ps[0].click(board(world), label="Start")  # the host deals to everyone seated
    game = live.game
    assert game is not None
    if game.is_over:  # an instant win after the exchange ends the game at once
        return
    assert game.phase is Phase.EXCHANGE
    returning = [s for s, n in game.pending_returns.items() if n]
    assert len(returning) == 2  # the winner gives back two cards, the second one
    seat = returning[0]
    person = by_id[live.seats[seat].user_id]  # type: ignore[index]
    hand = await open_hand(world, person)
    assert "give back 2 cards" in said(hand)
    assert button(hand, "Pass").disabled
    for _ in returning:
        await take_turn(world, live, by_id)
    assert game.phase in (Phase.PLAY, Phase.OVER)  # "over": an instant win after the exchange
    await finish(world, live, by_id)
    assert live.phase is TablePhase.FINISHED


async def test_passed_player_and_play_that_does_not_beat(world: Any) -> None:
    world.bot.table_service._rng = random.Random(2)  # a fixed deal for a repeatable scenario
    _ps, by_id, live = await started(world, 3, seats=3)
    game = live.game
    assert game is not None
    await take_turn(world, live, by_id)  # A leads
    b = game.current
    assert b is not None
    b_user = by_id[live.seats[b].user_id]  # type: ignore[index]
    await b_user.click(await open_hand(world, b_user), label="Pass")
    await take_turn(world, live, by_id)  # C answers
    assert game.table is not None
    assert len(game.table) == 1
    ranks = list(Rank)
    top = ranks.index(game.table.top.rank)
    beating = [c for c in game.hands[b] if ranks.index(c.rank) > top]
    losing = [c for c in game.hands[b] if ranks.index(c.rank) < top]
    assert beating
    assert losing
    hand = await select(b_user, await open_hand(world, b_user), [losing[0]])
    assert "does not beat" in said(hand)
    assert button(hand, "Play").disabled
    hand = await select(b_user, hand, [losing[0], beating[0]])  # swap the selection
    assert "beats" in said(hand)
    # It beats the table, but B passed this trick: the line says why, Play stays disabled.
    assert "passed this trick" in said(hand)
    assert button(hand, "Play").disabled


async def test_settings_need_manage_server_and_host_can_stop(world: Any) -> None:
    host, other = people(world, 2)
    r = await other.slash(world.channel, "tienlen settings", stake=99)
    assert r.ephemeral
    assert "Manage Server" in said(r.response)
    assert (await world.store.get_guild_settings(world.guild.id)).stake is None
    await open_table(world, host)
    r = await host.slash(world.channel, "tienlen stop")
    assert "closed" in said(r.response)
    assert await world.bot.table_service.table_in_channel(world.channel.id) is None


async def test_daily_again_after_24_hours(world: Any) -> None:
    (p,) = people(world, 1)
    await p.slash(world.channel, "daily")
    real = world.store._clock
    world.store._clock = lambda: real() + timedelta(hours=24, seconds=1)
    r = await p.slash(world.channel, "daily")
    assert "You received **200**" in said(r.response)
    assert await world.store.get_chips(world.guild.id, p.id) == 1400


async def test_leaderboard_by_wins_and_win_rate(world: Any) -> None:
    ps, by_id, live = await started(world, 2)
    await finish(world, live, by_id)
    assert live.game is not None
    assert live.game.outcome is not None
    winner = live.seats[live.game.outcome.winner].user_id
    r = await ps[0].slash(world.channel, "leaderboard", by="wins")
    text = r.response.embeds[0].description
    loser = next(p.id for p in ps if p.id != winner)
    assert text.index(f"<@{winner}>") < text.index(f"<@{loser}>")
    r = await ps[0].slash(world.channel, "leaderboard", by="winrate")
    assert "Nobody here yet" in r.response.embeds[0].description  # fewer than 10 games each
    r = await ps[0].slash(world.channel, "leaderboard", page=5)
    assert "Page 5" in r.response.embeds[0].footer.text


async def test_a_player_short_of_chips_is_told_privately_and_the_table_waits(world: Any) -> None:
    host, poor = people(world, 2)
    live = await open_table(world, host, stake=300)
    await seat_people(world, [poor])
    await world.store.adjust_chips(world.guild.id, poor.id, -800, "test: lost elsewhere")
    r = await host.click(board(world), label="Start")
    assert r.ephemeral
    assert "The table waits" in said(r.response)
    assert f"<@{poor.id}>" in said(r.response)
    assert live.phase is TablePhase.LOBBY
    assert live.game is None
    dms = poor.user.dm_channel.history()
    assert dms
    assert "waiting for you" in dms[-1].content
    assert "200 chips" in dms[-1].content


async def test_computer_chops_out_of_turn(world: Any) -> None:
    """A computer seat with four consecutive pairs chops a 2 before its turn (southern rules)."""
    host, other = people(world, 2)
    live = await open_table(world, host)
    await seat_people(world, [other])
    await add_computers(world, host, "normal", 2)
    await host.click(board(world), label="Start")
    service = world.bot.table_service
    hands = ["2S 3S 3C 3D 3H 8S 8C 9D 9H JD JH QD QH",
             "2C 2D 2H 8D 8H 9S 9C JS JC QS QC KS KC",
             "4S 4C 5S 5D 6S 6C 7S 7D 10S 10C KD KH AS",
             "4D 4H 5C 5H 6D 6H 7C 7H 10D 10H AC AD AH"]
    rules = live.rules.model_copy(update={"instant_wins": False})
    async with live.lock:  # a fixed deal for this scenario: seat 0 leads anything
        live.game = Game.new(rules, [str(s.user_id or i) for i, s in enumerate(live.seats)],
                             hands=hands, first_game=False, leader=0)
        await service._commit(live)
    await play(host, await open_hand(world, host), parse_cards("2S"))
    game = live.game
    chops = [e for e in game.events if isinstance(e, Played) and e.out_of_turn]
    assert chops, [type(e).__name__ for e in game.events]
    assert chops[0].seat in (2, 3)
    assert len(chops[0].cards) == 8
    acts = [e for e in game.events if isinstance(e, Played | Passed)]
    after = acts[acts.index(chops[0]) + 1 :]
    if after:
        assert after[0].seat == (chops[0].seat + 1) % 4  # play goes on after the chopper
    # the board's 6 lines (picture on) keep the latest call-out: the chop, out of turn
    text = board_text(world)
    assert "out of turn" in text or "chopped" in text, text


@pytest.fixture
def modules_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reload imports `cogs.tienlen` and its submodules afresh, while `bot.app` keeps the
    classes it imported first (the live hands, the board publisher). Put the first modules back
    afterwards, so that later tests in this process that patch a `cogs.tienlen` module patch the
    one their bot uses."""
    import cogs

    for name, module in list(sys.modules.items()):
        if name == "cogs.tienlen" or name.startswith("cogs.tienlen."):
            monkeypatch.setitem(sys.modules, name, module)
    monkeypatch.setattr(cogs, "tienlen", sys.modules["cogs.tienlen"])


@pytest.mark.usefixtures("modules_restored")
async def test_reloading_the_extension_keeps_the_game(world: Any) -> None:
    _, by_id, live = await started(world, 2)
    await take_turn(world, live, by_id)
    version = live.game.version if live.game else None
    await world.bot.reload_extension("cogs.tienlen")
    fresh = world.bot.table_service.tables[live.id]
    assert fresh is not live  # read again from the store
    assert fresh.game is not None
    assert fresh.game.version == version
    assert live.clock_task is not None
    assert live.clock_task.cancelled()  # the old timer was stopped
    await take_turn(world, fresh, by_id)
    assert fresh.game.version == version + 1
