"""The loopback fake Discord shards like Discord: GET /gateway/bot, IDENTIFY with a shard (an id
outside the count is closed with 4010), each guild's events and interactions only on the
connection of its shard. Driven by two real discord.py ``AutoShardedClient``s in-process (shard 0
and shard 1 of 2) and, for the refusal, a bare websocket."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from .fake_discord import FakeDiscord
from .test_fake_discord import STEP, TOKEN, pointed_at


class ShardClient(discord.AutoShardedClient):
    """Records the guild ids of the events it receives."""

    def __init__(self, shard_id: int, shard_count: int) -> None:
        super().__init__(intents=discord.Intents.default(), shard_ids=[shard_id],
                         shard_count=shard_count, guild_ready_timeout=0.05)
        self.channels_created: list[int] = []
        self.interactions: list[int] = []

    async def on_guild_channel_create(self, channel: discord.abc.GuildChannel) -> None:
        self.channels_created.append(channel.guild.id)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        self.interactions.append(interaction.guild_id)
        await interaction.response.send_message(f"shard {interaction.guild_id}", ephemeral=True)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # no 5 s pause between shards against the fake


@contextlib.asynccontextmanager
async def running(client: ShardClient) -> AsyncIterator[ShardClient]:
    task = asyncio.create_task(client.start(TOKEN))
    try:
        ready = asyncio.ensure_future(client.wait_until_ready())
        done, _ = await asyncio.wait({task, ready}, timeout=STEP,
                                     return_when=asyncio.FIRST_COMPLETED)
        ready.cancel()
        if task in done:
            task.result()
        assert client.is_ready()
        yield client
    finally:
        await asyncio.wait_for(client.close(), STEP)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, STEP)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(allowed_tokens={TOKEN}, strict=False, recommended_shards=2)
    await server.start()
    try:
        with pointed_at(server):
            yield server
    finally:
        await server.stop()


async def test_gateway_bot_recommends_shards(fake: FakeDiscord) -> None:
    async with aiohttp.ClientSession() as http:
        url = f"{fake.api_base}/gateway/bot"
        async with http.get(url, headers={"Authorization": f"Bot {TOKEN}"}) as answer:
            assert answer.status == 200
            data = await answer.json()
        async with http.get(url, headers={"Authorization": "Bot wrong"}) as refused:
            assert refused.status == 401
    assert data["url"] == fake.gateway_url
    assert data["shards"] == 2
    assert set(data["session_start_limit"]) >= {"total", "remaining", "reset_after",
                                                "max_concurrency"}


async def _identify(fake: FakeDiscord, shard: Any) -> aiohttp.ClientWebSocketResponse:
    http = aiohttp.ClientSession()
    ws = await http.ws_connect(fake.gateway_url)
    ws._tienlen_http = http  # type: ignore[attr-defined]  # closed by the caller
    hello = await ws.receive_json(timeout=STEP)
    assert hello["op"] == 10
    await ws.send_json({"op": 2, "d": {"token": TOKEN, "intents": 1, "shard": shard,
                                       "properties": {}}})
    return ws


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0,2"])
async def test_identify_with_an_invalid_shard_is_closed_4010(fake: FakeDiscord,
                                                             shard: Any) -> None:
    ws = await _identify(fake, shard)
    try:
        closing = await ws.receive(timeout=STEP)
        assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED), closing
        assert ws.close_code == 4010 or closing.data == 4010
        assert fake.identify_count == 0 and fake.invalid_shards == [shard]
    finally:
        await ws.close()
        await ws._tienlen_http.close()  # type: ignore[attr-defined]


async def test_identify_with_a_shard_gets_only_its_guilds(fake: FakeDiscord) -> None:
    first = fake.add_guild("one", shard=(1, 2))
    ws = await _identify(fake, [1, 2])
    try:
        ready = await ws.receive_json(timeout=STEP)
        assert ready["t"] == "READY" and ready["d"]["shard"] == [1, 2]
        listed = {int(g["id"]) for g in ready["d"]["guilds"]}
        assert first.id in listed
        assert all((gid >> 22) % 2 == 1 for gid in listed)
        created = await ws.receive_json(timeout=STEP)
        assert created["t"] == "GUILD_CREATE" and int(created["d"]["id"]) in listed
    finally:
        await ws.close()
        await ws._tienlen_http.close()  # type: ignore[attr-defined]
    assert fake.shard_identifies == [(1, 2)]


async def test_each_guilds_events_go_to_its_shard_only(fake: FakeDiscord) -> None:
    guilds = {shard: fake.add_guild(f"server {shard}", shard=(shard, 2)) for shard in (0, 1)}
    for shard, guild in guilds.items():
        assert (guild.id >> 22) % 2 == shard
        fake.add_user(f"player{shard}", guild=guild)
    async with running(ShardClient(0, 2)) as zero, running(ShardClient(1, 2)) as one:
        for shard, client in ((0, zero), (1, one)):
            ids = {g.id for g in client.guilds}
            assert guilds[shard].id in ids and guilds[1 - shard].id not in ids
            assert all((gid >> 22) % 2 == shard for gid in ids)
        assert fake.shard_connected(0, 2) and fake.shard_connected(1, 2)

        for shard in (1, 0, 1):
            fake.add_channel(f"room-{shard}", guild=guilds[shard])
            handle = await fake.slash(f"player{shard}", "anything",
                                      channel=next(iter(guilds[shard].channels)))
            await handle.response(STEP)
            assert handle.shard == (shard, 2)
            assert handle.callback_data is not None
            assert handle.callback_data["content"] == f"shard {guilds[shard].id}"
        await fake.wait_until(lambda: len(zero.channels_created) + len(one.channels_created)
                              == 3, STEP)
        assert zero.channels_created == [guilds[0].id]
        assert one.channels_created == [guilds[1].id, guilds[1].id]
        assert zero.interactions == [guilds[0].id]
        assert one.interactions == [guilds[1].id, guilds[1].id]


async def test_labelled_rest_bases_record_who_called(fake: FakeDiscord) -> None:
    guild = fake.add_guild("labelled", shard=(0, 2))
    channel = next(iter(guild.channels))
    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as http:
        url = f"{fake.api_base_for('p7')}/channels/{channel}/messages"
        async with http.post(url, data=json.dumps({"content": "hi"}),
                             headers={"Content-Type": "application/json"}) as answer:
            assert answer.status == 200
        async with http.get(f"{fake.api_base}/users/@me") as plain:
            assert plain.status == 200
    assert [(r.client, r.method, r.route, r.guild_id) for r in fake.client_requests] == [
        ("p7", "POST", "channel_message_create", guild.id)]
    assert [m.content for m in fake.channel_messages(channel)] == ["hi"]
    with pytest.raises(ValueError, match="client label"):
        fake.api_base_for("a/b")
