"""Words in the player's language: gettext catalogues (English and Vietnamese) read with Babel.

Discord-free, so the cogs and the terminal table share it. Every sentence a player sees is a
message id in ``cogs/locales/messages.pot``; ``cogs/locales/<lang>/LC_MESSAGES/messages.po``
holds its translation. The ``.po`` files are compiled in memory at first use (Babel's
``read_po``/``write_mo``), so a fresh checkout needs no build step.

Usage::

    w = words("vi")
    w._("Table #{table} is open.", table=live.id)
    w.ngettext("{n} card", "{n} cards", count)          # {n} is the count, formatted
    w.pgettext("button", "Pass")
    w.num(1234)                                          # "1,234" / "1.234"

Placeholders are ``str.format`` names (``{table}``); a translation must use the same names.
Numbers are formatted by the caller with :meth:`Words.num` (the count of ``ngettext`` is
formatted for you), so a table id stays ``#1234`` while chips read ``1.234`` in Vietnamese.

Which language: a reply only one person sees follows that person's Discord language
(:func:`person_language`); public messages follow the table's language (:func:`table_language`).
"""

from __future__ import annotations

import functools
import gettext
import io
from pathlib import Path
from typing import Final, Literal, get_args

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent

__all__ = [
    "COMMAND_CONTEXT",
    "DEFAULT",
    "LANGUAGES",
    "LOCALES",
    "NP_",
    "N_",
    "Lang",
    "Words",
    "catalogue_path",
    "person_language",
    "table_language",
    "words",
]

Lang = Literal["en", "vi"]
LANGUAGES: Final[tuple[Lang, ...]] = get_args(Lang)
DEFAULT: Final[Lang] = "en"
DOMAIN: Final = "messages"
COMMAND_CONTEXT: Final = "slash command"  # descriptions and choice names of slash commands
LOCALES: Final = Path(__file__).resolve().parent / "locales"


def N_(message: str) -> str:
    """Mark a message for the catalogue where it is defined; translate it where it is shown."""
    return message


def NP_(context: str, message: str) -> tuple[str, str]:
    """Like :func:`N_`, with a context: ``w.pgettext(*NP_("button", "Pass"))`` where shown."""
    return context, message


def catalogue_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def person_language(locale: object) -> Lang:
    """A person's language from their Discord locale (``vi`` → Vietnamese, anything else English).

    Accepts a ``discord.Locale``, its value (``"vi"``, ``"en-US"``) or None."""
    value = str(getattr(locale, "value", locale) or "").lower()
    return "vi" if value == "vi" or value.startswith("vi-") else "en"


def table_language(setting: str | None, guild_locale: object, opener: Lang) -> Lang:
    """The language of a table's public messages.

    The server's setting (``"vi"``/``"en"``) wins; with ``"auto"`` (or no setting) a server whose
    own locale is Vietnamese gets Vietnamese; otherwise the language of the person who opened the
    table."""
    if setting == "vi":
        return "vi"
    if setting == "en":
        return "en"
    if guild_locale is not None and person_language(guild_locale) == "vi":
        return "vi"
    return opener


class Words:
    """The messages and number formats of one language."""

    def __init__(self, lang: Lang, translations: gettext.NullTranslations,
                 translated: frozenset[tuple[str | None, str]] = frozenset()) -> None:
        self.lang: Lang = lang
        self._t = translations
        self._translated = translated

    def __repr__(self) -> str:
        return f"Words({self.lang!r})"

    def _(self, message: str, /, **values: object) -> str:
        """The translation of ``message``, with ``{name}`` placeholders filled from ``values``."""
        text = self._t.gettext(message)
        return text.format(**values) if values else text

    def marked(self, message: str, /, **values: object) -> str:
        """Like :meth:`_`, for a message marked with :func:`N_` where it is defined (a variable:
        the extractor reads the literal at the ``N_`` call instead)."""
        return self._(message, **values)

    def ngettext(self, singular: str, plural: str, n: int, /, **values: object) -> str:
        """The form for ``n`` (``{n}`` is ``n`` formatted for the language unless given)."""
        text = self._t.ngettext(singular, plural, n)
        values.setdefault("n", self.num(n))
        return text.format(**values)

    def pgettext(self, context: str, message: str, /, **values: object) -> str:
        """Like :meth:`_`, for a message whose meaning depends on ``context`` (e.g. a button)."""
        text = self._t.pgettext(context, message)
        return text.format(**values) if values else text

    def has(self, message: str, context: str | None = None) -> bool:
        """Whether the catalogue translates ``message`` (English, the source, has everything)."""
        return self.lang == DEFAULT or (context, message) in self._translated

    def num(self, value: int | float) -> str:
        """1,234 in English, 1.234 in Vietnamese."""
        return _decimal(value, self.lang)

    def signed(self, value: int) -> str:
        """A chip change: ``+1,234``, ``-50``, ``0``."""
        text = self.num(abs(value))
        return f"+{text}" if value > 0 else f"-{text}" if value < 0 else text

    def percent(self, value: float) -> str:
        """A rate between 0 and 1: ``46%``."""
        return format_percent(value, locale=self.lang)


@functools.lru_cache(maxsize=4096)
def _decimal(value: int | float, lang: str) -> str:
    """Babel's formatting takes ~70 µs; boards show the same few numbers again and again."""
    return format_decimal(value, locale=lang)


@functools.cache
def words(lang: str | None) -> Words:
    """The :class:`Words` of a language code (``"vi"`` or ``"en"``; anything else is English).

    The language's ``.po`` is compiled in memory the first time (a few milliseconds)."""
    code: Lang = "vi" if lang == "vi" else DEFAULT
    with catalogue_path(code).open("rb") as po:
        catalog = read_po(po, locale=code, domain=DOMAIN)
    mo = io.BytesIO()
    write_mo(mo, catalog)  # leaves out untranslated and fuzzy messages
    mo.seek(0)
    translated = frozenset(
        (m.context, m.id if isinstance(m.id, str) else m.id[0])
        for m in catalog
        if m.id and not m.fuzzy and all(m.string if isinstance(m.string, tuple) else [m.string])
    )
    return Words(code, gettext.GNUTranslations(mo), translated)
