"""An upload in one write.

aiohttp writes a multipart body (a message's JSON and its files: every picture the bot uploads)
part by part: each part's boundary, its headers, its bytes and the line after them, nine writes
to the socket for a message with one file where a JSON request takes one. Each write is a
``send()`` (over TLS, a record of its own), and on a busy bot they cost a quarter of a
millisecond an upload (``python -m benchmarks.uploads``). :func:`install` makes a multipart body
whose parts are in memory (discord.py's files are: a picture's bytes) go out as one write of the
same bytes; a body of unknown or large size is written as aiohttp writes it.

Before it is written, aiohttp also builds the body in Python, part by part (a payload object, a
header dictionary and a quoted ``Content-Disposition`` for each field, then a writer to hold
them): about 0.15 ms of CPU an upload. A form as discord.py makes it (the message's JSON as a
string, each file in memory with its content type, names needing no escape) is joined here
into the same bytes at once (:func:`form_body`) and sent as one plain body; any other form goes
aiohttp's way.
"""

from __future__ import annotations

import functools
import io
import uuid
from collections.abc import Callable, Coroutine
from typing import Any

from aiohttp import FormData, MultipartWriter, hdrs
from aiohttp.abc import AbstractStreamWriter
from aiohttp.payload import BytesPayload, Payload

ONE_WRITE_LIMIT = 8 * 1024 * 1024
"""Bodies up to this size are gathered and written at once (a copy of that size, briefly)."""
FORM_BODY_LIMIT = 1024 * 1024
"""Forms up to this size are joined into one body (aiohttp warns of plain bodies over 1 MiB)."""
_TEXT = "text/plain; charset=utf-8"  # aiohttp's type for a string field given none
_SAFE = frozenset(map(chr, range(0x20, 0x7F))) - {'"', "\\"}

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


def form_body(form: FormData, boundary: str | None = None) -> BytesPayload | None:
    """``form`` as one multipart body, the bytes aiohttp would write for it (its boundary a
    fresh one, as aiohttp's), or None when aiohttp must build it: a form not as discord.py
    makes it (quoted or encoded fields, a field that is not a string or a file in memory, a
    header besides the content type, a name that needs escaping) or over
    :data:`FORM_BODY_LIMIT`. A file is read from where it stands and left there (a retry reads
    it again)."""
    fields = getattr(form, "_fields", None)
    if (not form.is_multipart or getattr(form, "_quote_fields", True)
            or getattr(form, "_charset", None) is not None or not isinstance(fields, list)
            or not fields):
        return None
    boundary = boundary or uuid.uuid4().hex
    dash = b"--" + boundary.encode()
    pieces: list[bytes] = []
    size = 0
    for field in fields:
        if not (isinstance(field, tuple) and len(field) == 3):
            return None
        params, headers, value = field
        if set(headers) - {hdrs.CONTENT_TYPE}:
            return None
        if isinstance(value, str) and hdrs.CONTENT_TYPE not in headers:
            data, kind = value.encode(), _TEXT
        elif isinstance(value, io.BytesIO) and hdrs.CONTENT_TYPE in headers:
            where = value.tell()
            data = value.read()
            value.seek(where)
            kind = headers[hdrs.CONTENT_TYPE]
        else:
            return None
        disposition = ["form-data"]
        for key, text in params.items():
            if not (isinstance(text, str) and _SAFE.issuperset(text) and key.isalpha()):
                return None
            disposition.append(f'{key}="{text}"')
        size += len(data)
        if size > FORM_BODY_LIMIT:
            return None
        pieces += [dash, b"\r\nContent-Type: ", kind.encode(), b"\r\nContent-Disposition: ",
                   "; ".join(disposition).encode(), b"\r\n\r\n", data, b"\r\n"]
    pieces += [dash, b"--\r\n"]
    fields.clear()  # as aiohttp's: a form is sent once
    return BytesPayload(b"".join(pieces),
                        content_type=f"multipart/form-data; boundary={boundary}")


def _at_once(original: Callable[[FormData], Payload]) -> Callable[[FormData], Payload]:
    @functools.wraps(original)
    def call(self: FormData) -> Payload:
        body = form_body(self)
        return original(self) if body is None else body

    call.one_write = True  # type: ignore[attr-defined]
    return call


def installed() -> bool:
    return bool(getattr(MultipartWriter.write, "one_write", False))


def install() -> None:
    """Build discord.py's forms at once and write every multipart body of this process in one
    piece (idempotent)."""
    if not installed():
        MultipartWriter.write = _one_write(MultipartWriter.write)  # type: ignore[method-assign, assignment]
        FormData.__call__ = _at_once(FormData.__call__)  # type: ignore[method-assign, assignment]


def uninstall() -> None:
    """Back to aiohttp's own building and writes (a benchmark compares the two)."""
    if installed():
        MultipartWriter.write = MultipartWriter.write.__wrapped__  # type: ignore[attr-defined, method-assign]
        FormData.__call__ = FormData.__call__.__wrapped__  # type: ignore[attr-defined, method-assign]
