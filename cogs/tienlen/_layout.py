"""Discord's message layout (Components V2) for the board and the hand: one container with an
accent colour holding the text, the picture (its description is the alt text) and the buttons.

A V2 message has no content or embeds, at most 40 components counted nested and 4,000
characters over all its text; its flag can never be removed. Boards and hands drawn before the
layout changed (classic messages, content and embeds) are replaced by a new message, never edited
into the new layout: `LAYOUT_SINCE` keeps, in the store, when this layout was first used, and a
board posted before it is posted again.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

import discord

LAYOUT_SINCE = "layout_v2_since"
"""The store's bot metadata key: seconds since the epoch when the V2 layout was first used."""

MAX_COMPONENTS = 40
MAX_TEXT = 4000


class SentLayout(discord.ui.LayoutView):
    """A layout that is only sent (see `SentView`): every button in it is a DynamicItem,
    dispatched from its custom id; nothing listens to this object and its items do not point
    back at it."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    def add_item(self, item: discord.ui.Item[Any]) -> SentLayout:
        super().add_item(item)
        _unlink(item)
        return self


def _unlink(item: discord.ui.Item[Any]) -> None:
    item._update_view(None)  # the only back reference (discord.py's Item.view)
    for child in getattr(item, "children", ()):
        _unlink(child)


def picture(filename: str, alt: str) -> discord.ui.MediaGallery[Any]:
    """The one place a picture joins a message: a gallery showing the uploaded (or kept)
    attachment ``filename``, described by ``alt`` for screen readers (Discord: 1,024 characters
    at most)."""
    return discord.ui.MediaGallery(
        discord.MediaGalleryItem(f"attachment://{filename}", description=alt[:1024] or None))


def rows(items: Iterable[discord.ui.Item[Any]], per_row: int = 5
         ) -> list[discord.ui.ActionRow[Any]]:
    """Buttons in action rows of ``per_row``."""
    out: list[discord.ui.ActionRow[Any]] = []
    for item in items:
        item.row = None
        if not out or len(out[-1].children) >= per_row:
            out.append(discord.ui.ActionRow())
        out[-1].add_item(item)
    return out


def message(colour: discord.Colour, text: str, *, gallery: discord.ui.MediaGallery[Any] | None
            = None, text_after: str = "", controls: Sequence[discord.ui.Item[Any]] = ()
            ) -> SentLayout:
    """One container: the text, the picture, more text, a separator and the controls."""
    container: discord.ui.Container[Any] = discord.ui.Container(accent_colour=colour)
    if text:
        container.add_item(discord.ui.TextDisplay(text[:MAX_TEXT]))
    if gallery is not None:
        container.add_item(gallery)
    if text_after:
        container.add_item(discord.ui.TextDisplay(text_after[:MAX_TEXT]))
    if controls:
        container.add_item(discord.ui.Separator(visible=False,
                                                spacing=discord.SeparatorSpacing.small))
        for control in controls:
            container.add_item(control)
    layout = SentLayout()
    layout.add_item(container)
    return layout


def is_v2(message: discord.Message | None) -> bool:
    """Whether ``message`` uses the V2 layout (its flag can never be removed)."""
    return message is not None and bool(message.flags.components_v2)


async def layout_since(store: Any, now: float) -> tuple[float, bool]:
    """When this bot first drew boards in the V2 layout (kept in the store's bot metadata, set
    at the first start with it, ``now`` by the table service's clock, the clock boards' posting
    times are kept by): a board posted before is a classic message. Also whether this is that
    first start: every hand kept in the store was then drawn classic."""
    saved = await store.get_meta(LAYOUT_SINCE)
    if saved is not None:
        try:
            return float(saved), False
        except ValueError:
            pass
    await store.set_meta(LAYOUT_SINCE, repr(now))
    return now, True


def posted_before(posted: datetime | None, since: float | None) -> bool:
    """Whether a board posted at ``posted`` predates the V2 layout (so it is replaced)."""
    return since is not None and posted is not None and posted.timestamp() < since
