"""Hostile input from a modified client: each finding of the attack runs is replayed here and must
get a short private refusal, log no error and change nothing."""

from __future__ import annotations

import logging
from typing import Any, get_args

import discord
import pytest

from cogs import guard
from cogs.tables import TablePhase
from cogs.tienlen._cog import PresetName, parse_options
from engine import Rules

from .forge import forge_click, forge_slash, opt, reply_text
from .tablekit import board, board_text, open_hand, open_table, said, seat_people
from .test_table_flow import people, started

STRING, INTEGER, BOOLEAN, USER, NUMBER = 3, 4, 5, 6, 10


@pytest.fixture(autouse=True)
def _no_errors(caplog: pytest.LogCaptureFixture) -> Any:
    """Every test here: nothing a user sent is logged as an error."""
    caplog.set_level(logging.INFO)
    yield
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]


def admin(world: Any) -> Any:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


def refused(result: Any, *needles: str) -> str:
    """The interaction was answered privately, within Discord's limits, naming `needles`."""
    assert result.acknowledged, result
    text = reply_text(result)
    assert result.ephemeral, text
    assert len(text) <= 2000
    for needle in needles:
        assert needle in text, text
    return text


# ---------------------------------------------------------------------- slash options
@pytest.mark.parametrize(("options", "named"), [
    ([opt("page", 0)], "page"),
    ([opt("page", -5)], "page"),
    ([opt("page", 2**62)], "page"),
    ([opt("page", 2**70)], "page"),
    ([opt("by", "bogus", STRING)], "by"),
    ([opt("by", "chips\u200b", STRING)], "by"),
    ([opt("scope", "galaxy", STRING)], "scope"),
    ([opt("scope", "Global", STRING)], "scope"),
    ([opt("scope", 1)], "scope"),
    ([opt("page", "2", STRING)], "page"),
    ([opt("page", 1.5, NUMBER)], "page"),
    ([opt("nonsense", 1)], "nonsense"),
])
async def test_leaderboard_options_are_refused(world: Any, options: list[dict[str, Any]],
                                               named: str) -> None:
    (alice,) = people(world, 1)
    result = await forge_slash(alice, world.channel, "leaderboard", options)
    refused(result, named)


async def test_leaderboard_refusal_is_in_vietnamese_for_a_vietnamese_client(world: Any) -> None:
    (alice,) = people(world, 1)
    # SimCord sends en-US; a Vietnamese client sends "vi".
    from simcord import interactions as wire

    base = wire.base_payload

    def vietnamese(*args: Any, **kwargs: Any) -> Any:
        record, payload = base(*args, **kwargs)
        payload["locale"] = "vi"
        return record, payload

    wire.base_payload = vietnamese  # type: ignore[assignment]
    try:
        result = await forge_slash(alice, world.channel, "leaderboard", [opt("page", 0)])
    finally:
        wire.base_payload = base  # type: ignore[assignment]
    refused(result, "**page** phải là một số nguyên từ 1 đến 10.000")  # Vietnamese: 10.000


async def test_stats_with_a_user_discord_did_not_resolve(world: Any) -> None:
    (alice,) = people(world, 1)
    result = await forge_slash(alice, world.channel, "tienlen stats",
                               [opt("user", "123456789012345678", USER)])
    refused(result, "user")
    huge = await forge_slash(alice, world.channel, "tienlen stats",
                             [opt("user", "9" * 30, USER)])
    refused(huge, "user")
    fine = await alice.slash(world.channel, "tienlen stats", user=alice)
    assert fine.response is not None and fine.response.embeds


