"""People's preferences in memory, read from the store once per person (bounded)."""

from __future__ import annotations

import logging
from collections import OrderedDict

from data import HandPrefs, Store, StoreError

__all__ = ["PrefsCache"]

log = logging.getLogger("cogs.prefs")

KEPT = 10_000
"""People whose preferences are kept in memory (the least recently used are read again)."""


class PrefsCache:
    """`await load(user)` reads a person's preferences (once, then from memory); `known(user)`
    answers at once with what was loaded (the defaults otherwise), for code that cannot wait."""

    def __init__(self, store: Store, kept: int = KEPT) -> None:
        self.store = store
        self.kept = kept
        self._known: OrderedDict[int, HandPrefs] = OrderedDict()

    def known(self, user_id: int | None) -> HandPrefs:
        if user_id is None:
            return HandPrefs()
        prefs = self._known.get(user_id)
        if prefs is None:
            return HandPrefs()
        self._known.move_to_end(user_id)
        return prefs

    async def load(self, user_id: int | None) -> HandPrefs:
        if user_id is None:
            return HandPrefs()
        prefs = self._known.get(user_id)
        if prefs is None:
            try:
                prefs = await self.store.get_prefs(user_id)
            except StoreError as error:  # the hand is drawn all the same, as by default
                log.warning("preferences could not be read (%s); using the defaults",
                            type(error).__name__)
                return HandPrefs()
            self._remember(user_id, prefs)
        return prefs

    async def change(self, user_id: int, **changes: object) -> HandPrefs:
        """Store the changes (InvalidInput for anything not declared: nothing stored)."""
        prefs = await self.store.set_prefs(user_id, **changes)
        self._remember(user_id, prefs)
        return prefs

    def _remember(self, user_id: int, prefs: HandPrefs) -> None:
        self._known[user_id] = prefs
        self._known.move_to_end(user_id)
        while len(self._known) > self.kept:
            self._known.popitem(last=False)
