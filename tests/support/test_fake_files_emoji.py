"""The loopback fake Discord's file uploads (multipart, `attachment://` in embeds) and its
application-emoji routes, driven by the real discord.py in-process."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands

from cogs.tienlen._pictures import shown_attachment

from .fake_discord import FakeDiscord
from .test_fake_discord import STEP, TOKEN, MiniBot, pointed_at

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + (40).to_bytes(4, "big") + (30).to_bytes(
    4, "big") + b"rest-of-a-tiny-png"


def _file(name: str, data: bytes = PNG) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


class PictureBot(MiniBot):
    async def setup_hook(self) -> None:
        guild = discord.Object(self.guild_id)

        @app_commands.command(name="pic", description="Answer with a picture in an embed")
        async def pic(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="board").set_image(url="attachment://board.png")
            await interaction.response.send_message(embed=embed, file=_file("board.png"))
            await interaction.followup.send("hand", file=_file("hand.png"), ephemeral=True)
            again = discord.Embed(title="board 2").set_image(url="attachment://board2.png")
            await interaction.edit_original_response(embed=again,
                                                     attachments=[_file("board2.png")])

        self.tree.add_command(pic, guild=guild)
        await self.tree.sync(guild=guild)


@contextlib.asynccontextmanager
async def started(fake: FakeDiscord) -> AsyncIterator[PictureBot]:
    bot = PictureBot(fake.guild_id)
    task = asyncio.create_task(bot.start(TOKEN))
    try:
        await asyncio.wait_for(bot.wait_until_ready(), STEP)
        yield bot
    finally:
        await asyncio.wait_for(bot.close(), STEP)
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(task, STEP)


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(allowed_tokens={TOKEN})
    await server.start()
    try:
        with pointed_at(server):
            yield server
    finally:
        await server.stop()


async def test_channel_message_with_a_file_and_an_embed_pointing_at_it(fake: FakeDiscord) -> None:
    async with started(fake) as bot:
        channel = bot.get_channel(fake.channel("tienlen").id)
        assert isinstance(channel, discord.TextChannel)
        embed = discord.Embed(title="t").set_image(url="attachment://board.png")
        sent = await channel.send(embed=embed, file=_file("board.png"))
        stored = fake.message(sent.id)
        (attachment,) = stored.data["attachments"]
        assert attachment["filename"] == "board.png"
        assert (attachment["width"], attachment["height"]) == (40, 30)
        assert fake.attachment_bytes[int(attachment["id"])] == PNG
        assert stored.embeds[0]["image"]["url"] == attachment["url"]
        assert sent.embeds[0].image.url == attachment["url"]  # what discord.py read back
        # An edit with a new file replaces the old one; the embed follows it.
        embed = discord.Embed(title="t").set_image(url="attachment://next.png")
        await sent.edit(embed=embed, attachments=[_file("next.png", PNG + b"2")])
        (attachment,) = stored.data["attachments"]
        assert attachment["filename"] == "next.png"
        assert fake.attachment_bytes[int(attachment["id"])] == PNG + b"2"
        assert stored.embeds[0]["image"]["url"] == attachment["url"]
        # An embed pointing at a file the message does not carry is refused (400, 50035).
        with pytest.raises(discord.HTTPException) as refused:
            await channel.send(embed=discord.Embed().set_image(url="attachment://missing.png"))
        assert (refused.value.status, refused.value.code) == (400, 50035)
        (refusal,) = fake.take_refusals()
        assert refusal.problems[0].dotted() == "embeds.0.image.url"
        assert refusal.problems[0].value == "attachment://missing.png"


async def test_an_edit_keeps_listed_attachments_drops_the_others_and_refuses_strangers(
        fake: FakeDiscord) -> None:
    """Discord's `attachments` on an edit: a listed id is kept (nothing uploaded again), an
    unlisted one is dropped, an id the message does not carry is refused; the fake counts the
    uploads per message, their distinct contents, and re-sends of a file already shown."""
    async with started(fake) as bot:
        channel = bot.get_channel(fake.channel("tienlen").id)
        assert isinstance(channel, discord.TextChannel)
        embed = discord.Embed(title="t").set_image(url="attachment://board.png")
        sent = await channel.send(embed=embed, files=[_file("board.png"), _file("x.png")])
        stored = fake.message(sent.id)
        # Discord leaves the attachments an embed (or a V2 component) shows out of the message
        # it returns: only x.png is listed; board.png is known by its id in the stored message.
        (extra,) = sent.attachments
        assert extra.filename == "x.png"
        shown = next(a for a in stored.data["attachments"] if a["filename"] == "board.png")
        board = discord.Attachment(state=sent._state, data=shown)
        edited = await sent.edit(content="moved", attachments=[board])  # keep one, drop x.png
        assert edited.attachments == []  # the one kept is the embed's picture
        assert [int(a["id"]) for a in stored.data["attachments"]] == [board.id]
        assert stored.embeds[0]["image"]["url"] == board.url  # still resolved
        assert (stored.uploads, stored.reuploads, len(stored.upload_digests)) == (2, 0, 1)
        with pytest.raises(discord.HTTPException) as refused:
            await sent.edit(attachments=[extra])  # no longer the message's
        assert (refused.value.status, refused.value.code) == (400, 50035)
        (refusal,) = fake.take_refusals()
        assert refusal.problems[0].code == "ATTACHMENT_NOT_FOUND"
        assert [int(a["id"]) for a in stored.data["attachments"]] == [board.id]  # unchanged
        await sent.edit(attachments=[_file("board.png")])  # the same bytes again: a re-send
        assert (stored.uploads, stored.reuploads, len(stored.upload_digests)) == (3, 1, 1)
        await sent.edit(attachments=[_file("board.png", PNG + b"new")])
        assert (stored.uploads, stored.reuploads, len(stored.upload_digests)) == (4, 1, 2)
        assert (fake.uploads_total, fake.reuploads_total, fake.distinct_uploads_total) == (4, 1, 2)


async def test_a_v2_message_is_returned_with_its_picture_in_its_components_only(
        fake: FakeDiscord) -> None:
    """As Discord does, a V2 message comes back without the attachment its gallery shows in
    `attachments`; the bot finds it through the media item's attachment_id and keeps it by id."""
    async with started(fake) as bot:
        channel = bot.get_channel(fake.channel("tienlen").id)
        assert isinstance(channel, discord.TextChannel)
        layout: discord.ui.LayoutView = discord.ui.LayoutView()
        layout.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://hand.png")))
        sent = await channel.send(view=layout, files=[_file("hand.png")])
        stored = fake.message(sent.id)
        assert sent.attachments == [] and len(stored.data["attachments"]) == 1
        kept = shown_attachment(sent, "hand.png")
        assert kept is not None and kept.id == int(stored.data["attachments"][0]["id"])
        assert shown_attachment(sent, "board.png") is None
        edited = await sent.edit(view=layout, attachments=[kept])
        again = shown_attachment(edited, "hand.png")
        assert again is not None and again.id == kept.id
        assert (stored.uploads, stored.reuploads) == (1, 0)  # nothing uploaded again
    assert not fake.errors, fake.errors


