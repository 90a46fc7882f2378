"""An upload in one write.

aiohttp writes a multipart body (a message's JSON and its files: every picture the bot uploads)
part by part: each part's boundary, its headers, its bytes and the line after them, nine writes
to the socket for a message with one file where a JSON request takes one. Each write is a
``send()`` (over TLS, a record of its own), and on a busy bot they cost a quarter of a
millisecond an upload (``python -m benchmarks.uploads``). :func:`install` makes a multipart body
whose parts are in memory (discord.py's files are: a picture's bytes) go out as one write of the
same bytes; a body of unknown or large size is written as aiohttp writes it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Coroutine
from typing import Any

from aiohttp import MultipartWriter
from aiohttp.abc import AbstractStreamWriter

ONE_WRITE_LIMIT = 8 * 1024 * 1024
"""Bodies up to this size are gathered and written at once (a copy of that size, briefly)."""

_Write = Callable[[MultipartWriter, AbstractStreamWriter, bool], Coroutine[Any, Any, None]]


class _Gather(AbstractStreamWriter):
    """A stream writer that keeps what is written (a multipart body's pieces)."""

    def __init__(self) -> None:
        self.pieces: list[bytes] = []

    async def write(self, chunk: bytes | bytearray | memoryview) -> None:
        self.pieces.append(bytes(chunk))

    async def write_eof(self, chunk: bytes = b"") -> None:
        if chunk:
            self.pieces.append(chunk)

    async def drain(self) -> None:
        return None

    def enable_compression(self, encoding: str = "deflate", strategy: int | None = None) -> None:
        raise NotImplementedError("a gathered body is not compressed")

    def enable_chunking(self) -> None:
        raise NotImplementedError("a gathered body is not chunked")

    async def write_headers(self, status_line: str, headers: Any) -> None:
        raise NotImplementedError("a gathered body has no headers of its own")


def _one_write(original: _Write) -> _Write:
    @functools.wraps(original)
    async def write(self: MultipartWriter, writer: AbstractStreamWriter,
                    close_boundary: bool = True) -> None:
        size = self.size
        if size is None or size > ONE_WRITE_LIMIT:
            await original(self, writer, close_boundary)
            return
        gathered = _Gather()
        await original(self, gathered, close_boundary)
        await writer.write(b"".join(gathered.pieces))

    write.one_write = True  # type: ignore[attr-defined]
    return write


def installed() -> bool:
    return bool(getattr(MultipartWriter.write, "one_write", False))


def install() -> None:
    """Write every multipart body of this process in one piece (idempotent)."""
    if not installed():
        MultipartWriter.write = _one_write(MultipartWriter.write)  # type: ignore[method-assign, assignment]


def uninstall() -> None:
    """Back to aiohttp's own writes (a benchmark compares the two)."""
    if installed():
        MultipartWriter.write = MultipartWriter.write.__wrapped__  # type: ignore[attr-defined, method-assign]
