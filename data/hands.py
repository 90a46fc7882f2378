"""Live hands kept with their table, so that a restarted bot can edit them again.

A person's private hand message can be edited only through the token of the interaction that
showed it (valid 15 minutes from the interaction's creation). The Discord side keeps, per table
and seated person, what it needs to edit that message again after a restart: the interaction's
id (which carries its creation time), application and token, the message, the latest drawing
number, the selection, the owner's language and the game version last shown.

The token is a secret (anyone holding it may edit or delete that message and send followups for
15 minutes): it lives only in this table, is never part of a record's ``repr``, and nothing here
logs or prints it. A row is replaced when a newer interaction takes the hand over and deleted
when its token retires, when the person leaves and when the table closes (`Store.close_table`).
"""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from data.db import Conn, Row
from data.errors import InvalidInput
from data.models import Shards

if TYPE_CHECKING:
    from collections.abc import Callable


@dataclass(frozen=True, slots=True)
class LiveHandRecord:
    """What it takes to edit one person's hand message at one table again."""

    table_id: int
    user_id: int
    guild_id: int
    application_id: int
    interaction_id: int
    token: str = field(repr=False)
    """The interaction's token: a secret, never shown (not even in ``repr``)."""
    message_id: int | None
    drawing: int
    selection: int = 0
    lang: str = "en"
    shown_version: int | None = None


def _hand(row: Row) -> LiveHandRecord:
    return LiveHandRecord(
        table_id=int(row["table_id"]),
        user_id=int(row["user_id"]),
        guild_id=int(row["guild_id"]),
        application_id=int(row["application_id"]),
        interaction_id=int(row["interaction_id"]),
        token=str(row["token"]),
        message_id=None if row["message_id"] is None else int(row["message_id"]),
        drawing=int(row["drawing"]),
        selection=int(str(row["selection"]), 16),
        lang=str(row["lang"]),
        shown_version=None if row["shown_version"] is None else int(row["shown_version"]),
    )


_LIMIT = 1 << 63


def _check(hand: LiveHandRecord) -> None:
    for name in ("table_id", "user_id", "guild_id", "application_id", "interaction_id",
                 "drawing"):
        value = getattr(hand, name)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < _LIMIT:
            raise InvalidInput(f"A live hand's {name} must be a whole number within 64 bits.")
    if hand.message_id is not None and not 0 <= hand.message_id < _LIMIT:
        raise InvalidInput("A live hand's message_id must be within 64 bits.")
    if not 0 <= hand.selection < 1 << 104:
        raise InvalidInput("A live hand's selection must fit 104 cards.")
    if not isinstance(hand.token, str) or not 0 < len(hand.token) <= 500:
        raise InvalidInput("A live hand needs its interaction's token.")  # never the token itself
    if not isinstance(hand.lang, str) or not 0 < len(hand.lang) <= 16:
        raise InvalidInput("A live hand's language must be a short code.")


class LiveHandsMixin:
    """The store's live hands (a part of `data.Store`)."""

    shards: Shards | None

    if TYPE_CHECKING:
        _now: Callable[[datetime | None], str]

        def _read(self) -> AbstractAsyncContextManager[Conn]: ...
        def _write(self) -> AbstractAsyncContextManager[Conn]: ...
        def _own(self, guild_id: int, what: str) -> None: ...

    async def save_live_hand(self, hand: LiveHandRecord) -> bool:
        """Keep ``hand`` as the person's live hand at its table (replacing the one kept before).
        Returns False, keeping nothing, when the table is closed or unknown."""
        _check(hand)
        self._own(hand.guild_id, f"Table {hand.table_id}")
        stamp = self._now(None)
        async with self._write() as db:
            # Only for an open table: a hand saved after its table closed would outlive it.
            changed = await db.execute(
                "INSERT INTO live_hands (table_id, user_id, guild_id, application_id, "
                "interaction_id, token, message_id, drawing, selection, lang, shown_version, "
                "updated_at) SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? FROM tables "
                "WHERE id = ? AND status = 'open' "
                "ON CONFLICT (table_id, user_id) DO UPDATE SET "
                "guild_id = excluded.guild_id, application_id = excluded.application_id, "
                "interaction_id = excluded.interaction_id, token = excluded.token, "
                "message_id = excluded.message_id, drawing = excluded.drawing, "
                "selection = excluded.selection, lang = excluded.lang, "
                "shown_version = excluded.shown_version, updated_at = excluded.updated_at",
                (hand.table_id, hand.user_id, hand.guild_id, hand.application_id,
                 hand.interaction_id, hand.token, hand.message_id, hand.drawing,
                 format(hand.selection, "x"), hand.lang, hand.shown_version, stamp,
                 hand.table_id),
            )
        return changed == 1

    async def forget_live_hand(self, table_id: int, user_id: int,
                               interaction_id: int | None = None) -> bool:
        """Delete a person's live hand at a table; with ``interaction_id`` only while it is
        still that interaction's (a newer one that took the hand over stays)."""
        async with self._write() as db:
            if interaction_id is None:
                changed = await db.execute(
                    "DELETE FROM live_hands WHERE table_id = ? AND user_id = ?",
                    (table_id, user_id))
            else:
                changed = await db.execute(
                    "DELETE FROM live_hands WHERE table_id = ? AND user_id = ? "
                    "AND interaction_id = ?", (table_id, user_id, interaction_id))
        return changed > 0

    async def forget_live_hands(self, table_id: int) -> int:
        """Delete every live hand of a table; returns how many."""
        async with self._write() as db:
            return await db.execute("DELETE FROM live_hands WHERE table_id = ?", (table_id,))

    async def live_hands(self, shards: Shards | None = None) -> list[LiveHandRecord]:
        """The live hands of open tables of servers on ``shards`` (default: the store's own)."""
        where, params = _shard_where(shards or self.shards)
        async with self._read() as db:
            rows = await db.fetchall(
                "SELECT h.* FROM live_hands h JOIN tables t ON t.id = h.table_id "
                f"WHERE t.status = 'open'{where} ORDER BY h.table_id, h.user_id", params)
        return [_hand(r) for r in rows]


def _shard_where(shards: Shards | None) -> tuple[str, tuple[int, ...]]:
    if shards is None:
        return "", ()
    ids = sorted(shards.ids)
    marks = ", ".join("?" for _ in ids)
    return f" AND ((h.guild_id / {1 << 22}) % ?) IN ({marks})", (shards.count, *ids)

