"""Tiến Lên tables: lobby, board, hands. Only `setup` lives here (the cog is in `_cog`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import TienLenCog
from ._views import DYNAMIC_ITEMS
from .listing import TablesPageButton

if TYPE_CHECKING:
    from bot.app import TienLenBot


async def setup(bot: TienLenBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS, TablesPageButton)
    await bot.add_cog(TienLenCog(bot))
    # Another cog's subcommands of `/tienlen` (`history`), when this one is reloaded after it.
    history = bot.get_cog("History")
    if history is not None and hasattr(history, "attach"):
        history.attach()
