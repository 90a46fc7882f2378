"""The rewritten words of `/tienlen stop` and `/tienlen stats`, through SimCord (real discord.py,
a real SQLite file), in English and in Vietnamese."""

from __future__ import annotations

from typing import Any

from .forge import reply_text
from .tablekit import board_text, bot_messages, open_table, seat_people
from .test_languages import VI_LOCALE, locales  # noqa: F401 (a fixture)


def member(world: Any, name: str) -> Any:
    return world.guild.add_member(world.env.create_user(name))


async def stats_fields(world: Any, who: Any, of: Any | None = None) -> dict[str, str]:
    options = {"user": of} if of is not None else {}
    result = await who.slash(world.channel, "tienlen stats", **options)
    assert result.ephemeral
    return {f.name: str(f.value) for f in result.response.embeds[0].fields}


async def test_stats_of_someone_who_never_played_shows_the_chips_they_start_with(
        world: Any, locales: dict[int, str]) -> None:  # noqa: F811
    ann, bao = member(world, "ann"), member(world, "bao")
    locales[bao.id] = VI_LOCALE
    start = world.bot.settings.STARTING_CHIPS
    assert start > 0
    fields = await stats_fields(world, ann)
    assert fields["Chips"] == f"{start:,}" and fields["Games"] == "0"
    fields = await stats_fields(world, bao, ann)
    assert fields["Chip"] == f"{start:,}".replace(",", ".") and fields["Số ván"] == "0"
    assert fields["Số lần đánh hàng"] == "0"  # one word for a bomb: "hàng"
    assert "Thứ tự về" in fields  # a finishing place, not a rank ("thứ hạng")
    assert await world.store.get_chips(world.guild.id, ann.id) is None  # asking stored nothing


async def test_stop_is_said_once_in_the_channel_by_the_board(
        world: Any, locales: dict[int, str]) -> None:  # noqa: F811
    host, guest = member(world, "host"), member(world, "guest")
    live = await open_table(world, host)  # an English table
    await seat_people(world, [guest])
    locales[host.id] = VI_LOCALE  # the host's Discord is now in Vietnamese
    before = len(bot_messages(world))
    result = await host.slash(world.channel, "tienlen stop")
    assert result.ephemeral  # only the person who stopped it is answered
    assert reply_text(result) == f"Bàn #{live.id} đã đóng."  # in their own language
    await world.env.settle()
    assert len(bot_messages(world, guest)) == before  # nothing new posted for the others
    text = board_text(world)
    assert "Table closed (cancelled)" in text  # the board says it, in the table's language
    assert "is closed" not in text
