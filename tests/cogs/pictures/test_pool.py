"""The drawing pool (real worker processes): its bounded queue drops only drawings that a newer
one of the same message replaces, a drawing past its time limit fails (text) and its process is
replaced, and one picture wanted by two messages is drawn once."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import pickle
import re
import socket
from multiprocessing.connection import Connection
from pathlib import Path

import pytest

from benchmarks.load.report import scan_pictures
from benchmarks.pictures import table_boards
from cogs.pictures import BoardView, BoardWords, HandView, Pictures, worker
from cogs.pictures.model import unpack
from cogs.pictures.pool import DrawingPool, default_workers
from cogs.pictures.render import BOARD_ROWS
from cogs.pictures.service import PictureCache, picture_job, picture_key
from cogs.pictures.worker import NICE
from engine import parse_cards

from .samples import BOARDS, HANDS


def _hand(codes: str) -> HandView:
    return HandView(tuple(parse_cards(codes)))


def test_the_default_is_the_cores_minus_one_and_at_least_one() -> None:
    assert default_workers() >= 1


async def test_drawing_processes_run_below_the_bots_priority() -> None:
    """On a busy machine the event loop, which answers players, gets the CPU before a drawing."""
    done: list[str] = []
    pool = DrawingPool(1, lambda key, kind, png, why: done.append(key))
    try:
        pool.submit("a", "hand", _hand("3S"), "A")
        for _ in range(600):  # the worker sets its priority before it is ready
            if done:
                break
            await asyncio.sleep(0.05)
        assert done == ["a"]
        ours = os.getpriority(os.PRIO_PROCESS, 0)
        (pid,) = pool.pids()
        assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, ours + NICE)
    finally:
        pool.close()


async def test_a_full_queue_drops_the_oldest_replaced_drawing_never_a_latest_state() -> None:
    done: list[tuple[str, bytes | None]] = []
    pool = DrawingPool(1, lambda key, kind, png, why: done.append((key, png)), queue_size=2)
    try:
        # The worker is still starting: every job waits in the queue.
        pool.submit("a1", "hand", _hand("3S"), "A")
        pool.submit("b1", "hand", _hand("4S"), "B")
        pool.submit("a2", "hand", _hand("5S"), "A")  # over the bound: a1 is replaced by a2
        assert [job.key for job in pool._queue] == ["b1", "a2"] and pool.dropped == 1
        pool.submit("c1", "hand", _hand("6S"), "C")  # every job is a latest state: all kept
        assert [job.key for job in pool._queue] == ["b1", "a2", "c1"] and pool.dropped == 1
        pool.submit("b2", "hand", _hand("7S"), "B")  # b1 is replaced: dropped
        assert [job.key for job in pool._queue] == ["a2", "c1", "b2"] and pool.dropped == 2
        pool.submit("a2", "hand", _hand("5S"), "D")  # the same picture for another message
        assert [job.key for job in pool._queue] == ["a2", "c1", "b2"]
        for _ in range(600):  # the worker warms up, then draws them in order
            if len(done) == 3:
                break
            await asyncio.sleep(0.05)
        assert [key for key, _ in done] == ["a2", "c1", "b2"]
        assert all(png is not None and png.startswith(b"\x89PNG") for _, png in done)
        assert pool.drawn == 3 and pool.queued == 0
    finally:
        pool.close()


async def test_a_drawing_past_its_time_limit_fails_once_and_its_process_is_replaced(
        caplog: pytest.LogCaptureFixture) -> None:
    slow = Pictures(workers=1, delay=2.0, time_limit=0.5)
    try:
        slow.start_warm_up()
        with caplog.at_level(logging.INFO, "cogs.pictures"):
            wanted = slow.want("hand", _hand("3S 4S"), ("hand", 1, 1))
            assert not wanted.ready
            result = await slow.wait(wanted, 60)
        assert result.failed and result.png is None
        assert slow.want("hand", _hand("3S 4S"), ("hand", 1, 1)).failed  # remembered: text
        assert slow.pool is not None and slow.pool.replaced == 1
        lines = [r for r in caplog.records if "could not be drawn" in r.getMessage()]
        assert len(lines) == 1 and "took over 0.5 s" in lines[0].getMessage()
    finally:
        slow.close()


async def test_one_board_for_two_readers_is_drawn_once_and_the_cache_is_bounded(
        tmp_path: Path) -> None:
    pictures = Pictures(workers=1)
    try:
        view = BOARDS["board_four"]
        first = pictures.want("board", view, ("board", 1))
        second = pictures.want("board", view, ("board", 2))  # another message, same picture
        assert first.key == second.key
        drawn = await pictures.wait(first, 60)
        assert drawn.png is not None and pictures.known(second).png is drawn.png
        assert pictures.pool is not None and pictures.pool.drawn == 1
        assert "1 drawn" in pictures.figures() and "cache 1 pictures" in pictures.figures()
        # The drawing process's band cache: a first board is all new bands (the board's ten)
        # of three new columns each, as the load benchmark reads it from the bot's log.
        line = pictures.figures()
        bands = len(BOARD_ROWS) + 1
        assert re.search(rf"; bands {bands} \(\d+ KB, 0% reused\), columns {3 * bands} "
                         r"\(0% reused\)$", line), line
        log = tmp_path / "bot.log"
        log.write_text(f"2026-12-02 10:00:00 INFO loop lag: max 1.0 ms; {line}\n")
        found = scan_pictures(log)
        assert found["bands"] == bands and found["bands_reused_pct"] == 0 and found["workers"] == 1
        assert found["columns"] == 3 * bands and found["columns_reused_pct"] == 0
        # the drawings by kind (one board for the two messages)
        assert found["boards_drawn"] == 1 and found["hands_drawn"] == 0
    finally:
        pictures.close()
    cache = PictureCache(max_entries=10, max_bytes=100)
    for i in range(5):
        cache.put(f"k{i}", "hand", b"x" * 40)
    assert len(cache) == 2 and cache.bytes == 80  # bounded in bytes
    assert cache.peek("k4") is not None and cache.peek("k0") is None


def test_the_key_is_what_is_drawn() -> None:
    hand = HANDS["hand_13"]
    same = HandView(tuple(hand.cards), tuple(hand.raised))
    assert picture_key("hand", hand) == picture_key("hand", same)
    raised = HandView(hand.cards, (True, *hand.raised[1:]))
    assert picture_key("hand", raised) != picture_key("hand", hand)
    assert picture_key("hand", hand, "vi") != picture_key("hand", hand, "en")
    assert picture_key("board", BOARDS["board_four"]) != picture_key("board", BOARDS["board_lead"])


def test_a_view_packed_for_a_drawing_process_unpacks_to_an_equal_view() -> None:
    """Every sample board and hand (seats from 1 to 8, plays, places, chips, cards shown face
    up, notes, both directions, words of a language) and the boards of whole games go to the
    drawing process as plain tuples and come back equal; the picture's key hashes those bytes,
    so views that differ anywhere drawn get different keys."""
    views: list[BoardView | HandView] = [*BOARDS.values(), *HANDS.values()]
    views += table_boards(2, 3)
    four = BOARDS["board_four"]
    views.append(dataclasses.replace(four, words=BoardWords(
        header="Bàn #{table} · cược {stake}", group=".", places=("Nhất", "Nhì", "Ba", "Bét"))))
    views.append(dataclasses.replace(four, note="Card exchange", to_beat=(), to_beat_by=None))
    shown = tuple(parse_cards("3S 9H 2D"))
    views.append(dataclasses.replace(four, finished=True, seats=(
        dataclasses.replace(four.seats[0], cards=3, revealed=shown), *four.seats[1:])))
    keys = set()
    for view in views:
        key, job = picture_job("board" if isinstance(view, BoardView) else "hand", view)
        assert unpack(pickle.loads(job)) == view
        assert key == picture_key("board" if isinstance(view, BoardView) else "hand", view)
        keys.add(key)
    assert len(keys) == len(set(views))  # distinct views, distinct keys
    seat = BOARDS["board_four"].seats[0]
    for change in ({"cards": seat.cards + 1}, {"chips": 1}, {"chips": -1}, {"place": 2},
                   {"keep": "(khó)"}, {"name": seat.name + " "}):
        other = dataclasses.replace(BOARDS["board_four"], seats=(
            dataclasses.replace(seat, **change), *BOARDS["board_four"].seats[1:]))
        assert picture_key("board", other) != picture_key("board", BOARDS["board_four"])


def test_a_drawing_process_answers_in_one_write_that_connection_reads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A board's picture (over Connection's 16 KB) goes as its length and bytes in one write:
    the bot, woken by it, never waits for the rest (and reads it with Connection.recv)."""
    ours, theirs = socket.socketpair()
    with ours, theirs:
        reader, writer = Connection(ours.detach()), Connection(theirs.detach())
        message = (7, os.urandom(40_000), "", 0.001, None)
        writes: list[int] = []
        real_write = os.write

        def counted(fd: int, data: memoryview) -> int:
            writes.append(len(data))
            return real_write(fd, data)

        monkeypatch.setattr(os, "write", counted)
        worker.send(writer, message)
        monkeypatch.undo()
        assert reader.recv() == message
        assert writes == [len(pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)) + 4]
        reader.close()
        writer.close()
