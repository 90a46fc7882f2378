"""A server's default for tables in threads (`/tienlen settings threads:`); a mixin of
:class:`data.store.Store`.

Kept as a `bot_meta` fact (key ``threads:<guild id>``, value ``on`` or ``off``) rather than a
new column: it needs no migration, and `data.migrate` and `data.check` already copy and read
that table. A server that never chose has no row (off)."""

from __future__ import annotations

from data.errors import InvalidInput

__all__ = ["ThreadDefaults"]


def _key(guild_id: int) -> str:
    return f"threads:{guild_id}"


class ThreadDefaults:
    """`get_threads_default` / `set_threads_default` of the store."""

    async def get_meta(self, key: str) -> str | None:
        raise NotImplementedError

    async def set_meta(self, key: str, value: str) -> None:
        raise NotImplementedError

    async def get_threads_default(self, guild_id: int) -> bool | None:
        """Whether new tables of the server open in a thread (None: never set, off)."""
        value = await self.get_meta(_key(guild_id))
        return None if value is None else value == "on"

    async def set_threads_default(self, guild_id: int, threads: bool) -> None:
        if type(guild_id) is not int or guild_id < 0:
            raise InvalidInput("guild_id must be a whole number.")
        if not isinstance(threads, bool):
            raise InvalidInput("threads must be true or false.")
        await self.set_meta(_key(guild_id), "on" if threads else "off")
