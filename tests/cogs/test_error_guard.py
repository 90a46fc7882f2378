"""An unexpected error anywhere (a command, a button) is answered with an apology carrying an error
id, and logged once with that id and the table, never with a card or a token."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from .forge import reply_text
from .tablekit import board, open_table
from .test_table_flow import people, started

ERROR_ID = re.compile(r"Error id: `([0-9A-F]{8})`")


def _errors(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_failing_button_is_answered_with_an_error_id_logged_once(
        world: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    alice, bob = people(world, 2)
    live = await open_table(world, alice)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(world.bot.table_service, "join", broken)
    result = await bob.click(board(world), label="Join")
    assert result.ephemeral
    found = ERROR_ID.search(reply_text(result))
    assert found, reply_text(result)
    errors = _errors(caplog)
    assert len(errors) == 1
    line = errors[0].getMessage()
    assert found.group(1) in line and f"table {live.id}" in line
    assert len(live.seats) == 1


async def test_a_failing_command_is_answered_with_an_error_id_logged_once(
        world: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    (alice,) = people(world, 1)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the disk is on fire")

    monkeypatch.setattr(world.store, "leaderboard", broken)
    result = await alice.slash(world.channel, "leaderboard")
    assert result.ephemeral
    found = ERROR_ID.search(reply_text(result))
    assert found, reply_text(result)
    errors = _errors(caplog)
    assert len(errors) == 1 and found.group(1) in errors[0].getMessage()
    assert "/leaderboard" in errors[0].getMessage()
    world.env.errors  # noqa: B018  (SimCord: the tree's on_error saw it; it was expected)


async def test_a_failing_hand_button_logs_no_card(
        world: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    ps, _by_id, live = await started(world, 2)
    game = live.game
    assert game is not None
    caplog.set_level(logging.DEBUG)
    hand = await ps[0].click(board(world), label="My hand")

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("rendering failed")

    # The render module the bot's live hands draw with: after another test's bot closed (which
    # unloads the extension), `cogs.tienlen._render` in sys.modules may be a later copy.
    render = type(world.bot.hands).draw.__globals__["render"]
    monkeypatch.setattr(render, "hand", broken)
    card = str(game.hands[0][0])
    result = await ps[0].click(hand.response, label=card)
    assert ERROR_ID.search(reply_text(result))
    errors = _errors(caplog)
    assert len(errors) == 1
    assert "hand button 'card'" in errors[0].getMessage()
    for record in caplog.records:
        assert card not in record.getMessage()


class _Response:  # what discord.HTTPException reads of an aiohttp response
    status = 404
    reason = "Not Found"


async def test_an_answer_discord_no_longer_takes_is_one_warning_without_a_traceback(
        world: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine too busy to answer within 3 s Discord drops the press (10062 Unknown
    interaction): no one can be answered, so the bot logs one warning, not an error."""
    import discord

    (alice,) = people(world, 1)

    async def too_late(*args: Any, **kwargs: Any) -> None:
        raise discord.NotFound(_Response(), {"code": 10062, "message": "Unknown interaction"})

    monkeypatch.setattr(world.store, "leaderboard", too_late)
    caplog.set_level(logging.WARNING)
    await alice.slash(world.channel, "leaderboard")
    assert not _errors(caplog)
    late = [r for r in caplog.records if "answered too late" in r.getMessage()]
    assert len(late) == 1 and late[0].exc_info is None and "/leaderboard" in late[0].getMessage()
    world.env.errors  # noqa: B018

    async def other(*args: Any, **kwargs: Any) -> None:
        raise discord.NotFound(_Response(), {"code": 10008, "message": "Unknown Message"})

    monkeypatch.setattr(world.store, "leaderboard", other)  # any other 404 is still an error
    await alice.slash(world.channel, "leaderboard")
    assert len(_errors(caplog)) == 1
    world.env.errors  # noqa: B018
