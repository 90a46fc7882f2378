"""`/tienlen help` through SimCord (real discord.py, a real SQLite file): a private guide in the
reader's language, a topic a page, a menu that turns the page in place (and still works after a
restart), the examples drawn as a picture when the server shows card pictures and text only when
it does not; a forged topic is refused and changes nothing."""

from __future__ import annotations

import io
from typing import Any

import discord
from PIL import Image

from cogs.help import _words as help_words
from cogs.help._pictures import EXAMPLES, examples, view_of
from cogs.i18n import words as words_of
from cogs.pictures import HandView

from .forge import forge_select, forge_slash, reply_text
from .tablekit import _real
from .test_languages import VI_LOCALE, has_vietnamese, locales  # noqa: F401 (a fixture)

EN, VI = words_of("en"), words_of("vi")


def member(world: Any, name: str) -> Any:
    return world.guild.add_member(world.env.create_user(name))


def admin(world: Any) -> Any:
    role = world.guild.create_role("admins", permissions=discord.Permissions(manage_guild=True))
    return world.guild.add_member(world.env.create_user("admin"), roles=[role])


async def drawn(world: Any) -> None:
    """Draw the guide's pictures before the test reads them (a fresh bot warms its card sprites
    in the drawing thread first; a reader then gets text until they are drawn: tested on the
    wire), so that a loaded machine cannot turn a page into text."""
    cog = world.bot.get_cog("Help")
    for topic in EXAMPLES:
        await cog.pictures.png(topic)
    await world.env.settle(timeout=60)


def menu_of(message: Any) -> Any:
    (row,) = _real(message).components
    (select,) = row.children
    assert select.custom_id == "tl:help"
    return select


async def test_the_guide_in_english_with_a_picture_and_a_menu(world: Any) -> None:
    ann = member(world, "ann")
    await drawn(world)
    result = await ann.slash(world.channel, "tienlen help")
    assert result.ephemeral
    page = result.response
    (embed,) = page.embeds
    assert embed.title == "How to play Tiến Lên — Goal and combinations"
    text = embed.description or ""
    for word in ("single", "pair", "triple", "quad", "sequence", "consecutive pairs"):
        assert f"**{word}**" in text
    (picture,) = page.attachments
    assert picture.filename == "help.png"
    assert embed.image.url in (picture.url, "attachment://help.png")
    assert (picture.description or "").startswith("Examples: single 7♥ (7♥); pair of 9s")
    image = Image.open(io.BytesIO(await picture.read()))
    assert image.format == "PNG" and image.width > image.height
    select = menu_of(page)
    assert [o.label for o in select.options] == [help_words.topic_label(EN, t)
                                                 for t in help_words.TOPICS]
    assert [o.default for o in select.options] == [True, False, False, False, False, False]
    turned = await ann.select(page, ["chops"], custom_id="tl:help")
    (embed,) = turned.response.embeds
    assert embed.title == "How to play Tiến Lên — Chops"
    assert "**chop**" in (embed.description or "")
    assert [a.filename for a in turned.response.attachments] == ["help.png"]
    assert [o.default for o in menu_of(turned.response).options][3]
    buttons = await ann.select(turned.response, ["buttons"], custom_id="tl:help")
    (embed,) = buttons.response.embeds
    assert "**Join**" in (embed.description or "") and "**Hint**" in (embed.description or "")
    assert buttons.response.attachments == []  # a topic without examples has no picture


async def test_the_guide_in_vietnamese_and_a_topic_chosen_in_the_command(
        world: Any, locales: dict[int, str]) -> None:  # noqa: F811
    bao = member(world, "bao")
    locales[bao.id] = VI_LOCALE
    await drawn(world)
    result = await bao.slash(world.channel, "tienlen help", topic="order")
    (embed,) = result.response.embeds
    assert embed.title == "Cách chơi Tiến Lên — Thứ tự số và chất"
    assert "3 4 5 6 7 8 9 10 J Q K A 2" in (embed.description or "")
    assert menu_of(result.response).options[0].label == "Mục tiêu và các bộ bài"
    turned = await bao.select(result.response, ["basics"], custom_id="tl:help")
    text = turned.response.embeds[0].description or ""
    for word in ("lá lẻ", "đôi", "sám cô", "tứ quý", "sảnh", "đôi thông", "hàng"):
        assert word in text
    assert "bom" not in text
    assert (turned.response.attachments[0].description or "").startswith("Ví dụ: lá lẻ 7♥")


async def test_pictures_off_gives_the_same_guide_as_text_only(world: Any) -> None:
    await admin(world).slash(world.channel, "tienlen settings", images="off")
    ann = member(world, "ann")
    result = await ann.slash(world.channel, "tienlen help")
    assert result.response.attachments == [] and result.response.embeds[0].image.url is None
    assert "The picture shows" not in (result.response.embeds[0].description or "")
    assert "7♥" in (result.response.embeds[0].description or "")  # the examples, in words


async def test_the_menu_works_after_a_restart_and_a_forged_topic_is_refused(world: Any) -> None:
    ann = member(world, "ann")
    page = (await ann.slash(world.channel, "tienlen help")).response
    await world.restart()
    turned = await ann.select(page, ["end"], custom_id="tl:help")
    assert turned.response.embeds[0].title == "How to play Tiến Lên — End of a game and chips"
    forged = await forge_select(ann, page, "tl:help", ["<@everyone>"])
    assert forged.ephemeral and reply_text(forged) == "This button is not known any more."
    option = await forge_slash(ann, world.channel, "tienlen help",
                               [{"name": "topic", "type": 3, "value": "cheats"}])
    assert option.ephemeral and not option.response.embeds
    assert "topic" in reply_text(option)  # the edge names the option it refused


def test_every_page_fits_discord_and_reads_in_its_language() -> None:
    for topic in help_words.TOPICS:
        en = help_words.page_text(EN, topic, pictured=True)
        vi = help_words.page_text(VI, topic, pictured=True)
        assert 0 < len(en) <= 4096 and 0 < len(vi) <= 4096
        assert len(help_words.title(EN, topic)) <= 256 and len(help_words.title(VI, topic)) <= 256
        assert len(help_words.topic_label(VI, topic)) <= 100  # a select option's label
        assert has_vietnamese(vi) and not has_vietnamese(en)
        alt = help_words.picture_alt(VI, examples(topic))
        assert len(alt) <= 1024  # an attachment's description
    assert set(EXAMPLES) <= set(help_words.TOPICS)


def test_each_example_is_the_combination_its_page_names() -> None:
    kinds = [c.kind.value for c in examples("basics")]
    assert kinds == ["single", "pair", "triple", "quad", "sequence", "double_sequence"]
    assert [c.kind.value for c in examples("chops")] == ["single", "double_sequence", "quad"]
    view = view_of("basics")
    assert isinstance(view, HandView) and len(view.cards) == 20
    assert view.raised[:3] == (False, True, True)  # the groups alternate
    assert view_of("buttons") is None
