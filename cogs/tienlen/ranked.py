"""Ranked and casual tables (issue #25, docs/RATING.md): `/tienlen start ranked:on|off` and
`/tienlen settings ranked:on|off`. A ranked table's games move its people's ratings; a casual
table's change no rating (chips are won and lost the same). Left out, a new table follows the
server's default, itself ranked until an admin says otherwise. The choice is made when the table
opens and holds for every game it deals."""

from __future__ import annotations

from typing import Literal

from cogs.i18n import Words
from data import Store

#: the bot's default when a server has set none
DEFAULT_RANKED = True

OnOff = Literal["on", "off"]


async def wanted(store: Store, guild_id: int, choice: OnOff | None) -> bool:
    """Whether a table opened now is ranked: the opener's choice, else the server's default."""
    if choice is not None:
        return choice == "on"
    default = await store.get_ranked_default(guild_id)
    return DEFAULT_RANKED if default is None else default


async def apply(store: Store, guild_id: int, choice: OnOff | None) -> bool:
    """Store the server's default when given; the default now in force."""
    if choice is not None:
        return await store.set_ranked_default(guild_id, choice == "on")
    default = await store.get_ranked_default(guild_id)
    return DEFAULT_RANKED if default is None else default


def mode(w: Words, ranked: bool) -> str:
    """The word the lobby and board show: "Ranked" or "Casual"."""
    return w.pgettext("table mode", "Ranked") if ranked else w.pgettext("table mode", "Casual")


def describe(w: Words, ranked: bool) -> str:
    """The line of `/tienlen settings` about new tables' mode."""
    return w._("New tables: **{mode}**.", mode=mode(w, ranked))
