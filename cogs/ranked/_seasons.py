"""Seasons on Discord (docs/RATING.md): the rollover check, the announcement on the server's table
channel, `/tienlen settings season:` and the admin's early end. The store ends a season exactly
once (data/seasons.py); this module only finds the due ones and says so."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import discord

from cogs.i18n import DEFAULT, Words, table_language, words
from data import Store
from data.seasons import Season, SeasonEnd
from engine.season import Period, next_end

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.ranked")

#: the longest the bot waits between two looks for seasons whose end has come (it also looks at
#: start-up and a second after each month's end in Vietnam, when monthly seasons end)
CHECK_SECONDS = 3600.0

SeasonChoice = Literal["monthly", "off"]


def _when(moment: datetime) -> str:
    return f"<t:{int(moment.timestamp())}:f>"


async def roll_due(bot: TienLenBot) -> list[SeasonEnd]:
    """End every season of this process's servers whose end has come, and announce each."""
    ended = []
    for guild_id in await bot.store.due_seasons():
        end = await bot.store.end_season(guild_id)
        if end is None:  # another process (or an admin) ended it meanwhile
            continue
        log.info("season %s ended (%s in its standings); season %s begins", end.ended.number,
                 end.standings, end.started.number, extra={"guild_id": guild_id})
        ended.append(end)
        await announce(bot, end)
    return ended


def next_look(now: datetime) -> float:
    """Seconds until the next look: a second after the next month's end in Vietnam (when every
    monthly season ends), and at most :data:`CHECK_SECONDS` (a clock that jumped, an end
    missed)."""
    boundary = next_end(now, Period.MONTHLY)
    assert boundary is not None
    return max(1.0, min((boundary - now).total_seconds() + 1.0, CHECK_SECONDS))


async def run(bot: TienLenBot) -> None:
    """The rollover check: once the bot is ready (a restart across a season's end ends it then),
    then at each month's end and at least every :data:`CHECK_SECONDS`."""
    try:
        await bot.wait_until_ready()
    except RuntimeError:  # loaded by a bot that never logs in (tests): nothing to check
        return
    while True:
        try:
            await roll_due(bot)
        except Exception:
            log.exception("the season check failed; it runs again within %s s", CHECK_SECONDS)
        await asyncio.sleep(next_look(datetime.now(UTC)))


async def server_words(bot: TienLenBot, guild_id: int) -> Words:
    """The language of the server's public messages (its setting, else its own locale)."""
    settings = await bot.store.get_guild_settings(guild_id)
    guild = bot.get_guild(guild_id)
    return words(table_language(settings.language, guild.preferred_locale if guild else None,
                                DEFAULT))


async def announce(bot: TienLenBot, end: SeasonEnd) -> discord.Message | None:
    """Post the season's end on the server's table channel (the first of `/tienlen settings
    channels:`); a server without one is not told. Nobody is pinged."""
    guild_id = end.ended.guild_id
    channels = await bot.store.get_table_channels(guild_id)
    if not channels:
        return None
    channel = bot.get_channel(channels[0])
    if not isinstance(channel, discord.abc.Messageable):
        return None
    w = await server_words(bot, guild_id)
    try:
        return await channel.send(ended_text(w, end),
                                  allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException as error:
        log.warning("could not announce the end of season %s in channel %s: %s",
                    end.ended.number, channels[0], error.status, extra={"guild_id": guild_id})
        return None


def ended_text(w: Words, end: SeasonEnd) -> str:
    lines = [w._("**Season {season} has ended.** Its final standings: "
                 "`/leaderboard season: {season}`.", season=w.num(end.ended.number))]
    if end.top:
        medals = ("🥇", "🥈", "🥉")
        lines.append(" · ".join(f"{medals[i]} <@{user}>" for i, user in enumerate(end.top)))
    lines.append(w._("**Season {season}** has begun: every rating was softly reset (the same "
                     "skill, more room to move).", season=w.num(end.started.number)))
    if end.started.ends_at is not None:
        lines.append(w._("It ends {when}.", when=_when(end.started.ends_at)))
    return "\n".join(lines)


async def apply(store: Store, guild_id: int, choice: SeasonChoice | None) -> tuple[Period, Season]:
    """`/tienlen settings season:`: store the server's choice when given; the setting in force
    and the current season."""
    if choice is not None:
        season = await store.set_season_period(guild_id, choice)
        return Period(choice), season
    return await store.get_season_period(guild_id), await store.current_season(guild_id)


def describe(w: Words, period: Period, season: Season) -> str:
    """The line of `/tienlen settings` about seasons."""
    if period is Period.OFF or season.ends_at is None:
        return w._("Seasons: **off** (season {season} runs until an admin ends it).",
                   season=w.num(season.number))
    return w._("Seasons: **monthly** (season {season} ends {when}).",
               season=w.num(season.number), when=_when(season.ends_at))


async def end_now(bot: TienLenBot, guild_id: int) -> SeasonEnd:
    """An admin ends the current season at once (`/tienlen admin end-season`); announced."""
    end = await bot.store.end_season(guild_id, early=True)
    assert end is not None  # an early end always ends the current season
    log.info("season %s ended early by an admin; season %s begins", end.ended.number,
             end.started.number, extra={"guild_id": guild_id})
    await announce(bot, end)
    return end
