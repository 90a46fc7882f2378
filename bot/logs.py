"""Logging set-up: one format, and a filter that keeps secrets out of every line."""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Sequence

# Discord bot tokens: three base64url parts separated by dots.
_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{20,}")
# Interaction tokens travel in URLs (/webhooks/<app>/<token>, /interactions/<id>/<token>), and
# real ones start with "aW50ZXJhY3Rpb246" (base64 of "interaction:").
_URL_TOKEN_RE = re.compile(r"(/(?:webhooks|interactions)/\d+/)[^/\s?#'\"]+")
_INTERACTION_TOKEN_RE = re.compile(r"aW50ZXJhY3Rpb246[A-Za-z0-9_.-]+")


class RedactFilter(logging.Filter):
    """Replace known secrets (and anything shaped like a bot token) with a placeholder."""

    def __init__(self, secrets: list[str] | None = None) -> None:
        super().__init__()
        self.secrets = [s for s in (secrets or []) if s]

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[redacted]")
        text = _URL_TOKEN_RE.sub(r"\1[redacted]", text)
        text = _INTERACTION_TOKEN_RE.sub("[redacted]", text)
        return _TOKEN_RE.sub("[redacted]", text)

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = self._clean(message)
        if cleaned != message:
            record.msg = cleaned
            record.args = None
        return True


class ShardFilter(logging.Filter):
    """Give every record a `shard` field: the shard of the server the line is about, when the
    caller names one (``extra={"guild_id": …}``), else the shards this process runs ("0,1")."""

    def __init__(self, shard_ids: Sequence[int], shard_count: int) -> None:
        super().__init__()
        self.ids = ",".join(str(i) for i in sorted(shard_ids))
        self.count = shard_count

    def filter(self, record: logging.LogRecord) -> bool:
        guild_id = getattr(record, "guild_id", None)
        if isinstance(guild_id, int) and not isinstance(guild_id, bool):
            record.__dict__["shard"] = str((guild_id >> 22) % self.count)
        else:
            record.__dict__["shard"] = self.ids
        return True


def setup_logging(
    level: str,
    secrets: list[str] | None = None,
    *,
    shard_ids: Sequence[int] | None = None,
    shard_count: int | None = None,
) -> None:
    """Log to stderr with timestamps; redact secrets in every handler's output. A sharded
    process (`shard_ids` of `shard_count`) names the shard in every line: ``shard=0,1``."""
    handler = logging.StreamHandler(sys.stderr)
    where = ""
    if shard_ids is not None and shard_count is not None:
        handler.addFilter(ShardFilter(shard_ids, shard_count))
        where = "shard=%(shard)s "
    handler.setFormatter(
        logging.Formatter(f"%(asctime)s %(levelname)-7s {where}%(name)s: %(message)s",
                          "%Y-%m-%d %H:%M:%S")
    )
    handler.addFilter(RedactFilter(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    # discord.py is chatty at DEBUG (it logs payloads, which can hold hands): cap it at INFO.
    # aiosqlite logs every statement with its parameters at DEBUG (interaction tokens, games):
    # capped too.
    for chatty in ("discord", "aiosqlite", "asyncpg"):
        logging.getLogger(chatty).setLevel(max(logging.INFO, logging.getLevelName(level)))
