"""The rules answer (`/tienlen rules`, the board's **Rules**): the preset's name and only what the
table changes from it, and an **Every option** button that shows them all (the rules travel in
its custom id, so it works after a restart; a forged one is refused). Unit tests of the codec and
SimCord tests in both languages."""

from __future__ import annotations

import random
from typing import Any

from cogs.i18n import words as words_of
from cogs.tienlen import rules_view
from engine import Rules

from .forge import forge_click, reply_text
from .tablekit import _real, add_computers, board, button, open_table
from .test_languages import VI_LOCALE, locales  # noqa: F401 (a fixture)

EN, VI = words_of("en"), words_of("vi")
ALL = len(Rules.model_fields)


def _random_rules(rng: random.Random) -> Rules:
    values = {name: rng.choice(rules_view._CHOICES[name]) for name in Rules.model_fields}
    return Rules(**values)


def test_the_button_carries_any_rule_set_and_nothing_else() -> None:
    rng = random.Random(32)
    for rules in [Rules.preset(n) for n in Rules.preset_names()] + [
            _random_rules(rng) for _ in range(300)]:
        code = rules_view.encode(rules)
        assert len(f"tl:rules:{code}:{2**63}") <= 100  # a custom id's limit
        assert rules_view.decode(code) == rules
    good = rules_view.encode(Rules())
    for bad in ("", good[:-1], good + "0", "z" + good[1:], good[:-1] + "!"):
        assert rules_view.decode(bad) is None


def test_the_closest_preset_and_the_changes() -> None:
    for name in Rules.preset_names():
        assert rules_view.closest_preset(Rules.preset(name)) == name
    custom = Rules().with_options(["cong=on", "card_exchange=tribute"])
    assert rules_view.closest_preset(custom) == "southern"
    embed = rules_view.changes_embed(EN, custom, "Rules of table #4")
    assert embed.description == "Preset **southern**, with 2 changes:"
    assert {f.name: f.value for f in embed.fields} == {
        "Card exchange between games": "losers give their two highest, nothing back",
        "Frozen players (no card played when someone goes out) pay double": "on"}
    vi = rules_view.changes_embed(VI, custom, "Luật của bàn #4")
    assert vi.description == "Bộ luật **miền Nam**, đổi 2 luật:" and len(vi.fields) == 2
    plain = rules_view.changes_embed(EN, Rules(), "Rules: southern (the default)")
    assert plain.description == "Preset **southern** (the default), unchanged." and not plain.fields
    pagat = rules_view.changes_embed(EN, Rules.preset("pagat"), "Rules: pagat")
    assert pagat.description == "Preset **pagat**, unchanged. How it differs from **southern**:"
    assert 0 < len(pagat.fields) < ALL
    every = rules_view.every_option_embed(VI, custom, "Luật của bàn #4")
    assert len(every.fields) == ALL and "miền Nam" in (every.description or "")


async def test_a_tables_rules_show_its_changes_and_every_option_on_demand(
        world: Any, locales: dict[int, str]) -> None:  # noqa: F811
    host = world.guild.add_member(world.env.create_user("host"))
    live = await open_table(world, host, options="cong=on double_quad=on")
    shown = await host.slash(world.channel, "tienlen rules")
    assert shown.ephemeral
    (embed,) = shown.response.embeds
    assert embed.title == f"Rules of table #{live.id}"
    assert embed.description == "Preset **southern**, with 2 changes:"
    assert [f.name for f in embed.fields] == [
        "Two consecutive quads are a bomb",
        "Frozen players (no card played when someone goes out) pay double"]
    every = button(shown.response, "Every option")
    assert every.custom_id == f"tl:rules:{rules_view.encode(live.rules)}:{live.id}"
    await world.restart()  # the button still knows the rules
    pressed = await host.click(shown.response, label="Every option")
    (embed,) = pressed.response.embeds
    assert embed.title == f"Rules of table #{live.id}" and len(embed.fields) == ALL
    assert not _real(pressed.response).components  # nothing more to show
    # The board's Rules during a game (an English table), for a Vietnamese reader.
    await add_computers(world, host, "easy", 1)
    await host.click(board(world), label="Start")
    locales[host.id] = VI_LOCALE
    viewer = await host.click(board(world), label="Rules")
    (embed,) = viewer.response.embeds
    assert embed.description == "Bộ luật **miền Nam**, đổi 2 luật:"
    assert button(viewer.response, "Xem mọi luật")


async def test_a_preset_and_a_forged_button(world: Any) -> None:
    someone = world.guild.add_member(world.env.create_user("someone"))
    shown = await someone.slash(world.channel, "tienlen rules", preset="vc")
    (embed,) = shown.response.embeds
    assert embed.description == "Preset **vc**, unchanged. How it differs from **southern**:"
    pressed = await someone.click(shown.response, label="Every option")
    assert pressed.response.embeds[0].title == "Rules: vc"
    assert len(pressed.response.embeds[0].fields) == ALL
    for forged in ("tl:rules:zzzzzzzzzzzzzzzzzzzz", "tl:rules:00:7", "tl:rules:0"):
        result = await forge_click(someone, shown.response, forged)
        assert result.ephemeral and reply_text(result) == "This button is not known any more."