async def test_interaction_responses_followups_and_edits_carry_files(fake: FakeDiscord) -> None:
    async with started(fake):
        handle = await (await fake.slash("alice", "pic")).response(STEP)
        await fake.wait_until(lambda: handle.original is not None
                              and handle.original.edit_count >= 1, STEP)
        original = handle.original
        assert original is not None
        (attachment,) = original.data["attachments"]
        assert attachment["filename"] == "board2.png"
        assert original.embeds[0]["image"]["url"] == attachment["url"]
        (followup,) = handle.followups
        assert followup.ephemeral
        assert [a["filename"] for a in followup.data["attachments"]] == ["hand.png"]
    assert not fake.errors, fake.errors
    assert not fake.unknown_routes


async def test_application_emoji_list_create_and_refuse_duplicates(fake: FakeDiscord) -> None:
    async with started(fake) as bot:
        assert await bot.fetch_application_emojis() == []
        made = await bot.create_application_emoji(name="tl_3s", image=PNG)
        assert made.name == "tl_3s"
        assert fake.emoji_images[made.id] == PNG
        with pytest.raises(discord.HTTPException) as duplicate:
            await bot.create_application_emoji(name="tl_3s", image=PNG)
        assert duplicate.value.status == 400
        with pytest.raises(discord.HTTPException):
            await bot.create_application_emoji(name="x", image=PNG)  # too short a name
        if fake.validation:  # refused by Discord's description: the test's own bad body
            (short,) = fake.take_refusals()
            assert short.problems[0].field == ("name",)
        with pytest.raises(discord.HTTPException):
            await bot.create_application_emoji(name="big", image=PNG + b"\0" * 300_000)
        listed = await bot.fetch_application_emojis()
        assert [(e.id, e.name) for e in listed] == [(made.id, "tl_3s")]
        await made.delete()
        assert await bot.fetch_application_emojis() == []
    assert not fake.unknown_routes
