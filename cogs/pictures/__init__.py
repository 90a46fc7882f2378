"""Card pictures drawn with Pillow: the board, a hand and the card emoji (no Discord here).

Build a :class:`BoardView` or :class:`HandView` and ask a :class:`Pictures` for PNG bytes
(``await pictures.board(view)`` draws off the event loop). See docs/PICTURES.md.
"""

from .cards import emoji_name, emoji_names
from .convert import board_view, hand_view
from .fonts import Fonts
from .model import BoardView, BoardWords, HandView, SeatView
from .replay import FaceUpView, face_up_view
from .service import Pictures

__all__ = [
    "BoardView",
    "BoardWords",
    "FaceUpView",
    "Fonts",
    "HandView",
    "Pictures",
    "SeatView",
    "board_view",
    "emoji_name",
    "emoji_names",
    "face_up_view",
    "hand_view",
]
