"""Property: whatever a modified client sends (any option value of any type, any custom id on any
message, mixed with ordinary play), every interaction is answered, no error is logged, the store
stays consistent (data.check) and chips are conserved."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from data.check import check_path

from .forge import forge_click, forge_slash
from .tablekit import board, bot_messages, labels, seat_people
from .test_table_flow import people

COMMANDS: dict[str, tuple[str, ...]] = {
    "leaderboard": ("by", "scope", "page"),
    "tienlen start": ("stake", "rules", "seats", "turn_seconds", "options", "turn_reminder",
                      "thread"),
    "tienlen settings": ("preset", "stake", "turn_seconds", "turn_reminder", "threads"),
    "tienlen tables": ("page",),
    "tienlen stats": ("user",),
    "tienlen rules": ("preset",),
    "tienlen help": ("topic",),
    "tienlen hand": (),
    "tienlen stop": (),
}
TYPES = st.sampled_from([3, 4, 5, 6, 10]) | st.integers(-3, 40)
VALUES = st.one_of(
    st.integers(-(2**70), 2**70),
    st.sampled_from([0, 1, 2, 4, 9, 10, 3600, 3601, 2**53, 2**62, 2**63, 2**64]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=60),
    st.sampled_from(["southern", "pagat", "bogus", "southern\u200b", "", "chips", "wins",
                     "card_exchange=on end=first_out", "x" * 1990, "123456789012345678",
                     "server", "global", "on", "off"]),
    st.booleans(),
    st.none(),
)


def options_for(path: str) -> st.SearchStrategy[list[dict[str, Any]]]:
    """Raw options: mostly the command's own names (with any type and value), sometimes others."""
    names = st.sampled_from(COMMANDS[path]) if COMMANDS[path] else st.just("zz")
    name = st.one_of(names, names, names, st.sampled_from(["zz", "page", "user", ""]))
    return st.lists(st.fixed_dictionaries({"name": name, "type": TYPES, "value": VALUES}),
                    max_size=3)


FIELD = st.one_of(st.integers(0, 12).map(str), st.integers(0, 2**70).map(str),
                  st.from_regex(r"[0-9a-f]{0,30}", fullmatch=True), st.text(max_size=12))
OP = st.one_of(st.sampled_from(["play", "pass", "clear", "hint", "c0", "c51", "c103", "c104",
                                f"c{10**9}", "c" + "1" * 30]), st.text(max_size=8))
CUSTOM_ID = st.one_of(
    st.builds(lambda t, a: f"tl:b:{t}:{a}", FIELD,
              st.sampled_from(["join", "leave", "addai", "start", "cancel", "hand", "rules",
                               "again", "nope"])),
    st.builds(lambda t, lv: f"tl:ai:{t}:{lv}", FIELD, st.sampled_from(["easy", "expert", "x"])),
    st.builds(lambda t, v, m, o: f"tl:h:{t}:{v}:{m}:{o}", FIELD, FIELD, FIELD, OP),
    st.builds(lambda s, b, p: f"lb:{s}:{b}:{p}", st.sampled_from(["server", "global", "x"]),
              st.sampled_from(["chips", "wins", "winrate", "luck"]), FIELD),
    st.builds(lambda r, t: f"tl:rules:{r}{t}", st.from_regex(r"[0-9a-z]{0,41}", fullmatch=True),
              st.sampled_from(["", ":1", f":{2**64}", ":x"])),
    st.just("tl:help"),
    st.text(max_size=120),
)
STEP = st.one_of(
    st.sampled_from(sorted(COMMANDS)).flatmap(
        lambda path: st.tuples(st.just("slash"), st.just(path), options_for(path),
                               st.integers(0, 2))),
    st.tuples(st.just("click"), st.sampled_from(["board", "hand", "any"]), CUSTOM_ID,
              st.integers(0, 2)),
    st.tuples(st.just("press"), st.sampled_from(["Join", "Start", "My hand", "Add computer player",
                                                 "Leave", "Play again"]), st.integers(0, 2)),
)


def _messages(world: Any, actor: Any, kind: str) -> list[Any]:
    found = []
    for message in bot_messages(world, viewer=actor):
        ephemeral = message.flags.ephemeral
        if kind == "any" or (kind == "hand") == ephemeral:
            found.append(message)
    return found


@pytest.mark.slow
@settings(max_examples=40, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(playing=st.booleans(), steps=st.lists(STEP, min_size=1, max_size=8))
async def test_any_input_is_answered_and_changes_nothing_it_should_not(
        world: Any, caplog: pytest.LogCaptureFixture, playing: bool,
        steps: list[tuple[Any, ...]]) -> None:
    caplog.set_level(logging.INFO)
    if not getattr(world, "cast", None):
        world.cast = people(world, 3)
    cast = world.cast
    # Examples share one bot and one database: each starts from the table the last one left,
    # or opens one (and maybe starts a game) so that boards and hands are there to forge on.
    if not world.bot.table_service.tables:
        await cast[0].slash(world.channel, "tienlen start", stake=5)
        await seat_people(world, cast[1:])
        if playing:
            await cast[0].click(board(world), label="Start")
    for who in range(3):
        if (playing and len(_messages(world, cast[who], "hand")) < 2
                and "My hand" in labels(board(world))):
            await cast[who].click(board(world), label="My hand")
    for step in steps:
        actor = cast[step[-1]]
        if step[0] == "slash":
            _, path, options, _who = step
            result = await forge_slash(actor, world.channel, path, options)
        elif step[0] == "click":
            _, kind, custom_id, _who = step
            messages = _messages(world, actor, kind)
            if not messages:
                continue
            result = await forge_click(actor, messages[-1], custom_id)
        else:
            _, label, _who = step
            boards = [m for m in _messages(world, actor, "board") if label in labels(m)]
            if not boards:
                continue
            result = await actor.click(boards[-1], label=label)
        assert result.acknowledged, (step, result)
        errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
        assert not errors, (step, errors)
    # Chips only move between the people at a table: the total is what they started with.
    chips = [await world.store.get_chips(world.guild.id, p.id) for p in cast]
    known = [c for c in chips if c is not None]
    assert sum(known) == world.bot.settings.STARTING_CHIPS * len(known)
    report = check_path(world.path)
    assert report.ok, report.faults
