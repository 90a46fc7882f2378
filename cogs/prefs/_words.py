"""The words of `/tienlen prefs`."""

from __future__ import annotations

from cogs.i18n import Words
from data import HandPrefs


def summary(w: Words, prefs: HandPrefs, *, saved: bool) -> str:
    """The person's preferences, one per line (``saved``: they just changed them)."""
    on, off = w.pgettext("option", "on"), w.pgettext("option", "off")
    lines = [w._("**Saved.** Your preferences:") if saved else w._("Your preferences:"),
             w._("· Four-colour deck (♣ green, ♦ blue): {value}",
                 value=on if prefs.four_colour else off),
             w._("· Hand sorted: {value}", value=w._("by suit") if prefs.sort_by == "suit"
                 else w._("by rank")),
             w._("· Pictures of your hand: {value}", value=on if prefs.pictures else off),
             w._("They change only your own hand; the board looks the same for everyone.")]
    return "\n".join(lines)
