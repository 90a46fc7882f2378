"""`/tienlen help [topic]`: how to play, in the reader's language (`interaction.locale`), one
topic a page with a menu to turn to another, and a picture of the examples when the server shows
card pictures. Thin: the words are in `_words`, the pictures in `_pictures`. Attached to the
TienLen cog's `/tienlen` group like `rank` and `history` (that cog owns the group)."""

from __future__ import annotations

import io
import re
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs import guard
from cogs.i18n import Words

from . import _words as text
from ._pictures import FILE, HelpPictures, examples

if TYPE_CHECKING:
    from bot.app import TienLenBot

__all__ = ["HelpCog", "HelpTopicSelect", "help_command"]

COLOUR = discord.Colour.green()


@app_commands.describe(topic="What to read about (the first topic when left out)")
@app_commands.choices(topic=[app_commands.Choice(name=text.LABELS[t], value=t)
                             for t in text.TOPICS])
async def _help(interaction: discord.Interaction[Any], topic: str | None = None) -> None:
    cog = interaction.client.get_cog("Help")
    assert isinstance(cog, HelpCog), "the Help cog is not loaded"
    await cog.show(interaction, topic or text.TOPICS[0], edit=False)


def help_command() -> app_commands.Command[Any, Any, None]:
    """`/tienlen help [topic]`, a subcommand of the TienLen cog's `/tienlen` group."""
    return app_commands.Command(name="help", description="How to play Tiến Lên: a short guide",
                                callback=_help)


class HelpTopicSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"tl:help"):
    """The menu of topics under a page of the guide (persistent: it works after a restart)."""

    def __init__(self, w: Words | None = None, current: text.Topic = text.TOPICS[0]) -> None:
        options = ([discord.SelectOption(label=text.topic_label(w, t), value=t,
                                         default=t == current) for t in text.TOPICS]
                   if w is not None else [discord.SelectOption(label=t) for t in text.TOPICS])
        super().__init__(discord.ui.Select(custom_id="tl:help", min_values=1, max_values=1,
                                           options=options))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> HelpTopicSelect:
        return cls()

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = data.get("values") if isinstance(data, dict) else None
        topic = values[0] if isinstance(values, list) and len(values) == 1 else ""
        cog = interaction.client.get_cog("Help")
        assert isinstance(cog, HelpCog), "the Help cog is not loaded"
        await cog.show(interaction, str(topic), edit=True)


class HelpCog(commands.Cog, name="Help"):
    """How to play. `/tienlen help` is attached to the `/tienlen` group of the TienLen cog when
    this cog loads."""

    #: commands this cog adds to another cog's group (read by `cogs.i18n_catalogue` too)
    attached_commands: ClassVar[tuple[app_commands.Command[Any, Any, None], ...]] = (
        help_command(),)

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self.help_command = help_command()
        self.pictures = HelpPictures(bot.pictures)

    async def cog_load(self) -> None:
        # The pictures are drawn at their first reading, not here: every bot start (each test's
        # too) would pay for them, and a drawing takes well under the answer's budget once the
        # card sprites are warm (the first seconds after start-up answer with text).
        self.attach()

    def attach(self) -> None:
        """Add `/tienlen help` to the TienLen cog's group (also called by that cog's setup when
        it is reloaded, since a reload builds a new group)."""
        group = self.bot.tree.get_command("tienlen")
        if not isinstance(group, app_commands.Group):
            raise RuntimeError("cogs.help needs cogs.tienlen loaded first (bot.app.EXTENSIONS)")
        if group.get_command("help") is None:
            group.add_command(self.help_command)

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command("tienlen")
        if isinstance(group, app_commands.Group):
            group.remove_command("help")

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        await guard.handle_command_error(interaction, error)

    async def _pictures_on(self, interaction: discord.Interaction[Any]) -> bool:
        if interaction.guild_id is None:
            return bool(self.bot.settings.CARD_PICTURES)
        return await self.bot.image_setting.enabled(interaction.guild_id)

    async def show(self, interaction: discord.Interaction[Any], topic: str, *,
                   edit: bool) -> None:
        """A page of the guide: sent privately, or (``edit``) in place of the page shown."""
        async with guard.guarded(interaction, "help"):
            w = guard.reader(interaction)
            if topic not in text.TOPICS:  # a forged menu value or option
                raise guard.Refused(w.marked(guard.UNKNOWN_BUTTON))
            chosen = topic
            png = await self.pictures.png(chosen) if await self._pictures_on(interaction) else None
            embed = discord.Embed(title=text.title(w, chosen),
                                  description=text.page_text(w, chosen, pictured=png is not None),
                                  colour=COLOUR)
            files = []
            if png is not None:
                files.append(discord.File(io.BytesIO(png), filename=FILE,
                                          description=text.picture_alt(w, examples(chosen))))
                embed.set_image(url=f"attachment://{FILE}")
            # The menu is a dynamic item: its class answers it (after a restart too), so the
            # view itself need not wait for anything.
            view = discord.ui.View(timeout=1.0)
            view.add_item(HelpTopicSelect(w, chosen))
            if edit:
                await interaction.response.edit_message(embed=embed, view=view,
                                                        attachments=files)
            else:
                await interaction.response.send_message(embed=embed, view=view, files=files,
                                                        ephemeral=True)
