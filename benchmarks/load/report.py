"""What a load run measured: the result, its summary and report, and readers of the bot's
log and database."""

from __future__ import annotations

import dataclasses
import re
import sqlite3
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg

from benchmarks.load.config import LoadConfig
from data.db import DatabaseURL


@dataclasses.dataclass
class LoadResult:
    config: LoadConfig
    wall_seconds: float = 0.0
    run_seconds: float = 0.0
    interactions: int = 0
    latency: dict[str, float] = dataclasses.field(default_factory=dict)
    loop_lag_max_ms: float | None = None
    loop_lag_lines: int = 0
    board_edits: int = 0
    hand_edits: int = 0
    """Hand messages redrawn through interaction tokens (the live hands)."""
    hands_gone: int = 0
    """Hand refreshes answered 404 (dismissed) or 401 (token expired)."""
    board_posts: int = 0
    image_files: int = 0  # pictures uploaded with messages during the run
    image_bytes: int = 0
    image_distinct: int = 0  # distinct contents per message, summed (the fake's count)
    image_resent: int = 0  # uploads of the very picture their message already showed
    pictures: dict[str, float] = dataclasses.field(default_factory=dict)
    """The bot's last "pictures:" line: drawn, per second, cache, queue, staleness."""
    rss_base_kb: int = 0
    rss_load_kb: int = 0
    rss_hwm_kb: int = 0
    cpu_seconds: float = 0.0
    children_cpu_seconds: float = 0.0  # of which the bot's child processes (drawing, expert)
    harness_cpu_seconds: float = 0.0
    harness_lag_max_ms: float = 0.0
    """The harness process's own worst pause: the fake Discord lives there, and a pause of d
    seconds makes it count d seconds of the bot's requests in the same instant."""
    harness_gc_max_ms: float = 0.0  # its longest garbage collection
    harness_full_gcs: int = 0
    games_finished: int = 0
    games_started: int = 0
    tables_unfinished: list[int] = dataclasses.field(default_factory=list)
    rejections: Counter[str] = dataclasses.field(default_factory=Counter)
    errors: list[str] = dataclasses.field(default_factory=list)
    lost_to_kill: int = 0
    stale_checks: int = 0
    reactions: int = 0  # reactions pressed on the boards (``--reactions``)
    kills_done: int = 0
    disconnects: int = 0
    resumes: int = 0
    identifies: int = 0
    injected_429: int = 0
    injected_500: int = 0
    limits: bool = False
    global_429: int = 0
    route_429: int = 0
    invalid_requests: int = 0
    rest_requests: int = 0
    rest_peak_per_s: int = 0
    staleness: dict[str, float] = dataclasses.field(default_factory=dict)
    bot_warnings: int = 0
    exit_code: int | None = None
    check_rc: int | None = None
    check_output: str = ""
    db_games: dict[str, int] = dataclasses.field(default_factory=dict)
    log_path: str = ""
    db_path: str = ""  # the store: a SQLite file's URL, or a PostgreSQL URL without password
    dialect: str = "sqlite"

    @property
    def interactions_per_s(self) -> float:
        return self.interactions / self.run_seconds if self.run_seconds else 0.0

    @property
    def board_edits_per_s(self) -> float:
        return self.board_edits / self.run_seconds if self.run_seconds else 0.0

    @property
    def hand_edits_per_s(self) -> float:
        return self.hand_edits / self.run_seconds if self.run_seconds else 0.0

    @property
    def late_answers(self) -> int:
        """Interactions answered after Discord's 3-second deadline."""
        return int(self.latency.get("late", 0))

    @property
    def rss_per_table_kb(self) -> float:
        n = self.config.tables
        return max(0, self.rss_load_kb - self.rss_base_kb) / n if n else 0.0

    @property
    def cpu_per_game(self) -> float:
        return self.cpu_seconds / self.games_finished if self.games_finished else 0.0

    @property
    def all_games_finished(self) -> bool:
        unfinished = sum(n for s, n in self.db_games.items() if s != "finished")
        return not self.tables_unfinished and unfinished == 0 and self.games_finished > 0

    @property
    def rate_limited(self) -> int:
        """429s the fake's limits gave (injected faults not counted)."""
        return self.global_429 + self.route_429

    def meets_targets(self) -> bool:
        lat = self.latency
        return bool(
            self.rate_limited == 0
            and self.rest_peak_per_s <= 45
            and lat
            and lat.get("p99", 1) * 1000 <= 100
            and lat.get("p50", 1) * 1000 <= 20
            and self.loop_lag_max_ms is not None
            and self.loop_lag_max_ms <= 100
            and not self.errors
            and self.late_answers == 0
            and self.rss_per_table_kb <= 50
        )

    def summary(self) -> dict[str, Any]:
        lat = self.latency
        return {
            "tables": self.config.tables,
            "humans": self.config.humans,
            "level": self.config.level,
            "faults": self.config.faults,
            "store": self.dialect,
            "kills": self.kills_done,
            "run_s": round(self.run_seconds, 1),
            "wall_s": round(self.wall_seconds, 1),
            "interactions": self.interactions,
            "interactions_per_s": round(self.interactions_per_s, 1),
            "p50_ms": round(lat.get("p50", 0) * 1000, 1),
            "p95_ms": round(lat.get("p95", 0) * 1000, 1),
            "p99_ms": round(lat.get("p99", 0) * 1000, 1),
            "max_ms": round(lat.get("max", 0) * 1000, 1),
            "loop_lag_max_ms": self.loop_lag_max_ms,
            "board_edits_per_s": round(self.board_edits_per_s, 1),
            "limits": self.limits,
            "rest_requests_per_s": round(self.rest_requests / self.run_seconds, 1)
            if self.run_seconds
            else 0,
            "rest_peak_per_s": self.rest_peak_per_s,
            "bot_sent_peak": _int_or_none(self.staleness.get("sent_peak")),
            "bot_held": _int_or_none(self.staleness.get("held")),
            "global_429": self.global_429,
            "route_429": self.route_429,
            "invalid_requests": self.invalid_requests,
            "staleness_p50_ms": self.staleness.get("p50"),
            "staleness_p95_ms": self.staleness.get("p95"),
            "staleness_max_ms": self.staleness.get("max"),
            "hand_edits_per_s": round(self.hand_edits_per_s, 1),
            "hands_gone": self.hands_gone,
            "late_answers": self.late_answers,
            "rss_base_mb": round(self.rss_base_kb / 1024, 1),
            "rss_load_mb": round(self.rss_load_kb / 1024, 1),
            "rss_per_table_kb": round(self.rss_per_table_kb, 1),
            "cpu_s": round(self.cpu_seconds, 1),
            "cpu_s_per_game": round(self.cpu_per_game, 3),
            "children_cpu_s_per_game": round(
                self.children_cpu_seconds / self.games_finished, 3) if self.games_finished else 0,
            "images": self.config.images,
            "image_files": self.image_files,
            "image_kb_per_game": round(self.image_bytes / 1024 / self.games_finished, 1)
            if self.games_finished
            else 0,
            "image_uploads_per_distinct": round(self.image_files / self.image_distinct, 3)
            if self.image_distinct
            else None,
            "image_resent": self.image_resent,
            "pictures": self.pictures,
            "bot_cpu_share": round(self.cpu_seconds / self.run_seconds, 2)
            if self.run_seconds
            else 0,
            "harness_lag_max_ms": round(self.harness_lag_max_ms, 1),
            "harness_gc_max_ms": round(self.harness_gc_max_ms, 1),
            "harness_full_gcs": self.harness_full_gcs,
            "harness_cpu_share": (
                round(self.harness_cpu_seconds / self.run_seconds, 2) if self.run_seconds else 0
            ),
            "games_finished": self.games_finished,
            "db_games": self.db_games,
            "tables_unfinished": self.tables_unfinished,
            "errors": len(self.errors),
            "rejections": dict(self.rejections),
            "lost_to_kill": self.lost_to_kill,
            "stale_checks": self.stale_checks,
            "reactions": self.reactions,
            "disconnects": self.disconnects,
            "resumes": self.resumes,
            "identifies": self.identifies,
            "injected_429": self.injected_429,
            "injected_500": self.injected_500,
            "bot_warnings": self.bot_warnings,
            "exit_code": self.exit_code,
            "check_rc": self.check_rc,
            "meets_targets": self.meets_targets(),
        }

    def report(self) -> str:
        s = self.summary()
        lines = [
            f"tables {s['tables']} · humans/table {s['humans']} · computers {s['level']} · "
            f"store {s['store']} · faults {'on' if s['faults'] else 'off'} · kills {s['kills']} · "
            f"run {s['run_s']} s (wall {s['wall_s']} s)",
            f"interactions         {s['interactions']} ({s['interactions_per_s']}/s)",
            f"callback latency     p50 {s['p50_ms']} ms · p95 {s['p95_ms']} ms · "
            f"p99 {s['p99_ms']} ms · max {s['max_ms']} ms · answered after 3 s: "
            f"{s['late_answers']}",
            f"event-loop lag max   {s['loop_lag_max_ms']} ms",
            f"board edits          {s['board_edits_per_s']}/s ({self.board_edits} edits, "
            f"{self.board_posts} posts) · hand edits {s['hand_edits_per_s']}/s "
            f"({self.hand_edits} edits; {self.hands_gone} to dismissed or expired hands)",
            f"REST (limits {'on' if s['limits'] else 'off'})    "
            f"{s['rest_requests_per_s']}/s mean, peak 1-s window {s['rest_peak_per_s']} "
            f"(as the bot sent them: {s['bot_sent_peak']}, {s['bot_held']} held) · "
            f"429s global {s['global_429']}, route {s['route_429']} · invalid requests "
            f"{s['invalid_requests']}",
            f"board staleness      p50 {s['staleness_p50_ms']} ms · p95 "
            f"{s['staleness_p95_ms']} ms · max {s['staleness_max_ms']} ms",
            f"bot RSS              {s['rss_base_mb']} MB idle → {s['rss_load_mb']} MB loaded: "
            f"{s['rss_per_table_kb']} KB per table",
            f"bot CPU              {s['cpu_s']} s: {s['cpu_s_per_game']} s per game (its "
            f"child processes {s['children_cpu_s_per_game']} s); "
            f"{s['bot_cpu_share']:.0%} of a core (harness: {s['harness_cpu_share']:.0%}, "
            f"its loop lag max {s['harness_lag_max_ms']} ms, longest collection "
            f"{s['harness_gc_max_ms']} ms, {s['harness_full_gcs']} full)",
            f"pictures             {'on' if s['images'] else 'off'}: {s['image_files']} files, "
            f"{self.image_bytes / 1024:.0f} KB sent ({s['image_kb_per_game']} KB per game) · "
            f"{s['image_uploads_per_distinct']} uploads per distinct picture of a message · "
            f"{s['image_resent']} re-sent the picture shown",
            f"drawing              {_pictures_line(self.pictures)}",
            f"games finished       {s['games_finished']} (database: {s['db_games']}); "
            f"unfinished tables: {s['tables_unfinished'] or 'none'}",
            f"faults               429 ×{s['injected_429']} · 500 ×{s['injected_500']} · "
            f"disconnects {s['disconnects']} (resumes {s['resumes']}, identifies "
            f"{s['identifies']}) · kills {s['kills']} (interactions lost to kills "
            f"{s['lost_to_kill']})",
            f"rejections           {s['rejections'] or 'none'} · stale-board checks "
            f"{s['stale_checks']} · bot warnings {s['bot_warnings']} · reactions "
            f"{s['reactions']}",
            f"errors               {s['errors']}",
            *(f"  - {e}" for e in self.errors[:20]),
            f"bot exit code        {s['exit_code']}",
            f"data.check           rc {s['check_rc']}: "
            + " | ".join(self.check_output.strip().splitlines()[-3:]),
            f"meets targets        {s['meets_targets']}",
        ]
        return "\n".join(lines)



