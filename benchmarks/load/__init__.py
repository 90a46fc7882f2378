"""Load, fault and soak benchmark: the real bot (`python -m bot`, a subprocess) against the loopback
fake Discord (the `tests.support.fake_discord` package) running in this process.

Each table is driven by scripted people who only use Discord: `/tienlen start`, the board's buttons,
`My hand`, card buttons, `Play` / `Pass`. They read the public board (whose turn, what to beat) and
their own ephemeral hand message (the card buttons' labels), pick the lowest card(s) that beat the
table, and never look inside the bot or its database (the database is only read after the run, by
`python -m data.check`).

    python -m benchmarks.load --tables 50 --minutes 5              # 1 human + 3 computers a table
    python -m benchmarks.load --tables 20 --minutes 5 --humans 4   # 4 humans, ~1 action/s each
    python -m benchmarks.load --tables 50 --minutes 5 --faults --kills 2
    python -m benchmarks.load --tables 50 --level expert --minutes 3
    python -m benchmarks.load --tables 50 --games 1000 --fast      # soak: 1,000 complete games

Prints interactions/s, callback latency p50/p95/p99/max (time from the fake's INTERACTION_CREATE to
the bot's callback), the bot's event-loop lag max (from its `LOOP_LAG_LOG` lines), board edits/s,
the bot's RSS per table, CPU seconds per game, errors, and the result of `python -m data.check`.

The package: `config` (the run's settings), `process` (the bot under test), `players` (the
simulated people), `harness` (the run), `report` (what it measured), `cli` (the command line).
"""

from benchmarks.load.cli import main
from benchmarks.load.config import LoadConfig
from benchmarks.load.harness import Harness, run_load
from benchmarks.load.players import (
    BoardView,
    board_table_id,
    choose_play,
    hand_button,
    hand_cards,
    read_board,
    to_beat_of,
)
from benchmarks.load.process import BotProcess
from benchmarks.load.report import LoadResult

__all__ = [
    "BoardView",
    "BotProcess",
    "Harness",
    "LoadConfig",
    "LoadResult",
    "board_table_id",
    "choose_play",
    "hand_button",
    "hand_cards",
    "main",
    "read_board",
    "run_load",
    "to_beat_of",
]