@pytest.mark.parametrize(("options", "named"), [
    ([opt("stake", 2**64)], "stake"),
    ([opt("stake", 2.5, NUMBER)], "stake"),
    ([opt("stake", 2.5)], "stake"),
    ([opt("stake", True, BOOLEAN)], "stake"),
    ([opt("seats", "4", STRING)], "seats"),
    ([opt("seats", 9)], "seats"),
    ([opt("turn_seconds", 3601)], "turn_seconds"),
    ([opt("turn_seconds", 2**53)], "turn_seconds"),
    ([opt("turn_seconds", 0)], "turn_seconds"),
    ([opt("rules", "bogus", STRING)], "rules"),
    ([opt("rules", "southern\u200b", STRING)], "rules"),
    ([opt("rules", "", STRING)], "rules"),
    ([opt("options", "x" * 1990, STRING)], "options"),
    ([opt("stake", 5), opt("stake", 6)], "stake"),
])
async def test_start_options_are_refused_and_no_table_opens(
        world: Any, options: list[dict[str, Any]], named: str) -> None:
    (alice,) = people(world, 1)
    result = await forge_slash(alice, world.channel, "tienlen start", options)
    text = refused(result, named)
    assert "x" * 50 not in text  # nothing a user typed is echoed at length
    assert world.bot.table_service.tables == {}
    assert await world.store.list_open_tables() == []


async def test_a_long_rule_option_is_not_echoed(world: Any) -> None:
    (alice,) = people(world, 1)
    result = await alice.slash(world.channel, "tienlen start", options="y" * 590)
    text = refused(result)
    assert "y" * 50 not in text
    assert world.bot.table_service.tables == {}
    with pytest.raises(Exception, match="Option suit_order") as caught:
        parse_options(Rules(), "suit_order=" + "Q" * 300)
    assert len(str(caught.value)) < 200


@pytest.mark.parametrize(("options", "named"), [
    ([opt("preset", "zz_bogus", STRING)], "preset"),
    ([opt("preset", "", STRING)], "preset"),
    ([opt("stake", -1)], "stake"),
    ([opt("stake", 2**64)], "stake"),
    ([opt("turn_seconds", 0)], "turn_seconds"),
    ([opt("turn_seconds", 3601)], "turn_seconds"),
    ([opt("turn_reminder", -1)], "turn_reminder"),
    ([opt("turn_reminder", 2**63)], "turn_reminder"),
])
async def test_settings_are_validated_before_they_are_stored(
        world: Any, options: list[dict[str, Any]], named: str) -> None:
    boss = admin(world)
    result = await forge_slash(boss, world.channel, "tienlen settings", options)
    refused(result, named)
    stored = await world.store.get_guild_settings(world.guild.id)
    assert (stored.preset, stored.stake, stored.turn_seconds) == (None, None, None)


async def test_a_stored_bogus_preset_falls_back_with_a_warning(
        world: Any, caplog: pytest.LogCaptureFixture) -> None:
    # As an older version (or a hand-edited database) could have left it.
    async with world.store._write() as db:
        await db.execute("INSERT INTO guild_settings (guild_id, preset, stake, turn_seconds) "
                         "VALUES (?, 'zz_bogus', 0, 99999)", (world.guild.id,))
    (alice,) = people(world, 1)
    live = await open_table(world, alice)
    assert live.rules == Rules.preset("southern")
    assert live.table.stake == 10
    assert live.table.turn_seconds == world.bot.settings.DEFAULT_TURN_SECONDS
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert any("zz_bogus" in w and "default" in w for w in warnings), warnings
    boss = admin(world)
    shown = await boss.slash(world.channel, "tienlen settings")
    assert "preset: **southern**" in reply_text(shown)


def test_the_preset_choices_are_the_engines_presets() -> None:
    assert list(get_args(PresetName)) == Rules.preset_names()


async def test_an_unknown_command_and_a_malformed_payload_are_answered(world: Any) -> None:
    (alice,) = people(world, 1)
    bad = await forge_slash(alice, world.channel, "leaderboard", [],
                            raw={"name": "leaderboard", "type": 1, "options": "nonsense"})
    refused(bad)
    nested = await forge_slash(alice, world.channel, "tienlen", [],
                               raw={"name": "tienlen", "type": 1,
                                    "options": [{"name": "nope", "type": 1, "options": []}]})
    refused(nested)


