"""Ranked play: `/tienlen rank [user]` (docs/RATING.md). Only `setup` here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import RankedCog

if TYPE_CHECKING:
    from bot.app import TienLenBot

__all__ = ["RankedCog", "setup"]


async def setup(bot: TienLenBot) -> None:
    await bot.add_cog(RankedCog(bot))
