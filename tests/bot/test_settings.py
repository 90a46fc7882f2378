"""Settings: read from the environment and .env; a bad setting is named in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings, SettingsError, load_settings
from data.models import Shards

ALL = ("DISCORD_TOKEN", "DATABASE_PATH", "DISCORD_API_BASE_URL", "DISCORD_GATEWAY_URL",
       "DEV_GUILD_ID", "LOG_LEVEL", "STARTING_CHIPS", "DAILY_CHIPS", "DEFAULT_TURN_SECONDS",
       "DATABASE_URL", "DATABASE_POOL_SIZE", "SHARD_COUNT", "SHARD_IDS", "REST_PROCESSES",
       "REST_BUDGET_PER_SECOND", "EXPERT_BUDGET_MS")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in ALL:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no stray .env


def test_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    s = load_settings()
    assert Path("tienlen.sqlite3") == s.DATABASE_PATH
    assert s.DISCORD_API_BASE_URL == "https://discord.com/api/v10"
    assert s.DISCORD_GATEWAY_URL.startswith("wss://gateway.discord.gg")
    assert (s.STARTING_CHIPS, s.DAILY_CHIPS, s.DEFAULT_TURN_SECONDS) == (1000, 200, 60)
    assert s.DEV_GUILD_ID is None
    assert s.LOG_LEVEL == "INFO"
    assert s.database_url == "sqlite:///tienlen.sqlite3"
    assert s.DATABASE_POOL_SIZE == 10
    assert s.EXPERT_BUDGET_MS == 100


def test_database_url(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("DATABASE_PATH", "/srv/bot/chips.sqlite3")
    assert load_settings().database_url == "sqlite:////srv/bot/chips.sqlite3"
    monkeypatch.setenv("DATABASE_URL", "postgresql://bot:pw@db:5432/tienlen")
    monkeypatch.setenv("DATABASE_POOL_SIZE", "25")
    s = load_settings()
    assert (s.database_url, s.DATABASE_POOL_SIZE) == ("postgresql://bot:pw@db:5432/tienlen", 25)
    monkeypatch.setenv("DATABASE_URL", "mysql://bot:hunter2@db/x")
    with pytest.raises(SettingsError, match="DATABASE_URL") as info:
        load_settings()
    assert "hunter2" not in str(info.value)


def test_missing_token_is_named() -> None:
    with pytest.raises(SettingsError, match="DISCORD_TOKEN"):
        load_settings()


def test_malformed_setting_is_named_without_its_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("STARTING_CHIPS", "lots")
    with pytest.raises(SettingsError) as info:
        load_settings()
    assert "STARTING_CHIPS" in str(info.value)
    assert "lots" not in str(info.value)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [("DISCORD_API_BASE_URL", "ftp://x"), ("DISCORD_GATEWAY_URL", "http://x"),
     ("DEFAULT_TURN_SECONDS", "1"), ("LOG_LEVEL", "LOUD"), ("DEV_GUILD_ID", "abc"),
     ("DATABASE_POOL_SIZE", "0"), ("EXPERT_BUDGET_MS", "5"), ("EXPERT_BUDGET_MS", "9000")],
)
def test_each_bad_value_is_named(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingsError, match=name):
        load_settings()


def test_dotenv_file_is_read(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("DISCORD_TOKEN=from-file\nDAILY_CHIPS=5\nDEV_GUILD_ID=\n")
    s = load_settings()
    assert s.DISCORD_TOKEN.get_secret_value() == "from-file"
    assert s.DAILY_CHIPS == 5
    assert s.DEV_GUILD_ID is None


def test_token_is_not_shown_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "very-secret-token")
    assert "very-secret-token" not in repr(Settings())  # type: ignore[call-arg]


def test_env_example_lists_every_setting() -> None:
    text = (Path(__file__).parents[2] / ".env.example").read_text()
    for name in Settings.model_fields:
        assert f"\n{name}=" in text, name


def test_unsharded_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    s = load_settings()
    assert (s.SHARD_COUNT, s.SHARD_IDS, s.shard_ids, s.shards) == (None, None, None, None)
    assert (s.rest_processes, s.rest_budget_per_process) == (1, 40.0)


@pytest.mark.parametrize(
    ("count", "ids", "expected", "processes"),
    [("4", "0,1", (0, 1), 2), ("4", "", (0, 1, 2, 3), 1), ("5", "3", (3,), 5),
     ("10", "0-2, 7", (0, 1, 2, 7), 3), ("2", "1,0", (0, 1), 1)],
)
def test_shard_settings(monkeypatch: pytest.MonkeyPatch, count: str, ids: str,
                        expected: tuple[int, ...], processes: int) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    s = load_settings()
    assert s.shard_ids == expected
    assert s.shards == Shards.of(expected, int(count))
    # REST_PROCESSES unset: SHARD_COUNT / the shards run here, rounded up
    assert s.rest_processes == processes
    assert s.rest_budget_per_process == pytest.approx(40.0 / processes)
    monkeypatch.setenv("REST_PROCESSES", "3")  # set: it wins
    assert load_settings().rest_budget_per_process == pytest.approx(40.0 / 3)


@pytest.mark.parametrize(
    ("count", "ids", "says"),
    [("4", "4", "SHARD_IDS is invalid: 4 outside 0..3 (SHARD_COUNT=4)"),
     ("4", "0,1,1", "SHARD_IDS is invalid: Value error, shard 1 is listed more than once"),
     ("4", "0-2,2", "SHARD_IDS is invalid: Value error, shard 2 is listed more than once"),
     ("4", "one", "SHARD_IDS is invalid: Value error, must be shard numbers separated by "
                  "commas, like 0,1 or 0-3"),
     ("4", "-1", "SHARD_IDS is invalid"),
     ("4", "3-1", "SHARD_IDS is invalid: Value error, the range 3-1 is backwards"),
     ("", "0,1", "SHARD_IDS is set but SHARD_COUNT is not"),
     ("0", "", "SHARD_COUNT is invalid"),
     ("two", "", "SHARD_COUNT is invalid")],
)
def test_bad_shard_settings_are_named_in_one_line(monkeypatch: pytest.MonkeyPatch, count: str,
                                                  ids: str, says: str) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "abc")
    monkeypatch.setenv("SHARD_COUNT", count)
    monkeypatch.setenv("SHARD_IDS", ids)
    with pytest.raises(SettingsError) as info:
        load_settings()
    message = str(info.value)
    assert message.startswith(says), message
    assert "\n" not in message
