"""Persistent buttons. Every custom id carries the table id (and, on a hand, the drawing number and
the selection), so a button keeps working after a restart: state lives in the store, not here."""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator
from typing import Any, Protocol, runtime_checkable

import discord

from cogs import guard

from . import selection as sel

# Bounded fields: at most 19 digits for a table id or a version (then checked against 64 bits),
# a selection of at most 26 hex digits (104 cards: two decks), a card code of at most 3 digits
# (then checked against the deck), so no custom id costs more than a few comparisons.
_ID = r"[0-9]{1,19}"
_WORD = r"[a-z]{1,12}"


@runtime_checkable
class TableHandlers(Protocol):
    """What the buttons call: the TienLen cog (named by this protocol, not imported, so that the
    cog may import the views that render its messages)."""

    async def on_board_button(self, interaction: discord.Interaction[Any], table_id: int,
                              action: str) -> None: ...

    async def on_add_computer(self, interaction: discord.Interaction[Any], table_id: int,
                              level: str) -> None: ...

    async def on_hand_button(self, interaction: discord.Interaction[Any], table_id: int,
                             press: int, mask: int, op: str) -> None: ...

    async def on_leave_confirm(self, interaction: discord.Interaction[Any], table_id: int,
                               game_id: int) -> None: ...


def _cog(interaction: discord.Interaction[Any]) -> TableHandlers:
    cog = interaction.client.get_cog("TienLen")
    assert isinstance(cog, TableHandlers), "the TienLen cog is not loaded"
    return cog


def _snowflake(text: str) -> int | None:
    """A table id or a version from a custom id: within 64 bits, else None."""
    value = int(text)
    return value if value <= guard.SNOWFLAKE_MAX else None


