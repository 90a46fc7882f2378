"""Time the hand's V2 layout with its menu of plays: ``python -m benchmarks.hand_layout``.

Deals 200 seeded four-seat games (not the first game, so any lead is legal: the largest menus)
and draws the hand of the seat to lead (the menu: the engine's legal plays and the hint) and of
the next seat (no menu), with the picture on. Prints the median, 95th percentile and maximum, and
the most components a drawing used."""

from __future__ import annotations

import statistics
import time
from datetime import UTC, datetime

from cogs.i18n import words as words_of
from cogs.tables import LiveTable, TablePhase
from cogs.tienlen import _render as render
from data.models import Seat, TableRecord
from engine import Game, Rules

GAMES = 200


def _live(game: Game) -> LiveTable:
    now = datetime(2026, 12, 1, tzinfo=UTC)
    seats = tuple(Seat(f"p{i}", 100 + i) for i in range(game.seat_count))
    record = TableRecord(1, 5, 6, 100, "open", game.rules.model_dump_json(), 10, 60, seats,
                         None, None, None, None, 1, now, now)
    live = LiveTable(record, phase=TablePhase.PLAYING, max_seats=game.seat_count, game=game,
                     game_id=1, deadline=1.8e9)
    live.auto = [False] * game.seat_count
    return live


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return (f"median {statistics.median(ordered) * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms, "
            f"max {ordered[-1] * 1000:.2f} ms")


def main() -> None:
    w = words_of("en")
    on_turn: list[float] = []
    off_turn: list[float] = []
    most = 0
    warm = Game.new(Rules(), 4, seed=GAMES, first_game=False, leader=0)
    render.hand(w, _live(warm), warm.current or 0, 0, pictured=True)  # catalogues, imports
    for seed in range(GAMES):
        game = Game.new(Rules(), 4, seed=seed, first_game=False, leader=seed % 4)
        if game.current is None:
            continue  # won at once
        live = _live(game)
        for seat, times in ((game.current, on_turn), ((game.current + 1) % 4, off_turn)):
            start = time.perf_counter()
            payload = render.hand(w, live, seat, 0, pictured=True)
            times.append(time.perf_counter() - start)
            most = max(most, len(list(payload["view"].walk_children())))
    print(f"hand with its menu (on turn, {len(on_turn)} deals): {_ms(on_turn)}")
    print(f"hand without a menu (off turn): {_ms(off_turn)}")
    print(f"most components in a drawing: {most} (Discord's limit: 40)")


if __name__ == "__main__":
    main()
