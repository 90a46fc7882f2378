"""History, the replay viewer and Share through SimCord: real discord.py, real SQLite."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from cogs import glossary
from cogs.i18n import words as words_of
from cogs.tables import TablePhase
from engine import Game
from engine.replay import Replay

from .forge import forge_click, reply_text
from .tablekit import add_computers, board, button, open_table, take_turn
from .test_languages import locales  # noqa: F401 - the fixture
from .test_table_flow import modules_restored  # noqa: F401 - the fixture


def people(world: Any, n: int) -> list[Any]:
    return [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n)]


async def finished_game(world: Any) -> tuple[list[Any], int, Game]:
    """Two people and two computers play one whole game; returns them, the game id, the game."""
    ps = people(world, 2)
    by_id = {p.id: p for p in ps}
    live = await open_table(world, ps[0], stake=5)
    await ps[1].click(board(world), label="Join")
    await add_computers(world, ps[0], "easy", 2)
    await ps[0].click(board(world), label="Start")
    assert live.game_id is not None and live.game is not None
    game_id = live.game_id
    for _ in range(400):
        if live.phase is not TablePhase.PLAYING:
            break
        await take_turn(world, live, by_id, shed=True)
    assert live.phase is TablePhase.FINISHED
    game = live.game
    assert game is not None and game.is_over
    return ps, game_id, game


def _hands_of_running_game(live: Any) -> list[str]:
    return [str(c) for h in live.game.hands for c in h]


async def test_history_viewer_and_share(world: Any) -> None:
    ps, game_id, game = await finished_game(world)
    steps = len(Replay(game.events))
    shown = await ps[1].slash(world.channel, "tienlen history")
    assert shown.ephemeral
    page = shown.response
    assert f"Game #{game_id}" in page.embeds[0].description
    place = glossary.place(words_of("en"), game.places.index(1) + 1)  # ps[1] sits in seat 1
    assert f"{place} of 4" in page.embeds[0].description
    opened = await ps[1].click(page, label=f"Replay #{game_id}")
    viewer = opened.response
    assert opened.ephemeral
    assert viewer.embeds[0].title.endswith(f"step 0 of {steps - 1}")
    assert [a.filename for a in viewer.attachments] == ["replay.png"]
    assert "13 cards" in viewer.embeds[0].description
    # ▶ to the end, one step a press (the step is in the button's id).
    for k in range(1, 4):
        viewer = (await ps[1].click(viewer, label="▶")).response
        assert viewer.embeds[0].title.endswith(f"step {k} of {steps - 1}")
    viewer = (await ps[1].click(viewer, label="⏭")).response
    assert viewer.embeds[0].title.endswith(f"step {steps - 1} of {steps - 1}")
    assert "Game over" in viewer.embeds[0].description
    assert button(viewer, "▶").disabled and button(viewer, "⏭").disabled
    viewer = (await ps[1].click(viewer, label="◀")).response
    assert viewer.embeds[0].title.endswith(f"step {steps - 2} of {steps - 1}")
    viewer = (await ps[1].click(viewer, label="⏮")).response
    assert viewer.embeds[0].title.endswith(f"step 0 of {steps - 1}")
    # Jump to a trick: its first step.
    replay = Replay(game.events)
    jumped = await ps[1].select(viewer, [str(replay.first_step_of_trick(2))],
                                custom_id=f"tl:rj:{game_id}")
    assert jumped.response.embeds[0].title.endswith(
        f"step {replay.first_step_of_trick(2)} of {steps - 1}")
    assert "Trick 2." in jumped.response.embeds[0].description
    # A double click on ▶ of one drawing shows the same step twice: no skip.
    first = await ps[1].click(viewer, label="▶")
    second = await ps[1].click(viewer, label="▶")
    assert first.response.embeds[0].title == second.response.embeds[0].title
    # Share: one public message with one animated attachment and a caption.
    before = len([m for m in world.channel.history() if m.author.bot])
    shared = await ps[1].click(viewer, label="Share")
    assert "posted" in reply_text(shared)
    posts = [m for m in world.channel.history() if m.author.bot]
    assert len(posts) == before + 1
    post = posts[-1]
    assert f"Replay of game #{game_id}" in post.content
    (attachment,) = post.attachments
    assert attachment.filename == "replay.gif"
    data = await attachment.read()
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.is_animated and gif.n_frames >= 3
    assert len(data) <= 300_000


async def test_running_or_foreign_games_are_never_replayed(world: Any) -> None:
    ps = people(world, 2)
    live = await open_table(world, ps[0])
    await ps[1].click(board(world), label="Join")
    await ps[0].click(board(world), label="Start")
    assert live.game_id is not None
    held = _hands_of_running_game(live)
    hand_text = " ".join(held)
    # A forged Replay or step id for the running game: refused, no card shown.
    for custom_id in (f"tl:rp:{live.game_id}", f"tl:rv:{live.game_id}:3:n",
                      f"tl:rs:{live.game_id}"):
        forged = await _press(world, ps[1], custom_id)
        assert "not finished" in forged, forged
        assert not any(card in forged.split() for card in held), hand_text
    assert "no game #999" in (await _press(world, ps[1], "tl:rp:999")).lower()
    # Oversized ids: no button of the bot claims them.
    assert "not known" in await _press(world, ps[1], "tl:rp:" + "9" * 25)
    assert "not known" in await _press(world, ps[1], f"tl:rv:{live.game_id}:123456:n")


async def _press(world: Any, person: Any, custom_id: str) -> str:
    """Press a button with this custom id, as a modified client could, on the bot's private
    history message."""
    host = await person.slash(world.channel, "tienlen history")
    return reply_text(await forge_click(person, host.response, custom_id))


@pytest.mark.parametrize("steps_past", [1, 50])
async def test_a_step_past_the_end_is_refused(world: Any, steps_past: int) -> None:
    ps, game_id, game = await finished_game(world)
    last = len(Replay(game.events)) - 1
    text = await _press(world, ps[0], f"tl:rv:{game_id}:{last + steps_past}:n")
    assert f"has no step {last + steps_past}" in text


async def test_a_finished_game_is_replayed_only_in_its_own_server(
        world: Any, locales: dict[int, str]) -> None:  # noqa: F811 - the imported fixture
    ps, game_id, game = await finished_game(world)
    other = world.env.create_guild()
    other_channel = other.create_text_channel("elsewhere")
    stranger = other.add_member(world.env.create_user("stranger"))
    listed = await stranger.slash(other_channel, "tienlen history", user=stranger)
    assert "no finished game" in listed.response.embeds[0].description
    forged = reply_text(await forge_click(stranger, listed.response, f"tl:rp:{game_id}"))
    assert "another server" in forged
    held = {str(c) for h in game.events[0].hands for c in h}  # type: ignore[attr-defined]
    assert not held & set(forged.replace(",", " ").split())
    # In its own server, anyone may replay it, in their language.
    viewer = world.guild.add_member(world.env.create_user("viewer"))
    locales[viewer.id] = "vi"
    page = await viewer.slash(world.channel, "tienlen history", user=ps[0])
    opened = await viewer.click(page.response, label=f"Xem lại #{game_id}")
    assert opened.ephemeral
    assert opened.response.embeds[0].title.startswith(f"Xem lại ván #{game_id}")


@pytest.mark.usefixtures("modules_restored")
async def test_history_survives_a_reload_of_the_tienlen_extension(world: Any) -> None:
    await world.bot.reload_extension("cogs.tienlen")
    group = world.bot.tree.get_command("tienlen")
    assert group.get_command("history") is not None
    p = people(world, 1)[0]
    shown = await p.slash(world.channel, "tienlen history")
    assert "no finished game" in shown.response.embeds[0].description
