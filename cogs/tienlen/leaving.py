"""Leaving a running game from the board: `Leave game` asks privately, its confirm button
(`tl:q:<table>:<game>`) hands the seat to a computer (the table layer settles the person as the
last place and unseats them after the game)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from cogs.i18n import person_language
from cogs.i18n import words as words_of
from cogs.tables import LiveTable

from . import _render as render

if TYPE_CHECKING:
    from ._cog import TienLenCog


async def ask(cog: TienLenCog, interaction: discord.Interaction[Any], live: LiveTable) -> None:
    """`Leave game` on the in-game board: refused at once if the person cannot leave, else a
    private confirmation (nothing changes until it is pressed)."""
    game_id = cog.service.check_can_abandon(live, interaction.user.id)
    w = words_of(person_language(interaction.locale))
    payload = render.leave_confirmation(w, live, game_id)
    payload["view"].timeout = 1.0  # dispatched from its custom id: no view kept per message
    await interaction.response.send_message(ephemeral=True, **payload)


async def confirm(cog: TienLenCog, interaction: discord.Interaction[Any], live: LiveTable,
                  game_id: int) -> None:
    """The confirmation pressed: leave the game, say so privately."""
    await cog.service.abandon(live, interaction.user.id, game_id)
    w = words_of(person_language(interaction.locale))
    await interaction.response.edit_message(
        content=w._("You left the game at table #{table}: a computer plays your seat to the "
                    "end.", table=live.id), view=None)
