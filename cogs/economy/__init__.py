"""Chips outside the table: `/daily` and `/leaderboard`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import EconomyCog

if TYPE_CHECKING:
    from bot.app import TienLenBot


async def setup(bot: TienLenBot) -> None:
    await bot.add_cog(EconomyCog(bot))
