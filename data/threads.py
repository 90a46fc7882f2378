"""A server's default for tables in threads (`/tienlen settings threads:`); a mixin of
:class:`data.store.Store`. Column ``guild_settings.threads`` (migration 0011), beside the server's
other defaults: 1 on, 0 off, NULL never chosen (off)."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

from data.errors import InvalidInput

if TYPE_CHECKING:
    from data.db import Conn

__all__ = ["ThreadDefaults"]


class ThreadDefaults:
    """`get_threads_default` / `set_threads_default` of the store."""

    if TYPE_CHECKING:
        def _read(self) -> AbstractAsyncContextManager[Conn]: ...
        def _write(self) -> AbstractAsyncContextManager[Conn]: ...

    async def get_threads_default(self, guild_id: int) -> bool | None:
        """Whether new tables of the server open in a thread (None: never set, off)."""
        async with self._read() as db:
            row = await db.fetchone(
                "SELECT threads FROM guild_settings WHERE guild_id = ?", (guild_id,))
        return None if row is None or row[0] is None else bool(row[0])

    async def set_threads_default(self, guild_id: int, threads: bool) -> None:
        if type(guild_id) is not int or guild_id < 0:
            raise InvalidInput("guild_id must be a whole number.")
        if not isinstance(threads, bool):
            raise InvalidInput("threads must be true or false.")
        async with self._write() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, threads) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET threads = excluded.threads",
                (guild_id, int(threads)))
