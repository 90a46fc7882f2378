"""Reactions on the board: a small select of six emotes and four quick phrases (docs/DISCORD.md,
"Reactions")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import ReactionsCog
from ._views import ReactionSelect

if TYPE_CHECKING:
    from bot.app import TienLenBot

__all__ = ["ReactionSelect", "ReactionsCog", "setup"]


async def setup(bot: TienLenBot) -> None:
    bot.add_dynamic_items(ReactionSelect)
    await bot.add_cog(ReactionsCog(bot))
