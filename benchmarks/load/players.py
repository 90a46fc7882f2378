"""The simulated players: what they read on the board and in their hand, how they choose
a play, and the per-table state they keep."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import re
from typing import Any

from benchmarks.load.config import BOARD_TITLE, RULES
from engine import Card, can_beat, classify, parse_cards
from tests.support.fake_discord import (
    FakeUser,
    StoredMessage,
)


@dataclasses.dataclass
class BoardView:
    phase: str  # lobby | playing | over | closed
    turn_user: int | None
    to_beat: list[Card] | None
    seats: int


_TURN_RE = re.compile(r"^<@(\d+)> to (?:play|lead|give back cards)", re.M)
_TITLE_RE = re.compile(r"^(?:### |-# )" + re.escape(BOARD_TITLE) + r"(\d+)")
_SEATS_RE = re.compile(r"Seats \((\d+)/(\d+)\)")


def read_board(message: StoredMessage) -> BoardView:
    desc = message.text()  # the board's text displays (V2 layout)
    if not message.custom_ids():
        return BoardView("closed", None, None, 0)
    if "**Game over**" in desc:
        return BoardView("over", None, None, 0)
    seats = _SEATS_RE.search(desc)
    if seats:
        return BoardView("lobby", None, None, int(seats.group(1)))
    turn = _TURN_RE.search(desc)
    return BoardView("playing", int(turn.group(1)) if turn else None, to_beat_of(desc), 0)


def to_beat_of(text: str) -> list[Card] | None:
    """The play to beat in a board's or a hand's text ("To beat: 9♣ 9♥ by @bob"), or None."""
    for line in text.splitlines():
        if line.startswith("To beat:"):
            return parse_cards(line[len("To beat:") :].strip().split(" by ", 1)[0])
    return None


def board_table_id(message: StoredMessage) -> int | None:
    if message.ephemeral:
        return None
    found = _TITLE_RE.match(message.text())  # the first line: "### Tiến Lên — table #N"
    return int(found.group(1)) if found else None


def hand_cards(message: StoredMessage) -> list[tuple[Card, dict[str, Any]]]:
    out = []
    for comp in message.iter_components():
        cid = str(comp.get("custom_id") or "")
        if cid.startswith("tl:h:") and re.fullmatch(r"c\d+", cid.rsplit(":", 1)[1]):
            out.append((parse_cards(str(comp["label"]))[0], comp))
    return out


def hand_button(message: StoredMessage, op: str) -> dict[str, Any] | None:
    for comp in message.iter_components():
        if str(comp.get("custom_id") or "").endswith(f":{op}"):
            return comp
    return None


def choose_play(hand: list[Card], to_beat: list[Card] | None) -> list[Card] | None:
    """What a simple person plays: on a lead the lowest card; otherwise the lowest single or pair
    that beats the table; None = pass."""
    cards = sorted(hand)
    if not cards:
        return None
    if to_beat is None:
        return [cards[0]]
    table = classify(to_beat, RULES)
    if table is None:
        return None
    if len(to_beat) == 1:
        for card in cards:
            combo = classify([card], RULES)
            if combo is not None and can_beat(combo, table, RULES):
                return [card]
    elif len(to_beat) == 2:
        for a, b in itertools.pairwise(cards):
            if a.rank != b.rank:
                continue
            combo = classify([a, b], RULES)
            if combo is not None and can_beat(combo, table, RULES):
                return [a, b]
    return None




class Channel:
    def __init__(self) -> None:
        self.board: StoredMessage | None = None
        self.seq = 0
        self.waiters: list[asyncio.Future[None]] = []

    def changed(self, message: StoredMessage) -> None:
        if self.board is None or message.id >= self.board.id:
            self.board = message
        elif message.id != self.board.id:
            return  # an older board (e.g. the "moved" notice); not what people look at
        self.seq += 1
        for f in self.waiters:
            if not f.done():
                f.set_result(None)
        self.waiters.clear()

    async def wait(self, seen: int, timeout: float) -> bool:  # noqa: ASYNC109
        if self.seq != seen:
            return True
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiters.append(fut)
        try:
            await asyncio.wait_for(fut, timeout)
        except TimeoutError:
            return False
        return True


class Lost(Exception):
    """The interaction got no answer because the bot was killed."""


class Table:
    def __init__(self, index: int, channel_id: int, humans: list[FakeUser]) -> None:
        self.index = index
        self.channel_id = channel_id
        self.humans = humans
        self.ch = Channel()
        self.id: int | None = None
        self.games_finished = 0
        self.games_started = 0
        self.in_game = False
        self.done = asyncio.Event()
        self.last_hand: dict[int, int] = {}
