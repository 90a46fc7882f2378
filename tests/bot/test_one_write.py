"""`bot.one_write`: a multipart body whose parts are in memory goes out in one write, the same
bytes aiohttp writes part by part; a body of unknown size is written as aiohttp writes it."""

from __future__ import annotations

import io
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import aiohttp
import pytest
from aiohttp import MultipartWriter, payload, web
from aiohttp.abc import AbstractStreamWriter

from bot import one_write


class Recorder(AbstractStreamWriter):
    def __init__(self) -> None:
        self.writes: list[bytes] = []

    async def write(self, chunk: bytes | bytearray | memoryview) -> None:
        self.writes.append(bytes(chunk))

    async def write_eof(self, chunk: bytes = b"") -> None:
        return None

    async def drain(self) -> None:
        return None

    def enable_compression(self, encoding: str = "deflate", strategy: int | None = None) -> None:
        return None

    def enable_chunking(self) -> None:
        return None

    async def write_headers(self, status_line: str, headers: Any) -> None:
        return None


@pytest.fixture
def aiohttp_writes() -> Iterator[None]:
    was = one_write.installed()
    one_write.uninstall()
    yield
    if was:
        one_write.install()


def upload_body() -> MultipartWriter:
    form = MultipartWriter("form-data", boundary="b0undary")
    form.append(json.dumps({"content": "Bàn #3"}),
                {"Content-Disposition": 'form-data; name="payload_json"'})
    form.append(io.BytesIO(b"\x89PNG" + bytes(range(256)) * 40),
                {"Content-Disposition": 'form-data; name="files[0]"; filename="board.png"'})
    return form


async def test_an_upload_is_one_write_of_the_bytes_aiohttp_writes(aiohttp_writes: None) -> None:
    by_parts = Recorder()
    await upload_body().write(by_parts)
    assert len(by_parts.writes) == 9  # boundary, headers, bytes, end of line: twice; the end

    one_write.install()
    one_write.install()  # idempotent: still one layer
    at_once = Recorder()
    await upload_body().write(at_once)
    assert at_once.writes == [b"".join(by_parts.writes)]

    one_write.uninstall()
    again = Recorder()
    await upload_body().write(again)
    assert again.writes == by_parts.writes


async def test_a_body_of_unknown_size_is_written_as_aiohttp_writes_it(
        aiohttp_writes: None) -> None:
    async def pieces() -> AsyncIterator[bytes]:
        yield b"first "
        yield b"second"

    one_write.install()
    form = MultipartWriter("form-data", boundary="b0undary")
    form.append_payload(payload.AsyncIterablePayload(pieces()))
    assert form.size is None
    recorder = Recorder()
    await form.write(recorder)
    assert len(recorder.writes) > 1
    assert b"first second" in b"".join(recorder.writes)


async def test_a_server_reads_the_upload_whole(aiohttp_writes: None) -> None:
    """Through a real socket: the server parses the body written at once into its parts."""
    got: dict[str, bytes] = {}

    async def handler(request: web.Request) -> web.Response:
        reader = await request.multipart()
        while (part := await reader.next()) is not None:
            assert isinstance(part, aiohttp.BodyPartReader)
            got[part.name or ""] = await part.read()
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_post("/up", handler)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    one_write.install()
    try:
        data = aiohttp.FormData(quote_fields=False)
        data.add_field("payload_json", '{"content": "Bàn #3"}')
        data.add_field("files[0]", io.BytesIO(b"\x89PNG picture"), filename="board.png",
                       content_type="application/octet-stream")
        async with aiohttp.ClientSession() as session, \
                session.post(f"http://127.0.0.1:{port}/up", data=data) as response:
            assert response.status == 200
    finally:
        await runner.cleanup()
    assert got == {"payload_json": '{"content": "Bàn #3"}'.encode(),
                   "files[0]": b"\x89PNG picture"}
