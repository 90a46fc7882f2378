"""Ranked play: `/tienlen rank [user]`, the rating ladders of `/leaderboard` and seasons
(docs/RATING.md). Only `setup` here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import _ladder as ladder
from . import _seasons as seasons
from ._cog import RankedCog

if TYPE_CHECKING:
    from bot.app import TienLenBot

__all__ = ["RankedCog", "ladder", "seasons", "setup"]


async def setup(bot: TienLenBot) -> None:
    bot.add_dynamic_items(ladder.LadderPageButton)
    await bot.add_cog(RankedCog(bot))
