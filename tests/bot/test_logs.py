"""The log filter keeps tokens out of every line."""

from __future__ import annotations

import logging

import pytest

from bot.logs import RedactFilter, ShardFilter, setup_logging

FAKE_TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz0123"


def test_known_secret_and_token_shapes_are_redacted(capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging("DEBUG", ["my-secret"])
    log = logging.getLogger("test.redact")
    log.info("token=%s and my-secret", FAKE_TOKEN)
    err = capsys.readouterr().err
    assert FAKE_TOKEN not in err
    assert "my-secret" not in err
    assert "[redacted]" in err


def test_discord_logger_capped_at_info() -> None:
    setup_logging("DEBUG")
    assert logging.getLogger("discord").level == logging.INFO


def test_filter_leaves_other_text() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "table %s started", (7,), None)
    assert RedactFilter(["zzz"]).filter(record)
    assert record.getMessage() == "table 7 started"


def test_a_sharded_process_names_its_shards_and_a_servers_shard(
    capsys: pytest.CaptureFixture[str],
) -> None:
    setup_logging("INFO", shard_ids=[1, 0], shard_count=4)
    log = logging.getLogger("test.shards")
    log.info("connected")
    log.info("table 7 opened", extra={"guild_id": (3 << 22) + 99})  # shard 3 of 4
    lines = capsys.readouterr().err.splitlines()
    assert "shard=0,1 test.shards: connected" in lines[0]
    assert "shard=3 test.shards: table 7 opened" in lines[1]


def test_an_unsharded_process_keeps_its_format(capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging("INFO")
    logging.getLogger("test.plain").info("hello", extra={"guild_id": 5})
    err = capsys.readouterr().err
    assert "shard=" not in err and "test.plain: hello" in err


def test_shard_filter_fields() -> None:
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "m", None, None)
    assert ShardFilter([2], 3).filter(record)
    assert record.shard == "2"  # type: ignore[attr-defined]


def test_interaction_tokens_in_urls_are_redacted() -> None:
    real = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDEyMzQ1Njc4OnNlY3JldA.x-y_z"
    fake = "fakeixtoken.abcDEF0123456789_-xyz"
    line = (f"PATCH https://discord.com/api/v10/webhooks/123/{fake}/messages/@original 200; "
            f"POST /interactions/456/{real}/callback; bare {real}")
    record = logging.LogRecord("x", logging.DEBUG, __file__, 1, "%s", (line,), None)
    assert RedactFilter().filter(record)
    shown = record.getMessage()
    assert fake not in shown and real not in shown, shown
    assert "/webhooks/123/[redacted]/messages/@original" in shown
