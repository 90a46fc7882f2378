"""Transcripts of whole games, in English and in Vietnamese: every board and every hand the bot
sent (each post, edit and interaction answer, read from SimCord's record of the bot's requests)
is checked as a player would read it: in the V2 layout, no fact said twice (whose turn, the play
to beat), at most 6 text lines on a board and 4 on a hand while pictures are on, and in a
Vietnamese game no English (names and card symbols aside)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest

from tests.support import layout

from .test_languages import (  # noqa: F401  (fixtures)
    VI_LOCALE,
    Seen,
    _people,
    a_whole_game,
    assert_english,
    assert_vietnamese,
    english_fragments,
    locales,
)

BOARD_TITLE = re.compile(r"Tiến Lên — (?:table|bàn) #\d+")
HAND_HEADER = re.compile(r"^\*\*(?:Your hand|Bài của bạn)\*\*")
NAME = r"(?:<@\d+>|Computer \d+ \([^)]*\)|Máy \d+ \([^)]*\))"
TURN = {"en": re.compile(rf"^(?:{NAME} to (?:play|lead|give back cards)|🟢 \*\*Your turn\*\*)"),
        "vi": re.compile(rf"^(?:Đến lượt {NAME}|{NAME} đang trả bài|🟢 \*\*Đến lượt bạn\*\*)")}
TO_BEAT = {"en": "To beat:", "vi": "Cần chặn:"}


@dataclass
class Drawn:
    """One board or hand as the bot sent it."""

    kind: str  # "board" | "hand"
    lines: list[str]
    pictured: bool
    alt: list[str]

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def drawn(world: Any) -> list[Drawn]:
    """Every board and hand message body the bot sent, in order."""
    out: list[Drawn] = []
    for request in world.env.http_requests:
        body = request.json
        if not isinstance(body, dict):
            continue
        if "type" in body and isinstance(body.get("data"), dict):
            body = body["data"]  # an interaction answer
        if not int(body.get("flags") or 0) & layout.V2_FLAG:
            continue
        assert not body.get("content") and not body.get("embeds"), body  # V2: neither
        lines = layout.lines(body)
        if not lines:
            continue
        kind = ("board" if BOARD_TITLE.search(lines[0])
                else "hand" if HAND_HEADER.match(lines[0]) else "")
        if kind:
            components = list(layout.walk(body.get("components")))
            assert len(components) <= 40 and len(layout.text(body)) <= 4000
            out.append(Drawn(kind, lines, any(c.get("type") == 12 for c in components),
                             layout.alt_texts(body)))
    return out


def check(world: Any, lang: str) -> list[Drawn]:
    seen = drawn(world)
    boards = [d for d in seen if d.kind == "board"]
    hands = [d for d in seen if d.kind == "hand"]
    assert len(boards) >= 10 and len(hands) >= 20, (len(boards), len(hands))
    in_play = [d for d in seen if any(TURN[lang].search(line) for line in d.lines)]
    assert len(in_play) >= 20
    for d in in_play:
        turn = [line for line in d.lines if TURN[lang].search(line)]
        assert len(turn) == 1, d.text  # whose turn: once
        assert sum(line.startswith(TO_BEAT[lang]) for line in d.lines) <= 1, d.text
        limit = 6 if d.kind == "board" else 4
        if d.pictured:
            assert len(d.lines) <= limit, d.text
            if d.kind == "board":  # the seats: the picture's, described in its alt text
                assert d.alt and "<@" in d.alt[0] and not re.search(r"^\d\. <@", d.text, re.M)
    assert any(d.pictured for d in in_play if d.kind == "board")
    assert any(d.pictured for d in in_play if d.kind == "hand")
    return seen


@pytest.mark.no_cover  # a whole game: its lines are measured by the other games
async def test_an_english_game_reads_one_fact_a_line(
        world: Any, locales: dict[int, str]) -> None:  # noqa: F811
    ps = _people(world, 2)
    live = await a_whole_game(world, Seen(), world.channel, ps)
    assert live.language == "en"
    seen = check(world, "en")
    assert_english([d.text for d in seen] + [a for d in seen for a in d.alt])


@pytest.mark.no_cover  # a whole game: its lines are measured by the other games
async def test_a_vietnamese_game_reads_one_fact_a_line_in_vietnamese(
        world: Any, locales: dict[int, str], english_fragments: list[str]) -> None:  # noqa: F811
    guild = world.env.create_guild(preferred_locale="vi")
    channel = guild.create_text_channel("bai")
    world.guild, world.channel = guild, channel
    ps = [guild.add_member(world.env.create_user(f"v{i}")) for i in range(2)]
    for p in ps:
        locales[p.id] = VI_LOCALE
    live = await a_whole_game(world, Seen(), channel, ps)
    assert live.language == "vi"
    seen = check(world, "vi")
    texts = [d.text for d in seen] + [a for d in seen for a in d.alt]
    assert_vietnamese(texts, english_fragments)
    english = {"turn", "play", "plays", "lead", "beat", "beats", "pass", "passed", "card",
               "cards", "ends", "hand", "your", "table", "stake", "rules", "single", "pair",
               "sequence", "chop", "recent", "reactions", "computer", "away", "out"}
    found = {w.lower() for t in texts for w in re.findall(r"[A-Za-z]+", re.sub(r"<[^>]*>", "", t))}
    assert not found & english, found & english
