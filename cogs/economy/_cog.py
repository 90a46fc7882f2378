"""`/daily` and `/leaderboard`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import guard
from cogs.i18n import Words, person_language, table_language, words
from data import AlreadyClaimed

if TYPE_CHECKING:
    from bot.app import TienLenBot


def _person(interaction: discord.Interaction[Any]) -> Words:
    return words(person_language(interaction.locale))


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
        w = _person(interaction)
        try:
            claim = await self.bot.store.claim_daily(interaction.guild_id, interaction.user.id)
        except AlreadyClaimed as error:
            when = f"<t:{int(error.next_at.timestamp())}:R>"
            await interaction.response.send_message(
                w._("You already claimed today's chips. The next claim is due {when}.",
                    when=when),
                ephemeral=True)
            return
        when = f"<t:{int(claim.next_at.timestamp())}:R>"
        await interaction.response.send_message(
            w._("You received **{granted}** chips and now hold **{chips}**. Come back {when}.",
                granted=w.num(claim.granted), chips=w.num(claim.chips), when=when),
            ephemeral=True)

    @app_commands.command(name="leaderboard", description="This server's best players")
    @app_commands.guild_only()
    @app_commands.describe(by="Rank by chips, wins or win rate (10+ games)", page="Page number")
    async def leaderboard(self, interaction: discord.Interaction[Any],
                          by: Literal["chips", "wins", "winrate"] = "chips",
                          page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        assert interaction.guild_id is not None
        # A public message: the server's language (its setting, else its own locale when it is
        # Vietnamese, else the language of the person who asked).
        settings = await self.bot.store.get_guild_settings(interaction.guild_id)
        w = words(table_language(settings.language, interaction.guild_locale,
                                 person_language(interaction.locale)))
        board = await self.bot.store.leaderboard(interaction.guild_id, by, page)
        title = {"chips": w._("Leaderboard by chips"), "wins": w._("Leaderboard by wins"),
                 "winrate": w._("Leaderboard by win rate (10+ games)")}[by]
        lines = []
        for e in board.entries:
            rate = w.percent(e.win_rate) if e.win_rate is not None else "–"
            chips = w.ngettext("{n} chip", "{n} chips", e.chips)
            won = w.ngettext("{n} win", "{n} wins", e.wins)
            record = w.ngettext("{wins} in {n} game", "{wins} in {n} games", e.games, wins=won)
            who = f"<@{e.user_id}>"
            lines.append(w._("**{rank}.** {player} — {chips} · {record} ({rate})",
                             rank=e.rank, player=who, chips=chips, record=record, rate=rate))
        embed = discord.Embed(title=title,
                              description="\n".join(lines) or w._("Nobody here yet."),
                              colour=discord.Colour.gold())
        embed.set_footer(text=w.ngettext("Page {page} of {pages} · {n} player",
                                         "Page {page} of {pages} · {n} players", board.total,
                                         page=board.page, pages=max(board.pages, 1)))
        await interaction.response.send_message(embed=embed,
                                                allowed_mentions=discord.AllowedMentions.none())
