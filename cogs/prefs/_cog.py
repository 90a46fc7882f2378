"""`/tienlen prefs`: a person's own four-colour deck, hand order and hand pictures. Thin: the
options are declared as choices (Discord and `cogs.guard` refuse anything else), the store keeps
them (`data.prefs`), `_cache` holds them for the hand. Attached to the TienLen cog's `/tienlen`
group like `rank`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import guard
from cogs.i18n import N_, Words, person_language, words
from data import InvalidInput

from . import _words as text
from ._cache import PrefsCache

if TYPE_CHECKING:
    from bot.app import TienLenBot

NOT_SAVED = N_("That preference is not known; nothing was changed.")
OnOff = Literal["on", "off"]
SortBy = Literal["rank", "suit"]


def _person(interaction: discord.Interaction[Any]) -> Words:
    return words(person_language(interaction.locale))


@app_commands.describe(four_colour="Four-colour deck in your hand: ♣ green, ♦ blue",
                       sort="Sort your hand by rank or by suit",
                       pictures="Pictures of your hand (the board keeps the server's setting)")
async def _prefs(interaction: discord.Interaction[Any], four_colour: OnOff | None = None,
                 sort: SortBy | None = None, pictures: OnOff | None = None) -> None:
    cog = interaction.client.get_cog("Prefs")
    assert isinstance(cog, PrefsCog), "the Prefs cog is not loaded"
    await cog.prefs(interaction, four_colour=four_colour, sort=sort, pictures=pictures)


def prefs_command() -> app_commands.Command[Any, Any, None]:
    """`/tienlen prefs`, a subcommand of the TienLen cog's `/tienlen` group."""
    return app_commands.Command(name="prefs",
                                description="Your own hand: four-colour deck, order, pictures",
                                callback=_prefs)


class PrefsCog(commands.Cog, name="Prefs"):
    """People's preferences. `/tienlen prefs` is attached to the `/tienlen` group of the
    TienLen cog when this cog loads; the hands read the preferences through :attr:`cache`."""

    #: commands this cog adds to another cog's group (read by `cogs.i18n_catalogue` too)
    attached_commands: ClassVar[tuple[app_commands.Command[Any, Any, None], ...]] = (
        prefs_command(),)

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self.cache = PrefsCache(bot.store)
        self.prefs_command = prefs_command()

    async def cog_load(self) -> None:
        self.bot.hands.prefs = self.cache
        self.attach()

    def attach(self) -> None:
        """Add `/tienlen prefs` to the TienLen cog's group (also called by that cog's setup when
        it is reloaded, since a reload builds a new group)."""
        group = self.bot.tree.get_command("tienlen")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.prefs needs cogs.tienlen loaded first (bot.app.EXTENSIONS)")
        if group.get_command("prefs") is None:
            group.add_command(self.prefs_command)

    async def cog_unload(self) -> None:
        if self.bot.hands.prefs is self.cache:
            self.bot.hands.prefs = None
        group = self.bot.tree.get_command("tienlen")
        if isinstance(group, app_commands.Group):
            group.remove_command("prefs")

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        await guard.handle_command_error(interaction, error)

    async def prefs(self, interaction: discord.Interaction[Any], *, four_colour: str | None,
                    sort: str | None, pictures: str | None) -> None:
        async with guard.guarded(interaction, "command prefs"):
            w = _person(interaction)
            changes: dict[str, object] = {}
            if four_colour is not None:
                changes["four_colour"] = {"on": True, "off": False}.get(four_colour, four_colour)
            if sort is not None:
                changes["sort_by"] = sort
            if pictures is not None:
                changes["pictures"] = {"on": True, "off": False}.get(pictures, pictures)
            user_id = interaction.user.id
            try:
                prefs = (await self.cache.change(user_id, **changes) if changes
                         else await self.cache.load(user_id))
            except InvalidInput:
                raise guard.Refused(w.marked(NOT_SAVED)) from None
            await interaction.response.send_message(
                text.summary(w, prefs, saved=bool(changes)), ephemeral=True)
            if changes:  # the person's hands that follow a table show the new look at once
                for table_id in list(self.bot.hands.hands):
                    live = self.bot.table_service.tables.get(table_id)
                    if live is not None:
                        self.bot.hands.redraw(live, user_id)
