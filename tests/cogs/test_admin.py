"""`/tienlen admin chips|reset-leaderboard|log` through SimCord (real discord.py, a real SQLite
file): each change followed by `/leaderboard`, `/tienlen stats` and `data.check`; refusals that
change nothing; a take during a running game held back by the table's stake."""

from __future__ import annotations

from typing import Any

import discord

from data.admin import AMOUNT_MAX
from data.check import check_path
from tests.support import layout

from .forge import forge_slash, opt, reply_text
from .tablekit import open_table, seat_people
from .test_languages import locales  # noqa: F401 (a fixture)

STRING, USER = 3, 6


def admin(world: Any) -> Any:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


def member(world: Any, name: str) -> Any:
    return world.guild.add_member(world.env.create_user(name))


def private(result: Any) -> str:
    assert result.acknowledged and result.ephemeral, result
    return reply_text(result)


async def leaderboard(world: Any, who: Any) -> str:
    result = await who.slash(world.channel, "leaderboard")
    return result.response.embeds[0].description or ""


async def stats_chips(world: Any, who: Any, of: Any) -> str:
    result = await who.slash(world.channel, "tienlen stats", user=of)
    assert result.ephemeral
    fields = {f.name: f.value for f in result.response.embeds[0].fields}
    return str(fields["Chips"])


def sound(world: Any) -> list[str]:
    report = check_path(world.path)
    assert report.ok, report.faults
    return report.facts


async def test_grant_take_set_and_reset_then_leaderboard_stats_and_check(world: Any) -> None:
    boss, alice, bob = admin(world), member(world, "alice"), member(world, "bob")
    await bob.slash(world.channel, "daily")
    text = private(await boss.slash(world.channel, "tienlen admin chips", user=alice,
                                    action="grant", amount=500, reason="event prize"))
    assert "Granted **500** chips" in text and "1,500" in text and f"<@{alice.id}>" in text
    assert "1,500 chips" in await leaderboard(world, bob)
    assert await stats_chips(world, bob, alice) == "1,500"
    assert "admin grants 500" in " ".join(sound(world))

    text = private(await boss.slash(world.channel, "tienlen admin chips", user=bob,
                                    action="take", amount=200, reason="dispute"))
    assert "Took **200** chips" in text and "**1,000**" in text
    assert await stats_chips(world, alice, bob) == "1,000"
    assert "admin takes 200" in " ".join(sound(world))

    text = private(await boss.slash(world.channel, "tienlen admin chips", user=alice,
                                    action="set", amount=42, reason="correction"))
    assert "**42**" in text and "-1,458" in text
    board = await leaderboard(world, alice)
    assert board.index(f"<@{bob.id}>") < board.index(f"<@{alice.id}>")
    assert "42 chips" in board
    sound(world)

    text = private(await boss.slash(world.channel, "tienlen admin reset-leaderboard",
                                    confirm=True, stats="clear", reason="new season"))
    assert "1 player is back to 1,000 chips; stats cleared" in text  # bob held 1,000
    assert await stats_chips(world, bob, alice) == "1,000"
    assert await stats_chips(world, alice, bob) == "1,000"
    assert (await leaderboard(world, bob)).count("1,000 chips") == 2
    facts = " ".join(sound(world))
    assert "4 admin changes: 1 grant, 1 reset, 1 set, 1 take" in facts

    log = await boss.slash(world.channel, "tienlen admin log")
    assert log.ephemeral
    embed = log.response.embeds[0]
    lines = (embed.description or "").splitlines()
    assert len(lines) == 4 and "reset the leaderboard" in lines[0] and "new season" in lines[0]
    assert "granted 500" in lines[3] and "event prize" in lines[3]
    assert embed.footer.text == "Page 1 of 1 · 4 changes"
    mine = await boss.slash(world.channel, "tienlen admin log", user=alice)
    assert len((mine.response.embeds[0].description or "").splitlines()) == 2


async def test_log_has_ten_a_page(world: Any) -> None:
    boss, alice = admin(world), member(world, "alice")
    for i in range(12):
        await boss.slash(world.channel, "tienlen admin chips", user=alice, action="grant",
                         amount=i + 1, reason=f"r{i}")
    first = (await boss.slash(world.channel, "tienlen admin log")).response.embeds[0]
    second = (await boss.slash(world.channel, "tienlen admin log", page=2)).response.embeds[0]
    assert len((first.description or "").splitlines()) == 10
    assert (second.description or "").count("\n") == 1 and "r0" in (second.description or "")
    assert second.footer.text == "Page 2 of 2 · 12 changes"


