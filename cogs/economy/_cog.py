"""`/daily` and `/leaderboard`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from cogs import guard
from cogs.i18n import Words, person_language, table_language, words
from cogs.ranked import ladder
from data import AlreadyClaimed, LeaderboardPage, Store

if TYPE_CHECKING:
    from bot.app import TienLenBot


MAX_PAGE = 10_000


def _person(interaction: discord.Interaction[Any]) -> Words:
    return words(person_language(interaction.locale))


class EconomyCog(commands.Cog, name="Economy"):
    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        await guard.handle_command_error(interaction, error)

    @app_commands.command(name="daily", description="Claim your daily chips (once every 24 hours)")
    @app_commands.guild_only()
    async def daily(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.guild_id is not None
        w = _person(interaction)
        try:
            claim = await self.bot.store.claim_daily(interaction.guild_id, interaction.user.id)
        except AlreadyClaimed as error:
            when = f"<t:{int(error.next_at.timestamp())}:R>"
            await interaction.response.send_message(
                w._("You already claimed today's chips. The next claim is due {when}.",
                    when=when),
                ephemeral=True)
            return
        when = f"<t:{int(claim.next_at.timestamp())}:R>"
        await interaction.response.send_message(
            w._("You received **{granted}** chips and now hold **{chips}**. Come back {when}.",
                granted=w.num(claim.granted), chips=w.num(claim.chips), when=when),
            ephemeral=True)

    @app_commands.command(name="leaderboard",
                          description="The best players of this server or of every server")
    @app_commands.guild_only()
    @app_commands.describe(
        by="Rank by chips, wins, win rate (10+ games) or rating (ranked games)",
        scope="This server (chips held) or every server (net chips won in games)",
        page="Page number",
        season="A finished season of this server: its final rating standings",
    )
    async def leaderboard(self, interaction: discord.Interaction[Any],
                          by: Literal["chips", "wins", "winrate", "rating"] = "chips",
                          scope: Literal["server", "global"] = "server",
                          page: app_commands.Range[int, 1, MAX_PAGE] = 1,
                          season: app_commands.Range[int, 1, ladder.MAX_SEASON] | None = None,
                          ) -> None:
        if by != "rating" and season is None:
            await show_leaderboard(interaction, self.bot.store, scope, by, page, edit=False)
            return
        # Ratings' ladders (docs/RATING.md): cogs.ranked draws them.
        async with guard.guarded(interaction, "command leaderboard by rating"):
            if season is not None and scope == "global":
                raise guard.Refused(guard.reader(interaction).marked(ladder.SEASON_HERE))
            which = f"s{season}" if season is not None else scope
            await ladder.show(interaction, self.bot.store, which, page, edit=False)


async def show_leaderboard(interaction: discord.Interaction[Any], store: Store, scope: str,
                           by: str, page: int, *, edit: bool) -> None:
    """Answer with one page of a leaderboard and its paging buttons: a new public message, or
    (``edit``, a paging button was pressed) the pressed message redrawn in place."""
    assert interaction.guild_id is not None
    # A public message: the server's language (its setting, else its own locale when it is
    # Vietnamese, else the language of the person who asked).
    settings = await store.get_guild_settings(interaction.guild_id)
    w = words(table_language(settings.language, interaction.guild_locale,
                             person_language(interaction.locale)))
    if scope == "global":
        board = await store.global_leaderboard(by, page)
    else:
        board = await store.leaderboard(interaction.guild_id, by, page)
    embed, view = leaderboard_embed(w, board), paging_view(w, board)
    none = discord.AllowedMentions.none()
    if edit:
        await interaction.response.edit_message(embed=embed, view=view, allowed_mentions=none)
    elif view is None:
        await interaction.response.send_message(embed=embed, allowed_mentions=none)
    else:
        await interaction.response.send_message(embed=embed, view=view, allowed_mentions=none)


class PageButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                 template=r"lb:(?P<scope>server|global):(?P<by>chips|wins|winrate)"
                          r":(?P<page>[0-9]{1,6})"):
    """`Previous` / `Next` under a leaderboard: the custom id names the page to show, so the
    buttons keep working after a restart. Anyone may page a public board."""

    def __init__(self, scope: str, by: str, page: int, *, label: str = "",
                 disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label or str(page), disabled=disabled,
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"lb:{scope}:{by}:{page}"))
        self.scope = scope
        self.by = by
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any],
                             item: discord.ui.Item[Any], match: re.Match[str]) -> PageButton:
        return cls(match["scope"], match["by"], int(match["page"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        async with guard.guarded(interaction, f"leaderboard {self.scope} page button"):
            if not 1 <= self.page <= MAX_PAGE or interaction.guild_id is None:
                raise guard.Refused(guard.reader(interaction).marked(guard.UNKNOWN_BUTTON))
            bot = interaction.client
            await show_leaderboard(interaction, bot.store, self.scope, self.by, self.page,
                                   edit=True)


def paging_view(w: Words, board: LeaderboardPage) -> discord.ui.View | None:
    """`Previous` and `Next` for a board of more than one page (none for a single page)."""
    if board.pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    before = max(1, min(board.page - 1, board.pages))
    view.add_item(PageButton(board.scope, board.by, before, label=w._("◀ Previous"),
                             disabled=board.page <= 1))
    view.add_item(PageButton(board.scope, board.by, board.page + 1, label=w._("Next ▶"),
                             disabled=board.page >= board.pages))
    return view


def leaderboard_embed(w: Words, board: LeaderboardPage) -> discord.Embed:
    """One page of a leaderboard. Players are shown as mentions (Discord shows each reader the
    name they know), sent with no pings; the global board's chips are the net chips won."""
    if board.scope == "global":
        title = {"chips": w._("Every server: leaderboard by net chips won"),
                 "wins": w._("Every server: leaderboard by wins"),
                 "winrate": w._("Every server: leaderboard by win rate (10+ games)")}[board.by]
        empty = w._("Nobody has finished a game yet.")
    else:
        title = {"chips": w._("Leaderboard by chips"), "wins": w._("Leaderboard by wins"),
                 "winrate": w._("Leaderboard by win rate (10+ games)")}[board.by]
        empty = w._("Nobody here yet.")
    lines = []
    for e in board.entries:
        rate = w.percent(e.win_rate) if e.win_rate is not None else "–"
        if board.scope == "global":
            chips = w.ngettext("net {n} chip", "net {n} chips", abs(e.net_chips),
                               n=w.signed(e.net_chips))
        else:
            chips = w.ngettext("{n} chip", "{n} chips", e.chips)
        won = w.ngettext("{n} win", "{n} wins", e.wins)
        record = w.ngettext("{wins} in {n} game", "{wins} in {n} games", e.games, wins=won)
        who = f"<@{e.user_id}>"
        lines.append(w._("**{rank}.** {player} — {chips} · {record} ({rate})",
                         rank=e.rank, player=who, chips=chips, record=record, rate=rate))
    embed = discord.Embed(title=title, description="\n".join(lines) or empty,
                          colour=discord.Colour.gold())
    embed.set_footer(text=w.ngettext("Page {page} of {pages} · {n} player",
                                     "Page {page} of {pages} · {n} players", board.total,
                                     page=board.page, pages=max(board.pages, 1)))
    return embed
