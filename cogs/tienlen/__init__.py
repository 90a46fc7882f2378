"""Tiến Lên tables: lobby, board, hands. Only `setup` lives here (the cog is in `_cog`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import TienLenCog
from ._views import DYNAMIC_ITEMS
from .listing import TablesPageButton
from .rules_view import EveryOptionButton

if TYPE_CHECKING:
    from bot.app import TienLenBot


async def setup(bot: TienLenBot) -> None:
    bot.add_dynamic_items(*DYNAMIC_ITEMS, TablesPageButton, EveryOptionButton)
    await bot.add_cog(TienLenCog(bot))
    # Other cogs' subcommands of `/tienlen` (`history`, `rank`, `help`, `prefs`), when this one is
    # reloaded after them.
    for name in ("History", "Ranked", "Help", "Prefs"):
        other = bot.get_cog(name)
        if other is not None and hasattr(other, "attach"):
            other.attach()
