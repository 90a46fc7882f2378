"""Typed settings, read from the environment and a `.env` file."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from engine.limits import IDLE_MINUTES, TURN_REMINDER, TURN_SECONDS

if TYPE_CHECKING:
    from data.models import Shards

DISCORD_API_BASE = "https://discord.com/api/v10"
DISCORD_GATEWAY = "wss://gateway.discord.gg/"

LogLevel = Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"]


class Settings(BaseSettings):
    """Every setting of the bot. Field names are the environment variable names."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        case_sensitive=True,
        extra="ignore",
    )

    DISCORD_TOKEN: SecretStr
    DATABASE_PATH: Path = Path("tienlen.sqlite3")
    DATABASE_URL: str | None = None
    DATABASE_POOL_SIZE: int = Field(default=10, ge=1, le=200)
    DISCORD_API_BASE_URL: str = DISCORD_API_BASE
    DISCORD_GATEWAY_URL: str = DISCORD_GATEWAY
    DEV_GUILD_ID: int | None = None
    LOG_LEVEL: LogLevel = "INFO"
    # Prometheus metrics (/metrics) and a health check (/healthz) on this port; 0 = off.
    METRICS_PORT: int | None = Field(default=None, ge=0, le=65535)
    METRICS_HOST: str = "127.0.0.1"
    STARTING_CHIPS: int = Field(default=1000, ge=0)
    DAILY_CHIPS: int = Field(default=200, ge=0)
    # the same ranges as /tienlen start and /tienlen settings (engine.limits)
    DEFAULT_TURN_SECONDS: int = Field(default=60, ge=TURN_SECONDS.low, le=TURN_SECONDS.high)
    # Seconds into a turn before the person on turn is reminded; "half": half the turn (the
    # default, 30 s of 60); 0 = no reminders.
    DEFAULT_TURN_REMINDER: (
        Annotated[int, Field(ge=TURN_REMINDER.low, le=TURN_REMINDER.high)] | Literal["half"]
    ) = "half"
    # A lobby or finished table without a press for this long closes itself (0: never).
    TABLE_IDLE_SECONDS: int = Field(default=900, ge=0, le=IDLE_MINUTES.high * 60)
    # How long the ready check of `Play again` waits for every seated person.
    READY_CHECK_SECONDS: int = Field(default=60, ge=5, le=3600)
    AI_DELAY_SECONDS: float = Field(default=1.0, ge=0, le=60)
    # How long an expert computer player thinks over a play, in ms of one core (its search runs
    # in a worker process during AI_DELAY_SECONDS): more is stronger and costs more CPU.
    EXPERT_BUDGET_MS: int = Field(default=100, ge=10, le=2000)
    BOARD_EDIT_INTERVAL: float = Field(default=1.0, ge=0, le=60)
    LOOP_LAG_LOG: float = Field(default=0.0, ge=0, le=3600)
    CARD_PICTURES: bool = True  # false: no board/hand pictures, no card emoji (text only)
    # Processes drawing the card pictures (unset: the cores minus one, at least one; 0: draw in
    # the event loop's thread, for tiny installs: every drawing then delays every answer).
    PICTURE_WORKERS: int | None = Field(default=None, ge=0, le=64)
    # Test hook: seconds each pooled drawing waits before it starts (0 in service).
    PICTURE_TEST_DELAY: float = Field(default=0.0, ge=0, le=60)
    # Test hook: seeds the deals and the computer players' choices, so a test's games repeat
    # (unset in service: every deal is fresh randomness).
    GAME_SEED: int | None = Field(default=None, ge=0)
    # Requests a second the whole bot may make on its own (Discord allows ~50 per bot token; 40
    # leaves room for requests that the network or a busy event loop bunch into one second);
    # processes sharing one token each take REST_BUDGET_PER_SECOND / REST_PROCESSES (unset:
    # 1, or for a process running some of the shards, SHARD_COUNT / its shards, rounded up).
    REST_BUDGET_PER_SECOND: float = Field(default=40.0, gt=0, le=50)
    REST_PROCESSES: int | None = Field(default=None, ge=1, le=1000)
    # Sharding: unset, one process runs the whole bot unsharded. SHARD_COUNT alone: this process
    # runs every shard; with SHARD_IDS (e.g. "0,1" or "0-3"), only those.
    SHARD_COUNT: int | None = Field(default=None, ge=1, le=100_000)
    SHARD_IDS: str | None = None

    @property
    def picture_workers(self) -> int:
        """PICTURE_WORKERS, or its default: the cores this process may use minus one (>= 1)."""
        if self.PICTURE_WORKERS is not None:
            return self.PICTURE_WORKERS
        from cogs.pictures.pool import default_workers

        return default_workers()

    @property
    def shard_ids(self) -> tuple[int, ...] | None:
        """The shards this process runs, ascending; None when the bot is not sharded."""
        if self.SHARD_COUNT is None:
            return None
        if self.SHARD_IDS is None:
            return tuple(range(self.SHARD_COUNT))
        return tuple(sorted(parse_shard_ids(self.SHARD_IDS)))

    @property
    def turn_reminder_default(self) -> int | None:
        """`DEFAULT_TURN_REMINDER` for the table service: seconds, or None for half the turn."""
        reminder = self.DEFAULT_TURN_REMINDER
        return None if reminder == "half" else int(reminder)

    @property
    def shards(self) -> Shards | None:
        """The store's and the table layer's view of `shard_ids` (None: unsharded, owns all)."""
        from data.models import Shards

        ids = self.shard_ids
        if ids is None or self.SHARD_COUNT is None:
            return None
        return Shards.of(ids, self.SHARD_COUNT)

    @property
    def rest_processes(self) -> int:
        """How many processes share the bot token's REST budget (see REST_PROCESSES)."""
        if self.REST_PROCESSES is not None:
            return self.REST_PROCESSES
        ids = self.shard_ids
        if ids is None or self.SHARD_COUNT is None:
            return 1
        return math.ceil(self.SHARD_COUNT / len(ids))

    @property
    def rest_budget_per_process(self) -> float:
        return self.REST_BUDGET_PER_SECOND / self.rest_processes

    @field_validator("SHARD_IDS", "SHARD_COUNT", "REST_PROCESSES", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("SHARD_IDS")
    @classmethod
    def _shard_ids(cls, value: str | None) -> str | None:
        if value is not None:
            parse_shard_ids(value)
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.SHARD_IDS is None:
            return self
        if self.SHARD_COUNT is None:
            raise ValueError("SHARD_IDS is set but SHARD_COUNT is not: set both (e.g. "
                             "SHARD_COUNT=4 SHARD_IDS=0,1)")
        outside = sorted(i for i in parse_shard_ids(self.SHARD_IDS) if i >= self.SHARD_COUNT)
        if outside:
            listed = ", ".join(str(i) for i in outside)
            raise ValueError(f"SHARD_IDS is invalid: {listed} outside 0..{self.SHARD_COUNT - 1} "
                             f"(SHARD_COUNT={self.SHARD_COUNT})")
        return self

    @field_validator("DISCORD_TOKEN")
    @classmethod
    def _token_not_blank(cls, value: SecretStr) -> SecretStr:
        if not value.get_secret_value().strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("DISCORD_API_BASE_URL")
    @classmethod
    def _http_url(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")

    @field_validator("DISCORD_GATEWAY_URL")
    @classmethod
    def _ws_url(cls, value: str) -> str:
        if not value.startswith(("ws://", "wss://")):
            raise ValueError("must start with ws:// or wss://")
        return value

    @field_validator("LOG_LEVEL", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("DEV_GUILD_ID", "DATABASE_URL", "METRICS_PORT", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("DATABASE_URL")
    @classmethod
    def _database_url(cls, value: str | None) -> str | None:
        if value is not None:
            from data.db import DatabaseURL
            from data.errors import InvalidInput

            try:
                DatabaseURL.parse(value)
            except InvalidInput:  # the message repeats no part of the URL (a password)
                raise ValueError(
                    "must be sqlite:///path or postgresql://user:password@host:port/database"
                ) from None
        return value

    @property
    def database_url(self) -> str:
        """Where the store lives: DATABASE_URL, else the SQLite file DATABASE_PATH names."""
        return self.DATABASE_URL or f"sqlite:///{self.DATABASE_PATH}"


def parse_shard_ids(text: str) -> list[int]:
    """Shard ids written as "0,1,5" or with ranges "0-3,8": each id at most once, none negative.
    Raises ValueError (one line) otherwise."""
    ids: list[int] = []
    for part in text.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise ValueError("must be shard numbers separated by commas, like 0,1 or 0-3")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"the range {first}-{last} is backwards")
        ids.extend(range(first, last + 1))
    repeated = sorted(i for i, n in Counter(ids).items() if n > 1)
    if repeated:
        raise ValueError(f"shard {', '.join(map(str, repeated))} is listed more than once")
    return ids


class SettingsError(Exception):
    """A setting is missing or malformed; the message names it in one line."""


class StartupError(Exception):
    """A first-run failure (token rejected, store unopenable, URL unreachable, dev guild not
    usable); the message names the setting to fix, in one line."""


def describe_error(error: ValidationError) -> str:
    """One line naming each bad setting, without echoing any value (it may be a secret)."""
    parts = []
    for item in error.errors():
        name = ".".join(str(p) for p in item.get("loc", ()))
        if not name:  # a check across settings: its message names them
            error_ = (item.get("ctx") or {}).get("error")
            parts.append(str(error_) if error_ is not None else str(item.get("msg")))
        elif item.get("type") == "missing":
            parts.append(f"{name} is required but not set")
        else:
            parts.append(f"{name} is invalid: {item.get('msg', 'bad value')}")
    return "; ".join(parts)


def load_settings(**overrides: object) -> Settings:
    """Read settings; raise `SettingsError` with a one-line message on any problem."""
    try:
        return Settings(**overrides)  # type: ignore[arg-type]
    except ValidationError as error:
        raise SettingsError(describe_error(error)) from None
