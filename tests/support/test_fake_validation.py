"""The fake Discord refuses what Discord refuses: each known-bad body gets 400, code 50035 and
the ``errors`` tree naming the field, and is recorded as a refusal; the same body made valid is
accepted. Bodies are sent over HTTP as a client would send them (aiohttp, JSON or multipart)."""

from __future__ import annotations

import copy
import json
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.conftest import _refused as refused
from tests.support.fake_discord import FakeDiscord, InteractionHandle, validate
from tests.support.fake_discord.validate import FLAG_COMPONENTS_V2 as V2

pytestmark = pytest.mark.skipif(validate.load_spec() is None,
                                reason=f"no Discord API description at {validate.SPEC_PATH}")


def row(*children: dict[str, Any]) -> dict[str, Any]:
    return {"type": 1, "components": list(children)}


def button(cid: str, label: str = "Play", **extra: Any) -> dict[str, Any]:
    return {"type": 2, "style": 1, "custom_id": cid, "label": label, **extra}


def text(content: str) -> dict[str, Any]:
    return {"type": 10, "content": content}


def gallery(url: str, description: str = "the board") -> dict[str, Any]:
    return {"type": 12, "items": [{"media": {"url": url}, "description": description}]}


def command(name: str = "tienlen", **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": 1, "description": "Play Tiến Lên", **extra}


def option(name: str, **extra: Any) -> dict[str, Any]:
    return {"name": name, "type": 3, "description": "a value", **extra}


def choices(n: int) -> list[dict[str, Any]]:
    return [{"name": f"choice {i}", "value": f"v{i}"} for i in range(n)]


MSG = "POST /channels/{cid}/messages"
CMDS = "PUT /applications/{app}/guilds/{gid}/commands"
CALLBACK = "POST /interactions/{iid}/{token}/callback"

# (case, route, bad body, the field its refusal names, the same body made valid);
# callbacks name the interaction they answer: slash, click (a component) or autocomplete.
CASES: list[tuple[str, str, Any, str, Any]] = [
    ("embed total over 6000", MSG,
     {"embeds": [{"title": "t", "description": "d" * 4000}, {"description": "e" * 2001}]},
     "embeds", {"embeds": [{"title": "t", "description": "d" * 4000},
                           {"description": "e" * 1990}]}),
    ("duplicate custom id", MSG, {"components": [row(button("a"), button("a"))]},
     "components.0.components.1.custom_id", {"components": [row(button("a"), button("b"))]}),
    ("custom emoji without its id", MSG,
     {"components": [row(button("a", emoji={"name": "tl_3s"}))]},
     "components.0.components.0.emoji.id",
     {"components": [row(button("a", emoji={"name": "tl_3s", "id": "123456789012345678"}))]}),
    ("content over 2000", MSG, {"content": "x" * 2001}, "content", {"content": "x" * 2000}),
    ("custom id over 100", MSG, {"components": [row(button("c" * 101))]},
     "components.0.components.0.custom_id", {"components": [row(button("c" * 100))]}),
    ("six action rows", MSG, {"components": [row(button(f"b{i}")) for i in range(6)]},
     "components", {"components": [row(button(f"b{i}")) for i in range(5)]}),
    ("six buttons in a row", MSG, {"components": [row(*(button(f"b{i}") for i in range(6)))]},
     "components.0.components", {"components": [row(*(button(f"b{i}") for i in range(5)))]}),
    ("a button outside a row", MSG, {"content": "x", "components": [button("a")]},
     "components.0", {"content": "x", "components": [row(button("a"))]}),
    ("a select beside a button", MSG,
     {"components": [row(button("a"), {"type": 3, "custom_id": "s",
                                       "options": [{"label": "one", "value": "1"}]})]},
     "components.0.components",
     {"components": [row(button("a")), row({"type": 3, "custom_id": "s",
                                            "options": [{"label": "one", "value": "1"}]})]}),
    ("link button with a custom id", MSG,
     {"components": [row({"type": 2, "style": 5, "label": "rules", "url": "https://x.test",
                          "custom_id": "r"})]},
     "components.0.components.0",
     {"components": [row({"type": 2, "style": 5, "label": "rules",
                          "url": "https://x.test"})]}),
    ("V2 with content", MSG, {"flags": V2, "content": "hi", "components": [text("board")]},
     "content", {"flags": V2, "components": [text("board")]}),
    ("V2 with embeds", MSG,
     {"flags": V2, "embeds": [{"title": "board"}], "components": [text("board")]}, "embeds",
     {"flags": V2, "components": [text("board")]}),
    ("V2 over 40 components", MSG,
     {"flags": V2, "components": [{"type": 17, "components": [text(f"t{i}") for i in range(40)]}]},
     "components", {"flags": V2, "components": [
         {"type": 17, "components": [text(f"t{i}") for i in range(39)]}]}),
    ("V2 over 4000 characters", MSG,
     {"flags": V2, "components": [text("a" * 2000), text("b" * 2001)]}, "components",
     {"flags": V2, "components": [text("a" * 2000), text("b" * 2000)]}),
    ("V2 picture of a file not uploaded", MSG,
     {"flags": V2, "components": [{"type": 17, "components": [
         text("board"), gallery("attachment://board.png")]}]},
     "components.0.components.1.items.0.media.url",
     {"flags": V2, "components": [{"type": 17, "components": [
         text("board"), gallery("https://x.test/board.png")]}]}),
    ("V2 in a deferred update", CALLBACK + " click", {"type": 6, "data": {"flags": V2}},
     "data.flags", {"type": 6}),
    ("V2 in a deferred message", CALLBACK + " slash", {"type": 5, "data": {"flags": V2 | 64}},
     "data.flags", {"type": 5, "data": {"flags": 64}}),
    ("V2 component without the flag", MSG, {"components": [text("board")]}, "components.0",
     {"flags": V2, "components": [text("board")]}),
    ("embed refers to a missing file", MSG,
     {"embeds": [{"title": "b", "image": {"url": "attachment://missing.png"}}]},
     "embeds.0.image.url", {"embeds": [{"title": "b", "image": {"url": "https://x.test/b.png"}}]}),
    ("allowed mentions parse and list users", MSG,
     {"content": "<@1>", "allowed_mentions": {"parse": ["users"], "users": ["1"]}},
     "allowed_mentions.users", {"content": "<@1>", "allowed_mentions": {"users": ["1"]}}),
    ("attachment of no uploaded file", MSG,
     {"content": "x", "attachments": [{"id": "0", "filename": "board.png"}]},
     "attachments.0.id", {"content": "x", "attachments": []}),
    ("upper-case command name", CMDS, [command("TienLen")], "0.name", [command("tienlen")]),
    ("upper-case localised name", CMDS, [command(name_localizations={"vi": "TiếnLên"})],
     "0.name_localizations.vi", [command(name_localizations={"vi": "tiến-lên"})]),
    ("description over 100", CMDS, [command(description="d" * 101)], "0.description",
     [command(description="d" * 100)]),
    ("empty localised description", CMDS, [command(description_localizations={"vi": ""})],
     "0.description_localizations.vi", [command(description_localizations={"vi": "Chơi"})]),
    ("26 choices", CMDS, [command(options=[option("rules", choices=choices(26))])],
     "0.options.0.choices", [command(options=[option("rules", choices=choices(25))])]),
    ("required option after an optional one", CMDS,
     [command(options=[option("a"), option("b", required=True)])], "0.options.1.required",
     [command(options=[option("b", required=True), option("a")])]),
    ("two commands of one name", CMDS, [command(), command()], "1.name",
     [command(), command("daily")]),
    ("UPDATE_MESSAGE answering a slash command", CALLBACK + " slash",
     {"type": 7, "data": {"content": "x"}}, "type", {"type": 4, "data": {"content": "x"}}),
    ("autocomplete choices answering a slash command", CALLBACK + " slash",
     {"type": 8, "data": {"choices": choices(2)}}, "type",
     {"type": 4, "data": {"content": "x"}}),
    ("26 autocomplete answers", CALLBACK + " autocomplete",
     {"type": 8, "data": {"choices": choices(26)}}, "data.choices",
     {"type": 8, "data": {"choices": choices(25)}}),
    ("autocomplete answer of 101 characters", CALLBACK + " autocomplete",
     {"type": 8, "data": {"choices": [{"name": "n" * 101, "value": "v"}]}},
     "data.choices.0.name", {"type": 8, "data": {"choices": [{"name": "n" * 100, "value": "v"}]}}),
    ("duplicate custom id in a callback", CALLBACK + " click",
     {"type": 7, "data": {"components": [row(button("a")), row(button("a"))]}},
     "data.components.1.components.0.custom_id",
     {"type": 7, "data": {"components": [row(button("a")), row(button("b"))]}}),
    ("thread with a bad auto-archive duration", "POST /channels/{cid}/threads",
     {"name": "Bàn 1", "type": 11, "auto_archive_duration": 30}, "auto_archive_duration",
     {"name": "Bàn 1", "type": 11, "auto_archive_duration": 60}),
]


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": "Bot x"}) as session:
        yield session


def _handle(fake: FakeDiscord, kind: str, source: int | None = None) -> InteractionHandle:
    """An interaction the fake knows of (as if dispatched) for the bot's callback to answer."""
    user = fake.user("alice")
    channel = fake.guild.channel_by_name("tienlen")
    itype = {"slash": 2, "click": 3, "autocomplete": 4}[kind]
    data: dict[str, Any] = ({"custom_id": "a", "component_type": 2} if kind == "click"
                            else {"id": "1", "name": "tienlen", "type": 1})
    payload = fake._base_interaction(itype, user, channel, data)
    if source is not None:
        payload["message"] = fake.messages[source].data
    handle = InteractionHandle(fake, payload, user, "slash" if kind != "click" else "click",
                               "tienlen")
    fake.interactions[handle.id] = handle
    fake._by_token[handle.token] = handle
    handle.created_mono = fake._now()
    return handle


async def _send(fake: FakeDiscord, http: aiohttp.ClientSession, route: str,
                body: Any) -> tuple[int, Any]:
    method, template, *kind = route.split()
    channel = fake.guild.channel_by_name("tienlen")
    ids = {"cid": channel.id, "app": fake.application_id, "gid": fake.guild_id}
    if kind:
        source = None
        if kind[0] == "click":
            status, made = await _send(fake, http, MSG, {"components": [row(button("a"))]})
            assert status == 200, made
            source = int(made["id"])
        handle = _handle(fake, kind[0], source)
        ids |= {"iid": handle.id, "token": handle.token}
    url = fake.api_base + template.format(**ids)
    async with http.request(method, url, json=body) as resp:
        text = await resp.text()
        return resp.status, json.loads(text) if text else None


def _leaves(tree: dict[str, Any], at: tuple[str, ...] = ()) -> list[str]:
    found = [".".join(at)] if "_errors" in tree else []
    for key, sub in tree.items():
        if key != "_errors":
            found += _leaves(sub, (*at, key))
    return found


@pytest.mark.parametrize(("case", "route", "bad", "field", "good"), CASES,
                         ids=[c[0] for c in CASES])
async def test_known_bad_body_is_refused_and_the_valid_one_accepted(
        fake: FakeDiscord, http: aiohttp.ClientSession, case: str, route: str, bad: Any,
        field: str, good: Any) -> None:
    status, answer = await _send(fake, http, route, copy.deepcopy(bad))
    assert status == 400, (case, answer)
    assert answer["code"] == 50035
    leaves = _leaves(answer["errors"])
    assert any(leaf == field or leaf.startswith(field + ".") for leaf in leaves), leaves
    (refusal,) = fake.take_refusals()
    assert refusal.method == route.split()[0]
    assert field.split(".")[0] in refusal.describe()

    status, answer = await _send(fake, http, route, copy.deepcopy(good))
    assert status != 400, (case, answer)
    assert fake.take_refusals() == []


async def test_the_v2_flag_cannot_be_removed_by_an_edit(
        fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    status, made = await _send(fake, http, MSG, {"flags": V2, "components": [text("board")]})
    assert status == 200, made
    channel = fake.guild.channel_by_name("tienlen")
    url = f"{fake.api_base}/channels/{channel.id}/messages/{made['id']}"
    async with http.patch(url, json={"flags": 0, "content": "plain again"}) as resp:
        assert resp.status == 400
        answer = await resp.json()
    assert answer["code"] == 50035
    assert "flags" in answer["errors"]
    assert [p.dotted() for r in fake.take_refusals() for p in r.problems] == ["flags", "content"]
    assert fake.messages[int(made["id"])].components[0]["content"] == "board"  # unchanged
    async with http.patch(url, json={"flags": V2, "components": [text("board 2")]}) as resp:
        assert resp.status == 200, await resp.text()
    assert fake.messages[int(made["id"])].components[0]["content"] == "board 2"


async def test_multipart_payload_json_is_checked(
        fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    channel = fake.guild.channel_by_name("tienlen")
    url = f"{fake.api_base}/channels/{channel.id}/messages"
    for payload, expected in (
        ({"embeds": [{"image": {"url": "attachment://board.png"}}],
          "attachments": [{"id": "0", "filename": "board.png"}]}, 200),
        ({"embeds": [{"image": {"url": "attachment://other.png"}}],
          "attachments": [{"id": "0", "filename": "board.png"}]}, 400),
        ({"content": "x" * 2001, "attachments": [{"id": "0", "filename": "board.png"}]}, 400),
    ):
        form = aiohttp.FormData()
        form.add_field("payload_json", json.dumps(payload), content_type="application/json")
        form.add_field("files[0]", b"png", filename="board.png",
                       content_type="application/octet-stream")
        async with http.post(url, data=form) as resp:
            assert resp.status == expected, await resp.text()
    assert len(fake.take_refusals()) == 2


async def test_a_route_discord_does_not_describe_is_refused(
        fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    channel = fake.guild.channel_by_name("tienlen")
    async with http.post(f"{fake.api_base}/channels/{channel.id}/board",
                         json={"content": "x"}) as resp:
        assert resp.status == 404
    (refusal,) = fake.take_refusals()
    assert refusal.problems[0].code == "UNKNOWN_ROUTE"
    assert refusal.path == f"/channels/{channel.id}/board"


def test_a_refusal_names_route_field_and_clipped_value() -> None:
    problem = validate.Problem(("embeds", 0, "description"), "BASE_TYPE_MAX_LENGTH",
                               "Must be 4096 or fewer in length.", "d" * 5000)
    text = validate.Refusal("POST", "/channels/1/messages", (problem,)).describe()
    assert "POST /channels/1/messages" in text
    assert "embeds.0.description" in text
    assert len(text) < 300  # the value is clipped
    assert validate.errors_tree([problem]) == {"embeds": {"0": {"description": {"_errors": [
        {"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 4096 or fewer in length."}]}}}}


def test_the_harness_fails_a_test_that_caused_a_refusal() -> None:
    problem = validate.Problem(("content",), "BASE_TYPE_MAX_LENGTH", "too long", "x" * 3000)
    validate.REFUSALS.append(validate.Refusal("POST", "/channels/1/messages", (problem,)))
    with pytest.raises(pytest.fail.Exception) as failed:
        refused("the test")  # what tests/conftest.py's hooks run after each phase
    assert "POST /channels/1/messages refused:" in str(failed.value)
    assert "content: too long" in str(failed.value)
    assert validate.REFUSALS == []
    refused("the test")  # nothing refused: nothing fails


def test_without_the_description_one_line_says_so_and_limits_still_apply(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any, caplog: pytest.LogCaptureFixture) -> None:
    monkeypatch.setenv(validate.SPEC_ENV, str(tmp_path / "absent.json"))
    with caplog.at_level("WARNING", logger="fake_discord.validate"):
        assert validate.load_spec.__wrapped__() is None  # uncached: the real one stays loaded
    (line,) = [r.getMessage() for r in caplog.records]
    assert "absent.json" in line and "github.com/discord/discord-api-spec" in line
    problems = validate.documented_limits("POST", "/channels/1/messages",
                                          {"components": [row(button("a"), button("a"))]})
    assert [p.dotted() for p in problems] == ["components.0.components.1.custom_id"]


async def test_a_v2_message_shows_its_pictures_only_through_components(
        fake: FakeDiscord, http: aiohttp.ClientSession) -> None:
    """Discord shows a V2 message's attachments only where a component refers to them: the
    board picture in its gallery (resolved to the uploaded file, alt text kept), not a file
    sent beside it; an edit keeping the file by id keeps showing it."""
    channel = fake.guild.channel_by_name("tienlen")
    url = f"{fake.api_base}/channels/{channel.id}/messages"
    payload = {"flags": V2, "components": [{"type": 17, "components": [
        text("board"), gallery("attachment://board.png", "1. @ann — 13 cards")]}],
        "attachments": [{"id": "0", "filename": "board.png"},
                        {"id": "1", "filename": "extra.png"}]}
    form = aiohttp.FormData()
    form.add_field("payload_json", json.dumps(payload), content_type="application/json")
    for i, name in enumerate(("board.png", "extra.png")):
        form.add_field(f"files[{i}]", b"png", filename=name,
                       content_type="application/octet-stream")
    async with http.post(url, data=form) as resp:
        assert resp.status == 200, await resp.text()
        made = await resp.json()
    stored = fake.messages[int(made["id"])].data
    assert [a["filename"] for a in stored["attachments"]] == ["board.png", "extra.png"]
    assert [a["filename"] for a in fake.shown_attachments(stored)] == ["board.png"]
    (item,) = stored["components"][0]["components"][1]["items"]
    assert item["media"]["url"] == stored["attachments"][0]["url"]
    assert item["description"] == "1. @ann — 13 cards"
    kept = stored["attachments"][0]["id"]
    edit = f"{url}/{made['id']}"
    async with http.patch(edit, json={"flags": V2, "attachments": [{"id": kept}],
                                      "components": [text("moved"),
                                                     gallery("attachment://board.png")]}
                          ) as resp:
        assert resp.status == 200, await resp.text()
    stored = fake.messages[int(made["id"])].data
    assert [a["filename"] for a in fake.shown_attachments(stored)] == ["board.png"]
    async with http.patch(edit, json={"flags": V2, "attachments": [],
                                      "components": [text("gone"),
                                                     gallery("attachment://board.png")]}
                          ) as resp:
        assert resp.status == 400  # the file it shows is no longer on the message
    assert [p.code for r in fake.take_refusals() for p in r.problems] == [
        "ATTACHMENT_NOT_FOUND"]