def stats(values: list[float]) -> dict[str, float]:
    vals = sorted(values)
    if not vals:
        return {}

    def pct(p: float) -> float:
        return vals[min(len(vals) - 1, round(p / 100 * (len(vals) - 1)))]

    return {"count": len(vals), "p50": pct(50), "p95": pct(95), "p99": pct(99), "max": vals[-1],
            "late": sum(1 for v in vals if v > 3.0)}


_LAG_RE = re.compile(r"loop lag: max ([0-9.]+) ms")
_LEVEL_RE = re.compile(r"^\S+ \S+ (ERROR|CRITICAL|WARNING)\s")


def scan_log(path: Path, offset: int) -> tuple[list[float], int, list[str]]:
    """Loop-lag maxima, the number of warnings, and error lines after `offset`."""
    lags: list[float] = []
    warnings = 0
    errors: list[str] = []
    with open(path, "rb") as f:
        f.seek(offset)
        for raw in f:
            line = raw.decode(errors="replace").rstrip()
            if m := _LAG_RE.search(line):
                lags.append(float(m.group(1)))
            level = _LEVEL_RE.match(line)
            if level and level.group(1) == "WARNING":
                warnings += 1
            elif level or line.startswith("Traceback"):
                errors.append(line[:300])
    return lags, warnings, errors


