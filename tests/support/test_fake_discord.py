"""Tests of the loopback fake Discord, driven by a real discord.py ``commands.Bot`` in-process.

The two process-wide URL overrides (``Route.BASE`` and ``DEFAULT_GATEWAY``) are set for each test
and restored afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import discord.gateway
import discord.http
import pytest
import yarl
from discord import app_commands
from discord.ext import commands

from .fake_discord import FakeDiscord, FaultConfig

REPO_ROOT = Path(__file__).resolve().parents[2]
TOKEN = "fake-bot-token.abc123"
STEP = 5.0  # timeout for every single await


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"counter:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=f"Count {n}", custom_id=f"counter:{n}", style=discord.ButtonStyle.primary
            )
        )
        self.n = n

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Button[Any],
        match: re.Match[str],
        /,
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(Counter(self.n + 1))
        await interaction.response.edit_message(content=f"count={self.n + 1}", view=view)


class MiniBot(commands.Bot):
    def __init__(self, guild_id: int) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            guild_ready_timeout=0.05,
        )
        self.guild_id = guild_id
        self.resumed = asyncio.Event()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Counter)
        guild = discord.Object(self.guild_id)

        @app_commands.command(name="ping", description="Reply ephemerally with a counter button")
        async def ping(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            view.add_item(Counter(0))
            await interaction.response.send_message("count=0", view=view, ephemeral=True)

        @app_commands.command(name="slow", description="Defer, then follow up")
        @app_commands.describe(word="a word to echo")
        async def slow(interaction: discord.Interaction, word: str, times: int = 1) -> None:
            await interaction.response.defer(thinking=True)
            await interaction.followup.send(f"{word * times}")
            await interaction.followup.send("secret", ephemeral=True)
            await interaction.edit_original_response(content=f"edited {word}")

        @app_commands.command(name="admin", description="Managers only")
        @app_commands.default_permissions(manage_guild=True)
        async def admin(interaction: discord.Interaction) -> None:
            perms = interaction.permissions
            await interaction.response.send_message(f"manage_guild={perms.manage_guild}")

        table = app_commands.Group(name="table", description="Table commands")

        @table.command(name="invite", description="Invite a member")
        async def invite(interaction: discord.Interaction, who: discord.Member, seats: int) -> None:
            await interaction.response.send_message(f"invited {who.name} to {seats} seats")

        for cmd in (ping, slow, admin, table):
            self.tree.add_command(cmd, guild=guild)
        await self.tree.sync(guild=guild)

    async def on_resumed(self) -> None:
        self.resumed.set()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # discord.py sleeps 5 s before a re-IDENTIFY; not needed against the fake


@contextlib.contextmanager
def pointed_at(fake: FakeDiscord) -> Any:
    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = fake.api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway


@contextlib.asynccontextmanager
async def running_bot(fake: FakeDiscord) -> AsyncIterator[MiniBot]:
    bot = MiniBot(fake.guild_id)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        done, _ = await asyncio.wait(
            {task, asyncio.ensure_future(bot.wait_until_ready())},
            timeout=STEP,
            return_when=asyncio.FIRST_COMPLETED,
        )
        if task in done:
            task.result()  # re-raise a start-up failure
        assert bot.is_ready(), "bot did not become ready"
        yield bot
    finally:
        await asyncio.wait_for(bot.close(), STEP)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, STEP)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(allowed_tokens={TOKEN}, faults=FaultConfig(retry_after=0.05))
    await server.start()
    try:
        with pointed_at(server):
            yield server
    finally:
        await server.stop()


@pytest.fixture
async def bot(fake: FakeDiscord) -> AsyncIterator[MiniBot]:
    async with running_bot(fake) as b:
        yield b


async def test_login_sync_ready_and_guild(fake: FakeDiscord, bot: MiniBot) -> None:
    assert fake.commands_synced.is_set()
    assert fake.command_names(fake.guild_id) == {"ping", "slow", "admin", "table"}
    assert bot.user is not None
    assert bot.user.id == fake.application_id
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None
    assert guild.name == fake.guild.name
    assert {c.name for c in guild.text_channels} == {"general", "tienlen", "casino"}
    assert guild.default_role.id == fake.guild_id
    assert fake.identify_count == 1
    assert not fake.unknown_routes, fake.unknown_routes


async def test_bad_token_is_rejected(fake: FakeDiscord) -> None:
    client = discord.Client(intents=discord.Intents.none())
    with pytest.raises(discord.LoginFailure):
        await asyncio.wait_for(client.login("wrong-token"), STEP)
    await client.close()


async def test_slash_then_click_edits_in_place(fake: FakeDiscord, bot: MiniBot) -> None:
    ix = await fake.slash("alice", "ping")
    await ix.response(STEP)
    assert ix.callback_type == 4
    assert ix.ephemeral
    assert ix.latency is not None
    assert 0 <= ix.latency < STEP
    msg = ix.original
    assert msg is not None
    assert msg.ephemeral
    assert msg.content == "count=0"
    assert msg.custom_ids() == ["counter:0"]
    # Only alice sees it.
    assert msg in fake.visible_to("alice")
    assert msg not in fake.visible_to("bob")
    assert msg not in fake.channel_messages(msg.channel_id)
    with pytest.raises(PermissionError):
        await fake.click("bob", msg.id, "counter:0")

    click = await fake.click("alice", msg.id, "counter:0")
    await click.response(STEP)
    assert click.callback_type == 7
    assert click.original_message_id == msg.id
    assert msg.content == "count=1"
    assert msg.custom_ids() == ["counter:1"]
    assert msg.ephemeral
    assert msg.edit_count == 1

    again = await fake.click("alice", msg, "counter:1")
    await again.response(STEP)
    assert msg.content == "count=2"
    assert len(fake.latencies) == 3
    assert fake.latency_stats()["count"] == 3
    assert not fake.errors, fake.errors


async def test_defer_followups_and_original_edit(fake: FakeDiscord, bot: MiniBot) -> None:
    ix = await fake.slash("bob", "slow", options={"word": "ha", "times": 2}, channel="tienlen")
    await ix.response(STEP)
    assert ix.callback_type == 5
    await fake.wait_until(
        lambda: (
            len(ix.followup_ids) == 1
            and ix.original is not None
            and ix.original.content == "edited ha"
        ),
        STEP,
    )
    original = ix.original
    assert original is not None
    assert not original.loading
    assert not original.ephemeral
    assert original in fake.channel_messages("tienlen")
    (secret,) = ix.followups
    assert secret.content == "secret"
    assert secret.ephemeral_user_id == fake.user("bob").id
    assert secret in fake.visible_to("bob")
    assert secret not in fake.visible_to("alice")
    assert not fake.errors, fake.errors


async def test_unknown_option_and_permissions(fake: FakeDiscord, bot: MiniBot) -> None:
    with pytest.raises(LookupError):
        await fake.slash("alice", "slow", options={"nope": 1})
    with pytest.raises(LookupError):
        await fake.slash("alice", "nosuchcommand")
    with pytest.raises(PermissionError):
        await fake.slash("alice", "admin")
    ix = await fake.slash("admin", "admin")
    await ix.response(STEP)
    assert ix.callback_data is not None
    assert ix.callback_data["content"] == "manage_guild=True"


async def test_channel_message_edit_and_429_retry(fake: FakeDiscord, bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await asyncio.wait_for(channel.send("board v1"), STEP)
    stored = fake.message(sent.id)
    assert stored.content == "board v1"
    assert not stored.ephemeral

    fake.fail_next("channel_message_edit", 429)
    await asyncio.wait_for(sent.edit(content="board v2"), STEP)
    assert fake.injected_429 == 1
    assert stored.content == "board v2"
    assert stored.edit_count == 1
    assert fake.route_counts["channel_message_edit"] == 2

    fetched = await asyncio.wait_for(channel.fetch_message(sent.id), STEP)
    assert fetched.content == "board v2"
    await asyncio.wait_for(sent.delete(), STEP)
    assert stored.deleted
    assert stored not in fake.channel_messages("general")


async def test_random_faults_are_seeded_and_retried(fake: FakeDiscord, bot: MiniBot) -> None:
    fake.faults.rate_limit_fraction = 0.3
    channel = bot.get_channel(fake.channel("casino").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await asyncio.wait_for(channel.send("x"), STEP)
    for i in range(10):
        await asyncio.wait_for(sent.edit(content=f"x{i}"), STEP)
    assert fake.message(sent.id).content == "x9"
    assert fake.injected_429 > 0
    assert fake.route_counts["channel_message_edit"] == 10 + fake.injected_429


async def test_server_error_is_retried(fake: FakeDiscord, bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    sent = await asyncio.wait_for(channel.send("y"), STEP)
    fake.fail_next("channel_message_edit", 500)
    await asyncio.wait_for(sent.edit(content="y2"), STEP)  # discord.py sleeps 1 s, then retries
    assert fake.injected_500 == 1
    assert fake.message(sent.id).content == "y2"


async def test_disconnect_resume_replays_missed_events(fake: FakeDiscord, bot: MiniBot) -> None:
    assert await fake.disconnect() == 1
    # Dispatched while the client is away: buffered and replayed on RESUME.
    ix = await fake.slash("carol", "ping")
    await asyncio.wait_for(bot.resumed.wait(), STEP)
    await ix.response(STEP)
    assert ix.callback_type == 4
    assert fake.resume_count == 1
    assert fake.identify_count == 1
    assert fake.connected


async def test_invalidated_session_reidentifies(fake: FakeDiscord, bot: MiniBot) -> None:
    fake.invalidate_sessions()
    await fake.disconnect()
    await fake.wait_until(lambda: fake.identify_count == 2, STEP)
    await fake.wait_until(lambda: fake.connected, STEP)
    ix = await fake.slash("dave", "ping")
    await ix.response(STEP)
    assert ix.callback_type == 4


async def test_late_callback_is_an_error(fake: FakeDiscord, bot: MiniBot) -> None:
    fake.callback_deadline = 0.0  # every callback is now "too late"
    ix = await fake.slash("alice", "ping")
    await ix.response(STEP)
    assert ix.late
    assert any("Unknown interaction" in e for e in fake.errors)


async def test_subcommand_with_member_option(fake: FakeDiscord, bot: MiniBot) -> None:
    ix = await fake.slash("alice", "table", "invite", {"who": fake.user("bob"), "seats": 3})
    await ix.response(STEP)
    assert ix.callback_data is not None
    assert ix.callback_data["content"] == "invited bob to 3 seats"
    by_name = await fake.slash("alice", "table", "invite", {"who": "carol", "seats": 2})
    await by_name.response(STEP)
    assert by_name.callback_data is not None
    assert by_name.callback_data["content"] == "invited carol to 2 seats"
    with pytest.raises(LookupError):
        await fake.slash("alice", "table", "nosuchsub")


async def test_standalone_prints_urls_and_serves() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.support.fake_discord",
        "--port",
        "0",
        cwd=REPO_ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        line = (await asyncio.wait_for(proc.stdout.readline(), 15)).decode().strip()
        assert line.startswith("API_BASE=http://127.0.0.1:")
        api_base = line.split("=", 1)[1]
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{api_base}/gateway") as resp:
                assert resp.status == 200
                assert resp.headers["Content-Type"] == "application/json"
                assert (await resp.json())["url"].startswith("ws://127.0.0.1:")
            async with session.get(f"{api_base}/no/such/route") as resp:
                assert resp.status == 404
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), 10) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()


async def test_periodic_disconnects_resume_and_lose_nothing() -> None:
    server = FakeDiscord(faults=FaultConfig(disconnect_every=0.3, seed=1))
    await server.start()
    try:
        with pointed_at(server):
            async with running_bot(server):
                handles = []
                deadline = asyncio.get_running_loop().time() + 1.2
                while asyncio.get_running_loop().time() < deadline:
                    handles.append(await server.slash("alice", "ping"))
                    await asyncio.sleep(0.05)
                for h in handles:
                    await h.response(STEP)
                assert server.disconnect_count >= 3
                assert server.resume_count >= 3
                assert server.identify_count == 1
                assert all(h.callback_type == 4 for h in handles)
                assert not server.errors, server.errors
    finally:
        await server.stop()


async def test_members_intent_ready_and_chunk(fake: FakeDiscord) -> None:
    intents = discord.Intents.default()
    intents.members = True
    client = discord.Client(intents=intents, guild_ready_timeout=0.05)
    ready = asyncio.Event()
    client.event(_setter("on_ready", ready))
    task = asyncio.create_task(client.start(TOKEN))
    try:
        await asyncio.wait_for(ready.wait(), STEP)
        guild = client.get_guild(fake.guild_id)
        assert guild is not None
        assert guild.chunked
        assert guild.member_count == len(fake.guild.members)
        members = await asyncio.wait_for(guild.chunk(), STEP)
        assert {m.name for m in members} >= {"alice", "bob", "admin"}
        admin = guild.get_member(fake.user("admin").id)
        assert admin is not None
        assert admin.guild_permissions.manage_guild
    finally:
        await asyncio.wait_for(client.close(), STEP)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, STEP)


def _setter(name: str, event: asyncio.Event) -> Any:
    async def handler() -> None:
        event.set()

    handler.__name__ = name
    return handler


async def test_only_new_messages_with_allowed_mentions_notify(fake: FakeDiscord,
                                                             bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    alice, bob = fake.user("alice"), fake.user("bob")
    both = f"<@{alice.id}> and <@{bob.id}>"
    only_bob = discord.AllowedMentions(everyone=False, roles=False, users=[discord.Object(bob.id)])
    sent = await asyncio.wait_for(channel.send(both, allowed_mentions=only_bob), STEP)
    assert [m.id for m in fake.notified(bob)] == [sent.id]
    assert fake.notified(alice) == []  # mentioned in the text, not allowed: no notification
    assert [u["id"] for u in fake.message(sent.id).data["mentions"]] == [str(bob.id)]
    quiet = await asyncio.wait_for(
        channel.send("placeholder", allowed_mentions=discord.AllowedMentions.none()), STEP)
    await asyncio.wait_for(quiet.edit(content=both), STEP)  # an edit never notifies
    plain = await asyncio.wait_for(channel.send(f"<@{alice.id}>"), STEP)  # no allowed_mentions
    assert [m.id for m in fake.notified(alice)] == [plain.id]
    assert [m.id for m in fake.notified(bob)] == [sent.id]


async def test_interaction_tokens_expire_after_15_minutes(fake: FakeDiscord,
                                                          bot: MiniBot) -> None:
    ix = await fake.slash("bob", "slow", options={"word": "ha", "times": 1}, channel="tienlen")
    await ix.response(STEP)
    await fake.wait_until(lambda: ix.original is not None and not ix.original.loading, STEP)
    fake.advance(16 * 60)  # the fake's clock, as seen by tokens and deadlines
    async with aiohttp.ClientSession() as http:
        url = f"{fake.api_base}/webhooks/{fake.application_id}/{ix.token}/messages/@original"
        async with http.patch(url, json={"content": "too late"}) as response:
            assert response.status == 401
            assert (await response.json())["code"] == 50027


async def test_enforced_nonce_returns_the_first_message(fake: FakeDiscord, bot: MiniBot) -> None:
    channel_id = fake.channel("general").id
    # discord.py asks Discord to enforce every nonce it sends
    params = discord.http.handle_message_parameters(content="once", nonce="tl-over-1")
    assert params.payload is not None and params.payload["enforce_nonce"] is True
    first = await asyncio.wait_for(bot.http.send_message(channel_id, params=params), STEP)
    again = await asyncio.wait_for(bot.http.send_message(channel_id, params=params), STEP)
    assert again["id"] == first["id"]
    assert [m.content for m in fake.channel_messages("general")].count("once") == 1
    fake.advance(301)  # Discord remembers a nonce for a few minutes only
    later = await asyncio.wait_for(bot.http.send_message(channel_id, params=params), STEP)
    assert later["id"] != first["id"]
    other = discord.http.handle_message_parameters(content="once", nonce="tl-over-2")
    second = await asyncio.wait_for(bot.http.send_message(channel_id, params=other), STEP)
    assert second["id"] not in (first["id"], later["id"])  # another nonce: another message
    too_long = discord.http.handle_message_parameters(content="x", nonce="n" * 26)
    with pytest.raises(discord.HTTPException):
        await asyncio.wait_for(bot.http.send_message(channel_id, params=too_long), STEP)
    (refusal,) = fake.take_refusals()  # refused on purpose: Discord answers 400 50035
    assert "nonce" in refusal.describe()


async def test_deleting_a_message_that_mentioned_someone_is_recorded(fake: FakeDiscord,
                                                                     bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    alice = fake.user("alice")
    only = discord.AllowedMentions(users=[discord.Object(alice.id)])
    ping = await asyncio.wait_for(channel.send(f"<@{alice.id}> go", allowed_mentions=only), STEP)
    await asyncio.wait_for(ping.edit(content=f"<@{alice.id}> went", allowed_mentions=only), STEP)
    assert [u["id"] for u in fake.message(ping.id).data["mentions"]] == [str(alice.id)]
    plain = await asyncio.wait_for(channel.send("no mention"), STEP)
    await asyncio.wait_for(plain.delete(), STEP)
    assert fake.mention_deletions == []
    await asyncio.wait_for(ping.delete(), STEP)
    assert fake.mention_deletions == [ping.id]  # a ghost ping


async def test_threads_are_started_named_archived_and_guarded(fake: FakeDiscord,
                                                              bot: MiniBot) -> None:
    channel = bot.get_channel(fake.channel("general").id)
    assert isinstance(channel, discord.TextChannel)
    thread = await asyncio.wait_for(channel.create_thread(
        name="Tiến Lên #0", type=discord.ChannelType.public_thread, auto_archive_duration=1440),
        STEP)
    assert thread.type is discord.ChannelType.public_thread and thread.parent_id == channel.id
    assert [t.id for t in fake.threads_of("general")] == [thread.id]
    first = await asyncio.wait_for(thread.send("board"), STEP)
    assert fake.channel_messages(thread.id)[0].id == first.id
    assert fake.channel_messages("general") == []  # the thread's messages are its own
    renamed = await asyncio.wait_for(thread.edit(name="Tiến Lên #12"), STEP)
    assert renamed.name == "Tiến Lên #12" == fake.channel(thread.id).name
    archived = await asyncio.wait_for(thread.edit(archived=True), STEP)
    assert archived.archived and fake.channel(thread.id).archived
    with pytest.raises(discord.HTTPException) as refused:  # an archived thread's messages
        await asyncio.wait_for(first.edit(content="late"), STEP)
    assert refused.value.status == 400 and refused.value.code == 50083
    await asyncio.wait_for(thread.send("wake up"), STEP)  # a post unarchives it
    assert not fake.channel(thread.id).archived
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
        url = f"{fake.api_base}/channels/{channel.id}/threads"
        for body in ({"name": "", "type": 11}, {"name": "x" * 101, "type": 11},
                     {"name": "ok", "type": 11, "auto_archive_duration": 30}):
            async with http.post(url, json=body) as response:
                assert response.status == 400 and (await response.json())["code"] == 50035
        assert len(fake.take_refusals()) == 3  # refused on purpose, as Discord does
        async with http.post(f"{fake.api_base}/channels/{thread.id}/threads",
                             json={"name": "nested", "type": 11}) as response:
            assert response.status == 400 and (await response.json())["code"] == 50024
        async with http.post(url, json={"name": "private"}) as response:  # v10's default
            assert response.status == 201 and (await response.json())["type"] == 12
        message = await asyncio.wait_for(channel.send("start here"), STEP)
        from_message = f"{fake.api_base}/channels/{channel.id}/messages/{message.id}/threads"
        async with http.post(from_message, json={"name": "replies"}) as response:
            data = await response.json()
            assert response.status == 201 and data["id"] == str(message.id)
            assert data["type"] == 11
        async with http.post(from_message, json={"name": "again"}) as response:
            assert response.status == 400 and (await response.json())["code"] == 160004
    fake.deny("general", 1 << 35)  # Create Public Threads
    with pytest.raises(discord.Forbidden):
        await asyncio.wait_for(channel.create_thread(
            name="no", type=discord.ChannelType.public_thread), STEP)
    fake.deny("general", 1 << 38)  # Send Messages in Threads: the parent's, in its threads
    with pytest.raises(discord.Forbidden):
        await asyncio.wait_for(thread.send("quiet"), STEP)
