"""The store's errors: one base, one class per cause, each message a readable sentence."""

from __future__ import annotations

from datetime import datetime


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


class InvalidInput(StoreError, ValueError):
    """An argument makes no sense (negative stake, unknown leaderboard key, a user not seated…)."""


class NotFound(StoreError, LookupError):
    """A game or table id the store does not know."""


class UnknownGame(NotFound):
    def __init__(self, game_id: int) -> None:
        super().__init__(f"There is no game with id {game_id}.")
        self.game_id = game_id


class UnknownTable(NotFound):
    def __init__(self, table_id: int) -> None:
        super().__init__(f"There is no table with id {table_id}.")
        self.table_id = table_id


class StaleVersion(StoreError):
    """An optimistic write lost the race: someone saved a newer version first."""

    def __init__(self, what: str, ident: int, expected: int, actual: int) -> None:
        super().__init__(
            f"{what} {ident} is at version {actual}, not {expected}: "
            "it was changed by someone else; reload it and try again."
        )
        self.ident = ident
        self.expected = expected
        self.actual = actual


class TableExists(StoreError):
    """The channel already has an open table."""

    def __init__(self, channel_id: int, table_id: int) -> None:
        super().__init__(f"This channel already has an open table (table {table_id}).")
        self.channel_id = channel_id
        self.table_id = table_id


class WrongStatus(StoreError):
    """The game or table is not in a state that allows the operation."""


class NotOwned(StoreError):
    """The table or game belongs to a server on a shard that this process does not run."""

    def __init__(self, what: str, guild_id: int, shards: object) -> None:
        ids = sorted(getattr(shards, "ids", ()))
        count = getattr(shards, "count", 1)
        super().__init__(
            f"{what} belongs to server {guild_id}, on shard {(guild_id >> 22) % count} of "
            f"{count}; this process runs shards {ids} and leaves it to its owner."
        )
        self.guild_id = guild_id


class InsufficientChips(StoreError):
    def __init__(self, user_id: int, chips: int, needed: int) -> None:
        super().__init__(f"<@{user_id}> holds {chips} chips, fewer than the {needed} needed.")
        self.user_id = user_id
        self.chips = chips
        self.needed = needed


class AlreadyClaimed(StoreError):
    """The daily grant was claimed less than 24 hours ago."""

    def __init__(self, next_at: datetime) -> None:
        super().__init__(
            "You already claimed your daily chips; the next claim is due at "
            f"{next_at:%Y-%m-%d %H:%M} UTC."
        )
        self.next_at = next_at


class MigrationError(StoreError):
    """The database's schema cannot be brought to this program's version."""


class DatabaseUnavailable(StoreError):
    """The database server cannot be reached or refuses the connection."""
