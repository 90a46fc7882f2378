"""A person's own preferences: `/tienlen prefs` (four-colour deck, hand sorted by rank or by
suit, pictures of their hand). Only `setup` here; see docs/PICTURES.md."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cache import PrefsCache
from ._cog import PrefsCog

if TYPE_CHECKING:
    from bot.app import TienLenBot

__all__ = ["PrefsCache", "PrefsCog", "setup"]


async def setup(bot: TienLenBot) -> None:
    await bot.add_cog(PrefsCog(bot))
