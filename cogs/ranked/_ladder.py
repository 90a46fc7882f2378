"""Rating ladders (docs/RATING.md): `/leaderboard by: rating` (a server's, or `scope: global`)
and `/leaderboard season: N` (a finished season's frozen standings), 10 a page with ◀ ▶ buttons.
The `/leaderboard` command itself belongs to cogs.economy, which hands these boards here."""

from __future__ import annotations

import re
from typing import Any

import discord

from cogs import guard
from cogs.i18n import N_, Words, person_language, table_language, words
from data import Store
from data.ratings import GLOBAL, RatingPage
from engine.rating import PROVISIONAL_GAMES

from . import _words as text

#: the highest page number a button or the command may name
MAX_PAGE = 10_000
#: the highest season number the command takes
MAX_SEASON = 100_000

PAST_END = N_("There is no page {page}: this ladder has {pages}.")
NO_SEASON = N_("This server has no finished season {season}.")
SEASON_HERE = N_("Seasons belong to a server: leave out scope: global to see one.")


async def show(interaction: discord.Interaction[Any], store: Store, which: str, page: int, *,
               edit: bool) -> None:
    """Answer with one page of a rating ladder (`which`: ``server``, ``global`` or ``s<N>``,
    season N of this server) and its paging buttons: a new public message, or (``edit``, a
    paging button was pressed) the pressed message redrawn. A page past the end, or a season
    that does not exist, is a short private answer."""
    assert interaction.guild_id is not None
    me = guard.reader(interaction)
    season = int(which[1:]) if which not in ("server", "global") else None
    board = await store.rating_page(GLOBAL if which == "global" else interaction.guild_id, page,
                                    season=season)
    if board is None:
        raise guard.Refused(me.marked(NO_SEASON, season=me.num(season or 0)))
    if board.past_end:
        raise guard.Refused(me.marked(PAST_END, page=me.num(page), pages=me.num(board.pages)))
    settings = await store.get_guild_settings(interaction.guild_id)
    w = words(table_language(settings.language, interaction.guild_locale,
                             person_language(interaction.locale)))
    embed, view = ladder_embed(w, board), paging_view(w, which, board)
    none = discord.AllowedMentions.none()
    if edit:
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=none)
    elif view is None:
        await interaction.response.send_message(embed=embed, allowed_mentions=none)
    else:
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=none)


class LadderPageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                       template=r"lbr:(?P<which>server|global|s[0-9]{1,6}):(?P<page>[0-9]{1,6})"):
    """`◀ Previous` / `Next ▶` under a rating ladder: the custom id names the ladder and the page,
    so the buttons keep working after a restart. Anyone may page a public board."""

    def __init__(self, which: str, page: int, *, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or str(page), disabled=disabled,
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"lbr:{which}:{page}"))
        self.which = which
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any],
                             match: re.Match[str]) -> LadderPageButton:
        return cls(match["which"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard.guarded(interaction, f"rating ladder {self.which} page button"):
            if not 1 <= self.page <= MAX_PAGE or interaction.guild_id is None:
                raise guard.Refused(guard.reader(interaction).marked(guard.UNKNOWN_BUTTON))
            await show(interaction, interaction.client.store, self.which, self.page, edit=True)


def paging_view(w: Words, which: str, board: RatingPage) -> discord.ui.View | None:
    """`◀ Previous` and `Next ▶` for a ladder of more than one page (none for a single page)."""
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(LadderPageButton(which, max(1, board.page - 1), label=w._("◀ Previous"),
                                   disabled=board.page <= 1))
    view.add_item(LadderPageButton(which, board.page + 1, label=w._("Next ▶"),
                                   disabled=board.page >= board.pages))
    return view


def ladder_embed(w: Words, board: RatingPage) -> discord.Embed:
    """One page of a rating ladder: the ranked players numbered, then the provisional ones
    under their own heading. Players are mentions sent with no pings."""
    if board.scope == "global":
        title = w._("Every server: leaderboard by rating")
    elif board.scope == "season":
        title = w._("Season {season}: final standings", season=w.num(board.season or 0))
    else:
        title = w._("Leaderboard by rating")
    lines: list[str] = []
    heading = False
    for e in board.entries:
        who = f"<@{e.user_id}>"
        games = w.ngettext("{n} ranked game", "{n} ranked games", e.games)
        if e.rank is not None:
            lines.append(w._("**{rank}.** {player} — {rating} ({tier}) · {games}",
                             rank=w.num(e.rank), player=who, rating=w.num(e.display),
                             tier=text.tier(w, e.display), games=games))
            continue
        if not heading:
            heading = True
            lines.append(w._("*Provisional (fewer than {n} ranked games):*",
                             n=w.num(PROVISIONAL_GAMES)))
        lines.append(w._("{player} — {rating} · {games}", player=who,
                         rating=w.num(e.display), games=games))
    empty = w._("Nobody has a rating yet.")
    embed = discord.Embed(title=title, description="\n".join(lines) or empty,
                          colour=discord.Colour.gold())
    embed.set_footer(text=w.ngettext("Page {page} of {pages} · {n} player",
                                     "Page {page} of {pages} · {n} players", board.total,
                                     page=board.page, pages=board.pages))
    return embed
