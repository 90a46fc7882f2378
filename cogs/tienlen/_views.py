"""Persistent buttons. Every custom id carries the table id (and, on a hand, the drawing number and
the selection), so a button keeps working after a restart: state lives in the store, not here."""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from . import selection as sel


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


def _cog(interaction: discord.Interaction[Any]) -> TableHandlers:
    cog = interaction.client.get_cog("TienLen")
    assert isinstance(cog, TableHandlers), "the TienLen cog is not loaded"
    return cog


class BoardButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=r"tl:b:(?P<table>[0-9]+):(?P<action>[a-z]+)"):
    """Lobby and board buttons: join, leave, addai, start, cancel, hand, rules, again."""

    def __init__(self, table_id: int, action: str, *, label: str = "",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label or action, style=style,
                                           custom_id=f"tl:b:{table_id}:{action}"))
        self.table_id = table_id
        self.action = action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> BoardButton:
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(int(match["table"]), match["action"],
                   label=(button.label or "") if button else "",
                   style=button.style if button else discord.ButtonStyle.secondary)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_board_button(interaction, self.table_id, self.action)


class AiLevelButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"tl:ai:(?P<table>[0-9]+):(?P<level>[a-z]+)"):
    """The level choice shown after `Add computer player`."""

    def __init__(self, table_id: int, level: str) -> None:
        super().__init__(discord.ui.Button(label=level.capitalize(),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"tl:ai:{table_id}:{level}"))
        self.table_id = table_id
        self.level = level

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> AiLevelButton:
        return cls(int(match["table"]), match["level"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_add_computer(interaction, self.table_id, self.level)


class HandButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"tl:h:(?P<table>[0-9]+):(?P<press>[0-9]+):(?P<sel>[0-9a-f]+):(?P<op>[a-z0-9]+)"):
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

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> HandButton:
        return cls(int(match["table"]), int(match["press"]), sel.decode(match["sel"]), match["op"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).on_hand_button(interaction, self.table_id, self.press,
                                               self.mask, self.op)


DYNAMIC_ITEMS = (BoardButton, AiLevelButton, HandButton)
