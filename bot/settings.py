"""Typed settings, read from the environment and a `.env` file."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

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
    DEFAULT_TURN_SECONDS: int = Field(default=60, ge=5, le=3600)
    DEFAULT_TURN_REMINDER: int = Field(default=10, ge=0, le=3600)
    AI_DELAY_SECONDS: float = Field(default=1.0, ge=0, le=60)
    BOARD_EDIT_INTERVAL: float = Field(default=1.0, ge=0, le=60)
    LOOP_LAG_LOG: float = Field(default=0.0, ge=0, le=3600)
    CARD_PICTURES: bool = True  # false: no board/hand pictures, no card emoji (text only)
    # Requests a second the whole bot may make on its own (Discord allows ~50 per bot token; 40
    # leaves room for requests that the network or a busy event loop bunch into one second);
    # processes sharing one token each take REST_BUDGET_PER_SECOND / REST_PROCESSES.
    REST_BUDGET_PER_SECOND: float = Field(default=40.0, gt=0, le=50)
    REST_PROCESSES: int = Field(default=1, ge=1, le=1000)

    @property
    def rest_budget_per_process(self) -> float:
        return self.REST_BUDGET_PER_SECOND / self.REST_PROCESSES

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


class SettingsError(Exception):
    """A setting is missing or malformed; the message names it in one line."""


class StartupError(Exception):
    """A first-run failure (token rejected, store unopenable, URL unreachable, dev guild not
    usable); the message names the setting to fix, in one line."""


def describe_error(error: ValidationError) -> str:
    """One line naming each bad setting, without echoing any value (it may be a secret)."""
    parts = []
    for item in error.errors():
        name = ".".join(str(p) for p in item.get("loc", ())) or "settings"
        if item.get("type") == "missing":
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