async def test_a_take_during_a_running_game_is_refused_where_too_little_would_stay(
        world: Any) -> None:
    boss, alice, bob = admin(world), member(world, "alice"), member(world, "bob")
    live = await open_table(world, alice, stake=300)
    await seat_people(world, [bob])
    await alice.click(next(m for m in reversed(world.channel.history())
                           if "Tiến Lên — table" in layout.text(m)), label="Start")
    assert live.playing
    text = private(await boss.slash(world.channel, "tienlen admin chips", user=bob,
                                    action="take", amount=701, reason="too much"))
    assert f"table #{live.id} (stake 300)" in text and "at most 700" in text
    text = private(await boss.slash(world.channel, "tienlen admin chips", user=bob,
                                    action="set", amount=10, reason="too low"))
    assert "at most 700" in text
    assert await world.store.get_chips(world.guild.id, bob.id) == 1000
    text = private(await boss.slash(world.channel, "tienlen admin reset-leaderboard",
                                    confirm=True))
    assert f"#{live.id}" in text and "Games are being played" in text
    assert (await world.store.admin_log(world.guild.id)).total == 0
    text = private(await boss.slash(world.channel, "tienlen admin chips", user=bob,
                                    action="take", amount=700, reason="down to the stake"))
    assert "**300**" in text
    sound(world)


async def test_bad_input_is_refused_and_changes_nothing(world: Any) -> None:
    boss, alice = admin(world), member(world, "alice")
    outsider = world.env.create_user("outsider")
    await alice.slash(world.channel, "daily")

    async def nothing_changed() -> None:
        assert await world.store.get_chips(world.guild.id, alice.id) == 1200
        assert (await world.store.admin_log(world.guild.id)).total == 0

    cases = [
        (alice, {"user": alice, "action": "grant", "amount": 5, "reason": "me"}, "Manage Server"),
        (boss, {"user": alice, "action": "grant", "amount": 0, "reason": "zero"}, "at least 1"),
        (boss, {"user": alice, "action": "take", "amount": 0, "reason": "zero"}, "at least 1"),
        (boss, {"user": alice, "action": "take", "amount": 1201, "reason": "all"},
         "holds only 1,200"),
    ]
    for who, options, needle in cases:
        text = private(await who.slash(world.channel, "tienlen admin chips", **options))
        assert needle in text, text
        await nothing_changed()
    raw = [
        ([opt("user", str(alice.id), USER), opt("action", "grant", STRING), opt("amount", -5),
          opt("reason", "neg", STRING)], "amount"),
        ([opt("user", str(alice.id), USER), opt("action", "grant", STRING),
          opt("amount", AMOUNT_MAX + 1), opt("reason", "big", STRING)], "amount"),
        ([opt("user", str(alice.id), USER), opt("action", "grant", STRING),
          opt("amount", "12", STRING), opt("reason", "text", STRING)], "amount"),
        ([opt("user", str(alice.id), USER), opt("action", "grant", STRING), opt("amount", 5),
          opt("reason", "x" * 201, STRING)], "reason"),
        ([opt("user", str(alice.id), USER), opt("action", "steal", STRING), opt("amount", 5),
          opt("reason", "r", STRING)], "action"),
    ]
    resolved = {"users": {str(alice.id): {"id": str(alice.id), "username": "alice",
                                          "discriminator": "0", "avatar": None}}}
    for options, named in raw:
        result = await forge_slash(boss, world.channel, "tienlen admin chips", options,
                                   resolved=resolved)
        assert f"**{named}**" in private(result)
        await nothing_changed()
    text = private(await boss.slash(world.channel, "tienlen admin chips", user=outsider,
                                    action="grant", amount=5, reason="not here"))
    assert "member of this server" in text
    for who, command, options in [
        (alice, "tienlen admin reset-leaderboard", {"confirm": True}),
        (alice, "tienlen admin log", {}),
    ]:
        assert "Manage Server" in private(await who.slash(world.channel, command, **options))
    text = private(await boss.slash(world.channel, "tienlen admin reset-leaderboard",
                                    confirm=False))
    assert "Nothing was reset" in text and "confirm: True" in text
    await nothing_changed()
    sound(world)


async def test_admin_answers_in_vietnamese(world: Any, locales: dict[int, str]) -> None:  # noqa: F811
    boss, alice = admin(world), member(world, "alice")
    locales[boss.id] = "vi"
    text = private(await boss.slash(world.channel, "tienlen admin chips", user=alice,
                                    action="grant", amount=1500, reason="giải"))
    assert "Đã cộng **1.500** chip" in text and "**2.500**" in text
    log = await boss.slash(world.channel, "tienlen admin log")
    assert log.response.embeds[0].title == "Thay đổi của quản trị viên"
