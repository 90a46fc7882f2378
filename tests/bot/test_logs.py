"""The log filter keeps tokens out of every line."""

from __future__ import annotations

import logging

import pytest

from bot.logs import RedactFilter, setup_logging

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
