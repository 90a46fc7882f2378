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


def _chop_game(chop_after_pass: str) -> Game:
    """Seat 1 has just led a 2; it is seat 2's (a computer's) turn; you (seat 0) hold a quad."""
    rules = Rules(instant_wins=False, chop_after_pass=chop_after_pass)
    hands = ["9S 9C 9D 9H 4S", "2S 5S", "6S 7S", "8S 10S"]
    game = Game.new(rules, 4, hands=hands, leader=1)
    game.play(1, "2S")
    return game


def _run(game: Game, lines: list[str]) -> tuple[int, str]:
    queue = list(lines)
    out = io.StringIO()
    code = run_table(game.rules, 4, "normal", seed=1, game=game,
                     read=lambda: queue.pop(0) if queue else None, out=out)
    return code, out.getvalue()


def test_you_are_offered_an_out_of_turn_bomb() -> None:
    game = _chop_game("any_bomb")
    code, text = _run(game, ["9S 9C", "9S 9C 9D 9H", "4S"])
    assert "You may chop out of turn with: 9♠ 9♣ 9♦ 9♥" in text
    assert "Refused:" in text  # two 9s are no chop
    assert "You played 9♠ 9♣ 9♦ 9♥ (out of turn)" in text
    assert "You chopped Bot 1!" in text
    assert code == 0 and game.is_over
    assert game.outcome is not None and game.outcome.places[0] == HUMAN


def test_you_may_let_the_chop_go_and_no_offer_without_the_rule() -> None:
    game = _chop_game("any_bomb")
    code, text = _run(game, ["", "quit"])
    assert code == 1
    assert text.count("You may chop out of turn") == 1  # asked once per play on the table
    assert "Bot 2 passed" in text or "Bot 2 played" in text
    game = _chop_game("pairs")  # a quad is no out-of-turn chop under "pairs"
    code, text = _run(game, ["quit"])
    assert "chop out of turn" not in text
    assert code == 1


def test_play_takes_rule_options(monkeypatch: object) -> None:
    patch: Callable[..., None] = monkeypatch.setattr  # type: ignore[attr-defined]
    patch(sys, "stdin", io.StringIO("quit\n"))
    assert main(["--set", "cong=true", "--set", "card_exchange=tribute", "--seed", "1"]) == 1
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "play", "--set", "nonsense=1"],
        input="quit\n", capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 2
    assert "no rule option 'nonsense'" in proc.stderr
