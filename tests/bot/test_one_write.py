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


def discord_form(picture: Any = None, filename: str = "board.png",
                 quote_fields: bool = False) -> aiohttp.FormData:
    """A form as discord.py makes it for an edit with one file."""
    form = aiohttp.FormData(quote_fields=quote_fields)
    form.add_field(name="payload_json", value='{"content": "Bàn #3 \\"x\\""}')
    form.add_field(name="files[0]", value=picture if picture is not None
                   else io.BytesIO(b"\x89PNG" + bytes(range(256)) * 40),
                   filename=filename, content_type="application/octet-stream")
    return form


async def written(body: payload.Payload) -> bytes:
    recorder = Recorder()
    await body.write(recorder)
    return b"".join(recorder.writes)


async def test_a_discord_form_is_joined_into_the_bytes_aiohttp_builds(
        aiohttp_writes: None) -> None:
    built = discord_form()()
    assert isinstance(built, MultipartWriter)  # aiohttp's own: a writer of parts
    boundary = built.content_type.split("boundary=", 1)[1]
    picture = io.BytesIO(b"before" + b"\x89PNG" + bytes(range(256)) * 40)
    picture.seek(6)  # discord.py hands the file where it stands: the rest is sent
    joined = one_write.form_body(discord_form(picture), boundary)
    assert joined is not None
    assert await written(joined) == await written(built)
    assert joined.size == built.size and joined.content_type == built.content_type
    assert picture.tell() == 6  # left where it was: a retry sends it again

    one_write.install()
    assert isinstance(discord_form()(), payload.BytesPayload)
    one_write.uninstall()
    assert isinstance(discord_form()(), MultipartWriter)


@pytest.mark.parametrize("odd", ["quoted fields", "a name to escape", "a file on disk",
                                 "too large"])
async def test_any_other_form_is_built_by_aiohttp(odd: str, aiohttp_writes: None,
                                                  tmp_path: Any) -> None:
    opened: list[Any] = []
    if odd == "quoted fields":
        form = discord_form(quote_fields=True)
    elif odd == "a name to escape":
        form = discord_form(filename='bo"ard.png')
    elif odd == "a file on disk":
        path = tmp_path / "board.png"
        path.write_bytes(b"\x89PNG")
        opened.append(path.open("rb"))
        form = discord_form(opened[0])
    else:
        form = discord_form(io.BytesIO(bytes(one_write.FORM_BODY_LIMIT + 1)))
    assert one_write.form_body(form) is None
    one_write.install()
    built = form()
    assert isinstance(built, MultipartWriter)
    if opened:
        assert b"\x89PNG" in await written(built)
        opened[0].close()
