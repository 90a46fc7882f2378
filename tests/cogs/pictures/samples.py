"""Fixed boards and hands for the golden-image tests and the pictures in docs/.

Regenerate the goldens (after an intended change to the drawing, look at them first) with::

    .venv/bin/python -m tests.cogs.pictures.samples --goldens

the pictures in docs/ with ``--docs``, and the shipped emoji images with ``--emoji``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cogs.pictures import BoardView, BoardWords, HandView, Pictures, SeatView, emoji_names
from cogs.pictures.cards import EMOJI_DIR, emoji_png
from engine import Suit, parse_cards

GOLDENS = Path(__file__).with_name("goldens")
DOCS = Path(__file__).resolve().parents[3] / "docs"

BOARDS: dict[str, BoardView] = {
    # Four players mid-game: seat 0 to play, seat 1 passed, seat 3 away, a pair to beat.
    "board_four": BoardView(
        table=12, stake=10,
        seats=(
            SeatView("Nguyễn Thị Ánh", 9, turn=True),
            SeatView("Trần Văn Đức", 11, passed=True),
            SeatView("Computer 3 (hard)", 4, keep="(hard)"),
            SeatView("Phạm Quốc Bảo Long", 13, away=True),
        ),
        to_beat=tuple(parse_cards("7D 7H")), to_beat_by=2,
    ),
    # Eight players with two decks: a pair of identical cards to beat, one seat already out.
    "board_eight_two_decks": BoardView(
        table=7, stake=50,
        seats=tuple(
            SeatView(name, cards, turn=i == 5, passed=i in (1, 2), place=1 if i == 7 else None)
            for i, (name, cards) in enumerate(
                (("Lan", 13), ("Minh", 11), ("Hùng", 12), ("Quỳnh", 10), ("Sơn", 9),
                 ("Thảo", 8), ("Vy", 7), ("Yến", 0))
            )
        ),
        to_beat=tuple(parse_cards("9H 9H")), to_beat_by=4,
    ),
    # Three players with 17 cards each; a twelve-card straight to beat.
    "board_three_17": BoardView(
        table=3, stake=20,
        seats=(SeatView("Khoa", 17), SeatView("Linh", 5, turn=True), SeatView("Mai", 16)),
        to_beat=tuple(parse_cards("3S 4C 5D 6H 7S 8C 9D 10H JS QC KD AH")), to_beat_by=0,
    ),
    # A finished game: places and chip changes.
    "board_finished": BoardView(
        table=12, stake=10, finished=True,
        seats=(
            SeatView("Ánh", 0, place=1, chips=30), SeatView("Đức", 0, place=3, chips=-10),
            SeatView("Computer", 0, place=2, chips=0), SeatView("Long", 6, place=4, chips=-20),
        ),
    ),
    # Báo 1 lá: seat 2 is on its last card (the red flag), seat 1 passed.
    "board_last_card": BoardView(
        table=9, stake=10,
        seats=(SeatView("Ánh", 6, turn=True), SeatView("Bình", 8, passed=True),
               SeatView("Chi", 1)),
        to_beat=tuple(parse_cards("KD")), to_beat_by=2,
    ),
    # Two players, a new lead.
    "board_lead": BoardView(
        table=5, stake=10, seats=(SeatView("Ánh", 12, turn=True), SeatView("Bình", 13)),
    ),
    # Names Discord allows: 100 characters, emoji only, right-to-left, zero-width characters, a
    # computer's level kept whole; seat 1 on one card (báo 1 lá), seat 3 on two; a new lead won
    # by seat 2; a Vietnamese table (grouped 10.000).
    "board_names": BoardView(
        table=1, stake=10_000,
        seats=(
            SeatView("Nguyễn Thị Thanh Hương " * 4 + "Ng", 7, turn=True),
            SeatView("🐉🔥🎉👑", 1),
            SeatView("Máy 2 (khó)", 5, keep="(khó)"),
            SeatView("ש\u200bלום ע\u200dולם מרים", 2, passed=True),
            SeatView("\u200b\u200dZero\u200bWidth\u2060 ❤\ufe0f", 9, away=True),
        ),
        lead_by=2,
        words=BoardWords(header="Bàn #{table} · cược {stake}", new_lead="Vòng mới",
                         won_trick="{name} thắng vòng", last_card="BÁO 1 LÁ",
                         two_cards="BÁO 2 LÁ", passed="BỎ LƯỢT", away="VẮNG", group="."),
    ),
    # Flags: seats on 1 and 2 cards, one of them passed; the engine's reversed order of play
    # (direction -1), so seat 2 sits on seat 1's right.
    "board_flags": BoardView(
        table=4, stake=1_000, direction=-1,
        seats=(SeatView("Ánh", 1, passed=True), SeatView("Bình", 2, turn=True),
               SeatView("Computer 3 (expert)", 2, keep="(expert)"), SeatView("Dũng", 1)),
        to_beat=tuple(parse_cards("QS QH")), to_beat_by=3,
    ),
    # The end, chips grouped: +12,500.
    "board_finished_grouped": BoardView(
        table=2, stake=2_500, finished=True,
        seats=(SeatView("Ánh", 0, place=1, chips=12_500), SeatView("Bình", 3, place=2,
                                                                   chips=-12_500)),
    ),
}

HANDS: dict[str, HandView] = {
    "hand_13": HandView.sorted(parse_cards("3S 5D 5H 6C 7H 8H 9S 10D JD QC KH AS 2H"),
                               parse_cards("5D 5H")),
    "hand_17": HandView.sorted(
        parse_cards("3S 3H 4C 4S 5D 6C 6D 7H 8H 9S 10D JD QC KH AS 2H 2D"),
        parse_cards("9S 10D JD")),
    # Two decks: a pair of identical cards, one copy raised; hearts-high suit order reversed.
    "hand_two_decks": HandView.sorted(
        parse_cards("3C 4D 7H 7H 8S 9C 9D JH QS KC KD AS 2C"), parse_cards("7H"),
        suit_order=(Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS, Suit.SPADES)),
    # A person's preferences: the four-colour deck (♣ green, ♦ blue) sorted by suit.
    "hand_four_colour_by_suit": HandView.sorted(
        parse_cards("3S 5D 5H 6C 7H 8H 9S 10D JD QC KH AS 2H"), parse_cards("JD"),
        by_suit=True, four_colour=True),
    # Two decks, four colours, by rank.
    "hand_two_decks_four_colour": HandView.sorted(
        parse_cards("3C 4D 7H 7H 8S 9C 9D 9D JH QS KC KD AS 2C"), parse_cards("9D"),
        four_colour=True),
}


def render_all(pictures: Pictures) -> dict[str, bytes]:
    out = {name: pictures.board_png(view) for name, view in BOARDS.items()}
    out.update({name: pictures.hand_png(view) for name, view in HANDS.items()})
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--goldens", action="store_true", help="rewrite the golden images")
    parser.add_argument("--emoji", action="store_true",
                        help="rewrite the shipped emoji images in cogs/pictures/assets/emoji/")
    parser.add_argument("--docs", action="store_true",
                        help="rewrite docs/board.png and docs/hand.png")
    args = parser.parse_args(argv)
    pictures = Pictures()
    pngs = render_all(pictures)
    if args.goldens:
        GOLDENS.mkdir(exist_ok=True)
        for name, data in pngs.items():
            (GOLDENS / f"{name}.png").write_bytes(data)
            print(f"{GOLDENS / name}.png  {len(data)} bytes")
    if args.emoji:
        EMOJI_DIR.mkdir(exist_ok=True)
        for name, card in emoji_names().items():
            (EMOJI_DIR / f"{name}.png").write_bytes(emoji_png(card, pictures.fonts))
        print(f"{EMOJI_DIR}: {len(emoji_names())} emoji")
    if args.docs:
        (DOCS / "board.png").write_bytes(pngs["board_four"])
        (DOCS / "hand.png").write_bytes(pngs["hand_13"])
        print(f"{DOCS}/board.png, {DOCS}/hand.png")


if __name__ == "__main__":
    main()