_STALE_RE = re.compile(
    r"board staleness: p50 ([0-9.]+) ms, p95 ([0-9.]+) ms, max ([0-9.]+) ms over (\d+)")


def _int_or_none(value: float | None) -> int | None:
    return None if value is None else int(value)


_SENT_RE = re.compile(r"peak (\d+) sent in 1 s \((\d+) held")


_PICTURES_RE = re.compile(
    r"pictures: (\d+) drawn \(([\d.]+)/s, ([\d.]+) ms each(?:; (\d+) boards, (\d+) hands)?\); "
    r"cache (\d+) pictures, (\d+) KB, "
    r"(\d+) hits, (\d+) misses; (\d+) failed; staleness p50 (\d+) ms, p95 (\d+) ms over (\d+)"
    r"(?:; pool (\d+) workers, queue (\d+) \(peak (\d+)\), (\d+) dropped, (\d+) replaced)?"
    r"(?:, \d+ retried)?(?:; bands (\d+) \((\d+) KB, (\d+)% reused\))?"
    r"(?:, columns (\d+) \((\d+)% reused\))?")
_PICTURE_FIELDS = ("drawn", "per_s", "ms_each", "boards_drawn", "hands_drawn", "cache_entries",
                   "cache_kb", "hits", "misses", "failed", "staleness_p50_ms",
                   "staleness_p95_ms", "shown", "workers", "queue", "queue_peak", "dropped",
                   "replaced", "bands", "bands_kb", "bands_reused_pct", "columns",
                   "columns_reused_pct")


