"""Whole games in Vietnamese and in English, and a mixed table, through slash commands and buttons.

SimCord sends every interaction with the locale ``en-US``; the `locales` fixture gives each
person their own Discord language (``interaction.locale``) and each server its own
(``guild_locale``, from the server's preferred locale), as Discord does. Everything a person sees
is collected (content, embed text, button labels, ephemeral or public) and checked for the other
language: no English message of the catalogue in Vietnamese text, no Vietnamese letter in English.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
import simcord
from babel.messages.pofile import read_po

from cogs.i18n import catalogue_path
from cogs.tables import LiveTable, TablePhase
from engine import Phase
from tests.support import layout

from .tablekit import _real, labels, lowest, only_table, said

VI_LOCALE, EN_LOCALE = "vi", "en-US"


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """user id -> Discord locale of that person's interactions (default en-US)."""
    chosen: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def base_payload(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = original(backend, **kwargs)
        payload["locale"] = chosen.get(kwargs["user_id"], EN_LOCALE)
        if kwargs.get("guild_id") is not None:
            payload["guild_locale"] = backend.get_guild(kwargs["guild_id"]).preferred_locale
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return chosen


# ------------------------------------------------------------------ what people see
def board(world: Any) -> Any:
    """The newest board in the channel, whatever its language."""
    for message in reversed([m for m in world.channel.history() if m.author.bot]):
        if layout.text(message).lstrip("#- ").startswith("Tiến Lên — "):
            return message
    raise AssertionError("no board message in the channel")


def message_texts(message: Any) -> list[str]:
    """Every piece of text of a message: content, embed title, text, fields, footer, labels."""
    message = _real(message)
    out = [said(message) or "", *layout.alt_texts(message)]
    for embed in message.embeds:
        out += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for f in embed.fields:
            out += [f.name, f.value]
    out += labels(message)
    return [t for t in out if t]


@dataclass
class Seen:
    """What each person saw privately, and what everyone saw publicly."""

    private: dict[int, list[str]] = field(default_factory=dict)
    public: list[str] = field(default_factory=list)

    def result(self, person: Any, result: Any) -> Any:
        for message in [result.response, *result.followups]:
            if message is None:
                continue
            if message.ephemeral:
                self.private.setdefault(person.id, []).extend(message_texts(message))
            else:
                self.public.extend(message_texts(message))
        return result

    def board(self, world: Any) -> None:
        self.public.extend(message_texts(board(world)))


def _literals(text: str) -> Iterator[str]:
    for literal, _, _, _ in string.Formatter().parse(text):
        yield literal


@pytest.fixture(scope="module")
def english_fragments() -> list[str]:
    """Pieces of English messages long enough to be unmistakable, that no Vietnamese message
    contains (a card, a name or "chip" reads the same in both)."""
    with catalogue_path("vi").open("rb") as po:
        vi = [m for m in read_po(po) if m.id]
    translations = " ".join(s for m in vi for s in (m.string if isinstance(m.string, tuple)
                                                    else (m.string,)))
    out = set()
    for m in vi:
        for msgid in (m.id if isinstance(m.id, tuple) else (m.id,)):
            for literal in _literals(msgid):
                piece = literal.strip(" .,:;!?()—·*#`'\"-")
                if re.search(r"[A-Za-z]{3,}", piece) and piece not in translations:
                    out.add(piece)
    return sorted(out, key=len, reverse=True)


def assert_vietnamese(texts: list[str], english: list[str]) -> None:
    assert texts
    for text in texts:
        for piece in english:
            assert piece not in text, f"English {piece!r} in Vietnamese text {text!r}"


def assert_english(texts: list[str]) -> None:
    assert texts
    for text in texts:
        letters = [ch for ch in text.replace("Tiến Lên", "") if ch.isalpha() and ord(ch) > 127]
        assert not letters, f"Vietnamese in English text {text!r}"


def has_vietnamese(text: str) -> bool:
    return any(unicodedata.name(ch, "").startswith("LATIN") and ord(ch) > 127
               for ch in text.replace("Tiến Lên", ""))


# ------------------------------------------------------------------ acting by button ids
def custom_id(message: Any, suffix: str) -> str:
    for child in layout.walk(_real(message).components):
        cid = getattr(child, "custom_id", None) or ""
        if cid.endswith(suffix) and not getattr(child, "disabled", False):
            return str(cid)
    raise AssertionError(f"no enabled button ending {suffix!r} in {labels(message)}")


def _enabled(message: Any, suffix: str) -> bool:
    try:
        custom_id(message, suffix)
    except AssertionError:
        return False
    return True


async def press(seen: Seen, person: Any, message: Any, suffix: str) -> Any:
    return seen.result(person, await person.click(message, custom_id=custom_id(message, suffix)))


async def open_hand(seen: Seen, world: Any, person: Any) -> Any:
    result = await press(seen, person, board(world), ":hand")
    assert result.ephemeral, result
    return result.response


async def play_cards(seen: Seen, person: Any, hand: Any, cards: Any) -> Any:
    message = hand
    for card in cards:
        message = seen.result(person, await person.click(message, label=str(card))).response
    return await press(seen, person, message, ":play")


async def take_turn(seen: Seen, world: Any, live: LiveTable, people: dict[int, Any],
                    step: int) -> None:
    game = live.game
    assert game is not None
    seat = game.actor
    assert seat is not None
    person = people[live.seats[seat].user_id]  # type: ignore[index]
    hand = await open_hand(seen, world, person)
    if game.phase is Phase.EXCHANGE:
        await play_cards(seen, person, hand, game.hands[seat][:game.pending_returns[seat]])
        return
    if step % 3 == 0:  # ask for a hint now and then, then clear what it selected
        hand = (await press(seen, person, hand, ":hint")).response
        if _enabled(hand, ":clear"):
            hand = (await press(seen, person, hand, ":clear")).response
    plays = game.legal_plays(seat)
    if game.table is not None and (not plays or step % 5 == 2):
        await press(seen, person, hand, ":pass")
    else:
        await play_cards(seen, person, hand, lowest(plays).cards)
    seen.board(world)


async def play_out(seen: Seen, world: Any, live: LiveTable, people: dict[int, Any]) -> None:
    for step in range(500):
        if live.phase is not TablePhase.PLAYING:
            return
        game = live.game
        assert game is not None
        actor = game.actor
        if actor is not None and live.seats[actor].user_id is None:
            await world.env.settle()  # computer players act on their own
            continue
        await take_turn(seen, world, live, people, step)
    raise AssertionError("the game did not finish")


async def out_of_turn_refusal(seen: Seen, world: Any, live: LiveTable,
                              people: dict[int, Any]) -> str:
    """A seated person whose turn it is not opens their hand (Play and Pass are disabled: a
    press would be refused) and asks for a hint: what they read."""
    game = live.game
    assert game is not None
    waiting = next(s for s in range(len(live.seats))
                   if s != game.current and live.seats[s].user_id is not None)
    person = people[live.seats[waiting].user_id]  # type: ignore[index]
    hand = await open_hand(seen, world, person)
    if _enabled(hand, ":hint"):
        hand = (await press(seen, person, hand, ":hint")).response
    return str(said(hand))


async def a_whole_game(world: Any, seen: Seen, channel: Any, ps: list[Any]) -> LiveTable:
    """Two people and two computer players: open, join, add computers, start, play out, look at
    the rules, the stats, the leaderboard and the daily chips."""
    host, guest = ps
    seen.result(host, await host.slash(channel, "tienlen start", stake=1000))
    live = only_table(world)
    seen.board(world)
    seen.result(guest, await guest.slash(channel, "tienlen hand"))  # refused: not seated
    await press(seen, guest, board(world), ":join")
    await press(seen, guest, board(world), ":join")  # refused: already seated
    for level in ("easy", "normal"):
        chooser = await press(seen, host, board(world), ":addai")
        await press(seen, host, chooser.response, f":{level}")
    seen.board(world)
    await press(seen, guest, board(world), ":start")  # refused: only the host
    await press(seen, host, board(world), ":start")
    seen.board(world)
    people = {p.id: p for p in ps}
    game = live.game
    assert game is not None
    if game.phase is Phase.PLAY and game.current is not None and any(
            s != game.current and live.seats[s].user_id is not None for s in range(4)):
        await out_of_turn_refusal(seen, world, live, people)
    await press(seen, host, board(world), ":rules")
    await play_out(seen, world, live, people)
    seen.board(world)
    for p in ps:
        seen.result(p, await p.slash(channel, "tienlen stats"))
        seen.result(p, await p.slash(channel, "daily"))
    seen.result(host, await host.slash(channel, "leaderboard"))
    seen.result(host, await host.slash(channel, "tienlen rules", preset="online"))
    for message in [m for m in channel.history() if m.author.bot]:
        seen.public.extend(message_texts(message))
    return live


def _people(world: Any, n: int) -> list[Any]:
    return [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n)]


