"""Chips outside the table: `/daily` and `/leaderboard`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import EconomyCog, PageButton

if TYPE_CHECKING:
    from bot.app import TienLenBot


async def setup(bot: TienLenBot) -> None:
    bot.add_dynamic_items(PageButton)
    await bot.add_cog(EconomyCog(bot))
