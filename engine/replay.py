"""Step through a saved game: the game as it stood after its first k actions.

Every step is rebuilt by :meth:`Game.replay` from a prefix of the game's own log, so a replay
applies the same rules as the game did (there is no second rules implementation). Step 0 is the
deal (and what follows it by itself: a tribute, an instant win); step k is the game after its
k-th action (a play, a pass, or cards given back in an exchange), with every event that action
caused. A game of ``n`` actions has ``n + 1`` steps.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from engine.events import Event, Exchanged, Passed, Played, TrickWon, event_from_dict
from engine.game import Game

__all__ = ["Replay", "Step", "is_action"]


def is_action(event: Event) -> bool:
    """Whether a logged event is something a player did (the others follow from those)."""
    return isinstance(event, Played | Passed) or (isinstance(event, Exchanged) and event.returned)


@dataclass(frozen=True, slots=True)
class Step:
    """The game after ``index`` actions; ``events`` are the events of that action (for step 0,
    of the deal); ``trick`` is the trick the last action belongs to."""

    index: int
    game: Game
    events: tuple[Event, ...]
    trick: int

    @property
    def trick_winner(self) -> int | None:
        """The seat that won a trick with this action, if one was won."""
        return next((e.seat for e in self.events if isinstance(e, TrickWon)), None)


class Replay:
    """A finished (or any) game's log split into steps; ``Replay(events)[k]`` is step k."""

    def __init__(self, events: Sequence[Event | dict[str, Any]]) -> None:
        log = [e if not isinstance(e, dict) else event_from_dict(e) for e in events]
        self.events: tuple[Event, ...] = tuple(log)
        #: where each step's events end in the log (exclusive)
        starts = [i for i, event in enumerate(log) if is_action(event)]
        self._ends: tuple[int, ...] = (*starts, len(log))
        self.final = Game.replay(log)  # checks the whole log once: it replays to itself
        self._tricks: tuple[int, ...] = tuple(self._trick_of(k) for k in range(len(self._ends)))

    def __len__(self) -> int:
        """The number of steps: the game's actions + 1."""
        return len(self._ends)

    @property
    def actions(self) -> int:
        return len(self._ends) - 1

    def _trick_of(self, k: int) -> int:
        if k == 0:
            return 1
        event = self.events[self._ends[k - 1]]
        return event.trick if isinstance(event, Played | Passed) else 1

    def trick_of(self, k: int) -> int:
        """The trick that step k's action belongs to (1 for the deal and the exchange)."""
        return self._tricks[k]

    @property
    def tricks(self) -> int:
        """The number of tricks the game's actions belong to."""
        return max(self._tricks)

    def first_step_of_trick(self, trick: int) -> int:
        """The step of the first action of ``trick`` (0 when the game had no action)."""
        if len(self) == 1 and trick == 1:
            return 0
        for k in range(1, len(self)):
            if self._tricks[k] == trick:
                return k
        raise IndexError(f"there is no trick {trick}")

    def step_events(self, k: int) -> tuple[Event, ...]:
        """The events of step k (its action and what followed), without rebuilding the game."""
        if not 0 <= k < len(self._ends):
            raise IndexError(f"there is no step {k}")
        return self.events[0 if k == 0 else self._ends[k - 1]:self._ends[k]]

    def __getitem__(self, k: int) -> Step:
        if not 0 <= k < len(self._ends):
            raise IndexError(f"there is no step {k} (0 to {len(self._ends) - 1})")
        end = self._ends[k]
        start = 0 if k == 0 else self._ends[k - 1]
        game = self.final if k == len(self._ends) - 1 else Game.replay(self.events[:end])
        return Step(k, game, self.events[start:end], self._tricks[k])

    def __iter__(self) -> Iterator[Step]:
        for k in range(len(self)):
            yield self[k]