@pytest.mark.no_cover  # a whole game: its lines are measured by the other games
async def test_a_whole_game_in_vietnamese_on_a_vietnamese_server(
        world: Any, locales: dict[int, str], english_fragments: list[str]) -> None:
    guild = world.env.create_guild(preferred_locale="vi")
    channel = guild.create_text_channel("bai")
    world.guild = guild
    world.channel = channel
    ps = [guild.add_member(world.env.create_user(f"v{i}")) for i in range(2)]
    for p in ps:
        locales[p.id] = VI_LOCALE
    seen = Seen()
    live = await a_whole_game(world, seen, channel, ps)
    assert live.language == "vi"
    assert live.phase is TablePhase.FINISHED
    everything = seen.public + [t for texts in seen.private.values() for t in texts]
    assert_vietnamese(everything, english_fragments)
    public = "\n".join(seen.public)
    assert "Hết ván" in public and "Vào bàn" in public and "Chơi tiếp" in public
    assert re.search(r"\d\. <@\d+> ([+-][\d.]+ chip|hoà vốn)", public)  # a results line
    assert "1.000" in public  # the stake, grouped the Vietnamese way
    private = "\n".join(seen.private[ps[1].id])
    assert "Bạn không ngồi ở bàn này." in private
    assert "Bạn đã ngồi ở bàn này rồi." in private
    assert "Chỉ chủ bàn mới bắt đầu ván được." in private
    assert "Bài của bạn" in private and "Thống kê của" in private
    assert "Bảng xếp hạng" in "\n".join(seen.private.get(ps[0].id, []) + seen.public)


