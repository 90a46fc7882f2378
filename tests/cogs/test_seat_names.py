"""The names a board picture draws, by seat, in the table's language (`_pictures.seat_names`):
a computer's name is translated and its level kept whole when the name is cut; a person's
name is drawn as written, even one that looks like a computer's."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from cogs.i18n import words
from cogs.tienlen._pictures import seat_names


def _table(*seats: tuple[str, int | None]) -> Any:
    return SimpleNamespace(seats=[SimpleNamespace(name=name, user_id=uid) for name, uid in seats])


SEATS = (("Ánh", 5), ("Computer 2 (hard)", None), ("Computer 3 (hard)", 7))


def test_a_computer_is_named_in_the_tables_language_and_a_person_as_written() -> None:
    live = _table(*SEATS)
    assert seat_names(words("en"), live) == (
        ("Ánh", "Computer 2 (hard)", "Computer 3 (hard)"), ("", "hard", ""))
    assert seat_names(words("vi"), live) == (
        ("Ánh", "Máy 2 (khó)", "Computer 3 (hard)"), ("", "khó", ""))


def test_a_seat_that_changes_hands_changes_the_names() -> None:
    before = seat_names(words("vi"), _table(*SEATS))
    after = seat_names(words("vi"), _table(("Ánh", 5), ("Bảo", 9), ("Computer 3 (easy)", None)))
    assert before[0][1] == "Máy 2 (khó)"
    assert after == (("Ánh", "Bảo", "Máy 3 (dễ)"), ("", "", "dễ"))
