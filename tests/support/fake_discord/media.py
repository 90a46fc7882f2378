"""Files and emoji: multipart uploads (`payload_json` + `files[n]`), `attachment://` references
in embeds, and the application-emoji routes (`/applications/{app}/emojis`)."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

from aiohttp import web

from tests.support.fake_discord import validate
from tests.support.fake_discord.models import _HTTPError, _json

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
MAX_EMOJI_BYTES = 256 * 1024
MAX_EMOJI = 2000


class MediaMixin:
    """Uploads and application emoji for :class:`FakeDiscord`."""

    # ------------------------------------------------------------------ uploads

    async def _multipart(self, request: web.Request) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """Discord's multipart form: `payload_json` plus `files[n]`; the payload's `attachments`
        list names each upload by its index n (filename, description). Returns the payload and
        the stored attachments; the bytes are kept in `attachment_bytes` by attachment id."""
        payload: dict[str, Any] = {}
        uploads: list[tuple[int, str, bytes]] = []
        reader = await request.multipart()
        async for part in reader:
            if not hasattr(part, "read"):
                continue
            raw = await part.read()  # type: ignore[union-attr]
            name = part.name or ""  # type: ignore[union-attr]
            if name == "payload_json":
                payload = json.loads(raw or b"{}")
                continue
            index = re.fullmatch(r"files\[(\d+)\]", name)
            if index is None:
                raise _HTTPError(400, 50035, f"Invalid Form Body: unexpected part {name!r}")
            fname = getattr(part, "filename", None) or "file"
            uploads.append((int(index.group(1)), fname, bytes(raw)))
        # A message's own `attachments`; an interaction callback nests the message in `data`.
        listed = payload.get("attachments") or (payload.get("data") or {}).get("attachments")
        described = {str(a.get("id")): a for a in listed or []}
        files: list[dict[str, Any]] = []
        for index, default_name, raw in uploads:
            meta = described.get(str(index), {})
            fname = str(meta.get("filename") or default_name)
            aid = self._snowflake()
            self.attachment_bytes[aid] = raw
            url = f"http://{self.host}:{self.port}/attachments/{aid}/{fname}"
            entry: dict[str, Any] = {"id": str(aid), "filename": fname, "size": len(raw),
                                     "url": url, "proxy_url": url}
            if raw[:8] == PNG_MAGIC and len(raw) >= 24:
                entry["content_type"] = "image/png"
                entry["width"] = int.from_bytes(raw[16:20], "big")
                entry["height"] = int.from_bytes(raw[20:24], "big")
            if meta.get("description"):
                entry["description"] = meta["description"]
            files.append(entry)
        return payload, files

    @staticmethod
    def shown_attachments(data: dict[str, Any]) -> list[dict[str, Any]]:
        """The attachments a person sees on a message: all of a classic message's; of a V2
        message only those a component shows (an ``attachment://`` reference): Discord shows
        nothing else of it."""
        attachments = list(data.get("attachments") or [])
        if not int(data.get("flags") or 0) & validate.FLAG_COMPONENTS_V2:
            return attachments
        shown = {str(m.get("attachment_id") or "") for m, _ in
                 validate.media_references(data.get("components"))}
        names = {str(m.get("reference") or m.get("url") or "").removeprefix("attachment://")
                 for m, _ in validate.media_references(data.get("components"))}
        return [a for a in attachments if str(a["id"]) in shown or a["filename"] in names]

    def _link_attachments(self, data: dict[str, Any]) -> None:
        """Resolve `attachment://name` in embeds to the message's attachment of that name, as
        Discord does; a reference to a file the message does not carry is recorded as an error."""
        by_name = {a["filename"]: a for a in data.get("attachments") or []}
        for embed in data.get("embeds") or []:
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                if not isinstance(media, dict):
                    continue
                url = str(media.get("url") or "")
                ref = url if url.startswith("attachment://") else str(media.get("reference") or "")
                if not ref:
                    continue
                attached = by_name.get(ref.removeprefix("attachment://"))
                if attached is None:
                    self.errors.append(f"embed {key} refers to {ref}, which the message lacks")
                    embed.pop(key)
                    continue
                media.update(url=attached["url"], proxy_url=attached["proxy_url"],
                             reference=ref)
                for dim in ("width", "height"):
                    if dim in attached:
                        media[dim] = attached[dim]
        for media, _ in validate.media_references(data.get("components")):
            url = str(media.get("url") or "")
            ref = url if url.startswith("attachment://") else str(media.get("reference") or "")
            if not ref.startswith("attachment://"):
                continue
            attached = by_name.get(ref.removeprefix("attachment://"))
            if attached is None:
                self.errors.append(f"a component refers to {ref}, which the message lacks")
                continue
            media.update(url=attached["url"], proxy_url=attached["proxy_url"], reference=ref,
                         content_type=attached.get("content_type"),
                         attachment_id=str(attached["id"]))
            for dim in ("width", "height"):
                if dim in attached:
                    media[dim] = attached[dim]

    # ------------------------------------------------------------------ application emoji

    def _check_app(self, p: dict[str, str]) -> None:
        if int(p["app"]) != self.application_id:
            raise _HTTPError(403, 50001, "Missing Access")

    async def _h_emojis_list(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        self._check_app(p)
        return _json({"items": list(self.application_emojis.values())})

    async def _h_emoji_get(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        self._check_app(p)
        emoji = self.application_emojis.get(int(p["eid"]))
        if emoji is None:
            raise _HTTPError(404, 10014, "Unknown Emoji")
        return _json(emoji)

    async def _h_emoji_create(self, request: web.Request, p: dict[str, str]) -> web.Response:
        """Like Discord: a name of 2-32 letters, digits or underscores, unique in the
        application; a PNG, JPEG or GIF data URI of at most 256 KiB; at most 2,000 emoji."""
        self._check_auth(request)
        self._check_app(p)
        body, _ = await self._body(request)
        emojis: dict[int, dict[str, Any]] = self.application_emojis
        name = str(body.get("name") or "")
        if not re.fullmatch(r"[A-Za-z0-9_]{2,32}", name):
            raise _HTTPError(400, 50035, "Invalid Form Body: name")
        if any(e["name"] == name for e in emojis.values()):
            raise _HTTPError(400, 50035, "Invalid Form Body: APPLICATION_EMOJI_NAME_ALREADY_TAKEN")
        if len(emojis) >= MAX_EMOJI:
            raise _HTTPError(400, 30018, "Maximum number of emojis reached")
        image = re.fullmatch(r"data:image/(png|jpeg|gif);base64,(.+)",
                             str(body.get("image") or ""), re.DOTALL)
        if image is None:
            raise _HTTPError(400, 50035, "Invalid Form Body: image")
        try:
            raw = base64.b64decode(image.group(2), validate=True)
        except ValueError:
            raise _HTTPError(400, 50035, "Invalid Form Body: image") from None
        if len(raw) > MAX_EMOJI_BYTES:
            raise _HTTPError(400, 50045, "File cannot be larger than 256 kb")
        eid = self._snowflake()
        emoji = {"id": str(eid), "name": name, "roles": [],
                 "user": self.bot_user.payload(),
                 "require_colons": True, "managed": False, "animated": image.group(1) == "gif",
                 "available": True}
        emojis[eid] = emoji
        self.emoji_images[eid] = raw
        return _json(emoji, status=201)

    async def _h_emoji_delete(self, request: web.Request, p: dict[str, str]) -> web.Response:
        self._check_auth(request)
        self._check_app(p)
        if self.application_emojis.pop(int(p["eid"]), None) is None:
            raise _HTTPError(404, 10014, "Unknown Emoji")
        self.emoji_images.pop(int(p["eid"]), None)
        return web.Response(status=204)
