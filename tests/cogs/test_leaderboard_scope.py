"""`/leaderboard scope: server|global` and its paging buttons, through SimCord (real discord.py,
real SQLite): the global board ranks players of every server by net chips won, wins and win
rate; players are shown as mentions that ping nobody; both languages."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from data import ChipTransfer, Seat, SeatResult, Store

from .tablekit import _real, bot_messages, labels


async def play_in(store: Store, guild: int, winner: int, loser: int, paid: int) -> None:
    """A finished two-player game in `guild`: `winner` takes `paid` chips from `loser`."""
    seats = [Seat(f"u{winner}", user_id=winner), Seat(f"u{loser}", user_id=loser)]
    game = await store.start_game(guild, 10, winner, "{}", 0, seats, "{}")
    await store.settle_game(game.id, [ChipTransfer(1, 0, paid, "place")],
                            [SeatResult(0, 1), SeatResult(1, 2)])


def member(world: Any, name: str) -> Any:
    return world.guild.add_member(world.env.create_user(name))


def embed_of(result: Any) -> discord.Embed:
    assert result.acknowledged and not result.ephemeral
    embeds = result.response.embeds
    assert len(embeds) == 1
    return embeds[0]


def newest_board(world: Any) -> discord.Message:
    """The leaderboard message as it is now (after any edit)."""
    for message in reversed(bot_messages(world)):
        if message.embeds and "eaderboard" in (message.embeds[0].title or ""):
            return message
        if message.embeds and "xếp hạng" in (message.embeds[0].title or ""):
            return message
    raise AssertionError("no leaderboard in the channel")


async def two_servers(world: Any) -> tuple[Any, Any, int]:
    """alice and bob play here (alice +40 net); carol and dave play in another server (carol
    +70 net over two games); alice also loses 10 there. Returns alice, bob, other guild id."""
    alice, bob = member(world, "alice"), member(world, "bob")
    other = world.env.create_guild()
    carol, dave = (other.add_member(world.env.create_user(n)) for n in ("carol", "dave"))
    store = world.store
    await play_in(store, world.guild.id, alice.id, bob.id, 50)
    await play_in(store, other.id, carol.id, dave.id, 30)
    await play_in(store, other.id, carol.id, alice.id, 10)
    await play_in(store, other.id, carol.id, dave.id, 30)
    world.carol, world.dave = carol, dave
    return alice, bob, other.id


async def test_server_scope_is_the_default_and_lists_only_this_server(world: Any) -> None:
    alice, bob, _ = await two_servers(world)
    default = embed_of(await alice.slash(world.channel, "leaderboard"))
    server = embed_of(await alice.slash(world.channel, "leaderboard", scope="server"))
    assert default.to_dict() == server.to_dict()
    assert server.title == "Leaderboard by chips"
    text = server.description or ""
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text
    assert f"<@{world.carol.id}>" not in text and f"<@{world.dave.id}>" not in text
    assert "1,050 chips" in text  # chips held here (1,000 to start, +50)
    assert server.footer.text == "Page 1 of 1 · 2 players"


async def test_global_scope_ranks_every_server_by_net_chips_won(world: Any) -> None:
    alice, bob, _ = await two_servers(world)
    result = await bob.slash(world.channel, "leaderboard", scope="global")
    embed = embed_of(result)
    assert embed.title == "Every server: leaderboard by net chips won"
    lines = (embed.description or "").splitlines()
    carol, dave = world.carol, world.dave
    assert [line.split(" — ")[0] for line in lines] == [
        f"**1.** <@{carol.id}>", f"**2.** <@{alice.id}>", f"**3.** <@{bob.id}>",
        f"**4.** <@{dave.id}>"]
    assert lines[0] == f"**1.** <@{carol.id}> — net +70 chips · 3 wins in 3 games (100%)"
    assert lines[1].startswith(f"**2.** <@{alice.id}> — net +40 chips · 1 win in 2 games")
    assert "net -60 chips" in lines[3]
    assert embed.footer.text == "Page 1 of 1 · 4 players"
    # nobody is pinged by a public board that names them
    message = _real(result.response)
    assert not message.mentions and not message.raw_mentions
    wins = embed_of(await bob.slash(world.channel, "leaderboard", scope="global", by="wins"))
    assert wins.title == "Every server: leaderboard by wins"
    assert (wins.description or "").index(f"<@{carol.id}>") < (wins.description or "").index(
        f"<@{alice.id}>")
    rate = embed_of(await bob.slash(world.channel, "leaderboard", scope="global",
                                    by="winrate"))
    assert rate.description == "Nobody has finished a game yet."  # nobody has 10 games


async def test_the_bot_answers_with_no_pings_allowed(world: Any, monkeypatch: Any) -> None:
    alice, _, _ = await two_servers(world)
    sent: list[Any] = []
    original = discord.InteractionResponse.send_message

    async def spy(self: Any, *args: Any, **kwargs: Any) -> Any:
        sent.append(kwargs.get("allowed_mentions"))
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "send_message", spy)
    await alice.slash(world.channel, "leaderboard", scope="global")
    await alice.slash(world.channel, "leaderboard")
    assert len(sent) == 2
    for allowed in sent:
        assert allowed is not None
        assert allowed.to_dict() == {"parse": []}


async def test_global_board_pages_with_the_option_and_the_buttons(world: Any) -> None:
    viewer = member(world, "viewer")
    for user in range(1, 13):  # 24 players in three servers: three pages
        await play_in(world.store, 7000 + user % 3, 10_000 + user, 20_000 + user, user)
    result = await viewer.slash(world.channel, "leaderboard", scope="global")
    first = embed_of(result)
    assert first.footer.text == "Page 1 of 3 · 24 players"
    assert (first.description or "").startswith("**1.** <@10012> — net +12 chips")
    message = newest_board(world)
    assert labels(message) == ["◀ Previous", "Next ▶"]
    previous, following = (c for row in message.components for c in row.children)
    assert previous.disabled and not following.disabled
    await viewer.click(message, label="Next ▶")
    message = newest_board(world)
    assert message.embeds[0].footer.text == "Page 2 of 3 · 24 players"
    assert (message.embeds[0].description or "").startswith("**11.** <@10002>")
    await viewer.click(message, label="Next ▶")
    message = newest_board(world)
    assert message.embeds[0].footer.text == "Page 3 of 3 · 24 players"
    assert (message.embeds[0].description or "").startswith("**21.** <@20009> — net -9 chips")
    previous, following = (c for row in message.components for c in row.children)
    assert not previous.disabled and following.disabled
    await viewer.click(message, label="◀ Previous")
    assert newest_board(world).embeds[0].footer.text == "Page 2 of 3 · 24 players"
    # the page option lands on the same page as the buttons
    direct = embed_of(await viewer.slash(world.channel, "leaderboard", scope="global", page=2))
    assert direct.description == newest_board(world).embeds[0].description
    # beyond the last page: an empty page, and Previous leads back to the last one
    far = await viewer.slash(world.channel, "leaderboard", scope="global", page=9)
    assert "Page 9 of 3" in (embed_of(far).footer.text or "")
    await viewer.click(newest_board(world), label="◀ Previous")
    assert newest_board(world).embeds[0].footer.text == "Page 3 of 3 · 24 players"


async def test_server_board_pages_with_the_buttons_too(world: Any) -> None:
    people = [member(world, f"p{i}") for i in range(11)]
    for i, p in enumerate(people):
        await world.store.adjust_chips(world.guild.id, p.id, 1000 - i, "test")
    await people[0].slash(world.channel, "leaderboard", by="chips")
    message = newest_board(world)
    assert message.embeds[0].footer.text == "Page 1 of 2 · 11 players"
    await people[3].click(message, label="Next ▶")
    message = newest_board(world)
    assert message.embeds[0].footer.text == "Page 2 of 2 · 11 players"
    assert (message.embeds[0].description or "").startswith(f"**11.** <@{people[10].id}>")


async def test_a_single_page_has_no_buttons(world: Any) -> None:
    alice, _, _ = await two_servers(world)
    await alice.slash(world.channel, "leaderboard", scope="global")
    assert labels(newest_board(world)) == []


async def test_a_forged_page_button_is_refused(world: Any) -> None:
    from .forge import forge_click

    viewer = member(world, "viewer")
    for user in range(1, 13):
        await play_in(world.store, 7000, 10_000 + user, 20_000 + user, user)
    await viewer.slash(world.channel, "leaderboard", scope="global")
    message = newest_board(world)
    before = message.embeds[0].description
    result = await forge_click(viewer, message, "lb:global:chips:999999")
    assert result.ephemeral
    assert newest_board(world).embeds[0].description == before


@pytest.mark.parametrize("scope", ["server", "global"])
async def test_both_scopes_in_vietnamese(world: Any, scope: str) -> None:
    alice, _, _ = await two_servers(world)
    admin_role = world.guild.create_role("admins",
                                         permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admin_role])
    await admin.slash(world.channel, "tienlen settings", language="vi")
    embed = embed_of(await alice.slash(world.channel, "leaderboard", scope=scope))
    assert "xếp hạng" in (embed.title or "")
    assert (embed.footer.text or "").startswith("Trang 1/1")
    text = embed.description or ""
    if scope == "global":
        assert (embed.title or "").startswith("Tất cả máy chủ")
        assert "tổng thắng thua +70 chip · thắng 3/3 ván (100%)" in text
        assert "ròng" not in text and "trên" not in text  # not word for word from English
    else:
        assert "1.050 chip" in text  # Vietnamese grouping
    for english in ("chips won", "Leaderboard", "Every server", "Page", " wins", " in "):
        assert english not in (embed.title or "") + text + (embed.footer.text or "")
