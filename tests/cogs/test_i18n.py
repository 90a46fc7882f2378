"""The catalogues: complete, consistent with the code, and the words and numbers they give."""

from __future__ import annotations

import io
import string
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from cogs import i18n, i18n_catalogue
from cogs.i18n import catalogue_path, person_language, table_language, words


def _read(path: Path, lang: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=lang)


def _messages(catalog: Catalog) -> list[Message]:
    return [m for m in catalog if m.id]


def _keys(catalog: Catalog) -> set[tuple[object, str | None]]:
    return {(m.id, m.context) for m in _messages(catalog)}


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


@pytest.fixture(scope="module")
def extracted() -> Catalog:
    return i18n_catalogue.extract()


def test_catalogues_are_up_to_date_with_the_code(extracted: Catalog) -> None:
    """Re-extract the messages of the code: the template and both languages list exactly them.
    (Fix: `make catalogues`, then translate the new Vietnamese messages.)"""
    assert len(_messages(extracted)) > 10
    code = _keys(extracted)
    template = _read(i18n_catalogue.TEMPLATE)
    assert _keys(template) == code, "messages.pot is out of date: run `make catalogues`"
    for lang in i18n.LANGUAGES:
        catalog = _read(catalogue_path(lang), lang)
        missing = code - _keys(catalog)
        extra = _keys(catalog) - code
        assert not missing and not extra, (lang, "run `make catalogues`", missing, extra)
    assert i18n_catalogue.stale() == []


def test_the_extractor_finds_calls_and_command_strings(extracted: Catalog) -> None:
    """The check above can fail: the extractor sees messages in the code and in the commands."""
    keys = _keys(extracted)
    assert ("Open a table in this channel", i18n.COMMAND_CONTEXT) in keys  # a slash command
    assert ("southern", i18n.COMMAND_CONTEXT) in keys  # a choice name
    assert not any(text == "…" for text, _ in keys)  # every option is described


def test_every_message_has_a_vietnamese_translation() -> None:
    catalog = _read(catalogue_path("vi"), "vi")
    untranslated = [m.id for m in _messages(catalog)
                    if not all(m.string if isinstance(m.string, tuple) else [m.string])]
    fuzzy = [m.id for m in _messages(catalog) if m.fuzzy]
    assert untranslated == [], "Vietnamese translations missing"
    assert fuzzy == [], "fuzzy (unchecked) Vietnamese translations"
    assert catalog.plural_forms == "nplurals=1; plural=0;"


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_translations_keep_the_placeholders(lang: str) -> None:
    """A translation names exactly the {placeholders} of the original (the plural's for
    plural messages), so formatting never fails nor drops a value."""
    bad = []
    for m in _messages(_read(catalogue_path(lang), lang)):
        original = m.id[-1] if isinstance(m.id, tuple) else m.id
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        for form in forms:
            if form and _fields(form) != _fields(original):
                bad.append((original, form))
    assert bad == []


def test_the_placeholder_check_can_fail() -> None:
    assert _fields("Table #{table} of {host}") == {"table", "host"}
    assert _fields("Bàn #{table}") != _fields("Table #{table} of {host}")
    assert _fields("{{literal}} braces") == set()


def test_the_vietnamese_header_and_plural_forms_are_read() -> None:
    w = words("vi")
    assert w.lang == "vi"
    assert w.has("Open a table in this channel", i18n.COMMAND_CONTEXT)
    assert not w.has("a message nobody wrote")
    assert words("en").has("a message nobody wrote")  # English is the source language


def test_words_fall_back_to_the_message_and_fill_placeholders() -> None:
    en, vi = words("en"), words("vi")
    assert en._("Table #{table} is open.", table=12) == "Table #12 is open."
    assert vi._("no such message {x}", x=1) == "no such message 1"  # never an error
    assert en.ngettext("{n} card", "{n} cards", 1) == "1 card"
    assert en.ngettext("{n} card", "{n} cards", 1234) == "1,234 cards"
    assert vi.pgettext(i18n.COMMAND_CONTEXT, "Open a table in this channel") == (
        "Mở một bàn ở kênh này")


