"""The Hint button's line: every reason of the engine worded in one short line, in both
languages, saying only what the engine computed (a broken-up part is named; "without breaking up
your hand" only where nothing is)."""

from __future__ import annotations

from cogs import words
from cogs.i18n import words as words_of
from engine import ComboKind, Rank, classify
from engine.ai import HintWhy, Suggestion
from engine.ai.explain import Part
from tests.engine.test_hint_reasons import _self_play

EN, VI = words_of("en"), words_of("vi")


def test_every_reason_is_worded_in_one_short_line() -> None:
    lines: dict[HintWhy, str] = {}
    for seed in range(6):
        for s, _game, _seat in _self_play(seed):
            line = words.hint_note(EN, exchange=False, suggestion=s)
            assert "\n" not in line and len(line) <= 150, line
            vi = words.hint_note(VI, exchange=False, suggestion=s)
            assert "\n" not in vi and len(vi) <= 160 and vi.startswith("Gợi ý: "), vi
            assert line.startswith("Hint: ")
            lines.setdefault(s.why, line)
            assert ("without breaking up your hand" in line) == (s.why is HintWhy.FITS_PLAN)
            # A pass kept for its 2s or bomb says so, and nothing of what spending them breaks.
            names = bool(s.broken) and s.why is not HintWhy.KEEP_CONTROL
            assert ("breaks up your" in line or "break up your" in line) == names, line
            assert ("tách" in vi) == (names or s.why is HintWhy.FITS_PLAN), vi
            if s.why is HintWhy.KEEP:
                assert s.kept is not None
                assert f"beating it with the {s.kept.describe().split(',')[0]}" in line
            if s.play is None:
                assert "pass" in line
            for old in ("plays left", "-play plan", "nước", "kế hoạch"):
                assert old not in line and old not in vi
    assert len(set(lines.values())) == len(lines)  # each reason reads differently
    assert words.hint_note(EN, exchange=False, suggestion=Suggestion(None, HintWhy.NOT_NOW))


Q, A = Rank.QUEEN, Rank.ACE
PAIRS = (Part(ComboKind.PAIR, Q, Q), Part(ComboKind.PAIR, A, A))


def test_the_issues_hint_names_the_pairs_it_breaks_up() -> None:
    s = Suggestion(classify("QC KC AC"), HintWhy.ANSWER, 2, broken=PAIRS)
    assert words.hint_note(EN, exchange=False, suggestion=s) == (
        "Hint: beat it with the sequence Q-K-A, though it breaks up your pair of Queens and "
        "pair of Aces.")
    assert words.hint_note(VI, exchange=False, suggestion=s) == (
        "Gợi ý: chặn bằng sảnh Q-K-A, dù phải tách đôi Q và đôi A.")


def test_a_play_that_breaks_nothing_says_so_and_how_many_plays_follow() -> None:
    s = Suggestion(classify("9C 10D JH"), HintWhy.FITS_PLAN, 2)
    assert words.hint_note(EN, exchange=False, suggestion=s) == (
        "Hint: the sequence 9-10-J beats it without breaking up your hand; then 2 more plays "
        "to go out.")
    assert words.hint_note(VI, exchange=False, suggestion=s) == (
        "Gợi ý: sảnh 9-10-J chặn được mà không phải tách bộ nào; rồi đánh thêm 2 lần nữa là "
        "hết bài.")


def test_leads_and_passes_in_both_languages() -> None:
    seq = (Part(ComboKind.SEQUENCE, Rank.THREE, Rank.FIVE),)
    cases = [
        (Suggestion(classify("3S"), HintWhy.LEAD_LOWEST, 3, broken=seq),
         "Hint: lead your lowest card, the 3♠, though it breaks up your sequence 3-4-5.",
         "Gợi ý: đánh trước lá nhỏ nhất, 3♠, dù phải tách sảnh 3-4-5."),
        (Suggestion(classify("3S"), HintWhy.LEAD_LOWEST, 1),
         "Hint: lead your lowest card, the 3♠; then 1 more play to go out.",
         "Gợi ý: đánh trước lá nhỏ nhất, 3♠; rồi đánh thêm 1 lần nữa là hết bài."),
        (Suggestion(classify("3S 4D 5C"), HintWhy.LEAD_PLAN, 2),
         "Hint: lead the sequence 3-4-5, the weakest part of your hand; then 2 more plays to go "
         "out.",
         "Gợi ý: đánh trước sảnh 3-4-5, bộ yếu nhất trên tay; rồi đánh thêm 2 lần nữa là hết "
         "bài."),
        (Suggestion(classify("9H 9D"), HintWhy.LEAD, 2),
         "Hint: lead the pair of 9s; then 2 more plays to go out.",
         "Gợi ý: đánh trước đôi 9; rồi đánh thêm 2 lần nữa là hết bài."),
        (Suggestion(None, HintWhy.KEEP, 3, kept=classify("8S 8D"),
                    broken=(Part(ComboKind.TRIPLE, Rank.EIGHT, Rank.EIGHT),)),
         "Hint: pass — beating it with the pair of 8s would break up your three 8s.",
         "Gợi ý: bỏ lượt — chặn bằng đôi 8 thì phải tách sám cô 8."),
        (Suggestion(None, HintWhy.KEEP_FOR_LATER, 3, kept=classify("8S 8D")),
         "Hint: pass — keep your pair of 8s for a later trick.",
         "Gợi ý: bỏ lượt — giữ đôi 8 cho vòng sau."),
        (Suggestion(classify("9C 9D"), HintWhy.BLOCK, 1, opponent_cards=1,
                    broken=(Part(ComboKind.TRIPLE, Rank.NINE, Rank.NINE),)),
         "Hint: someone has only 1 card left: beat it now with the pair of 9s, though it breaks "
         "up your three 9s.",
         "Gợi ý: có người chỉ còn 1 lá: chặn ngay bằng đôi 9, dù phải tách sám cô 9."),
    ]
    for s, en, vi in cases:
        assert words.hint_note(EN, exchange=False, suggestion=s) == en
        assert words.hint_note(VI, exchange=False, suggestion=s) == vi
