"""The terminal table, driven through stdin to the end of a game."""

from __future__ import annotations

import io
import subprocess
import sys
from collections.abc import Callable

from bot.terminal import HUMAN, main, run_table
from engine import Rules
from engine.ai import hint, observe
from engine.game import Game


def _scripted_lines(seed: int, level: str) -> list[str]:
    """The lines a player following the hints types in the seeded game (one refused play first)."""
    lines: list[str] = ["3S 3S 9H", "hint"]
    state: dict[str, Game] = {}
    original_new = Game.new

    def spy_new(*args: object, **kwargs: object) -> Game:
        game = original_new(*args, **kwargs)  # type: ignore[arg-type]
        state["game"] = game
        return game

    queue = list(lines)

    def read() -> str | None:
        if queue:
            return queue.pop(0)
        combo = hint(observe(state["game"], HUMAN))
        line = "pass" if combo is None else " ".join(c.code for c in combo.cards)
        lines.append(line)
        return line

    Game.new = spy_new  # type: ignore[method-assign]
    try:
        code = run_table(Rules(), 4, level, seed=seed, read=read, out=io.StringIO())
    finally:
        Game.new = original_new  # type: ignore[method-assign]
    assert code == 0
    return lines


def test_terminal_table_plays_a_game_through_stdin() -> None:
    seed = next(s for s in range(1, 100) if not Game.new(Rules(), 4, seed=s).is_over)
    lines = _scripted_lines(seed=seed, level="normal")
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--rules", "southern", "--players", "4",
         "--level", "normal", "--seed", str(seed)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    out = proc.stdout
    assert "Refused:" in out
    assert "Hint:" in out
    assert "Game over. Places:" in out
    assert "chips at stake 1" in out


def test_terminal_main_quits_and_rejects_bad_options(monkeypatch: object) -> None:
    stdin = io.StringIO("quit\n")
    patch: Callable[..., None] = monkeypatch.setattr  # type: ignore[attr-defined]
    patch(sys, "stdin", stdin)
    code = main(["--players", "3", "--level", "easy", "--seed", "1"])
    assert code == 1
