"""Past games: `/tienlen history`, the replay viewer and shared replays. Only `setup` here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import HistoryCog
from ._views import DYNAMIC_ITEMS, replay_button

if TYPE_CHECKING:
    from bot.app import TienLenBot

__all__ = ["HistoryCog", "replay_button", "setup"]


async def setup(bot: TienLenBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(HistoryCog(bot))
