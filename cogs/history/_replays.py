"""Finished games as replays (no Discord here): loading a game from the store, the privacy rule,
and a small cache (a finished game never changes, so its replay is built once).

The rule: a game is replayed only once it is finished and settled, and only in the server it
was played in. Every step is rebuilt by :class:`engine.replay.Replay` (``Game.replay`` on a
prefix of the game's own log).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from cogs.i18n import N_
from cogs.tables import Player
from data import GameRecord, ResultRow, Store, StoreError
from engine import Rules
from engine.replay import Replay

__all__ = ["Loaded", "ReplayRefused", "Replays"]

MAX_STEP = 99_999
"""The most digits a step may have in a custom id (a game has a few hundred actions at most)."""

NO_GAME = N_("There is no game #{game}.")
NOT_FINISHED = N_("Game #{game} is not finished: a game is replayed only once it is over.")
OTHER_SERVER = N_("Game #{game} was played in another server: its replay is shown only there.")
NO_STEP = N_("Game #{game} has no step {step}: its steps run from 0 to {last}.")
NOT_HERE = N_("Replays are shown only in a server.")


class ReplayRefused(Exception):
    """A replay that may not be shown: a message marked with ``N_`` and its values."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message.format(**values))
        self.message = message
        self.values = values


@dataclass(frozen=True, slots=True)
class Loaded:
    """A finished game ready to replay."""

    record: GameRecord
    replay: Replay
    results: tuple[ResultRow, ...]
    rules: Rules

    @property
    def players(self) -> tuple[Player, ...]:
        return tuple(Player(s.name, s.user_id) for s in self.record.seats)

    def chips(self) -> list[int]:
        by_seat = {r.seat: r.chip_change for r in self.results}
        return [by_seat.get(i, 0) for i in range(len(self.record.seats))]

    def places(self) -> list[int]:
        """Seats in order of their places (1st first)."""
        return list(self.replay.final.places)

    def check_step(self, step: int) -> None:
        last = len(self.replay) - 1
        if not 0 <= step <= last:
            raise ReplayRefused(NO_STEP, game=self.record.id, step=step, last=last)


class Replays:
    """Loads finished games for replay, checking the privacy rule; keeps the last few."""

    def __init__(self, store: Store, size: int = 32) -> None:
        self.store = store
        self.size = size
        self._kept: OrderedDict[int, Loaded] = OrderedDict()

    async def load(self, game_id: int, guild_id: int | None) -> Loaded:
        """The replay of ``game_id`` for a person in ``guild_id``, or :class:`ReplayRefused`."""
        if guild_id is None:
            raise ReplayRefused(NOT_HERE)
        loaded = self._kept.get(game_id)
        if loaded is None:
            loaded = await self._read(game_id)
        if loaded.record.guild_id != guild_id:
            raise ReplayRefused(OTHER_SERVER, game=game_id)
        self._kept[game_id] = loaded
        self._kept.move_to_end(game_id)
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)
        return loaded

    async def _read(self, game_id: int) -> Loaded:
        try:
            record = await self.store.get_game(game_id)
        except StoreError:
            raise ReplayRefused(NO_GAME, game=game_id) from None
        if record.status != "finished" or not record.state_json:
            if record.status in ("lobby", "playing"):
                raise ReplayRefused(NOT_FINISHED, game=game_id)
            raise ReplayRefused(NO_GAME, game=game_id)  # cancelled: never finished, no replay
        state = json.loads(record.state_json)
        engine = json.loads(state["engine"])
        replay = Replay(engine["events"])
        if not replay.final.is_over:  # pragma: no cover - a settled game is over
            raise ReplayRefused(NOT_FINISHED, game=game_id)
        results = await self.store.game_results(game_id)
        return Loaded(record, replay, results, replay.final.rules)
