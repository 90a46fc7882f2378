"""What an edit carries for its picture (`cogs.tienlen._pictures.plan`): the attachment kept by
its id when the picture did not change, a new file when a new picture is ready, the picture shown
kept while the new one is drawn, nothing (text) when there is no picture; and the memory of what
each message shows."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from cogs.pictures.service import Wanted
from cogs.tienlen._pictures import PictureMemory, Shown, plan

SLOT = ("hand", 1, 2)


def _attachment(aid: int) -> discord.Attachment:
    return discord.Attachment(data=cast(Any, {
        "id": aid, "filename": "hand.png", "size": 10, "url": "u", "proxy_url": "u"}),
        state=cast(Any, SimpleNamespace(http=None)))


def test_an_unchanged_picture_keeps_its_attachment() -> None:
    shown = Shown(7, "k1", _attachment(70))
    same = plan(SLOT, shown, Wanted("k1", b"png"), "hand.png", "Your hand")
    assert same.attachments == [shown.attachment] and same.pictured and not same.fresh
    assert same.key == "k1" and not same.waiting


def test_a_new_picture_ready_is_uploaded() -> None:
    shown = Shown(7, "k1", _attachment(70))
    new = plan(SLOT, shown, Wanted("k2", b"png"), "hand.png", "Your hand")
    (file,) = new.attachments
    assert isinstance(file, discord.File) and file.filename == "hand.png"
    assert new.fresh and new.key == "k2" and not new.waiting


def test_the_alt_text_is_written_only_for_a_new_file() -> None:
    written: list[str] = []

    def describe() -> str:
        written.append("Table #1")
        return "Table #1"

    shown = Shown(7, "k1", _attachment(70))
    for wanted in (Wanted("k1", b"png"), Wanted("k2"), None):  # kept, being drawn, no picture
        plan(SLOT, shown, wanted, "board.png", describe)
    assert written == []
    (file,) = plan(SLOT, shown, Wanted("k2", b"png"), "board.png", describe).attachments
    assert isinstance(file, discord.File) and file.description == "Table #1"
    assert written == ["Table #1"]


def test_a_picture_being_drawn_leaves_the_shown_one_until_the_next_edit() -> None:
    shown = Shown(7, "k1", _attachment(70))
    waiting = plan(SLOT, shown, Wanted("k2"), "hand.png", "Your hand")
    assert waiting.attachments == [shown.attachment] and waiting.pictured
    assert waiting.key == "k1" and waiting.waiting
    first = plan(SLOT, None, Wanted("k2"), "hand.png", "Your hand")  # nothing shown yet: text
    assert first.attachments == [] and not first.pictured and first.waiting


def test_no_picture_or_a_failed_one_gives_text() -> None:
    shown = Shown(7, "k1", _attachment(70))
    for wanted in (None, Wanted("k2", failed=True)):
        text = plan(SLOT, shown, wanted, "hand.png", "Your hand")
        assert text.attachments == [] and not text.pictured and text.key is None
        assert not text.waiting


def test_the_memory_knows_a_message_s_picture_and_nothing_while_an_edit_is_in_flight() -> None:
    memory = PictureMemory(limit=2)
    shown = Shown(7, "k1", _attachment(70))
    memory.set(SLOT, shown)
    assert memory.get(SLOT, 7) is shown and memory.key_of(SLOT) == "k1"
    assert memory.get(SLOT, 8) is None  # another message of the same hand
    with memory.sending(SLOT):
        assert memory.get(SLOT, 7) is None and memory.in_flight(SLOT)
    assert memory.get(SLOT, 7) is shown and not memory.in_flight(SLOT)
    memory.set(("hand", 1, 3), shown)
    memory.set(("hand", 1, 4), shown)
    assert len(memory) == 2 and memory.get(SLOT, 7) is None  # bounded: the oldest forgotten