class SentView(discord.ui.View):
    """A view that is only sent: every button on it is a DynamicItem, dispatched from its custom
    id, so nothing ever listens to this object. Its items do not point back at it, which leaves
    no reference cycle: a sent view is freed by reference counting as soon as the request is done,
    instead of piling up (with its buttons, about 40 objects) for the cyclic garbage collector,
    whose full collections stalled the event loop by 100 ms and more at 200 busy tables."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def add_item(self, item: discord.ui.Item[Any]) -> SentView:
        super().add_item(item)
        item._update_view(None)  # the only back reference (discord.py's Item.view)
        return self


def release(interaction: discord.Interaction[Any]) -> None:
    """Once an interaction is answered and handled, drop the objects that point back at it (its
    response, its original message), so that it and the message it carries (with all its
    components) are freed by reference counting rather than piling up for a full collection.
    Anything that asks again gets fresh ones: discord.py builds both on demand."""
    with contextlib.suppress(AttributeError):
        del interaction._cs_response  # type: ignore[attr-defined]
    interaction._original_response = None


@contextlib.asynccontextmanager
async def pressed(item: discord.ui.Item[Any], interaction: discord.Interaction[Any],
                  what: str) -> AsyncIterator[None]:
    """A button's callback under the error guard; afterwards the view discord.py rebuilt from the
    pressed message is taken apart (its items point at it and it at them: a cycle that only the
    cyclic garbage collector would free, one per press), and so is the interaction."""
    try:
        async with guard.guarded(interaction, what):
            yield
    finally:
        if item.view is not None:
            item.view.clear_items()
        release(interaction)


def _on_hand(interaction: discord.Interaction[Any]) -> bool:
    message = interaction.message
    return message is not None and message.flags.ephemeral


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"tl:b:(?P<table>{_ID}):(?P<action>{_WORD})"):
    """Lobby and board buttons: join, leave, addai, start, cancel, hand, rules, again."""

    def __init__(self, table_id: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or action, style=style,
                                           custom_id=f"tl:b:{table_id}:{action}"))
        self.table_id = table_id
        self.action = action
        self.problem: str | None = None  # why a forged id is refused (a message of cogs.guard)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> BoardButton:
        button = item if isinstance(item, discord.ui.Button) else None
        table_id = _snowflake(match["table"])
        made = cls(table_id or 0, match["action"],
                   label=(button.label or "") if button else "",
                   style=button.style if button else discord.ButtonStyle.secondary)
        if table_id is None:
            made.problem = guard.BAD_TABLE_ID
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, f"table {self.table_id}: board button"):
            w = guard.reader(interaction)
            if self.problem:
                raise guard.Refused(w.marked(self.problem))
            if _on_hand(interaction):
                raise guard.Refused(w._("This button belongs on the table's board, not on a "
                                        "hand."))
            await _cog(interaction).on_board_button(interaction, self.table_id, self.action)


class AiLevelButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=rf"tl:ai:(?P<table>{_ID}):(?P<level>{_WORD})"):
    """The level choice shown after `Add computer player` (on a private message)."""

    def __init__(self, table_id: int, level: str, *, label: str = "") -> None:
        super().__init__(discord.ui.Button(label=label or level.capitalize(),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"tl:ai:{table_id}:{level}"))
        self.table_id = table_id
        self.level = level
        self.problem: str | None = None

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> AiLevelButton:
        table_id = _snowflake(match["table"])
        made = cls(table_id or 0, match["level"])
        if table_id is None:
            made.problem = guard.BAD_TABLE_ID
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, f"table {self.table_id}: computer level button"):
            w = guard.reader(interaction)
            if self.problem:
                raise guard.Refused(w.marked(self.problem))
            if not _on_hand(interaction):
                raise guard.Refused(w.marked(guard.UNKNOWN_BUTTON))
            await _cog(interaction).on_add_computer(interaction, self.table_id, self.level)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=(rf"tl:h:(?P<table>{_ID}):(?P<press>{_ID}):"
                           rf"(?P<sel>[0-9a-f]{{1,{sel.MAX_HEX}}}):"
                           r"(?P<op>c(?P<code>[0-9]{1,3})|play|pass|clear|hint)")):
    """A button on a hand: a card (`c<code>`) toggles it; play, pass, clear, hint act. ``press``:
    the number of the drawing the button belongs to (double clicks are recognised by it)."""

    def __init__(self, table_id: int, press: int, mask: int, op: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary,
                 disabled: bool = False, row: int | None = None,
                 emoji: discord.PartialEmoji | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or op, style=style, disabled=disabled, row=row, emoji=emoji,
                custom_id=f"tl:h:{table_id}:{press}:{sel.encode(mask)}:{op}",
            )
        )
        self.table_id = table_id
        self.press = press
        self.mask = mask
        self.op = op
        self.problem: str | None = None

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HandButton:
        table_id, press = _snowflake(match["table"]), _snowflake(match["press"])
        op = match["op"]
        made = cls(table_id or 0, press or 0, sel.decode(match["sel"]), op)
        if table_id is None or press is None:
            made.problem = guard.BAD_TABLE_ID
        elif match["code"] is not None and int(match["code"]) >= sel.MAX_CODES:
            made.problem = guard.NO_SUCH_CARD
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        kind = "card" if self.op[1:].isdigit() else self.op  # a card code would reveal the hand
        async with pressed(self, interaction, f"table {self.table_id}: hand button {kind}"):
            w = guard.reader(interaction)
            if self.problem:
                raise guard.Refused(w.marked(self.problem))
            if not _on_hand(interaction):
                raise guard.Refused(w._("This button belongs on your private hand, not on this "
                                        "message."))
            await _cog(interaction).on_hand_button(interaction, self.table_id, self.press,
                                                   self.mask, self.op)


PLAY_VALUE = re.compile(rf"[0-9a-f]{{1,{sel.MAX_HEX}}}")
"""A menu choice: the hex mask of the play's cards (as in a hand button's custom id)."""


class PlayMenu(discord.ui.DynamicItem[discord.ui.Select[Any]],
               template=rf"tl:m:(?P<table>{_ID}):(?P<press>{_ID})"):
    """The hand's menu of the plays the reader may make now: choosing one plays its cards, as
    selecting them and pressing Play would (the same path through the table). ``press``: the
    drawing the menu belongs to, as on the hand's buttons."""

    def __init__(self, table_id: int, press: int,
                 options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None, disabled: bool = False) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"tl:m:{table_id}:{press}", placeholder=placeholder, min_values=1,
            max_values=1, disabled=disabled,
            options=options or [discord.SelectOption(label="play", value="0")]))
        self.table_id = table_id
        self.press = press
        self.problem: str | None = None

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PlayMenu:
        table_id, press = _snowflake(match["table"]), _snowflake(match["press"])
        made = cls(table_id or 0, press or 0)
        if table_id is None or press is None:
            made.problem = guard.BAD_TABLE_ID
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, f"table {self.table_id}: play menu"):
            w = guard.reader(interaction)
            if self.problem:
                raise guard.Refused(w.marked(self.problem))
            if not _on_hand(interaction):
                raise guard.Refused(w._("This button belongs on your private hand, not on this "
                                        "message."))
            data: Any = interaction.data or {}
            values = data.get("values") if isinstance(data, dict) else None
            value = values[0] if isinstance(values, list) and len(values) == 1 else ""
            if not isinstance(value, str) or not PLAY_VALUE.fullmatch(value):
                raise guard.Refused(w.marked(guard.NOT_A_PLAY))  # a forged choice
            await _cog(interaction).on_hand_button(interaction, self.table_id, self.press,
                                                   sel.decode(value), "play")


class LeaveConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                         template=rf"tl:q:(?P<table>{_ID}):(?P<game>{_ID})"):
    """The confirmation of `Leave game` (on a private message): carries the game's id, so a
    confirmation left over from an earlier game never ends a later one."""

    def __init__(self, table_id: int, game_id: int, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.danger) -> None:
        super().__init__(discord.ui.Button(label=label or "leave", style=style,
                                           custom_id=f"tl:q:{table_id}:{game_id}"))
        self.table_id = table_id
        self.game_id = game_id
        self.problem: str | None = None

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> LeaveConfirmButton:
        table_id, game_id = _snowflake(match["table"]), _snowflake(match["game"])
        made = cls(table_id or 0, game_id or 0)
        if table_id is None or game_id is None:
            made.problem = guard.BAD_TABLE_ID
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, f"table {self.table_id}: leave confirmation"):
            w = guard.reader(interaction)
            if self.problem:
                raise guard.Refused(w.marked(self.problem))
            if not _on_hand(interaction):
                raise guard.Refused(w.marked(guard.UNKNOWN_BUTTON))
            await _cog(interaction).on_leave_confirm(interaction, self.table_id, self.game_id)


DYNAMIC_ITEMS = (BoardButton, AiLevelButton, HandButton, PlayMenu, LeaveConfirmButton)
