"""Card emoji at start-up, against the loopback fake Discord (the real bot class, in-process):
every card's emoji exists after start-up, a second start creates none, and when emoji cannot be
created the buttons fall back to text with one log line."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from PIL import Image

from bot.app import TienLenBot
from bot.settings import Settings
from cogs.pictures import emoji_names
from data import Store
from engine import Card, Rank, Suit
from tests.support.fake_discord import FakeDiscord
from tests.support.test_fake_discord import pointed_at

TOKEN = "emoji-bot-token.abc123"
STEP = 30.0


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(allowed_tokens={TOKEN})
    await server.start()
    try:
        with pointed_at(server):
            yield server
    finally:
        await server.stop()


@contextlib.asynccontextmanager
async def running(fake: FakeDiscord, db: Path) -> AsyncIterator[TienLenBot]:
    store = await Store.open(db)
    settings = Settings(DISCORD_TOKEN=TOKEN, DEV_GUILD_ID=fake.guild_id)  # type: ignore[call-arg]
    bot = TienLenBot(settings, store, guild_ready_timeout=0.05)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), STEP)
        assert bot.card_emoji_task is not None
        await asyncio.wait_for(asyncio.shield(bot.card_emoji_task), STEP)
        yield bot
    finally:
        await asyncio.wait_for(bot.close(), STEP)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, STEP)
        await store.close()


async def test_every_card_has_its_emoji_and_a_restart_creates_none(fake: FakeDiscord,
                                                                   tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with running(fake, db) as bot:
        names = {e["name"] for e in fake.application_emojis.values()}
        assert names == set(emoji_names())
        assert len(fake.application_emojis) == 53
        assert len(bot.card_emoji) == 53
        ten = bot.card_emoji.for_card(Card(Rank.TEN, Suit.HEARTS))
        assert ten is not None and ten.name == "tl_10h"
        assert fake.application_emojis[ten.id]["name"] == "tl_10h"
        for image in fake.emoji_images.values():
            assert Image.open(io.BytesIO(image)).size == (128, 128)
    created = fake.route_counts["application_emoji_create"]
    assert created == 53
    async with running(fake, db) as bot:
        assert len(bot.card_emoji) == 53
    assert fake.route_counts["application_emoji_create"] == created  # none created again
    assert fake.route_counts["application_emojis_list"] == 2
    assert len(fake.application_emojis) == 53
    assert not fake.unknown_routes and not fake.errors


async def test_a_missing_emoji_is_created_alone(fake: FakeDiscord, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    async with running(fake, db):
        pass
    two = next(e for e in fake.application_emojis.values() if e["name"] == "tl_2h")
    del fake.application_emojis[int(two["id"])]  # someone deleted one emoji
    before = fake.route_counts["application_emoji_create"]
    async with running(fake, db) as bot:
        assert fake.route_counts["application_emoji_create"] == before + 1
        assert bot.card_emoji.for_card(Card(Rank.TWO, Suit.HEARTS)) is not None


async def test_when_emoji_cannot_be_created_buttons_show_text(
        fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    fake.fail_next("application_emoji_create", status=403, count=1)
    with caplog.at_level(logging.WARNING, "bot.card_emoji"):
        async with running(fake, tmp_path / "bot.sqlite3") as bot:
            assert len(bot.card_emoji) == 0
            assert bot.card_emoji.for_card(Card(Rank.THREE, Suit.SPADES)) is None
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.card_emoji"]
    assert len(lines) == 1 and "text only" in lines[0] and "Forbidden" in lines[0], lines
