"""The Hint button's line: every reason of the engine worded in one short line."""

from __future__ import annotations

from cogs import words
from cogs.i18n import words as words_of
from engine.ai import HintWhy, Suggestion
from tests.engine.test_hint_reasons import _self_play

EN, VI = words_of("en"), words_of("vi")


def test_every_reason_is_worded_in_one_short_line() -> None:
    lines: dict[HintWhy, str] = {}
    for seed in range(6):
        for s, _game, _seat in _self_play(seed):
            line = words.hint_note(EN, exchange=False, suggestion=s)
            assert "\n" not in line and len(line) <= 120, line
            vi = words.hint_note(VI, exchange=False, suggestion=s)
            assert "\n" not in vi and len(vi) <= 140 and vi.startswith("Gợi ý: "), vi
            assert line.startswith("Hint: ")
            lines.setdefault(s.why, line)
            if s.why is HintWhy.KEEP:
                assert s.kept is not None
                assert f"keep your {s.kept.describe().split(',')[0]} for later" in line
                assert f"{s.plays_left}-play plan" in line
            if s.play is None:
                assert "pass" in line
    assert len(set(lines.values())) == len(lines)  # each reason reads differently
    assert words.hint_note(EN, exchange=False, suggestion=Suggestion(None, HintWhy.NOT_NOW))
