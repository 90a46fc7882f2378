"""Fixed boards and hands for the golden-image tests and the pictures in docs/.

Regenerate the goldens (after an intended change to the drawing, look at them first) with::

    .venv/bin/python -m tests.cogs.pictures.samples --goldens

the pictures in docs/ with ``--docs``, and the shipped emoji images with ``--emoji``.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cogs.pictures import BoardView, HandView, Pictures, SeatView, emoji_names
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
            SeatView("Computer (hard)", 4),
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
