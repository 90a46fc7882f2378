"""Reading a message as a person sees it, classic or in Discord's V2 layout (Components V2).

A V2 message has no content and no embeds: its text is in text displays, its pictures in media
galleries (with their descriptions as alt text), its buttons in action rows, all nested in
containers. Tests read the board and the hands through these helpers, whatever the layout."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import discord

V2_FLAG = 1 << 15


def real(message: Any) -> Any:
    """SimCord's ResponseMessage wraps a discord.Message; use the real one."""
    return getattr(message, "message", message) if not isinstance(message, discord.Message) \
        and hasattr(message, "message") else message


def walk(components: Any) -> Iterator[Any]:
    """Every component, nested ones included, in order (discord.py objects or raw dicts)."""
    for component in components or ():
        yield component
        if isinstance(component, dict):
            yield from walk(component.get("components"))
            if isinstance(component.get("accessory"), dict):
                yield component["accessory"]
            continue
        yield from walk(getattr(component, "children", None))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield accessory


def is_v2(message: Any) -> bool:
    message = real(message)
    flags = message.get("flags", 0) if isinstance(message, dict) else message.flags.value
    return bool(int(flags or 0) & V2_FLAG)


def text(message: Any) -> str:
    """Everything the message says in words: its content and embeds (classic), or its text
    displays (V2), one block after the other."""
    message = real(message)
    if isinstance(message, dict):
        parts = [message.get("content") or ""]
        parts += [e.get("description") or "" for e in message.get("embeds") or ()]
        parts += [c.get("content", "") for c in walk(message.get("components"))
                  if c.get("type") == 10]
        return "\n".join(p for p in parts if p)
    parts = [message.content or ""]
    parts += [(e.title or "") + "\n" + (e.description or "") for e in message.embeds]
    parts += [c.content for c in walk(message.components)
              if isinstance(c, discord.TextDisplay)]
    return "\n".join(p for p in parts if p)


def alt_texts(message: Any) -> list[str]:
    """The descriptions (alt text) of the message's pictures in media galleries."""
    message = real(message)
    out: list[str] = []
    if isinstance(message, dict):
        for c in walk(message.get("components")):
            if c.get("type") == 12:
                out += [item.get("description") or "" for item in c.get("items", ())]
        return out
    for c in walk(message.components):
        if isinstance(c, discord.MediaGalleryComponent):
            out += [item.description or "" for item in c.items]
    return out


def lines(message: Any) -> list[str]:
    """The visible text lines (blank lines left out)."""
    return [line for line in text(message).splitlines() if line.strip()]


def text_of_view(view: Any) -> str:
    """The text of a layout about to be sent (a discord.py LayoutView)."""
    return "\n".join(item.content for item in view.walk_children()
                     if isinstance(item, discord.ui.TextDisplay))
