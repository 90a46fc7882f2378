"""What a load run does: its settings and the constants the other modules share."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from engine import Rules

REPO_ROOT = Path(__file__).resolve().parents[2]
BOARD_TITLE = "Tiến Lên — table #"
LOBBY_LEVELS = {"easy", "normal", "hard"}
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
RULES = Rules()


@dataclasses.dataclass
class LoadConfig:
    tables: int = 10
    seconds: float = 60.0  # tables keep starting new games for this long, then finish them
    humans: int = 1  # scripted humans a table (1: plus three computer players; 4: no computers)
    level: str = "normal"  # computer players' level
    limits: bool = True  # the fake enforces Discord's rate limits (global, per route, invalid)
    faults: bool = False  # 429 on 5% / 500 on 1% of channel edits, a gateway disconnect a minute
    kills: int = 0  # SIGKILL the bot and restart it this many times during the run
    think: float = 1.0  # seconds a scripted human waits before each action (±50% jitter)
    ai_delay: float = 1.0  # the bot's AI_DELAY_SECONDS
    board_interval: float = 1.0  # the bot's BOARD_EDIT_INTERVAL
    images: bool = True  # the bot's CARD_PICTURES (board and hand pictures, card emoji)
    turn_seconds: int = 60
    stake: int = 1
    games: int | None = None  # stop starting games once this many were started (soak)
    drain: float = 180.0  # at most this long for the games in progress to finish after the run
    rate_limit_fraction: float = 0.05
    server_error_fraction: float = 0.01
    retry_after: float = 0.3
    disconnect_every: float | None = 60.0
    lag_log: float = 1.0  # the bot's LOOP_LAG_LOG period
    response_timeout: float = 10.0
    stale_after: float = 10.0  # no board change this long while playing: a person checks the hand
    seed: int = 1
    reactions: float = 0.0  # reactions a second per table, through the board's select (0: none)
    workdir: Path | None = None
    quiet: bool = False
    # the bot's store: a DATABASE_URL (postgresql://… or sqlite:///…); None: a fresh SQLite
    # file in the work directory
    database: str | None = None
