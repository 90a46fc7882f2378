"""`/daily` and `/leaderboard`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import guard
from data import AlreadyClaimed

if TYPE_CHECKING:
    from bot.app import TienLenBot


class EconomyCog(commands.Cog, name="Economy"):
    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        await guard.handle_command_error(interaction, error)

    @app_commands.command(name="daily", description="Claim your daily chips (once every 24 hours)")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        try:
            claim = await self.bot.store.claim_daily(interaction.guild_id, interaction.user.id)
        except AlreadyClaimed as error:
            due = int(error.next_at.timestamp())
            await interaction.response.send_message(
                f"You already claimed today's chips. The next claim is due <t:{due}:R>.",
                ephemeral=True)
            return
        due = int(claim.next_at.timestamp())
        await interaction.response.send_message(
            f"You received **{claim.granted}** chips and now hold **{claim.chips}**. "
            f"Come back <t:{due}:R>.", ephemeral=True)

    @app_commands.command(name="leaderboard", description="This server's best players")
    @app_commands.guild_only()
    @app_commands.describe(by="Rank by chips, wins or win rate (10+ games)", page="Page number")
    async def leaderboard(self, interaction: discord.Interaction[Any],
                          by: Literal["chips", "wins", "winrate"] = "chips",
                          page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        assert interaction.guild_id is not None
        board = await self.bot.store.leaderboard(interaction.guild_id, by, page)
        title = {"chips": "chips", "wins": "wins", "winrate": "win rate (10+ games)"}[by]
        lines = []
        for e in board.entries:
            rate = f"{e.win_rate:.0%}" if e.win_rate is not None else "–"
            lines.append(f"**{e.rank}.** <@{e.user_id}> — {e.chips} chips · {e.wins} wins in "
                         f"{e.games} games ({rate})")
        embed = discord.Embed(title=f"Leaderboard by {title}",
                              description="\n".join(lines) or "Nobody here yet.",
                              colour=discord.Colour.gold())
        embed.set_footer(text=f"Page {board.page} of {max(board.pages, 1)} · {board.total} players")
        await interaction.response.send_message(embed=embed,
                                                allowed_mentions=discord.AllowedMentions.none())
