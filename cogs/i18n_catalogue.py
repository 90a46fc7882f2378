"""Keep the translation catalogues in step with the code.

    python -m cogs.i18n_catalogue            # re-extract, then update messages.pot and every .po
    python -m cogs.i18n_catalogue --check    # exit 1 when a catalogue is out of date (CI)

Messages come from two places: the calls to ``_``/``ngettext``/``pgettext``/``N_`` in the files
``babel.cfg`` maps (Babel's Python extractor), and the descriptions and choice names of every
slash command, read from the cogs' command trees (context ``slash command``: the
:class:`cogs.translator.CatalogueTranslator` looks them up there). New messages arrive in the
``.po`` files untranslated (never guessed: no fuzzy matching), obsolete ones are dropped. Files
are written sorted and without line numbers, so moving code does not touch them.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

from cogs.i18n import COMMAND_CONTEXT, DOMAIN, LANGUAGES, LOCALES, catalogue_path

__all__ = ["COMMAND_CONTEXT", "command_strings", "extract", "main", "render", "stale"]

ROOT = LOCALES.parent.parent
MAPPING = ROOT / "babel.cfg"
TEMPLATE = LOCALES / f"{DOMAIN}.pot"

PROJECT = "tienlen-bot"
HEADER = ("# Messages of tienlen-bot. Updated by `make catalogues` "
          "(python -m cogs.i18n_catalogue);\n"
          "# translations are written by hand. See docs/I18N.md.")
KEYWORDS = {**DEFAULT_KEYWORDS, "NP_": ((1, "c"), 2)}  # gettext's, and NP_(context, message)
_UNSET = "…"  # discord.py's description of an undescribed option


def _cog_classes() -> list[type]:
    from discord.ext import commands

    from bot.app import EXTENSIONS

    for name in EXTENSIONS:
        importlib.import_module(name)
    found: list[type] = []
    todo: list[type] = [commands.Cog]
    while todo:
        sub: type
        for sub in todo.pop().__subclasses__():
            found.append(sub)
            todo.append(sub)
    return sorted((c for c in found if c.__module__.startswith("cogs.")),
                  key=lambda c: (c.__module__, c.__qualname__))


def command_strings() -> Iterator[tuple[str, str]]:
    """(text, where) for every description and choice name of the cogs' slash commands.

    Names of commands and options are not here: they stay as they are in every language."""
    from discord import app_commands

    for cog in _cog_classes():
        where = f"{cog.__module__.replace('.', '/')}.py"
        for top in [*getattr(cog, "__cog_app_commands__", []),
                    *getattr(cog, "attached_commands", ())]:  # added to another cog's group
            commands = [top]
            if isinstance(top, app_commands.Group):
                commands += list(top.walk_commands())
            for command in commands:
                if command.description and command.description != _UNSET:
                    yield command.description, where
                if isinstance(command, app_commands.Group):
                    continue
                for param in command.parameters:
                    if param.description and param.description != _UNSET:
                        yield param.description, where
                    for choice in param.choices:
                        yield choice.name, where


def extract() -> Catalog:
    """A template catalogue of every message the code has now."""
    catalog = Catalog(project=PROJECT, domain=DOMAIN, fuzzy=False, header_comment=HEADER)
    with MAPPING.open(encoding="utf-8") as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)  # type: ignore[no-untyped-call]
    mapped_roots = {pattern.split("/", 1)[0] for pattern, _ in method_map}

    def only_mapped(path: str) -> bool:
        rel = Path(os.path.relpath(path, ROOT)).parts
        if any(part.startswith((".", "_")) and part != "." for part in rel[-1:]):
            return False  # .venv, __pycache__ (Babel's own filter does the same)
        return not rel or rel == (".",) or rel[0] in mapped_roots

    for filename, lineno, message, comments, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS,
        comment_tags=("TRANSLATORS:",), strip_comment_tags=True, directory_filter=only_mapped,
    ):
        catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                    context=context)
    for text, where in command_strings():
        catalog.add(text, None, [(where, 0)], context=COMMAND_CONTEXT)
    return catalog


def render(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, ignore_obsolete=True,
             include_lineno=False)
    return out.getvalue()


def _read(path: Path, lang: str | None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=lang, domain=DOMAIN)


def _updated(template: Catalog) -> dict[Path, bytes]:
    """The new text of the template and of every language's catalogue."""
    files: dict[Path, bytes] = {}
    if TEMPLATE.exists():  # keep the old header dates: only messages make a change
        template.creation_date = _read(TEMPLATE, None).creation_date
    files[TEMPLATE] = render(template)
    for lang in LANGUAGES:
        path = catalogue_path(lang)
        if path.exists():
            catalog = _read(path, lang)
        else:
            catalog = Catalog(locale=lang, domain=DOMAIN, project=PROJECT, fuzzy=False,
                              header_comment=HEADER)
        catalog.update(template, no_fuzzy_matching=True, update_creation_date=False)
        files[path] = render(catalog)
    return files


def stale() -> list[Path]:
    """The catalogue files whose messages differ from what the code has now."""
    out = []
    for path, text in _updated(extract()).items():
        if not path.exists() or _keys(path.read_bytes()) != _keys(text):
            out.append(path)
    return out


def _keys(text: bytes) -> set[tuple[object, str | None]]:
    catalog = read_po(io.BytesIO(text))
    return {(m.id, m.context) for m in catalog if m.id}


def _show(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m cogs.i18n_catalogue",
        description="Re-extract the messages of the code and update cogs/locales (messages.pot "
                    "and the en and vi messages.po).")
    parser.add_argument("--check", action="store_true",
                        help="change nothing; exit 1 and name the files that are out of date")
    args = parser.parse_args(argv)
    if args.check:
        old = stale()
        for path in old:
            print(f"out of date: {_show(path)} (run `make catalogues`)", file=sys.stderr)
        return 1 if old else 0
    for path, text in _updated(extract()).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_bytes() != text:
            path.write_bytes(text)
            print(f"updated {_show(path)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
