"""The fake Discord's limits mode: global limit (interaction routes exempt), per-route buckets and
their headers, 429 bodies, the invalid-request counter, channel permissions, old-message edits."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from tests.support.fake_discord import FakeDiscord
from tests.support.fake_discord.limits import LimitConfig
from tests.support.fake_discord.models import EMBED_LINKS, SEND_MESSAGES, VIEW_CHANNEL


@pytest_asyncio.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(limits=LimitConfig(global_per_second=10, invalid_limit=30))
    await server.start()
    yield server
    await server.stop()


@pytest_asyncio.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": "Bot x"}) as session:
        yield session


async def _post(http: aiohttp.ClientSession, fake: FakeDiscord, channel: Any,
                text: str = "hi") -> tuple[int, dict[str, Any], Any]:
    cid = fake.channel(channel).id
    async with http.post(f"{fake.api_base}/channels/{cid}/messages",
                         json={"content": text}) as resp:
        return resp.status, dict(resp.headers), await resp.json()


async def test_channel_bucket_headers_and_route_429(fake: FakeDiscord,
                                                    http: aiohttp.ClientSession) -> None:
    answers = [await _post(fake=fake, http=http, channel="general") for _ in range(6)]
    statuses = [status for status, _, _ in answers]
    assert statuses == [200] * 5 + [429]
    _, headers, _ = answers[0]
    assert headers["X-RateLimit-Limit"] == "5"
    assert headers["X-RateLimit-Remaining"] == "4"
    assert float(headers["X-RateLimit-Reset-After"]) > 4.5
    assert headers["X-RateLimit-Bucket"] and float(headers["X-RateLimit-Reset"]) > 0
    _, headers, body = answers[5]
    assert body["global"] is False and 0 < body["retry_after"] <= 5
    assert body["message"] == "You are being rate limited."
    assert headers["X-RateLimit-Scope"] == "user" and "Via" in headers
    # another channel has its own bucket
    assert (await _post(fake=fake, http=http, channel="casino"))[0] == 200
    assert fake.route_429 == 1 and fake.invalid_requests == 1


async def test_global_limit_spares_interaction_routes(fake: FakeDiscord,
                                                      http: aiohttp.ClientSession) -> None:
    statuses = []
    for _ in range(12):
        async with http.get(f"{fake.api_base}/users/@me") as resp:
            statuses.append(resp.status)
            if resp.status == 429:
                body = await resp.json()
                assert body["global"] is True
                assert resp.headers["X-RateLimit-Scope"] == "global"
    assert statuses.count(429) == 2 and fake.global_429 == 2
    assert fake.peak_window() == 10
    # interaction callbacks and webhooks are exempt: unknown tokens answer 404, never 429
    async with http.post(f"{fake.api_base}/webhooks/{fake.application_id}/nosuchtoken",
                         json={"content": "x"}) as resp:
        assert resp.status != 429


async def test_invalid_requests_block_the_bot(fake: FakeDiscord,
                                              http: aiohttp.ClientSession) -> None:
    fake.deny("general", SEND_MESSAGES)
    for _ in range(30):
        assert (await _post(fake=fake, http=http, channel="general"))[0] in (403, 429)
    assert fake.blocked_until is not None
    status, _, body = await _post(fake=fake, http=http, channel="casino")
    assert status == 403 and "blocked" in body["message"]


async def test_channel_permissions_answer_discord_codes(fake: FakeDiscord,
                                                        http: aiohttp.ClientSession) -> None:
    fake.deny("general", SEND_MESSAGES)
    status, _, body = await _post(fake=fake, http=http, channel="general")
    assert (status, body["code"]) == (403, 50013)
    fake.deny("casino", VIEW_CHANNEL)
    status, _, body = await _post(fake=fake, http=http, channel="casino")
    assert (status, body["code"]) == (403, 50001)
    fake.deny("tienlen", EMBED_LINKS)
    ch = fake.channel("tienlen")
    assert not fake.bot_permissions_in(ch) & EMBED_LINKS
    assert fake.bot_permissions_in(ch) & SEND_MESSAGES
    fake.allow("general", SEND_MESSAGES)
    assert (await _post(fake=fake, http=http, channel="general"))[0] == 200


@pytest.mark.parametrize("budget", [0, 1])
async def test_old_message_edits_past_the_budget_get_30046(
    budget: int, http: aiohttp.ClientSession
) -> None:
    fake = FakeDiscord(limits=LimitConfig(old_edit_budget=budget))
    await fake.start()
    try:
        _status, _, message = await _post(fake=fake, http=http, channel="general")
        url = f"{fake.api_base}/channels/{message['channel_id']}/messages/{message['id']}"
        async with http.patch(url, json={"content": "fresh"}) as resp:
            assert resp.status == 200  # a young message: edits are free
        fake.advance(3601)
        codes = []
        for _ in range(2):
            async with http.patch(url, json={"content": "old"}) as resp:
                codes.append(resp.status if resp.status == 200 else (await resp.json())["code"])
        assert codes == [200] * budget + [30046] * (2 - budget)
    finally:
        await fake.stop()
