"""Helpers that act as people at a table through SimCord (clicks and slash commands only)."""

from __future__ import annotations

from typing import Any

import discord
import simcord

from cogs.tables import LiveTable
from engine import Card, Combo, Phase
from tests.support import layout


def bot_messages(world: Any, viewer: Any | None = None) -> list[discord.Message]:
    return [m for m in world.channel.history(viewer=viewer) if m.author.bot]


def board(world: Any) -> discord.Message:
    """The newest board message in the channel (drawn in the V2 layout: a container whose text
    starts with the table's title)."""
    for message in reversed(bot_messages(world)):
        if "Tiến Lên — table" in layout.text(message).split("\n", 1)[0]:
            return message
    raise AssertionError("no board message in the channel")


def board_text(world: Any) -> str:
    """What the board says: its text and its picture's description (the seat list, shown by
    the picture, read by screen readers)."""
    message = board(world)
    return "\n".join([layout.text(message), *layout.alt_texts(message)])


def said(message: Any) -> str:
    """What a message (a hand, a board) says in words, whatever its layout."""
    return layout.text(_real(message))


def _real(message: Any) -> Any:
    """SimCord's ResponseMessage wraps a discord.Message; use the real one."""
    return message.message if isinstance(message, simcord.ResponseMessage) else message


def labels(message: Any) -> list[str]:
    message = _real(message)
    return [label for child in layout.walk(message.components)
            if (label := getattr(child, "label", None))]


def button(message: Any, label: str) -> Any:
    message = _real(message)
    for child in layout.walk(message.components):
        if getattr(child, "label", None) == label:
            return child
    raise AssertionError(f"no button {label!r} in {labels(message)}")


def only_table(world: Any) -> LiveTable:
    tables = list(world.bot.table_service.tables.values())
    assert len(tables) == 1, tables
    return tables[0]


async def open_table(world: Any, host: Any, **options: Any) -> LiveTable:
    result = await host.slash(world.channel, "tienlen start", **options)
    assert result.ephemeral, result
    return only_table(world)


async def seat_people(world: Any, people: list[Any]) -> None:
    for person in people:
        await person.click(board(world), label="Join")


async def add_computers(world: Any, host: Any, level: str, count: int) -> None:
    for _ in range(count):
        chooser = await host.click(board(world), label="Add computer player")
        assert chooser.ephemeral
        await host.click(chooser.response, label=level.capitalize())


async def open_hand(world: Any, person: Any) -> Any:
    result = await person.click(board(world), label="My hand")
    assert result.ephemeral, result
    return result.response


async def select(person: Any, hand_message: Any, cards: list[Card] | tuple[Card, ...]) -> Any:
    message = hand_message
    for card in cards:
        result = await person.click(message, label=str(card))
        message = result.response
    return message


async def play(person: Any, hand_message: Any, cards: list[Card] | tuple[Card, ...]) -> Any:
    message = await select(person, hand_message, cards)
    return await person.click(message, label="Play")


def lowest(plays: list[Combo]) -> Combo:
    return min(plays, key=lambda c: (c.top, -len(c)))


def shedding(plays: list[Combo]) -> Combo:
    """The play that sheds the most cards (the lowest of those): a game played this way ends in
    about half the turns of one played with `lowest`, through the same buttons."""
    return min(plays, key=lambda c: (-len(c), c.top))


async def take_turn(world: Any, live: LiveTable, people: dict[int, Any], *,
                    prefer_pass: bool = False, shed: bool = False) -> None:
    """The seat to act plays its lowest legal play (or passes when `prefer_pass` and allowed);
    with `shed`, the play that sheds the most cards (see `shedding`)."""
    game = live.game
    assert game is not None
    if game.phase is Phase.EXCHANGE:
        seat = next(s for s, n in game.pending_returns.items() if n)
        need = game.pending_returns[seat]
        person = people[live.seats[seat].user_id]  # type: ignore[index]
        hand = await open_hand(world, person)
        result = await play(person, hand, game.hands[seat][:need])
        assert "You gave back" in said(result.response), result
        return
    assert game.current is not None
    seat = game.current
    person = people[live.seats[seat].user_id]  # type: ignore[index]
    hand = await open_hand(world, person)
    if prefer_pass and game.table is not None:
        await person.click(hand, label="Pass")
        return
    plays = game.legal_plays(seat)
    if not plays:
        await person.click(hand, label="Pass")
        return
    result = await play(person, hand, (shedding if shed else lowest)(plays).cards)
    assert not (result.response and "out of date" in said(result.response)), result