@pytest.mark.no_cover  # a whole game: its lines are measured by the other games
async def test_the_same_game_in_english(world: Any, locales: dict[int, str]) -> None:
    ps = _people(world, 2)
    seen = Seen()
    live = await a_whole_game(world, seen, world.channel, ps)
    assert live.language == "en"
    everything = seen.public + [t for texts in seen.private.values() for t in texts]
    assert_english(everything)
    public = "\n".join(seen.public)
    assert "Game over" in public and "1,000" in public
    private = "\n".join(seen.private[ps[1].id])
    assert "You are not seated at this table." in private


async def test_a_mixed_table(world: Any, locales: dict[int, str],
                             english_fragments: list[str]) -> None:
    """One Vietnamese and three English players on an English server, opened by the Vietnamese
    player: the board is in the table's language (the opener's: Vietnamese), and each person's
    private replies are in their own language."""
    viet, *others = _people(world, 4)
    locales[viet.id] = VI_LOCALE
    seen = Seen()
    seen.result(viet, await viet.slash(world.channel, "tienlen start"))
    live = only_table(world)
    assert live.language == "vi"
    for p in others:
        await press(seen, p, board(world), ":join")
    await press(seen, viet, board(world), ":start")
    people = {p.id: p for p in [viet, *others]}
    game = live.game
    assert game is not None
    for step in range(6):  # a few turns, everyone's hands and refusals
        if live.phase is not TablePhase.PLAYING:
            break
        await take_turn(seen, world, live, people, step)
        await out_of_turn_refusal(seen, world, live, people)
    for p in people.values():
        seen.result(p, await p.slash(world.channel, "tienlen rules"))
        seen.result(p, await p.slash(world.channel, "tienlen stats"))
    seen.board(world)
    assert_vietnamese(seen.public, english_fragments)
    assert_vietnamese(seen.private[viet.id], english_fragments)
    for p in others:
        assert_english(seen.private[p.id])
        assert any("Your hand" in t for t in seen.private[p.id])
    assert any("Bài của bạn" in t for t in seen.private[viet.id])
    assert "Bài của tôi" in labels(board(world))


async def test_the_server_setting_changes_the_language_of_open_tables(
        world: Any, locales: dict[int, str]) -> None:
    import discord

    host = _people(world, 1)[0]
    admin_role = world.guild.create_role("admins",
                                         permissions=discord.Permissions(manage_guild=True))
    admin = world.guild.add_member(world.env.create_user("admin"), roles=[admin_role])
    locales[admin.id] = VI_LOCALE
    await host.slash(world.channel, "tienlen start")
    live = only_table(world)
    assert live.language == "en" and "Join" in labels(board(world))
    r = await admin.slash(world.channel, "tienlen settings", language="vi")
    assert r.ephemeral and "ngôn ngữ bàn: **Tiếng Việt**" in said(r.response)
    await world.env.settle()
    assert live.language == "vi"
    assert "Vào bàn" in labels(board(world))
    assert (await world.store.get_guild_settings(world.guild.id)).language == "vi"
    r = await host.slash(world.channel, "leaderboard")
    assert not r.ephemeral and "Bảng xếp hạng" in (r.response.embeds[0].title or "")
    await admin.slash(world.channel, "tienlen settings", language="auto")
    await world.env.settle()
    assert live.language == "en"  # back to the opener's language
    r = await host.slash(world.channel, "tienlen stop")
    assert r.ephemeral and said(r.response) == f"Table #{live.id} is closed."


def test_the_checks_can_fail(english_fragments: list[str]) -> None:
    assert "played" in " ".join(english_fragments)
    with pytest.raises(AssertionError):
        assert_vietnamese(["<@1> played 3♠"], english_fragments)
    with pytest.raises(AssertionError):
        assert_english(["Đến lượt bạn."])
    assert has_vietnamese("Đến lượt bạn.") and not has_vietnamese("Tiến Lên — table #1")
