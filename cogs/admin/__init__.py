"""`/tienlen admin …`: server admins' chip tools and their log. Only `setup` lives here (the cog
is in `_cog`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cog import AdminCog

if TYPE_CHECKING:
    from bot.app import TienLenBot


async def setup(bot: TienLenBot) -> None:
    await bot.add_cog(AdminCog(bot))
