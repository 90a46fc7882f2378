"""`EXPERT_BUDGET_MS`: how long an expert computer player thinks over a play reaches its search,
whether it decides in the event loop's process (no worker pool) or in a worker process; so do the
levels of the table's computer seats."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

from bot.app import TienLenBot
from cogs.tables import LiveTable, TablePhase, scheduling
from data import Store
from data.models import Seat, TableRecord
from engine import Game, Level, Rules, ai
from engine.ai import belief

from .conftest import make_settings, unpaced


def _game() -> Game:
    """A game a few plays in, with the expert's seat to play and more than one play to weigh."""
    game = Game.new(Rules().model_copy(update={"instant_wins": False}), 4, seed=7)
    for _ in range(5):
        seat = game.current
        assert seat is not None
        cards = ai.decide(game, seat, Level.HARD, seed=1)
        if cards is None:
            game.pass_turn(seat)
        else:
            game.play(seat, cards)
    return game


async def test_the_setting_is_the_budget_of_every_expert_decision(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.sqlite3")
    try:
        bot = TienLenBot(make_settings(EXPERT_BUDGET_MS=12), store, ai_delay=0.0,
                         board_interval=0.0, rest_budget=unpaced())
        service = bot.table_service
        assert service.expert_budget_ms == 12
        game = _game()
        seat = game.current
        assert seat is not None
        belief.clear()
        service._decide_now(game, seat, Level.EXPERT)
        # The carried belief is kept per budget: the search ran on the setting's.
        assert [key[3] for key in belief._CACHE] == [12]
        # A seed for which 12 ms and the default budget choose differently.
        seeds = (random.Random(r).randrange(2**31) for r in range(40))
        pick = next(r for r, seed in enumerate(seeds)
                    if ai.decide(game, seat, Level.EXPERT, seed=seed, budget_ms=12)
                    != ai.decide(game, seat, Level.EXPERT, seed=seed))
        seed = random.Random(pick).randrange(2**31)
        service._rng = random.Random(pick)  # the seed the service draws for the decision
        with ProcessPoolExecutor(max_workers=1) as pool:
            service.executor = pool
            got = await service._decide_far(game.to_json(), seat, Level.EXPERT)
        assert got == ai.decide(game, seat, Level.EXPERT, seed=seed, budget_ms=12)
    finally:
        belief.clear()
        await store.close()


def _table(game: Game, bots: list[str | None]) -> LiveTable:
    now = datetime(2026, 12, 3, tzinfo=UTC)
    seats = tuple(Seat(f"p{i}", 100 + i) if bot is None else Seat(f"Computer {i}", bot=bot)
                  for i, bot in enumerate(bots))
    record = TableRecord(1, 5, 6, 100, "open", game.rules.model_dump_json(), 10, 60, seats,
                         None, None, None, None, 1, now, now)
    return LiveTable(record, phase=TablePhase.PLAYING, max_seats=game.seat_count, game=game,
                     game_id=1)


async def test_the_expert_is_told_the_levels_the_table_shows(tmp_path: Path) -> None:
    """A computer seat's level is public (the table shows it): the expert's search hears the
    levels of the computer seats, in this process and in a worker process, and a person's seat
    as unknown (even while the computer holds it)."""
    store = await Store.open(tmp_path / "bot.sqlite3")
    try:
        bot = TienLenBot(make_settings(), store, ai_delay=0.0, board_interval=0.0,
                         rest_budget=unpaced())
        service = bot.table_service
        game = _game()
        seat = game.current
        assert seat is not None
        bots: list[str | None] = [None, "normal", "hard", "easy"]
        bots[seat] = "expert"
        live = _table(game, bots)
        live.auto = [True, False, False, False]  # the person away: the computer holds the seat
        levels = scheduling._levels(live, game.seat_count)
        assert levels == tuple(bots)
        belief.clear()
        service._decide_now(game, seat, Level.EXPERT, levels)
        shown = tuple(None if s == seat else bots[s] for s in range(4))
        assert [key[-1] for key in belief._CACHE] == [shown]
        # The levels reach a worker process too: a seed for which they change the decision.
        seeds = [random.Random(r).randrange(2**31) for r in range(40)]
        pick = next(r for r, seed in enumerate(seeds)
                    if ai.decide(game, seat, Level.EXPERT, seed=seed, levels=levels)
                    != ai.decide(game, seat, Level.EXPERT, seed=seed))
        service._rng = random.Random(pick)
        with ProcessPoolExecutor(max_workers=1) as pool:
            service.executor = pool
            got = await service._decide_far(game.to_json(), seat, Level.EXPERT, levels)
        assert got == ai.decide(game, seat, Level.EXPERT, seed=seeds[pick], levels=levels)
    finally:
        belief.clear()
        await store.close()
