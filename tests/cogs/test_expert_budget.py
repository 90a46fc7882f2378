"""`EXPERT_BUDGET_MS`: how long an expert computer player thinks over a play reaches its search,
whether it decides in the event loop's process (no worker pool) or in a worker process."""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bot.app import TienLenBot
from data import Store
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
