"""How many random games, examples and samples the volume tests use: one knob for all of them.

The engine's volume tests (random self-play, settlement over random games, checks against slow
reference implementations, the computer players' samplers) run a default volume that keeps
`make test` short. ``TEST_VOLUME=full`` runs every one of them at the soak volume instead::

    TEST_VOLUME=full .venv/bin/pytest tests/engine

Each test asks :func:`volume` for its counts, giving both figures, so the two volumes are read
side by side in the test itself. An unknown value is refused at collection, before any test runs.
"""

from __future__ import annotations

import os

LEVELS = ("default", "full")


def level() -> str:
    """The volume chosen by the environment variable ``TEST_VOLUME`` (default: ``default``)."""
    value = os.environ.get("TEST_VOLUME", "").strip().lower() or "default"
    if value not in LEVELS:
        raise ValueError(f"TEST_VOLUME must be one of {', '.join(LEVELS)}, not {value!r}")
    return value


FULL = level() == "full"


def volume(default: int, full: int) -> int:
    """``full`` under ``TEST_VOLUME=full``, otherwise ``default``."""
    if not 0 < default <= full:
        raise ValueError(f"expected 0 < default <= full, got {default} and {full}")
    return full if FULL else default
