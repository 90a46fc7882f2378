"""Store features of a table's life (a mixin of :class:`data.store.Store`): a server's idle time
for its tables (`/tienlen settings idle_minutes:`), column ``guild_settings.idle_minutes``
(migration 0006)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from data.errors import InvalidInput

if TYPE_CHECKING:
    from data.db import Conn

__all__ = ["IDLE_MINUTES_MAX", "TableLifeStore"]

IDLE_MINUTES_MAX = 7 * 24 * 60


def _check_minutes(minutes: object) -> int:
    if not isinstance(minutes, int) or isinstance(minutes, bool):
        raise InvalidInput(f"idle_minutes must be a whole number, not {minutes!r}.")
    if not 0 <= minutes <= IDLE_MINUTES_MAX:
        raise InvalidInput(f"idle_minutes must be from 0 to {IDLE_MINUTES_MAX}, not {minutes}.")
    return minutes


class TableLifeStore:
    """A server's idle time for tables (None: the bot's default)."""

    if TYPE_CHECKING:
        def _read(self) -> AbstractAsyncContextManager[Conn]: ...
        def _write(self) -> AbstractAsyncContextManager[Conn]: ...

    async def get_idle_minutes(self, guild_id: int) -> int | None:
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT idle_minutes FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None or row[0] is None else int(row[0])

    async def set_idle_minutes(self, guild_id: int, minutes: int) -> int:
        """Set the server's idle time for new tables (0: they never close themselves)."""
        _check_minutes(minutes)
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, idle_minutes) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET idle_minutes = excluded.idle_minutes",
                (guild_id, minutes))
        return minutes