def test_numbers_are_grouped_for_the_language() -> None:
    en, vi = words("en"), words("vi")
    assert en.num(1234) == "1,234"
    assert vi.num(1234) == "1.234"
    assert vi.num(1234567) == "1.234.567"
    assert en.signed(1500) == "+1,500"
    assert vi.signed(-1500) == "-1.500"
    assert en.signed(0) == "0"
    assert en.percent(0.5) == "50%"
    assert vi.percent(0.456) == "46%"


def test_unknown_languages_are_english() -> None:
    assert words(None).lang == "en"
    assert words("fr").lang == "en"
    assert words("vi") is words("vi")  # compiled once


@pytest.mark.parametrize(
    ("locale", "lang"),
    [("vi", "vi"), ("vi-VN", "vi"), ("en-US", "en"), ("en-GB", "en"), ("fr", "en"),
     (None, "en"), ("", "en"), ("VI", "vi"), ("video", "en")],
)
def test_a_persons_language_follows_their_discord_locale(locale: str | None, lang: str) -> None:
    assert person_language(locale) == lang


def test_a_discord_locale_object_is_understood() -> None:
    import discord

    assert person_language(discord.Locale.vietnamese) == "vi"
    assert person_language(discord.Locale.american_english) == "en"


@pytest.mark.parametrize(
    ("setting", "guild_locale", "opener", "lang"),
    [
        ("vi", "en-US", "en", "vi"),  # the server's setting wins
        ("en", "vi", "vi", "en"),
        ("auto", "vi", "en", "vi"),  # a Vietnamese server
        (None, "vi", "en", "vi"),
        ("auto", "en-US", "vi", "vi"),  # else the person who opened the table
        ("auto", "en-US", "en", "en"),
        (None, None, "vi", "vi"),
    ],
)
def test_the_table_language(setting: str | None, guild_locale: str | None, opener: str,
                            lang: str) -> None:
    assert table_language(setting, guild_locale, opener) == lang  # type: ignore[arg-type]


def test_the_catalogue_command_writes_files_and_checks(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """`python -m cogs.i18n_catalogue` builds fresh catalogues; `--check` reports stale ones."""
    monkeypatch.setattr(i18n_catalogue, "TEMPLATE", tmp_path / "messages.pot")
    monkeypatch.setattr(i18n_catalogue, "catalogue_path",
                        lambda lang: tmp_path / lang / "LC_MESSAGES" / "messages.po")
    assert i18n_catalogue.main(["--check"]) == 1  # nothing there yet
    assert i18n_catalogue.main([]) == 0
    assert i18n_catalogue.main(["--check"]) == 0
    vi = _read(tmp_path / "vi" / "LC_MESSAGES" / "messages.po", "vi")
    assert vi.plural_forms == "nplurals=1; plural=0;"
    untranslated = [not any(m.string) if isinstance(m.string, tuple) else not m.string
                    for m in _messages(vi)]
    assert all(untranslated)  # new messages arrive untranslated
    text = (tmp_path / "messages.pot").read_bytes()
    (tmp_path / "messages.pot").write_bytes(text.replace(b'msgid "Page number"',
                                                         b'msgid "Page numbr"'))
    assert i18n_catalogue.main(["--check"]) == 1


def test_catalogues_are_written_in_a_stable_form() -> None:
    """Re-rendering a catalogue changes nothing (sorted, no line numbers): merges stay small."""
    for path in (i18n_catalogue.TEMPLATE, catalogue_path("en"), catalogue_path("vi")):
        text = path.read_bytes()
        again = i18n_catalogue.render(read_po(io.BytesIO(text)))
        assert _no_version(again) == _no_version(text), path


def _no_version(text: bytes) -> list[bytes]:
    return [line for line in text.splitlines() if not line.startswith(b'"Generated-By:')]
