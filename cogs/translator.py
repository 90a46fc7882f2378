"""Vietnamese descriptions and choice names for the slash commands (discord.py's Translator).

discord.py asks the translator for every string of every command when it builds the payload it
syncs; Discord then shows each person the strings of their own language. Descriptions and choice
names come from the catalogue (context ``slash command``); command and option *names* are never
translated, so there is one spelling everyone can type and share.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from cogs.i18n import COMMAND_CONTEXT, DEFAULT, person_language, words

__all__ = ["CatalogueTranslator"]

_L = app_commands.TranslationContextLocation
TRANSLATED = frozenset({_L.command_description, _L.group_description, _L.parameter_description,
                        _L.choice_name})


class CatalogueTranslator(app_commands.Translator):
    """Translates command descriptions and choice names into every language we have."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext[Any, Any]) -> str | None:
        if context.location not in TRANSLATED:
            return None
        lang = person_language(locale)
        if lang == DEFAULT:
            return None  # English is the language of the code
        w = words(lang)
        if not w.has(string.message, COMMAND_CONTEXT):
            return None
        return w.pgettext(COMMAND_CONTEXT, string.message)
