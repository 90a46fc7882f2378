"""Persistent buttons of history pages and replays. Every custom id is bounded and carries all
it needs (the game, the step to show, the page), so the buttons work after a restart and a burst
of presses never skips or repeats a step: each press shows the step its button names.

- `tl:rp:<game>`: **Replay** (history, the game-over post): opens the viewer at step 0;
- `tl:rv:<game>:<step>:<slot>`: ⏮ ◀ ▶ ⏭ (slot f, p, n, l), show that step;
- `tl:rj:<game>`: the "jump to trick" select (its values are step numbers);
- `tl:rs:<game>`: **Share**, post the animation in the channel;
- `tl:hp:<user>:<page>`: a history page.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from cogs import guard
from cogs.i18n import N_, Words
from cogs.tienlen._views import pressed

_ID = r"[0-9]{1,19}"
_STEP = r"[0-9]{1,5}"


@runtime_checkable
class ReplayHandlers(Protocol):
    """What the buttons call: the History cog (named by this protocol, not imported)."""

    async def on_replay(self, interaction: discord.Interaction[Any], game_id: int) -> None: ...

    async def on_step(self, interaction: discord.Interaction[Any], game_id: int,
                      step: int) -> None: ...

    async def on_share(self, interaction: discord.Interaction[Any], game_id: int) -> None: ...

    async def on_history_page(self, interaction: discord.Interaction[Any], user_id: int,
                              page: int) -> None: ...


def _cog(interaction: discord.Interaction[Any]) -> ReplayHandlers:
    cog = interaction.client.get_cog("History")
    assert isinstance(cog, ReplayHandlers), "the History cog is not loaded"
    return cog


def _snowflake(text: str) -> int | None:
    value = int(text)
    return value if value <= guard.SNOWFLAKE_MAX else None


def _refuse_forged(interaction: discord.Interaction[Any], value: int | None) -> int:
    if value is None:
        raise guard.Refused(guard.reader(interaction).marked(guard.UNKNOWN_BUTTON))
    return value


class ReplayButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                   template=rf"tl:rp:(?P<game>{_ID})"):
    def __init__(self, game_id: int, *, label: str = "Replay") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.secondary,
                                           emoji="🎬", custom_id=f"tl:rp:{game_id}"))
        self.game_id: int | None = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ReplayButton:
        made = cls(0)
        made.game_id = _snowflake(match["game"])
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, f"game {self.game_id}: replay button"):
            game_id = _refuse_forged(interaction, self.game_id)
            await _cog(interaction).on_replay(interaction, game_id)


class StepButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=rf"tl:rv:(?P<game>{_ID}):(?P<step>{_STEP}):(?P<slot>[fpnl])"):
    def __init__(self, game_id: int, step: int, slot: str, *, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or slot, disabled=disabled,
                                           style=discord.ButtonStyle.primary,
                                           custom_id=f"tl:rv:{game_id}:{step}:{slot}"))
        self.game_id: int | None = game_id
        self.step = step

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> StepButton:
        made = cls(0, int(match["step"]), match["slot"])
        made.game_id = _snowflake(match["game"])
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, f"game {self.game_id}: replay step button"):
            game_id = _refuse_forged(interaction, self.game_id)
            await _cog(interaction).on_step(interaction, game_id, self.step)


class TrickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                  template=rf"tl:rj:(?P<game>{_ID})"):
    def __init__(self, game_id: int, options: list[discord.SelectOption] | None = None,
                 *, placeholder: str = "") -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"tl:rj:{game_id}", placeholder=placeholder or None,
            options=options or [discord.SelectOption(label="0", value="0")]))
        self.game_id: int | None = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> TrickSelect:
        made = cls(0)
        made.game_id = _snowflake(match["game"])
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, f"game {self.game_id}: replay trick select"):
            game_id = _refuse_forged(interaction, self.game_id)
            data = interaction.data
            values = data.get("values") if isinstance(data, dict) else None
            value = values[0] if isinstance(values, list) and len(values) == 1 else None
            if not (isinstance(value, str) and value.isascii() and value.isdigit()
                    and len(value) <= 5):
                raise guard.Refused(guard.reader(interaction).marked(guard.UNKNOWN_BUTTON))
            await _cog(interaction).on_step(interaction, game_id, int(value))


class ShareButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                  template=rf"tl:rs:(?P<game>{_ID})"):
    def __init__(self, game_id: int, *, label: str = "Share") -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success,
                                           custom_id=f"tl:rs:{game_id}"))
        self.game_id: int | None = game_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> ShareButton:
        made = cls(0)
        made.game_id = _snowflake(match["game"])
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, f"game {self.game_id}: replay share button"):
            game_id = _refuse_forged(interaction, self.game_id)
            await _cog(interaction).on_share(interaction, game_id)


class HistoryPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                        template=rf"tl:hp:(?P<user>{_ID}):(?P<page>[0-9]{{1,4}})"):
    def __init__(self, user_id: int, page: int, *, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or str(page), disabled=disabled,
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"tl:hp:{user_id}:{page}"))
        self.user_id: int | None = user_id
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any],
                             match: re.Match[str]) -> HistoryPageButton:
        made = cls(0, int(match["page"]))
        made.user_id = _snowflake(match["user"])
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with pressed(self, interaction, "history page button"):
            user_id = _refuse_forged(interaction, self.user_id)
            if self.page < 1:
                raise guard.Refused(guard.reader(interaction).marked(guard.UNKNOWN_BUTTON))
            await _cog(interaction).on_history_page(interaction, user_id, self.page)


REPLAY = N_("Replay")
REPLAY_NUMBERED = N_("Replay #{game}")


def replay_button(game_id: int, w: Words, *, numbered: bool = False) -> ReplayButton:
    """The **Replay** button of a finished game, in ``w``'s language: for the game-over post
    (``Replay``) and history pages (``numbered``: ``Replay #12``). Pressing it opens the private
    viewer; a game that is not finished is refused (so it may be posted with the results)."""
    label = w.marked(REPLAY_NUMBERED, game=game_id) if numbered else w.marked(REPLAY)
    return ReplayButton(game_id, label=label)


DYNAMIC_ITEMS = (ReplayButton, StepButton, TrickSelect, ShareButton, HistoryPageButton)
