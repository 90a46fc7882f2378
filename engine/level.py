"""The strength of a computer player: one definition for the engine, the tables and the lobby."""

from __future__ import annotations

from enum import StrEnum, unique

__all__ = ["Level"]


@unique
class Level(StrEnum):
    """Computer levels, weakest first (see :mod:`engine.ai` for how each one plays)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"
    EXPERT = "expert"

    @classmethod
    def parse(cls, value: str) -> Level:
        """The level named ``value``; a :class:`ValueError` naming the choices otherwise."""
        try:
            return cls(value)
        except ValueError:
            raise ValueError(
                f"unknown level {value!r}; choose one of {', '.join(cls)}"
            ) from None
