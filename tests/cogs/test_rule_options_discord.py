"""The rule options and the host's stake through SimCord: real discord.py, real SQLite."""

from __future__ import annotations

from typing import Any

from cogs.tables import LiveTable, TablePhase
from engine import Game, Played, parse_cards

from .tablekit import (
    board,
    board_text,
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


async def test_options_autocomplete_every_option_and_its_values(world: Any) -> None:
    (host,) = people(world, 1)
    names = await host.autocomplete(world.channel, "tienlen start", "options", "")
    offered = [c["value"] for c in names]
    for option in ("double_quad=", "chop_after_pass=", "cong=", "card_exchange="):
        assert option in offered
    values = await host.autocomplete(world.channel, "tienlen start", "options",
                                     "cong=on card_ex")
    assert [c["value"] for c in values] == [
        "cong=on card_exchange=off", "cong=on card_exchange=san_jose",
        "cong=on card_exchange=tribute"]
    chop = await host.autocomplete(world.channel, "tienlen start", "options", "chop_after_pass=")
    assert [c["name"] for c in chop] == [
        "chop_after_pass=off", "chop_after_pass=pairs", "chop_after_pass=any_bomb"]


async def test_new_options_open_a_table_and_show_in_the_rules(world: Any) -> None:
    (host,) = people(world, 1)
    r = await host.slash(world.channel, "tienlen start", options="card_exchange=sometimes")
    assert r.ephemeral and "Option card_exchange" in said(r.response)
    live = await open_table(
        world, host,
        options="double_quad=on chop_after_pass=any_bomb cong=on card_exchange=tribute")
    rules = live.rules
    assert (rules.double_quad, rules.chop_after_pass, rules.cong, rules.card_exchange) == (
        True, "any_bomb", True, "tribute")
    shown = await host.slash(world.channel, "tienlen rules")
    fields = {f.name: f.value for f in shown.response.embeds[0].fields}
    assert fields["Two consecutive quads are a bomb"] == "on"
    assert fields["Chop out of turn (after passing)"].startswith("with any bomb")
    assert fields["Card exchange between games"].startswith("losers give their two highest")
    assert fields["Frozen players (no card played when someone goes out) pay double"] == "on"


async def _finish(live: LiveTable, world: Any, by_id: dict[int, Any]) -> None:
    for step in range(400):
        if live.phase is not TablePhase.PLAYING:
            return
        await take_turn(world, live, by_id, prefer_pass=step % 7 == 3)
    raise AssertionError("the game did not finish")


async def test_the_host_sets_the_stake_between_games(world: Any) -> None:
    host, guest = people(world, 2)
    live = await open_table(world, host, stake=10, seats=2)
    await seat_people(world, [guest])
    await world.store.adjust_chips(world.guild.id, guest.id, -950, "test: lost elsewhere")
    assert await world.store.get_chips(world.guild.id, guest.id) == 50
    # only the host, and at most what the poorest seated person holds
    r = await guest.slash(world.channel, "tienlen stake", amount=20)
    assert said(r.response) == "Only the host can change the stake."
    r = await host.slash(world.channel, "tienlen stake", amount=51)
    assert "from 1 to 50 chips" in said(r.response)
    assert live.table.stake == 10
    r = await host.slash(world.channel, "tienlen stake", amount=50)
    assert not r.ephemeral and "from the next game the stake is **50** chips" in said(r.response)
    assert live.table.stake == 50
    assert "Stake **50**" in board_text(world)  # the board shows it before the deal
    await host.slash(world.channel, "tienlen stake", amount=20)
    assert "Stake **20**" in board_text(world)
    # not during a game
    await host.click(board(world), label="Start")
    assert live.phase is TablePhase.PLAYING
    r = await host.slash(world.channel, "tienlen stake", amount=5)
    assert r.ephemeral and "in progress" in said(r.response)
    assert live.table.stake == 20
    # between games again: the finished board shows the new stake and the next deal uses it
    await _finish(live, world, {host.id: host, guest.id: guest})
    assert live.phase is TablePhase.FINISHED
    poorest = min([await world.store.get_chips(world.guild.id, p.id) or 0
                   for p in (host, guest)])
    assert poorest >= 30  # 50 less one unit of 20 (the seeded deal is played out)
    await host.slash(world.channel, "tienlen stake", amount=min(7, poorest))
    # with the board picture the stake is in the board's one head line
    shown = board_text(world).replace("**", "")
    assert f"Stake {min(7, poorest)}" in shown
    await host.click(board(world), label="Start")
    assert live.game_id is not None
    record = await world.store.get_game(live.game_id)
    assert record.stake == min(7, poorest)


async def test_a_person_bombs_out_of_turn_with_any_bomb(world: Any) -> None:
    """With chop_after_pass=any_bomb a quad answers a 2 before its owner's turn, from the hand."""
    host, a, b = people(world, 3)
    live = await open_table(world, host, seats=3, options="chop_after_pass=any_bomb")
    await seat_people(world, [a, b])
    await host.click(board(world), label="Start")
    hands = ["2S 3S 4D", "5S 6C 7D", "9S 9C 9D 9H 8S"]
    rules = live.rules.model_copy(update={"instant_wins": False})
    async with live.lock:  # a fixed deal: the host leads, the third seat holds a quad
        live.game = Game.new(rules, [str(s.user_id) for s in live.seats], hands=hands,
                             first_game=False, leader=0)
        await world.bot.table_service._commit(live)
    await play(host, await open_hand(world, host), parse_cards("2S"))
    game = live.game
    assert game.current == 1
    hand = await open_hand(world, b)
    selected = await select(b, hand, parse_cards("9S 9C 9D 9H"))
    assert "four 9s — beats the single 2♠" in said(selected)
    await b.click(selected, label="Play")
    chops = [e for e in game.events if isinstance(e, Played) and e.out_of_turn]
    assert [(e.seat, len(e.cards)) for e in chops] == [(2, 4)]
    assert game.current == 0  # play goes on after the chopper
    assert "out of turn" in board_text(world)
