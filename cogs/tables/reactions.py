"""Reactions on a board: six emotes and four quick phrases a seated person or a spectator throws
at the table. Discord-free: the keys, the per-person cooldown, and what the board shows.

A reaction changes nothing of the game and costs no chips; it is not stored (a restart forgets the
few seconds of reactions on screen). It is shown beside its person's seat (or among the
spectators) on the next board refresh only, riding that coalesced edit: :func:`shown` returns the
reactions made since the board last went out (``LiveTable.reactions_upto``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import NoGame, TableClosed, TableError
from .live import LiveTable, TablePhase

__all__ = [
    "COOLDOWN",
    "EMOTES",
    "KEPT",
    "PHRASES",
    "REACTIONS",
    "Reaction",
    "ReactionBook",
    "ReactionTooSoon",
    "UnknownReaction",
    "shown",
]

EMOTES: dict[str, str] = {
    "like": "👍", "laugh": "😂", "wow": "😮", "angry": "😡", "cry": "😭", "fire": "🔥",
}
"""The six emotes: key → emoji (the same in every language)."""
PHRASES: tuple[str, ...] = ("nice", "cheat", "again", "hurry")
"""The four quick phrases (their words are in cogs.callouts, in the reader's language)."""
REACTIONS: tuple[str, ...] = (*EMOTES, *PHRASES)
COOLDOWN = 3.0
"""Seconds between two reactions of one person."""
KEPT = 8
"""The most reactions a table holds for its next refresh (the latest per person)."""


class UnknownReaction(TableError):
    """The reaction key is not one of :data:`REACTIONS` (a forged component)."""


class ReactionTooSoon(TableError):
    """The person reacted less than :data:`COOLDOWN` seconds ago: ``seconds`` are left."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"react again in {seconds:.1f} s")
        self.seconds = seconds


@dataclass(frozen=True, slots=True)
class Reaction:
    user_id: int
    key: str
    change: int
    """The table's change counter once the reaction was counted."""


class ReactionBook:
    """The per-person cooldown (one book per bot; ``clock`` is the event loop's monotonic time)."""

    def __init__(self, cooldown: float = COOLDOWN) -> None:
        self.cooldown = cooldown
        self._last: dict[int, float] = {}

    def react(self, live: LiveTable, user_id: int, key: str, now: float) -> Reaction:
        """Record a reaction on the table, or raise the refusal (nothing changes then)."""
        if key not in REACTIONS:
            raise UnknownReaction(key)
        if live.table.status != "open":
            raise TableClosed(live.id)
        if live.phase is TablePhase.LOBBY or live.game is None:
            raise NoGame()
        last = self._last.get(user_id)
        if last is not None and now - last < self.cooldown:
            raise ReactionTooSoon(self.cooldown - (now - last))
        self._last[user_id] = now
        if len(self._last) > 10_000:  # forget people whose cooldown is long over
            self._last = {u: t for u, t in self._last.items() if now - t < self.cooldown}
        reaction = Reaction(user_id, key, live.changes + 1)  # shown from the next refresh on
        kept = [r for r in live.reactions if r.user_id != user_id]
        live.reactions = [*kept, reaction][-KEPT:]
        return reaction


def shown(live: LiveTable) -> list[Reaction]:
    """The reactions the board shows now: those made since it last went out."""
    return [r for r in live.reactions if r.change > live.reactions_upto]
