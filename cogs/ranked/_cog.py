"""`/tienlen rank [user]`: a person's rating on this server (docs/RATING.md). Thin: read the
store, word with `_words`. Attached to the TienLen cog's `/tienlen` group like `history`."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs import guard
from cogs.i18n import N_, Words, person_language, words

from . import _seasons as seasons
from . import _words as text

if TYPE_CHECKING:
    from bot.app import TienLenBot

NOT_HERE = N_("Ratings are kept per server: use this in a server.")


def _person(interaction: discord.Interaction[Any]) -> Words:
    return words(person_language(interaction.locale))


@app_commands.describe(user="Whose rating (default: yours)")
async def _rank(interaction: discord.Interaction[Any],
                user: discord.Member | None = None) -> None:
    cog = interaction.client.get_cog("Ranked")
    assert isinstance(cog, RankedCog), "the Ranked cog is not loaded"
    await cog.rank(interaction, user)


def rank_command() -> app_commands.Command[Any, Any, None]:
    """`/tienlen rank [user]`, a subcommand of the TienLen cog's `/tienlen` group."""
    return app_commands.Command(name="rank",
                                description="Your rating here (or someone's): tier and rank",
                                callback=_rank)


class RankedCog(commands.Cog, name="Ranked"):
    """Ratings. `/tienlen rank` is attached to the `/tienlen` group of the TienLen cog when this
    cog loads (that cog owns the group)."""

    #: commands this cog adds to another cog's group (read by `cogs.i18n_catalogue` too)
    attached_commands: ClassVar[tuple[app_commands.Command[Any, Any, None], ...]] = (
        rank_command(),)

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self.rank_command = rank_command()
        self._season_check: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.attach()
        # Seasons whose end has come are ended (and announced) by this check (cogs.ranked._seasons).
        self._season_check = asyncio.get_running_loop().create_task(
            seasons.run(self.bot), name="season-check")

    def attach(self) -> None:
        """Add `/tienlen rank` to the TienLen cog's group (also called by that cog's setup when
        it is reloaded, since a reload builds a new group)."""
        group = self.bot.tree.get_command("tienlen")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.ranked needs cogs.tienlen loaded first (bot.app.EXTENSIONS)")
        if group.get_command("rank") is None:
            group.add_command(self.rank_command)

    async def cog_unload(self) -> None:
        if self._season_check is not None:
            self._season_check.cancel()
            self._season_check = None
        group = self.bot.tree.get_command("tienlen")
        if isinstance(group, app_commands.Group):
            group.remove_command("rank")

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        await guard.handle_command_error(interaction, error)

    async def rank(self, interaction: discord.Interaction[Any],
                   user: discord.Member | None = None) -> None:
        async with guard.guarded(interaction, "command rank"):
            w = _person(interaction)
            if interaction.guild_id is None:
                raise guard.Refused(w.marked(NOT_HERE))
            who = user if user is not None else interaction.user
            rating = await self.bot.store.get_rating(interaction.guild_id, who.id)
            mention = f"<@{who.id}>"
            answer = (text.unrated(w, mention) if rating is None
                      else text.rank(w, mention, rating))
            await interaction.response.send_message(
                answer, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
