"""Every command line explains itself: ``--help`` exits 0 naming the command as users type it,
describing every option, and an unknown word is refused with exit status 2 before anything runs."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from benchmarks import ai_decisions, arena, engine, hostile, pictures, pools, store, uploads
from benchmarks.load import main as load_main
from bot.terminal import main as play_main
from data.check import main as check_main
from data.migrate import main as migrate_main
from data.ratings.backfill import main as ratings_main

ROOT = Path(__file__).parents[1]

Main = Callable[[list[str]], object]

# (entry point, its prog, words its help must mention)
ENTRY_POINTS: list[tuple[str, Main, Sequence[str]]] = [
    ("python -m bot play", play_main, ["--rules", "--players", "--level", "--seed", "southern"]),
    ("python -m data.check", check_main, ["URL", "postgresql://", "Exits 0"]),
    ("python -m data.migrate", migrate_main, ["--from", "--to", "empty"]),
    ("python -m data.ratings", ratings_main, ["--backfill", "URL", "idempotent"]),
    ("python -m benchmarks.engine", engine.main, ["--games", "--hands", "--seed"]),
    ("python -m benchmarks.arena", arena.main, ["--seats", "--games", "--rules", "--workers",
                                                "--budget-ms", "expert"]),
    ("python -m benchmarks.store", store.main, ["--database", "--games", "--saves"]),
    ("python -m benchmarks.ai_decisions", ai_decisions.main, ["--points", "--level", "--set"]),
    ("python -m benchmarks.load", load_main, ["--tables", "--seconds", "--images"]),
    ("python -m benchmarks.pictures", pictures.main, ["--games", "--seed", "--core"]),
    ("python -m benchmarks.load", load_main, ["--tables", "--seconds"]),
    ("python -m benchmarks.hostile", hostile.main, ["--repeat"]),
    ("python -m benchmarks.pools", pools.main, ["--pools", "--games", "--set", "noisy30"]),
    ("python -m benchmarks.uploads", uploads.main, ["--edits", "--rounds"]),
]


# what a command needs before an unknown word is the only thing wrong
ARGS_BEFORE_UNKNOWN = {
    "python -m data.check": ["some.sqlite3"],
    "python -m data.migrate": ["--from", "a.sqlite3", "--to", "b.sqlite3"],
    "python -m data.ratings": ["--backfill", "a.sqlite3"],
}


def _help_of(main: Main, capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as exited:
        main(["--help"])
    assert exited.value.code == 0
    return capsys.readouterr().out


@pytest.mark.parametrize(("prog", "main", "words"), ENTRY_POINTS, ids=[e[0] for e in ENTRY_POINTS])
def test_help_names_the_command_and_explains_every_option(
    prog: str, main: Main, words: Sequence[str], capsys: pytest.CaptureFixture[str]
) -> None:
    text = _help_of(main, capsys)
    assert text.startswith(f"usage: {prog}")
    flat = " ".join(text.split())
    for word in words:
        assert word in flat
    # Every option has help: on its own line (after two spaces) or, for a long one, on the next
    # line, indented further. An option without help has neither.
    lines = text.splitlines()
    options = [i for i, line in enumerate(lines) if line.startswith("  -")]
    assert options
    for i in options:
        has_help = "  " in lines[i].strip() or (
            i + 1 < len(lines) and lines[i + 1].startswith("     ") and lines[i + 1].strip() != ""
        )
        assert has_help, f"option without help: {lines[i].strip()!r}"


@pytest.mark.parametrize(("prog", "main", "words"), ENTRY_POINTS, ids=[e[0] for e in ENTRY_POINTS])
def test_unknown_word_exits_2(
    prog: str, main: Main, words: Sequence[str], capsys: pytest.CaptureFixture[str]
) -> None:
    del words
    with pytest.raises(SystemExit) as exited:
        main([*ARGS_BEFORE_UNKNOWN.get(prog, []), "--no-such-option"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert f"{prog}: error:" in err
    assert "--no-such-option" in err


def test_data_check_needs_exactly_one_url(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        check_main([])
    assert exited.value.code == 2
    assert "URL" in capsys.readouterr().err


@pytest.mark.parametrize("module", ["benchmarks.engine", "benchmarks.arena", "benchmarks.store",
                                    "benchmarks.load", "benchmarks.pictures",
                                    "benchmarks.uploads", "data.check",
                                    "data.migrate", "data.ratings"])
def test_module_runs_as_python_m(module: str, tmp_path: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-m", module, "--help"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    assert f"usage: python -m {module}" in result.stdout
