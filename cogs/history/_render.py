"""History pages and replay steps as messages (embeds, pictures, buttons)."""

from __future__ import annotations

from typing import Any

import discord

from cogs.i18n import Words
from cogs.pictures import FaceUpView, face_up_view
from cogs.tienlen._pictures import board_words
from cogs.tienlen._views import SentView
from data import HistoryPage

from . import _words as text
from ._replays import Loaded
from ._views import HistoryPageButton, ShareButton, StepButton, TrickSelect, replay_button

STEP_FILE = "replay.png"
COLOUR = discord.Colour.dark_green()
MAX_OPTIONS = 25  # Discord's limit for a select


def history(w: Words, page: HistoryPage, who: str) -> dict[str, Any]:
    """One page of a player's history: its games, a **Replay** button for each, paging."""
    embed = discord.Embed(title=w._("Last games in this server"), colour=COLOUR,
                          description=text.history_text(w, page, who))
    view = SentView()
    for entry in page.entries:
        view.add_item(replay_button(entry.game_id, w, numbered=True))
    if page.pages > 1:
        view.add_item(HistoryPageButton(page.user_id, max(1, min(page.page - 1, page.pages)),
                                        label=w._("◀ Previous"), disabled=page.page <= 1))
        view.add_item(HistoryPageButton(page.user_id, page.page + 1, label=w._("Next ▶"),
                                        disabled=page.page >= page.pages))
    return {"embed": embed, "view": view}


def _names(w: Words, loaded: Loaded) -> list[str]:
    return [text.plain_name(w, p) for p in loaded.players]


def face_up(w: Words, loaded: Loaded, step: int) -> FaceUpView:
    """The picture of a step: the board with every hand face up."""
    record = loaded.record
    game = loaded.replay[step].game
    return face_up_view(game, _names(w, loaded), table=record.table_id or 0, stake=record.stake,
                        chips=loaded.chips() if game.is_over else None,
                        words=board_words(w, len(loaded.players)))


def frames(w: Words, loaded: Loaded) -> list[FaceUpView]:
    """The frames of the shared animation: the deal, one per play, and the end."""
    replay = loaded.replay
    last = len(replay) - 1
    steps = [k for k in range(len(replay))
             if k in (0, last) or replay[k].events[0].TYPE == "played"]
    return [face_up(w, loaded, k) for k in steps]


def _trick_options(w: Words, loaded: Loaded, step: int) -> list[discord.SelectOption]:
    replay = loaded.replay
    tricks = list(range(1, replay.tricks + 1))
    current = replay.trick_of(step)
    if len(tricks) > MAX_OPTIONS:  # a window of 25 tricks around the one shown
        start = max(0, min(current - 1 - MAX_OPTIONS // 2, len(tricks) - MAX_OPTIONS))
        tricks = tricks[start:start + MAX_OPTIONS]
    options = []
    for trick in tricks:
        try:
            first = replay.first_step_of_trick(trick)
        except IndexError:
            continue
        options.append(discord.SelectOption(
            label=w._("Trick {trick}", trick=trick), value=str(first),
            description=w._("from step {step}", step=first), default=trick == current))
    return options


def step(w: Words, loaded: Loaded, step: int, *, pictured: bool) -> dict[str, Any]:
    """The viewer at ``step``: the words, the picture (when drawn), ⏮ ◀ ▶ ⏭, Share, the trick
    select. Every button names the step it shows."""
    game_id = loaded.record.id
    last = len(loaded.replay) - 1
    embed = discord.Embed(title=text.step_title(w, loaded, step), colour=COLOUR,
                          description=text.step_text(w, loaded, step)[:4096])
    if pictured:
        embed.set_image(url=f"attachment://{STEP_FILE}")
    view = SentView()
    view.add_item(StepButton(game_id, 0, "f", label="⏮", disabled=step == 0))
    view.add_item(StepButton(game_id, max(step - 1, 0), "p", label="◀", disabled=step == 0))
    view.add_item(StepButton(game_id, min(step + 1, last), "n", label="▶",
                             disabled=step == last))
    view.add_item(StepButton(game_id, last, "l", label="⏭", disabled=step == last))
    view.add_item(ShareButton(game_id, label=w._("Share")))
    options = _trick_options(w, loaded, step)
    if options:
        select = TrickSelect(game_id, options, placeholder=w._("Jump to a trick"))
        select.item.row = 1
        view.add_item(select)
    return {"embed": embed, "view": view}
