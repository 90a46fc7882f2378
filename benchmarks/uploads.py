"""What an edit costs the bot's process, with and without a new picture: ``python -m
benchmarks.uploads``.

discord.py edits one message again and again on a small HTTP server of its own (another
process, so that only the bot's side is measured), in three ways, in turn: text only (the board
with pictures off), a picture kept by its attachment id (an edit whose picture did not change),
and a new picture uploaded (multipart: the message's JSON and the PNG), the body written part by
part as aiohttp writes it and in one write as the bot sends it (:mod:`bot.one_write`). Each is
a V2 layout like
the board's (a container with its text, the picture and a row of buttons), and each answer is
parsed into a ``discord.Message`` with its components, as the bot does. Prints the CPU time of
this process per edit and the socket writes an edit takes (aiohttp writes a multipart body part
by part).

    python -m benchmarks.uploads --edits 400 --rounds 2
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

WAYS = {"text": "text", "kept": "the picture kept by its id",
        "upload": "a new picture, aiohttp's writes", "upload1": "a new picture, one write"}
SEATS = ("Ánh", "Computer 2 (hard)", "Computer 3 (hard)", "Computer 4 (hard)")


def _serve(port: int) -> None:
    """A stand-in for Discord's message edit route: it reads the request (JSON or multipart)
    and answers with the message as Discord would (components with ids, the uploaded file as an
    attachment, the picture's media item resolved)."""
    from aiohttp import BodyPartReader, web

    def answer(body: dict[str, Any]) -> web.Response:
        return web.Response(body=json.dumps(body).encode(), content_type="application/json")

    async def me(request: web.Request) -> web.Response:
        return answer({"id": "1", "username": "bot", "discriminator": "0", "avatar": None,
                       "bot": True})

    async def edit(request: web.Request) -> web.Response:
        payload: dict[str, Any] = {}
        files: list[tuple[str, int]] = []
        if request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                assert isinstance(part, BodyPartReader)
                data = await part.read()
                if part.name == "payload_json":
                    payload = json.loads(data)
                else:
                    files.append((part.filename or "file", len(data)))
        else:
            payload = await request.json()
        ids = iter(range(1, 1000))

        def resolved(component: dict[str, Any]) -> dict[str, Any]:
            out = {**component, "id": next(ids)}
            if "components" in out:
                out["components"] = [resolved(c) for c in out["components"]]
            if "items" in out:
                out["items"] = [{**item, "media": {
                    **item["media"], "url": "https://cdn.example/a/board.png",
                    "proxy_url": "https://media.example/a/board.png", "width": 840,
                    "height": 560, "content_type": "image/png", "attachment_id": "900"}}
                    for item in out["items"]]
            return out

        channel, message = request.match_info["channel"], request.match_info["message"]
        return answer({
            "id": message, "channel_id": channel, "type": 0, "content": "",
            "flags": payload.get("flags", 0), "tts": False, "pinned": False,
            "author": {"id": "1", "username": "bot", "discriminator": "0", "avatar": None,
                       "bot": True},
            "attachments": [{"id": str(900 + i), "filename": name, "size": size,
                             "url": f"https://cdn.example/a/{name}",
                             "proxy_url": f"https://media.example/a/{name}", "width": 840,
                             "height": 560, "content_type": "image/png"}
                            for i, (name, size) in enumerate(files)],
            "components": [resolved(c) for c in payload.get("components", [])],
            "embeds": [], "mentions": [], "mention_roles": [], "mention_everyone": False,
            "timestamp": "2026-12-02T00:00:00+00:00",
            "edited_timestamp": "2026-12-02T00:00:01+00:00"})

    app = web.Application(client_max_size=8 * 1024 * 1024)
    app.router.add_get("/api/v10/users/@me", me)
    app.router.add_patch("/api/v10/channels/{channel}/messages/{message}", edit)
    web.run_app(app, host="127.0.0.1", port=port, print=None)


def _layout(pictured: bool) -> Any:
    import discord
    from discord import ui

    lines = ["**Table #3** · stake 10", "Ánh played 5♠ 5♥ · Computer 2 (hard) to play"]
    if not pictured:  # the text board lists the seats the picture shows
        lines += [f"{i + 1}. {name}: 9 cards" for i, name in enumerate(SEATS)]
    items: list[Any] = [ui.TextDisplay("\n".join(lines))]
    if pictured:
        items.append(ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")))
    buttons: list[ui.Button[Any]] = [
        ui.Button(label=label, custom_id=f"b{i}", emoji="🃏")
        for i, label in enumerate(("My hand", "Leave", "Rules", "Hint"))]
    row: ui.ActionRow[Any] = ui.ActionRow(*buttons)
    view = ui.LayoutView(timeout=None)
    view.add_item(ui.Container(*items, row))
    return view


async def _client(port: int, edits: int, rounds: int, png: bytes) -> dict[str, tuple[float, float]]:
    """Each kind of edit's CPU seconds and socket writes, an edit (the last round's)."""
    import discord

    from bot import one_write

    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
    client = discord.Client(intents=discord.Intents.none())
    await client.http.static_login("not-a-token")
    message = client.get_partial_messageable(123).get_partial_message(456)
    state: Any = client._connection
    writes = [0]
    figures: dict[str, tuple[float, float]] = {}
    real_send = socket.socket.send

    def counted(sock: socket.socket, data: Any, flags: int = 0) -> int:
        writes[0] += 1
        return real_send(sock, data, flags)

    try:
        for _ in range(rounds):
            for way in ("text", "kept", "upload", "upload1"):
                if way == "upload1":
                    one_write.install()
                cpu, writes[0] = time.process_time(), 0
                socket.socket.send = counted  # type: ignore[method-assign, assignment]
                for _ in range(edits):
                    attachments: list[Any] = []
                    if way == "kept":
                        attachments = [discord.Attachment(state=state, data={
                            "id": 900, "filename": "board.png", "size": len(png),
                            "url": "https://cdn.example/a/board.png",
                            "proxy_url": "https://media.example/a/board.png"})]
                    elif way.startswith("upload"):
                        attachments = [discord.File(io.BytesIO(png), filename="board.png",
                                                    description="Table #3: 4 seats")]
                    await message.edit(view=_layout(way != "text"), attachments=attachments)
                socket.socket.send = real_send  # type: ignore[method-assign]
                one_write.uninstall()
                each = (time.process_time() - cpu) / edits
                figures[way] = (each, writes[0] / edits)
                print(f"{WAYS[way]:34s} {each * 1e6:6.0f} µs CPU an edit, "
                      f"{writes[0] / edits:.1f} socket writes an edit", flush=True)
    finally:
        socket.socket.send = real_send  # type: ignore[method-assign]
        one_write.uninstall()
        await client.close()
    return figures


def _board_png() -> bytes:
    from benchmarks.pictures import _named, table_boards
    from cogs.pictures import Pictures
    from cogs.pictures.render import board_png

    return board_png(_named(table_boards(1, 1000)[10], 3), Pictures().fonts)


def measure(edits: int, rounds: int) -> dict[str, tuple[float, float]]:
    """Start the server, edit (see the module's description), stop it: each kind of edit's
    CPU seconds and socket writes, an edit."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "benchmarks.uploads", "--serve", str(port)],
                              cwd=Path(__file__).resolve().parent.parent)
    try:
        for _ in range(200):  # until it listens
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        png = _board_png()
        print(f"a board picture of {len(png):,} bytes; {edits} edits of each kind, "
              f"{rounds} rounds", flush=True)
        return asyncio.run(_client(port, edits, rounds, png))
    finally:
        server.terminate()
        server.wait()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.uploads", description=__doc__
                                     .split("\n\n")[0])
    parser.add_argument("--edits", type=int, default=400, help="edits of each kind (400)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the four kinds (2)")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        _serve(args.serve)
        return 0
    measure(args.edits, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
