"""`/tienlen history [user]`, the replay viewer and **Share**. Thin: check, load through
:class:`Replays` (the privacy rule), word with `_words`, render with `_render`."""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs import guard
from cogs.i18n import Words, person_language, table_language, words

from . import _render as render
from . import _words as text
from ._replays import NOT_HERE, Loaded, ReplayRefused, Replays

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.history")

SHARE_FILE = "replay.gif"


def _person(interaction: discord.Interaction[Any]) -> Words:
    return words(person_language(interaction.locale))


@app_commands.describe(user="Whose games (default: yours)")
async def _history(interaction: discord.Interaction[Any],
                   user: discord.Member | None = None) -> None:
    cog = interaction.client.get_cog("History")
    assert isinstance(cog, HistoryCog), "the History cog is not loaded"
    await cog.history(interaction, user)


def history_command() -> app_commands.Command[Any, Any, None]:
    """`/tienlen history [user]`, a subcommand of the TienLen cog's `/tienlen` group (added to
    it by :func:`attach`, since that cog owns the group)."""
    return app_commands.Command(name="history",
                                description="Your last games here (or someone's), with replays",
                                callback=_history)


class HistoryCog(commands.Cog, name="History"):
    """Past games and their replays. `/tienlen history` is attached to the `/tienlen` group of
    the TienLen cog when this cog loads (that cog owns the group)."""

    #: commands this cog adds to another cog's group (read by `cogs.i18n_catalogue` too)
    attached_commands: ClassVar[tuple[app_commands.Command[Any, Any, None], ...]] = (
        history_command(),)

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self.replays = Replays(bot.store)
        self.history_command = history_command()

    async def cog_load(self) -> None:
        self.attach()

    def attach(self) -> None:
        """Add `/tienlen history` to the TienLen cog's group (also called by that cog's setup
        when it is reloaded, since a reload builds a new group)."""
        attach(self.bot, self.history_command)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("tienlen")
        if isinstance(group, app_commands.Group):
            group.remove_command("history")

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        await guard.handle_command_error(interaction, error)

    # ----------------------------------------------------------------- history
    async def history(self, interaction: discord.Interaction[Any],
                      user: discord.Member | None = None) -> None:
        async with guard.guarded(interaction, "command history"):
            who = user.id if user is not None else interaction.user.id
            await self._history_page(interaction, who, 1, edit=False)

    async def on_history_page(self, interaction: discord.Interaction[Any], user_id: int,
                              page: int) -> None:
        await self._history_page(interaction, user_id, page, edit=True)

    async def _history_page(self, interaction: discord.Interaction[Any], user_id: int,
                            page: int, *, edit: bool) -> None:
        w = _person(interaction)
        if interaction.guild_id is None:
            raise guard.Refused(w.marked(NOT_HERE))
        history = await self.bot.store.game_history(interaction.guild_id, user_id, page)
        payload = render.history(w, history, f"<@{user_id}>")
        none = discord.AllowedMentions.none()
        if edit:
            await interaction.response.edit_message(**payload, allowed_mentions=none)
        else:
            await interaction.response.send_message(**payload, ephemeral=True,
                                                    allowed_mentions=none)

    # ----------------------------------------------------------------- replay viewer
    async def _load(self, interaction: discord.Interaction[Any], game_id: int) -> Loaded:
        try:
            return await self.replays.load(game_id, interaction.guild_id)
        except ReplayRefused as refusal:
            raise guard.Refused(_person(interaction).marked(refusal.message,
                                                            **refusal.values)) from None

    async def on_replay(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        loaded = await self._load(interaction, game_id)
        await self._show(interaction, loaded, 0, edit=False)

    async def on_step(self, interaction: discord.Interaction[Any], game_id: int,
                      step: int) -> None:
        loaded = await self._load(interaction, game_id)
        try:
            loaded.check_step(step)
        except ReplayRefused as refusal:
            raise guard.Refused(_person(interaction).marked(refusal.message,
                                                            **refusal.values)) from None
        message = interaction.message
        await self._show(interaction, loaded, step,
                         edit=message is not None and message.flags.ephemeral)

    async def _show(self, interaction: discord.Interaction[Any], loaded: Loaded, step: int, *,
                    edit: bool) -> None:
        w = _person(interaction)
        assert interaction.guild_id is not None
        files: list[discord.File] = []
        if await self.bot.image_setting.enabled(interaction.guild_id):
            png = await _within(self.bot.pictures.face_up(render.face_up(w, loaded, step)))
            if png is not None:
                files.append(discord.File(io.BytesIO(png), filename=render.STEP_FILE,
                                          description=text.step_title(w, loaded, step)))
        payload = render.step(w, loaded, step, pictured=bool(files))
        none = discord.AllowedMentions.none()
        if edit:
            await interaction.response.edit_message(**payload, attachments=files,
                                                    allowed_mentions=none)
        else:
            await interaction.response.send_message(**payload, files=files, ephemeral=True,
                                                    allowed_mentions=none)

    # ----------------------------------------------------------------- share
    async def on_share(self, interaction: discord.Interaction[Any], game_id: int) -> None:
        w = _person(interaction)
        loaded = await self._load(interaction, game_id)
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable) or interaction.channel_id is None:
            raise guard.Refused(w._("The replay cannot be posted here."))
        perms = interaction.app_permissions
        can_send = (perms.send_messages_in_threads if isinstance(channel, discord.Thread)
                    else perms.send_messages)
        if not (perms.view_channel and can_send and perms.attach_files):
            raise guard.Refused(w._("I may not post pictures in this channel (I need View "
                                    "Channel, Send Messages and Attach Files)."))
        await interaction.response.defer(ephemeral=True, thinking=True)
        assert interaction.guild_id is not None
        settings = await self.bot.store.get_guild_settings(interaction.guild_id)
        public = words(table_language(settings.language, interaction.guild_locale, w.lang))
        gif = await self.bot.pictures.animation(
            ("replay", loaded.record.id, public.lang), lambda: render.frames(public, loaded))
        if gif is None:
            await interaction.followup.send(w._("The replay could not be drawn; nothing was "
                                                "posted."), ephemeral=True)
            return
        await self.bot.rest_budget.acquire(interaction.channel_id, urgent=True)
        try:
            await channel.send(guard.fit(text.caption(public, loaded)),
                               file=discord.File(io.BytesIO(gif), filename=SHARE_FILE,
                                                 description=text.step_title(
                                                     public, loaded, len(loaded.replay) - 1)),
                               allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException as error:
            log.warning("game %s: the shared replay could not be posted (%s)",
                        loaded.record.id, error.status)
            await interaction.followup.send(w._("Discord refused the post; nothing was "
                                                "shared."), ephemeral=True)
            return
        await interaction.followup.send(w._("The replay of game #{game} is posted in this "
                                            "channel.", game=loaded.record.id), ephemeral=True)


async def _within(drawing: Any, budget: float = 1.0) -> bytes | None:
    """A picture for an interaction's answer gets ``budget`` seconds, else text only."""
    try:
        result: bytes | None = await asyncio.wait_for(drawing, budget)
    except TimeoutError:
        return None
    return result


def attach(bot: commands.Bot, command: app_commands.Command[Any, Any, Any]) -> None:
    """Add `history` to the `/tienlen` group (once; the TienLen cog must be loaded first)."""
    group = bot.tree.get_command("tienlen")
    if not isinstance(group, app_commands.Group):
        raise RuntimeError("cogs.history needs cogs.tienlen loaded first (bot.app.EXTENSIONS)")
    if group.get_command("history") is None:
        group.add_command(command)
