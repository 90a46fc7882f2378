"""The V2 layouts fit Discord's limits at their largest: a 20-card hand (two decks) with its
picture, buttons and menu, and an eight-seat board with and without its picture; the loopback
fake's validator (Discord's documented limits) accepts each body as the bot would send it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from cogs.i18n import words as words_of
from cogs.tables import LiveTable, TablePhase
from cogs.tienlen import _render as render
from data.models import Seat, TableRecord
from engine import Game, Rules
from tests.support import layout
from tests.support.fake_discord import validate

TWENTY = "3S 3S 4C 4C 5D 5D 6H 7S 8C 10H JS QC KD AH 2S 3H 4D 5C 6S 7D"


def _live(hands: list[str]) -> LiveTable:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    n = len(hands)
    rules = Rules().model_copy(update={"instant_wins": False})
    seats = tuple(Seat(f"a very long display name {i} 🃏", 10**17 + i) for i in range(n))
    record = TableRecord(1, 5, 6, seats[0].user_id or 0, "open", rules.model_dump_json(), 10,
                         60, seats, None, None, None, None, 1, now, now)
    game = Game.new(rules, [s.name for s in seats], hands=hands, first_game=False, leader=0)
    live = LiveTable(record, phase=TablePhase.PLAYING, max_seats=n, game=game, game_id=1,
                     deadline=1_800_000_000)
    live.auto = [False] * n
    return live


def _body(payload: dict[str, Any]) -> dict[str, Any]:
    view = payload["view"]
    assert set(payload) == {"view"}  # no content, no embeds
    return {"flags": validate.FLAG_COMPONENTS_V2, "components": view.to_components()}


def _accepted(body: dict[str, Any], files: list[str]) -> None:
    problems = validate.documented_limits("POST", "/channels/1/messages", body, uploads=files)
    assert problems == [], problems
    assert len(list(layout.walk(body["components"]))) <= 40
    assert len(layout.text(body)) <= 4000


@pytest.mark.parametrize("lang", ["en", "vi"])
@pytest.mark.parametrize("pictured", [True, False])
def test_a_twenty_card_hand_fits(lang: str, pictured: bool) -> None:
    others = ["9C 9D", "9H 9S", "KS KH", "QD QH", "JD JH"]
    live = _live([TWENTY, *others])
    game = live.game
    assert game is not None and len(game.hand(0)) == 20 and game.decks == 2
    assert game.current == 0 and game.legal_plays(0)
    everything = sum(1 << c for c in range(104))
    body = _body(render.hand(words_of(lang), live, 0, everything, "a note " * 40, press=2**62,
                             pictured=pictured))
    _accepted(body, ["hand.png"] if pictured else [])
    count = len(list(layout.walk(body["components"])))
    assert count == (35 if pictured else 34), count  # as planned in docs/DISCORD.md
    assert any(c.get("custom_id", "").startswith("tl:m:") for c in layout.walk(
        body["components"]))  # the menu of plays is there
    assert len(layout.lines(body)) <= (4 if pictured else 5)


@pytest.mark.parametrize("pictured", [True, False])
def test_an_eight_seat_board_fits(pictured: bool) -> None:
    live = _live([TWENTY, "9C 9D", "9H 9S", "KS KH", "QD QH", "JD JH", "8S 8D", "10S 10C"])
    body = _body(render.board(live, pictured=pictured))
    _accepted(body, ["board.png"] if pictured else [])
    lines = layout.lines(body)
    if pictured:
        assert len(lines) <= render.PICTURED_LINES
        (alt,) = layout.alt_texts(body)
        assert alt.count("\n") == 7  # the eight seats, one a line
    else:
        assert sum(line.startswith(f"{i}. ") for i in range(1, 9) for line in lines) == 8
