"""How to play: `/tienlen help [topic]` (a short guide in the reader's language, a topic a page).
Only `setup` here; the cog is in `_cog`, the guide's words in `_words`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import HelpCog, HelpTopicSelect

if TYPE_CHECKING:
    from bot.app import TienLenBot

__all__ = ["HelpCog", "setup"]


async def setup(bot: TienLenBot) -> None:
    bot.add_dynamic_items(HelpTopicSelect)
    await bot.add_cog(HelpCog(bot))
