"""The reaction select on a board (a persistent DynamicItem: its custom id names the table)."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs import callouts, guard
from cogs.i18n import Words
from cogs.tables.reactions import EMOTES, REACTIONS

__all__ = ["ReactionSelect", "select_for"]

_ID = r"[0-9]{1,19}"


class ReactionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                     template=rf"tl:r:(?P<table>{_ID})"):
    """Six emotes and four quick phrases, in the table's language, for anyone who sees the
    board (seated or not)."""

    def __init__(self, table_id: int, options: list[discord.SelectOption] | None = None,
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"tl:r:{table_id}", placeholder=placeholder, min_values=1, max_values=1,
            options=options or [discord.SelectOption(label=key, value=key) for key in REACTIONS],
        ))
        self.table_id = table_id
        self.problem: str | None = None

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ReactionSelect:
        value = int(match["table"])
        made = cls(value if value <= guard.SNOWFLAKE_MAX else 0)
        if value > guard.SNOWFLAKE_MAX:
            made.problem = guard.BAD_TABLE_ID
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from ._cog import ReactionsCog

        cog = interaction.client.get_cog("Reactions")
        data: Any = interaction.data or {}
        values = data.get("values") if isinstance(data, dict) else None
        key = values[0] if isinstance(values, list) and len(values) == 1 else ""
        try:
            async with guard.guarded(interaction, f"table {self.table_id}: reaction"):
                w = guard.reader(interaction)
                if self.problem:
                    raise guard.Refused(w.marked(self.problem))
                assert isinstance(cog, ReactionsCog), "the Reactions cog is not loaded"
                await cog.react(interaction, self.table_id, str(key))
        finally:
            if self.item.view is not None:
                self.item.view.clear_items()


def select_for(w: Words, table_id: int) -> ReactionSelect:
    """The select as the board shows it, in the table's language."""
    options = [
        discord.SelectOption(label=callouts.reaction_label(w, key), value=key,
                             emoji=EMOTES.get(key))
        for key in REACTIONS
    ]
    return ReactionSelect(table_id, options, placeholder=w._("React…"))
