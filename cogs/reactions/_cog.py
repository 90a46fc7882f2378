"""The reactions cog: checks a reaction and hands it to the board's next coalesced refresh."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from cogs import guard, words
from cogs.tables import TableError, TablePhase
from cogs.tables.reactions import ReactionBook

if TYPE_CHECKING:
    from bot.app import TienLenBot

__all__ = ["ReactionsCog"]


class ReactionsCog(commands.Cog, name="Reactions"):
    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self.book = ReactionBook()

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    async def react(self, interaction: discord.Interaction[Any], table_id: int,
                    key: str) -> None:
        """A reaction from the board: refused (privately, nothing shown) when forged, on a closed
        table, from someone the channel does not let see it, or faster than the cooldown. During a
        game it rides the board's next refresh (the next move, a computer's, the clock's): it
        never makes a request of its own."""
        w = guard.reader(interaction)
        service = self.bot.table_service
        try:
            live = await service.get(table_id)
            if live.table.channel_id != interaction.channel_id:
                raise guard.Refused(w.marked(guard.OTHER_CHANNEL))
            if not interaction.permissions.view_channel:
                raise guard.Refused(w._("You cannot see this table's channel."))
            self.book.react(live, interaction.user.id, key, self.now())
        except TableError as error:
            raise guard.Refused(words.refusal(w, error)) from None
        await interaction.response.defer()  # no message: the board's next refresh shows it
        if live.phase is TablePhase.FINISHED:
            # a finished board is not refreshed by moves any more: this reaction asks for one
            # (coalesced and budgeted like every board edit)
            live.changes += 1
            service.request_board(live)