# ---------------------------------------------------------------------- buttons
async def test_forged_board_ids_are_refused(world: Any) -> None:
    (alice, bob) = people(world, 2)
    live = await open_table(world, alice)
    message = board(world)
    before = board_text(world)
    for custom_id in (f"tl:b:{2**64}:join", f"tl:b:{'9' * 19}:join", f"tl:b:{live.id}:nope",
                      f"tl:b:{'9' * 30}:join", "tl:b::join", "zzz", "tl:b:1:join" + "x" * 80,
                      f"tl:ai:{2**64}:easy", f"tl:ai:{live.id}:godlike"):
        result = await forge_click(bob, message, custom_id)
        refused(result)
    assert len(live.seats) == 1
    assert board_text(world) == before


async def test_hand_ids_past_64_bits_and_card_codes_outside_the_deck(world: Any) -> None:
    ps, _by_id, live = await started(world, 2)
    game = live.game
    assert game is not None
    hand = await open_hand(world, ps[0])
    version = game.version
    for custom_id, needle in (
        (f"tl:h:{live.id}:{version}:0:c{10**9}", "not known"),  # the stall of the attack
        (f"tl:h:{live.id}:{version}:0:c{'1' * 30}", "not known"),
        (f"tl:h:{live.id}:{version}:0:c999", "not in any deck"),
        (f"tl:h:{live.id}:{version}:0:c104", "not in any deck"),
        (f"tl:h:{live.id}:{'9' * 19}:0:play", "not valid"),  # 19 digits, past 64 bits
        (f"tl:h:{'9' * 19}:{version}:0:play", "not valid"),
        (f"tl:h:{live.id}:{2**64}:0:play", "not known"),  # 20 digits: no button has that
        (f"tl:h:{live.id}:{version}:{'f' * 40}:play", "not known"),
    ):
        result = await forge_click(ps[0], hand, custom_id)
        refused(result, needle)
    assert game.version == version
    # A legitimate toggle still works on the same hand.
    ok = await ps[0].click(hand, label=str(game.hands[0][0]))
    assert "**Your hand**" in said(ok.response)


async def test_a_hand_button_on_the_public_board_is_refused(world: Any) -> None:
    ps, _by_id, live = await started(world, 2)
    game = live.game
    assert game is not None
    message = board(world)
    before = board_text(world)
    result = await forge_click(ps[0], message, f"tl:h:{live.id}:{game.version}:0:c0")
    refused(result, "private hand")
    assert board_text(world) == before
    assert "**Your hand**" not in said(board(world))


async def test_a_board_button_on_a_hand_is_refused(world: Any) -> None:
    ps, _by_id, live = await started(world, 2)
    hand = await open_hand(world, ps[1])
    result = await forge_click(ps[1], hand, f"tl:b:{live.id}:leave")
    refused(result, "board")
    assert len(live.seats) == 2 and live.phase is TablePhase.PLAYING


async def test_a_button_of_another_channels_table_is_refused(world: Any) -> None:
    (alice, bob) = people(world, 2)
    live = await open_table(world, alice)
    other = world.guild.create_text_channel("elsewhere")
    note = await bob.send(other, "hello")
    result = await forge_click(bob, note, f"tl:b:{live.id}:join")
    refused(result, "another channel")
    assert len(live.seats) == 1
    await seat_people(world, [bob])
    assert len(live.seats) == 2


def test_clip_keeps_echoes_short_and_visible() -> None:
    assert guard.clip("x" * 1990) == "x" * 39 + "…"
    assert guard.clip("southern\u200b") == repr("southern\u200b")
    assert "@everyone" not in guard.clip("@everyone")
    assert len(guard.fit("y" * 5000)) == 2000
