"""The pictures of `/tienlen help`: the example combinations of a topic in one row of cards,
drawn by the card pictures' own hand drawing (`cogs.pictures`), each combination raised or lowered
in turn so the groups stand apart. Each topic's picture is drawn once and kept: it never changes."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from cogs.pictures.model import HandView
from engine import Combo, classify, parse_cards

from ._words import Topic

if TYPE_CHECKING:
    from cogs.pictures import Pictures

__all__ = ["EXAMPLES", "FILE", "HelpPictures", "examples", "view_of"]

log = logging.getLogger(__name__)

FILE = "help.png"
ANSWER_BUDGET = 1.0
"""Seconds a picture may take before the answer goes out as text (an interaction is answered
within 3 s); the drawing goes on and is kept for the next time."""

EXAMPLES: dict[Topic, tuple[str, ...]] = {
    "basics": ("7H", "9S 9H", "QS QD QH", "KS KC KD KH", "4S 5D 6C 7C", "5S 5H 6D 6H 7S 7D"),
    "order": ("3S", "4C", "5D", "6H", "7S", "8C", "9D", "10H", "JS", "QC", "KD", "AH", "2H"),
    "chops": ("2H", "4S 4H 5D 5H 6C 6H", "9S 9C 9D 9H"),
}
"""The combinations each pictured topic shows, in the order its text names them."""


def examples(topic: Topic) -> list[Combo]:
    """A topic's example combinations (none: the topic has no picture)."""
    found = []
    for group in EXAMPLES.get(topic, ()):
        combo = classify(group)
        assert combo is not None, group
        found.append(combo)
    return found


def view_of(topic: Topic) -> HandView | None:
    """The hand picture of a topic's examples (``None``: the topic has no picture)."""
    groups = EXAMPLES.get(topic)
    if groups is None:
        return None
    cards, raised = [], []
    for i, group in enumerate(groups):
        for card in parse_cards(group):
            cards.append(card)
            raised.append(i % 2 == 1)
    return HandView(tuple(cards), tuple(raised))


class HelpPictures:
    """Each topic's picture, drawn off the event loop once and kept."""

    def __init__(self, pictures: Pictures) -> None:
        self.pictures = pictures
        self._drawn: dict[Topic, bytes] = {}
        self._drawing: dict[Topic, asyncio.Task[bytes | None]] = {}

    async def png(self, topic: Topic) -> bytes | None:
        """The topic's picture, or ``None`` (no picture, or it is not drawn in time or failed)."""
        done = self._drawn.get(topic)
        if done is not None:
            return done
        view = view_of(topic)
        if view is None:
            return None
        task = self._drawing.get(topic)
        if task is None:
            task = self._drawing[topic] = asyncio.create_task(self._draw(topic, view))
        try:
            return await asyncio.wait_for(asyncio.shield(task), ANSWER_BUDGET)
        except TimeoutError:
            log.info("help pictures: %s took over %.1f s; answering with text", topic,
                     ANSWER_BUDGET)
            return None

    async def _draw(self, topic: Topic, view: HandView) -> bytes | None:
        try:
            png = await self.pictures.hand(view)
        finally:
            self._drawing.pop(topic, None)
        if png is not None:
            self._drawn[topic] = png
        return png
