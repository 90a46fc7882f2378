"""`/tienlen admin chips|reset-leaderboard|end-season|log`: Manage Server only. Thin: check who
asked and what, call the store (`data.admin`, which owns every rule about chips; data.seasons the
seasons), word the answer."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import guard
from cogs.i18n import N_, Words, person_language, words
from cogs.ranked import seasons
from data import GamesRunning, HeldAtTable, InsufficientChips, InvalidInput, TooRich
from data.admin import AMOUNT_MAX, REASON_MAX

from . import _words

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.admin")
MAX_PAGE = 10_000
RESET_REASON = "leaderboard reset"

NOT_ADMIN = N_("You need the Manage Server permission to use the admin tools.")
NOT_MEMBER = N_("Choose a member of this server (not a bot).")


def _person(interaction: discord.Interaction[Any]) -> Words:
    return words(person_language(interaction.locale))


def _can_manage(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


class AdminCog(commands.Cog, name="Admin"):
    """Chip tools for the people who run a server."""

    admin = app_commands.Group(name="admin",
                               description="Chip tools for server admins (Manage Server)",
                               guild_only=True)

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        # The group is `/tienlen admin`: a subgroup of the tables' `/tienlen` group, attached
        # here rather than added as a top-level `/admin` (discord.py adds what stays listed).
        parent = self.bot.tree.get_command("tienlen")
        if not isinstance(parent, app_commands.Group):
            raise RuntimeError("cogs.admin needs cogs.tienlen loaded first (bot.app.EXTENSIONS)")
        if parent.get_command("admin") is not None:
            parent.remove_command("admin")
        parent.add_command(self.admin)
        self.__cog_app_commands__ = [c for c in self.__cog_app_commands__ if c is not self.admin]

    async def cog_unload(self) -> None:
        parent = self.bot.tree.get_command("tienlen")
        if isinstance(parent, app_commands.Group) and parent.get_command("admin") is self.admin:
            parent.remove_command("admin")

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        await guard.handle_command_error(interaction, error)

    @staticmethod
    def _admin(interaction: discord.Interaction[Any]) -> Words:
        """The words of an admin (Manage Server); anyone else is refused, nothing changed."""
        w = _person(interaction)
        if not _can_manage(interaction) or interaction.guild_id is None:
            raise guard.Refused(w.marked(NOT_ADMIN))
        return w

    @admin.command(name="chips", description="Grant, take or set a member's chips")
    @app_commands.describe(user="The member", action="grant: add, take: remove, set: make it",
                           amount="Chips (set may name 0)",
                           reason="Why (kept in the admin log, at most 200 characters)")
    async def chips(self, interaction: discord.Interaction[Any], user: discord.User,
                    action: Literal["grant", "take", "set"],
                    amount: app_commands.Range[int, 0, AMOUNT_MAX],
                    reason: app_commands.Range[str, 1, REASON_MAX]) -> None:
        async with guard.guarded(interaction, f"admin chips {action}"):
            w = self._admin(interaction)
            assert interaction.guild_id is not None
            if not isinstance(user, discord.Member) or user.bot:
                raise guard.Refused(w.marked(NOT_MEMBER))
            if amount == 0 and action != "set":
                raise guard.Refused(w._("Grant or take at least 1 chip."))
            who = f"<@{user.id}>"
            try:
                change = await self.bot.store.admin_change(
                    interaction.guild_id, user.id, interaction.user.id, action, amount, reason)
            except HeldAtTable as held:
                raise guard.Refused(w._(
                    "{user} is playing at table #{table} (stake {stake}): they keep at least "
                    "{stake} chips until the game ends, so at most {most} can be taken now.",
                    user=who, table=held.table_id, stake=w.num(held.stake),
                    most=w.num(held.most))) from None
            except InsufficientChips as short:
                raise guard.Refused(w._("{user} holds only {chips} chips.", user=who,
                                        chips=w.num(short.chips))) from None
            except TooRich:
                raise guard.Refused(w._("{user} would hold more than {most} chips.", user=who,
                                        most=w.num(AMOUNT_MAX))) from None
            except InvalidInput:
                raise guard.Refused(w._("Give a reason of 1 to {most} characters.",
                                        most=w.num(REASON_MAX))) from None
            log.info("admin %s: %s of %s chips for member %s (change %s)", interaction.user.id,
                     action, amount, user.id, change.id,
                     extra={"guild_id": interaction.guild_id})
            await guard.answer(interaction, _words.change_done(w, change))

    @admin.command(name="reset-leaderboard",
                   description="Every player back to the starting chips")
    @app_commands.describe(confirm="True to really reset",
                           stats="keep or clear everyone's stats (games, wins, places)",
                           reason="Why (kept in the admin log)")
    async def reset_leaderboard(self, interaction: discord.Interaction[Any], confirm: bool,
                                stats: Literal["keep", "clear"] = "keep",
                                reason: app_commands.Range[str, 1, REASON_MAX] | None = None
                                ) -> None:
        async with guard.guarded(interaction, "admin reset-leaderboard"):
            w = self._admin(interaction)
            assert interaction.guild_id is not None
            store = self.bot.store
            if not confirm:
                raise guard.Refused(w._(
                    "Nothing was reset. To put every player of this server back to {chips} "
                    "chips, run it again with **confirm: True**.",
                    chips=w.num(store.starting_chips)))
            try:
                change = await store.reset_leaderboard(
                    interaction.guild_id, interaction.user.id, stats, reason or RESET_REASON)
            except GamesRunning as running:
                tables = ", ".join(f"#{t}" for t in running.table_ids)
                raise guard.Refused(w._(
                    "Games are being played at tables {tables}: reset once they end (or "
                    "`/tienlen stop` them).", tables=tables)) from None
            log.info("admin %s: leaderboard reset (%s players, stats %s)", interaction.user.id,
                     change.players, stats, extra={"guild_id": interaction.guild_id})
            await guard.answer(interaction, _words.reset_done(w, change))

    @admin.command(name="end-season", description="End this server's ranked season now")
    @app_commands.describe(confirm="True to really end it")
    async def end_season(self, interaction: discord.Interaction[Any], confirm: bool) -> None:
        async with guard.guarded(interaction, "admin end-season"):
            w = self._admin(interaction)
            assert interaction.guild_id is not None
            if not confirm:
                current = await self.bot.store.current_season(interaction.guild_id)
                raise guard.Refused(w._(
                    "Nothing was changed. To end season {season} now (its standings kept, every "
                    "rating softly reset), run it again with **confirm: True**.",
                    season=w.num(current.number)))
            end = await seasons.end_now(self.bot, interaction.guild_id)
            log.info("admin %s: season %s ended early", interaction.user.id, end.ended.number,
                     extra={"guild_id": interaction.guild_id})
            await guard.answer(interaction, w._(
                "Season {season} has ended and season {next} has begun. Its final standings: "
                "`/leaderboard season: {season}`.", season=w.num(end.ended.number),
                next=w.num(end.started.number)))

    @admin.command(name="log", description="The last admin changes, 10 a page")
    @app_commands.describe(user="Only the changes of this member", page="Page number")
    async def log_command(self, interaction: discord.Interaction[Any],
                          user: discord.User | None = None,
                          page: app_commands.Range[int, 1, MAX_PAGE] = 1) -> None:
        async with guard.guarded(interaction, "admin log"):
            w = self._admin(interaction)
            assert interaction.guild_id is not None
            found = await self.bot.store.admin_log(
                interaction.guild_id, None if user is None else user.id, page)
            lines = [_words.log_line(w, c) for c in found.entries]
            embed = discord.Embed(
                title=_words.log_title(w, None if user is None else user.display_name),
                description=guard.fit("\n".join(lines) or w._("No admin changes yet."), 4000),
                colour=discord.Colour.dark_gold())
            embed.set_footer(text=_words.log_footer(w, found))
            await interaction.response.send_message(
                embed=embed, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())
