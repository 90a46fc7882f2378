"""`python -m benchmarks.uploads` measures the four kinds of edit against its own server."""

from __future__ import annotations

from benchmarks.uploads import measure


def test_each_kind_of_edit_is_measured_and_an_upload_goes_as_multipart() -> None:
    figures = measure(edits=3, rounds=1)
    assert set(figures) == {"text", "kept", "upload", "upload1"}
    for cpu, writes in figures.values():
        assert cpu > 0 and writes >= 1
    # a picture kept by its id is a JSON edit like text; a new one is a multipart body, whose
    # parts (the message's JSON, the file) aiohttp writes one after the other, and the bot in
    # one write (bot.one_write) like a JSON edit
    assert figures["kept"][1] == figures["text"][1]
    assert figures["upload"][1] > figures["text"][1]
    assert figures["upload1"][1] == figures["text"][1]