def scan_pictures(path: Path) -> dict[str, float]:
    """The bot's last "pictures:" line (figures since the process started)."""
    found: dict[str, float] = {}
    with open(path, "rb") as f:
        for raw in f:
            if m := _PICTURES_RE.search(raw.decode(errors="replace")):
                found = {k: float(v) for k, v in zip(_PICTURE_FIELDS, m.groups(), strict=True)
                         if v is not None}
    return found


def _pictures_line(p: dict[str, float]) -> str:
    if not p:
        return "no figures (pictures off, or no loop-lag log)"
    pool = (f" · pool {p['workers']:.0f} workers, queue peak {p['queue_peak']:.0f}, "
            f"{p['dropped']:.0f} dropped, {p['replaced']:.0f} replaced" if "workers" in p
            else " · in the event loop's thread")
    if "bands" in p:
        pool += (f" · bands {p['bands']:.0f} ({p['bands_kb']:.0f} KB, "
                 f"{p['bands_reused_pct']:.0f}% reused)")
    if "columns" in p:
        pool += f", columns {p['columns']:.0f} ({p['columns_reused_pct']:.0f}% reused)"
    kinds = (f" ({p['boards_drawn']:.0f} boards, {p['hands_drawn']:.0f} hands)"
             if "boards_drawn" in p else "")
    return (f"{p['drawn']:.0f} drawn{kinds} ({p['per_s']}/s, {p['ms_each']} ms CPU each) · cache "
            f"{p['cache_entries']:.0f} pictures, {p['cache_kb']:.0f} KB, {p['hits']:.0f} hits · "
            f"{p['failed']:.0f} failed · staleness p50 {p['staleness_p50_ms']:.0f} ms, p95 "
            f"{p['staleness_p95_ms']:.0f} ms over {p['shown']:.0f}{pool}")


def scan_staleness(path: Path) -> dict[str, float]:
    """The bot's last board-staleness line (its figures since the process started), with the
    REST budget's own count of the busiest second (``sent_peak``, ``held``) when it gives one."""
    found: dict[str, float] = {}
    with open(path, "rb") as f:
        for raw in f:
            line = raw.decode(errors="replace")
            if m := _STALE_RE.search(line):
                found = {"p50": float(m.group(1)), "p95": float(m.group(2)),
                         "max": float(m.group(3)), "count": float(m.group(4))}
                if sent := _SENT_RE.search(line):
                    found["sent_peak"] = float(sent.group(1))
                    found["held"] = float(sent.group(2))
    return found


async def db_games(store: DatabaseURL) -> dict[str, int]:
    """Games by status in the store (SQLite file or PostgreSQL)."""
    if store.dialect != "postgresql":
        return sqlite_games(Path(store.target))
    con = await asyncpg.connect(store.target)
    try:
        return {str(r[0]): int(r[1]) for r in await con.fetch(GAMES_BY_STATUS)}
    finally:
        await con.close()


GAMES_BY_STATUS = "SELECT status, COUNT(*) FROM games GROUP BY status"


def sqlite_games(path: Path) -> dict[str, int]:
    if not path.exists():
        return {}
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return dict(db.execute(GAMES_BY_STATUS).fetchall())
    finally:
        db.close()
