"""The rules of a table as a player reads them: the preset's name and only what the table changes
from it (`/tienlen rules` and the board's **Rules**), with a button that shows every option.

The button carries the rule set itself in its custom id (one character per option), so it shows
the same rules after a restart, after the table closed, and for a preset that is no table's; a
custom id that does not decode to a valid rule set is refused like any unknown button."""

from __future__ import annotations

import itertools
import re
import string
from typing import Any, get_args

import discord

from cogs import glossary, guard
from cogs.i18n import N_, Words
from engine import Rules, Suit

__all__ = ["EveryOptionButton", "closest_preset", "decode", "encode", "rules_message"]

GREEN = discord.Colour.green()
_DIGITS = string.digits + string.ascii_lowercase  # 36 values a character
_ORDERS = tuple(itertools.permutations(Suit))  # the 24 suit orders
EVERY_OPTION = N_("Every option")


def _choices(name: str) -> tuple[Any, ...]:
    """The values of an option, in a fixed order (a character of the custom id is an index)."""
    if name == "suit_order":
        return _ORDERS
    annotation = Rules.model_fields[name].annotation
    if annotation is bool:
        return (False, True)
    return tuple(get_args(annotation))


_FIELDS = tuple(Rules.model_fields)
_CHOICES = {name: _choices(name) for name in _FIELDS}
assert all(0 < len(c) <= len(_DIGITS) for c in _CHOICES.values())


def encode(rules: Rules) -> str:
    """The rule set in one character per option."""
    return "".join(_DIGITS[_CHOICES[name].index(getattr(rules, name))] for name in _FIELDS)


def decode(text: str) -> Rules | None:
    """The rule set of :func:`encode`'s text, or ``None`` for anything else."""
    if len(text) != len(_FIELDS):
        return None
    values: dict[str, Any] = {}
    for name, char in zip(_FIELDS, text, strict=True):
        index = _DIGITS.find(char)
        if not 0 <= index < len(_CHOICES[name]):
            return None
        values[name] = _CHOICES[name][index]
    try:
        return Rules(**values)
    except ValueError:
        return None


def _changes(rules: Rules, base: Rules) -> list[str]:
    return [name for name in _FIELDS if getattr(rules, name) != getattr(base, name)]


def closest_preset(rules: Rules) -> str:
    """The preset the rules are (or, for a custom rule set, the one they change least; the
    presets' own order breaks ties, so the default comes first)."""
    return min(Rules.preset_names(),
               key=lambda name: len(_changes(rules, Rules.preset(name))))


def _add_options(w: Words, embed: discord.Embed, rules: Rules, names: list[str]) -> None:
    for name in names:
        embed.add_field(name=glossary.option_label(w, name),
                        value=glossary.option_value(w, name, getattr(rules, name), rules),
                        inline=True)


def changes_embed(w: Words, rules: Rules, title: str) -> discord.Embed:
    """The preset's name and what the rules change from it. A preset shown as it is says how it
    differs from the default preset."""
    preset = closest_preset(rules)
    changed = _changes(rules, Rules.preset(preset))
    name = glossary.preset(w, preset)
    default = Rules.preset_names()[0]
    if changed:
        text = w.ngettext("Preset **{preset}**, with {n} change:",
                          "Preset **{preset}**, with {n} changes:", len(changed), preset=name)
        shown = changed
    elif preset != default:
        shown = _changes(rules, Rules.preset(default))
        text = w._("Preset **{preset}**, unchanged. How it differs from **{default}**:",
                   preset=name, default=glossary.preset(w, default))
    else:
        shown = []
        text = w._("Preset **{preset}** (the default), unchanged.", preset=name)
    embed = discord.Embed(title=title, description=text, colour=GREEN)
    _add_options(w, embed, rules, shown)
    return embed


def every_option_embed(w: Words, rules: Rules, title: str) -> discord.Embed:
    """Every option of the rules, in the model's order (generated from the model, so it never
    drifts from the engine)."""
    preset = closest_preset(rules)
    embed = discord.Embed(title=title, colour=GREEN,
                          description=w._("Every option (preset **{preset}**):",
                                          preset=glossary.preset(w, preset)))
    _add_options(w, embed, rules, list(_FIELDS))
    return embed


class _SentView(discord.ui.View):
    """Only sent: the dynamic item answers its button (after a restart too)."""

    def __init__(self) -> None:
        super().__init__(timeout=1.0)


def rules_message(w: Words, rules: Rules, title: str, table_id: int | None = None
                  ) -> dict[str, Any]:
    """The private answer of `/tienlen rules` and of the board's **Rules** (``table_id``: the
    table whose rules these are, named again by the button's answer)."""
    view = _SentView()
    view.add_item(EveryOptionButton(rules, table_id=table_id, label=w.marked(EVERY_OPTION)))
    return {"embed": changes_embed(w, rules, title), "view": view}


class EveryOptionButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=r"tl:rules:(?P<rules>[0-9a-z]{1,40})(?::(?P<table>[0-9]{1,19}))?"):
    """**Every option** under a rules answer: shows every option of the rules it carries."""

    def __init__(self, rules: Rules | None, *, table_id: int | None = None,
                 label: str = "", raw: str = "") -> None:
        code = encode(rules) if rules is not None else raw
        custom_id = f"tl:rules:{code}" + (f":{table_id}" if table_id is not None else "")
        super().__init__(discord.ui.Button(label=label or "…", custom_id=custom_id,
                                           style=discord.ButtonStyle.secondary))
        self.rules = rules
        self.table = table_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]
                             ) -> EveryOptionButton:
        table = match["table"]
        number = int(table) if table and int(table) <= guard.SNOWFLAKE_MAX else None
        return cls(decode(match["rules"]), table_id=number, raw=match["rules"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard.guarded(interaction, "rules: every option"):
            w = guard.reader(interaction)
            if self.rules is None:
                raise guard.Refused(w.marked(guard.UNKNOWN_BUTTON))
            title = (w._("Rules of table #{table}", table=self.table) if self.table is not None
                     else w._("Rules: {preset}",
                              preset=glossary.preset(w, closest_preset(self.rules))))
            await interaction.response.edit_message(
                embed=every_option_embed(w, self.rules, title), view=None)
