"""A drawing process of :class:`~cogs.pictures.pool.DrawingPool`:
``python -m cogs.pictures.worker FD DELAY``. It warms up (palette, fonts, card sprites), then
draws each job read from the socket FD until the socket closes (the bot stopped or died: a worker
never outlives it). ``DELAY``: seconds each drawing waits first (a test hook: 0 in service).

A worker runs at a lower scheduling priority (``NICE``): when the machine's cores are busy, the
bot's event loop (the answers players wait for) gets the CPU first and a picture, which only
follows an answer, waits a little instead."""

from __future__ import annotations

import contextlib
import os
import pickle
import struct
import sys
import time
from multiprocessing.connection import Connection

from engine.cards import full_deck

from .cards import card_pieces
from .fonts import Fonts
from .png import shared as bands
from .pool import draw
from .render import BOARD_CARD_W, HAND_CARD_W, palette

NICE = 10
"""How much lower than the bot's a drawing process's priority is (``os.nice``)."""


def serve(conn: Connection, delay: float) -> None:
    with contextlib.suppress(OSError):  # not allowed here: draw at the bot's priority
        os.nice(NICE)
    fonts = Fonts.shared()
    try:
        palette(fonts)
        for card in full_deck():
            for width in (BOARD_CARD_W, HAND_CARD_W):
                card_pieces(card, width, fonts)  # the sprite, and its pieces
    except Exception:
        pass  # a broken font: each job then says so itself
    try:
        send(conn, (0, None, "ready", 0.0, None))  # jobs (and their time limit) start from here
    except (EOFError, OSError):
        return
    while True:
        try:
            job_id, kind, view = conn.recv()
        except (EOFError, OSError):
            return
        if delay > 0:
            time.sleep(delay)
        start = time.process_time()
        try:
            png: bytes | None = draw(kind, view, fonts)
            error = ""
        except Exception as failure:
            png, error = None, type(failure).__name__
        result = (job_id, png, error, time.process_time() - start, bands.figures())
        try:
            send(conn, result)
        except (EOFError, OSError):
            return


def send(conn: Connection, message: object) -> None:
    """``conn.send(message)`` in one write, read by ``Connection.recv`` as usual. Connection
    writes a message over 16 KB (a board's picture) as its length, then its bytes: two writes,
    and the bot, woken by the first, read the length and then waited, its event loop blocked,
    for the second (this process, at a lower priority, can be preempted in between)."""
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(struct.pack("!i", len(data)) + data)
    fd = conn.fileno()
    while view:
        view = view[os.write(fd, view):]


if __name__ == "__main__":
    serve(Connection(int(sys.argv[1])), float(sys.argv[2]))
