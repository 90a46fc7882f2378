"""`/tienlen tables`: the server's open tables, 10 a page, each with a link to its channel or
thread, its phase, free seats, stake and rules preset. An ephemeral answer in the reader's
language; `Previous` / `Next` redraw it in place (the custom id names the page, so the buttons
keep working after a restart)."""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

import discord

from cogs import guard, words
from cogs.tables import LiveTable

from ._views import SentView

if TYPE_CHECKING:
    from bot.app import TienLenBot

PAGE_SIZE = 10
MAX_PAGE = 100_000


def open_tables(bot: TienLenBot, guild_id: int) -> list[LiveTable]:
    """The server's open tables, oldest first (every open table of a server is loaded by the
    process that runs its shard)."""
    return sorted((live for live in bot.table_service.tables.values()
                   if live.table.guild_id == guild_id and live.table.status == "open"),
                  key=lambda live: live.id)


def tables_page(bot: TienLenBot, interaction: discord.Interaction[Any],
                page: int) -> tuple[discord.Embed, discord.ui.View | None]:
    assert interaction.guild_id is not None
    w = guard.reader(interaction)
    tables = open_tables(bot, interaction.guild_id)
    pages = max(1, math.ceil(len(tables) / PAGE_SIZE))
    page = max(1, min(page, pages))
    shown = tables[(page - 1) * PAGE_SIZE: page * PAGE_SIZE]
    lines = [words.table_list_line(w, live) for live in shown] or [
        w._("No table is open in this server: `/tienlen start` opens one.")]
    embed = discord.Embed(title=words.table_list_title(w, len(tables), page, pages),
                          description="\n".join(lines), colour=discord.Colour.green())
    if pages <= 1:
        return embed, None
    view = SentView()
    view.add_item(TablesPageButton(max(1, page - 1), label=w._("◀ Previous"),
                                   disabled=page <= 1))
    view.add_item(TablesPageButton(page + 1, label=w._("Next ▶"), disabled=page >= pages))
    return embed, view


async def show_tables(bot: TienLenBot, interaction: discord.Interaction[Any], page: int, *,
                      edit: bool) -> None:
    embed, view = tables_page(bot, interaction, page)
    none = discord.AllowedMentions.none()
    if edit:
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=none)
    elif view is None:
        await interaction.response.send_message(embed=embed, ephemeral=True,
                                                allowed_mentions=none)
    else:
        view.timeout = 1.0  # an ephemeral view: the dynamic items answer its buttons
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True,
                                                allowed_mentions=none)


class TablesPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"tl:tables:(?P<page>[0-9]{1,6})"):
    """`Previous` / `Next` under the list of tables."""

    def __init__(self, page: int, *, label: str = "", disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or str(page), disabled=disabled,
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"tl:tables:{page}"))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> TablesPageButton:
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard.guarded(interaction, "tables page button"):
            if not 1 <= self.page <= MAX_PAGE or interaction.guild_id is None:
                raise guard.Refused(guard.reader(interaction).marked(guard.UNKNOWN_BUTTON))
            await show_tables(interaction.client, interaction, self.page, edit=True)
