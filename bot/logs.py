"""Logging set-up: one format, and a filter that keeps secrets out of every line."""

from __future__ import annotations

import logging
import re
import sys

# Discord bot tokens: three base64url parts separated by dots.
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")


class RedactFilter(logging.Filter):
    """Replace known secrets (and anything shaped like a bot token) with a placeholder."""

    def __init__(self, secrets: list[str] | None = None) -> None:
        super().__init__()
        self.secrets = [s for s in (secrets or []) if s]

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        return _TOKEN_RE.sub("[redacted]", text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self._clean(message)
        if cleaned != message:
            record.msg = cleaned
            record.args = None
        return True


def setup_logging(level: str, secrets: list[str] | None = None) -> None:
    """Log to stderr with timestamps; redact secrets in every handler's output."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", "%Y-%m-%d %H:%M:%S")
    )
    handler.addFilter(RedactFilter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py is chatty at DEBUG (it logs payloads, which can hold hands): cap it at INFO.
    logging.getLogger("discord").setLevel(max(logging.INFO, logging.getLevelName(level)))
