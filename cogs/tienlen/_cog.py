"""`/tienlen …` commands and the callbacks of the table's buttons. Thin: check who pressed, call
the table service (which calls the engine and the store), render the result."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Concatenate, Literal, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from cogs import glossary, guard, words
from cogs.i18n import N_, NP_, Words, person_language, table_language
from cogs.i18n import words as words_of
from cogs.ranked import seasons as ranked_seasons
from cogs.tables import (
    ChannelHasTable,
    LiveTable,
    NoGame,
    NotEnoughChips,
    NotSeated,
    ShortOfChips,
    TableError,
    TableService,
)
from data import GuildSettings
from engine import Level, Phase, RuleOptionError, Rules, TienLenError, limits
from engine.ai import choose_returns, observe, suggest

from . import _layout, leaving, listing, rules_view, threads
from . import _pictures as pictures
from . import _render as render
from . import channels as table_channels
from . import ranked as table_ranked
from . import selection as sel
from ._views import release
from .hands import LiveHand

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.tienlen")
P = ParamSpec("P")
C = TypeVar("C", bound="TienLenCog")


class Refusal(Exception):
    """A refusal of the Discord side itself (no table here, a forged button): a message marked
    with ``N_`` and its values, worded in the reader's language."""

    def __init__(self, message: str, **values: object) -> None:
        super().__init__(message.format(**values))  # the English sentence, for logs and tests
        self.message = message
        self.values = values

    def text(self, w: Words) -> str:
        return w.marked(self.message, **self.values)


class EngineRefusal(Refusal):
    """An engine refusal met before any table is involved (a rule option that is not one),
    worded from its cause and data like every engine refusal."""

    def __init__(self, error: TienLenError) -> None:
        english = glossary.engine_refusal(words_of("en"), error)
        Exception.__init__(self, english)  # for logs and tests, like a Refusal's
        self.message, self.values = english, {}
        self.error = error

    def text(self, w: Words) -> str:
        return glossary.engine_refusal(w, self.error)


# Rules.preset_names(), tested
PresetName = Literal["southern", "pagat", "vc", "online", "vn_house"]
STAKES = limits.STAKE  # one definition of each range: engine.limits
TURN_SECONDS = limits.TURN_SECONDS
REMINDER_SECONDS = limits.TURN_REMINDER
Stake = app_commands.Range[int, limits.STAKE.low, limits.STAKE.high]
TurnSeconds = app_commands.Range[int, limits.TURN_SECONDS.low, limits.TURN_SECONDS.high]
TurnReminder = app_commands.Range[int, limits.TURN_REMINDER.low, limits.TURN_REMINDER.high]
IdleMinutes = app_commands.Range[int, limits.IDLE_MINUTES.low, limits.IDLE_MINUTES.high]
RuleOptions = app_commands.Range[str, 1, 600]  # every rule option spelled out is ~320
LanguageSetting = Literal["vi", "en", "auto"]


def _language_name(w: Words, setting: str) -> str:
    names = {"vi": w._("Vietnamese"), "en": w._("English"),
             "auto": w._("auto (the server's language, else the opener's)")}
    return names.get(setting, setting)


def parse_options(base: Rules, text: str | None) -> Rules:
    """`card_exchange=tribute end=first_out` → a copy of `base` with those options changed.

    The engine judges the options; its refusal (cause and data, with what the user typed
    clipped) is worded by the glossary like every engine refusal."""
    if not text or not text.strip():
        return base
    try:
        return base.with_options(text.replace(",", " ").split())
    except RuleOptionError as error:
        error.data = {k: guard.clip(v) if isinstance(v, str) else v
                      for k, v in error.data.items()}
        raise EngineRefusal(error) from None


def person(interaction: discord.Interaction[Any]) -> Words:
    """The words of the person who pressed or typed (their Discord language)."""
    return words_of(person_language(interaction.locale))


def option_choices(current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete of the `options` text: every option, then every value of the one typed."""
    return [
        app_commands.Choice(name=text, value=text)
        for text in Rules.option_completions(current)
        if len(text) <= 100  # Discord's limit for a choice
    ]


def server_defaults(stored: GuildSettings) -> GuildSettings:
    """A server's stored defaults, each checked again: one that no longer validates (from an
    older version, or written by hand) falls back to the bot's default with a warning."""
    preset, stake, turn = stored.preset, stored.stake, stored.turn_seconds
    if preset is not None and preset not in Rules.preset_names():
        log.warning("server %s: stored preset %s is not a preset; using the default",
                    stored.guild_id, guard.clip(preset), extra={"guild_id": stored.guild_id})
        preset = None
    if stake is not None and not (type(stake) is int and STAKES[0] <= stake <= STAKES[1]):
        log.warning("server %s: stored stake %s is out of range; using the default",
                    stored.guild_id, guard.clip(stake), extra={"guild_id": stored.guild_id})
        stake = None
    if turn is not None and not (type(turn) is int and TURN_SECONDS[0] <= turn <= TURN_SECONDS[1]):
        log.warning("server %s: stored turn time %s is out of range; using the default",
                    stored.guild_id, guard.clip(turn), extra={"guild_id": stored.guild_id})
        turn = None
    reminder = stored.turn_reminder
    if reminder is not None and not (type(reminder) is int
                                     and REMINDER_SECONDS[0] <= reminder <= REMINDER_SECONDS[1]):
        log.warning("server %s: stored turn reminder %s is out of range; using the default",
                    stored.guild_id, guard.clip(reminder), extra={"guild_id": stored.guild_id})
        reminder = None
    return dataclasses.replace(stored, preset=preset, stake=stake, turn_seconds=turn,
                               turn_reminder=reminder)


# What a table needs from the bot in its channel: (permission flag, the name Discord shows, in
# the catalogues with the names of Discord's own Vietnamese client).
NEEDED_PERMISSIONS = (
    ("view_channel", NP_("Discord permission", "View Channel")),
    ("send_messages", NP_("Discord permission", "Send Messages")),
    ("embed_links", NP_("Discord permission", "Embed Links")),
    ("read_message_history", NP_("Discord permission", "Read Message History")),
)
# And with card pictures on: the board and hand pictures (files) and the card emoji on the
# buttons (the application's own emoji, which Discord treats as external to the server).
PICTURE_PERMISSIONS = (
    ("attach_files", NP_("Discord permission", "Attach Files")),
    ("use_external_emojis", NP_("Discord permission", "Use External Emojis")),
)
IN_THREADS = ("send_messages_in_threads", NP_("Discord permission", "Send Messages in Threads"))


def missing_permissions(interaction: discord.Interaction[Any], *,
                        pictures: bool = True) -> list[tuple[str, str]]:
    """The permissions the bot lacks in the interaction's channel (Send Messages in Threads
    replaces Send Messages in a thread), as Discord names them: (context, name) for
    `Words.pgettext`; ``pictures``: card pictures are on (the server's setting)."""
    perms = interaction.app_permissions
    in_thread = isinstance(interaction.channel, discord.Thread)
    missing = []
    for flag, name in NEEDED_PERMISSIONS + (PICTURE_PERMISSIONS if pictures else ()):
        if flag == "send_messages" and in_thread:
            flag, name = IN_THREADS
        if not getattr(perms, flag):
            missing.append(name)
    return missing


def _can_manage(interaction: discord.Interaction[Any]) -> bool:
    perms = getattr(interaction.user, "guild_permissions", None)
    return bool(perms and perms.manage_guild)


async def _reply(interaction: discord.Interaction[Any], text: str) -> None:
    """An ephemeral sentence, whether or not the interaction was answered already (cut to
    Discord's limit; never raises)."""
    await guard.answer(interaction, text)


def _unheld(payload: dict[str, Any]) -> dict[str, Any]:
    """For an ephemeral send: every button is a DynamicItem, dispatched from its custom id, so
    nothing needs the View object afterwards. discord.py keeps an ephemeral View whose timeout is
    None alive for 15 minutes (a timer per message: memory grew with every `My hand`); a short
    timeout lets it go. The buttons keep working (the dynamic items stay registered)."""
    payload["view"].timeout = 1.0
    return payload


def guarded(
    func: Callable[Concatenate[C, discord.Interaction[Any], P], Coroutine[Any, Any, None]],
) -> Callable[Concatenate[C, discord.Interaction[Any], P], Coroutine[Any, Any, None]]:
    """Run a command under the cog's error guard (a refusal becomes a private sentence)."""

    @functools.wraps(func)
    async def wrapper(self: C, interaction: discord.Interaction[Any], /, *args: P.args,
                      **kwargs: P.kwargs) -> None:
        try:
            async with self.guard(interaction, f"command {func.__name__}"):
                await func(self, interaction, *args, **kwargs)
        finally:
            release(interaction)

    return wrapper


class TienLenCog(commands.Cog, name="TienLen"):
    """Tables, boards and hands."""

    tienlen = app_commands.Group(name="tienlen", description="Play Tiến Lên in this channel",
                                 guild_only=True)

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self.service: TableService = bot.table_service
        self.board_actions: dict[str, BoardAction] = {
            "join": self._join, "leave": self._leave, "addai": self._ask_level,
            "start": self._start, "cancel": self._cancel, "hand": self._hand_from_board,
            "rules": self._rules_from_board, "again": self._again,
        }

    async def cog_unload(self) -> None:
        # On an extension reload, cog_load reads every table again: stop the old timers first.
        await self.service.shutdown()
        self.service.tables.clear()

    async def cog_load(self) -> None:
        live_hands = self.bot.hands
        live_hands.layout_since, live_hands.classic_kept = await _layout.layout_since(
            self.bot.store, self.service.wall_clock())
        count = await self.service.load_all()
        if count:
            log.info("resumed %d open tables", count)
            # The hands on screen follow again at once (kept in the store with their tables).
            hands = await self.bot.hands.restore(self.bot._connection, self.service.tables)
            if hands:
                log.info("resumed %d live hands", hands)

    async def cog_app_command_error(self, interaction: discord.Interaction[Any],
                                    error: app_commands.AppCommandError) -> None:
        await guard.handle_command_error(interaction, error)

    # ----------------------------------------------------------------- errors
    @contextlib.asynccontextmanager
    async def guard(self, interaction: discord.Interaction[Any], what: str) -> AsyncIterator[None]:
        """The one error guard: a refusal becomes a private sentence, anything else is logged
        (``what`` names the action, never a card) and answered with a short apology."""
        self.bot.hands.saw(interaction)  # Discord's clock, for the hands' tokens
        w = person(interaction)
        try:
            yield
        except ShortOfChips as error:
            await _reply(interaction, words.refusal(w, error))
            await self._tell_short(error, interaction.user.id)
        except TableError as error:
            await _reply(interaction, words.refusal(w, error))
        except Refusal as error:
            await _reply(interaction, error.text(w))
        except guard.Refused as error:
            await _reply(interaction, error.text)
        except Exception as error:
            await guard.apologise(interaction, error, what)

    async def _table_here(self, interaction: discord.Interaction[Any], table_id: int) -> LiveTable:
        """The table a button names, refused unless it is this channel's (a forged id could name
        a table of another channel or server)."""
        live = await self.service.get(table_id)
        if live.table.channel_id != interaction.channel_id:
            raise guard.Refused(guard.reader(interaction).marked(guard.OTHER_CHANNEL))
        return live

    async def _show_board(self, interaction: discord.Interaction[Any], live: LiveTable) -> None:
        """Answer a board button with the updated board in place (type 7)."""
        message = interaction.message
        if (message is not None and message.id == live.table.board_message_id
                and not self.service.board_needs_repost(live) and _layout.is_v2(message)):
            drawn = live.changes  # a move made while the answer is drawn or sent is not on it
            # never waits for a drawing: a picture not ready comes with the board's next edit
            picture = await pictures.board_picture(
                self.bot, live, ready=pictures.board_ready(self.bot, live))
            payload = render.board(live, pictured=picture.pictured)
            with self.bot.picture_memory.sending(picture.slot):
                answer = await interaction.response.edit_message(
                    **payload, attachments=picture.attachments)
            pictures.sent(self.bot, picture, answer.resource if answer is not None else None)
            self.service.mark_board_shown(live, drawn)
        else:
            await interaction.response.defer()
            self.service.request_board(live)

    # ----------------------------------------------------------------- commands
    @tienlen.command(name="start", description="Open a table in this channel")
    @app_commands.describe(stake="The stake in chips (at least 1)", rules="A rule preset",
                           seats="Number of seats (2-8)", turn_seconds="Seconds per turn",
                           options="Change single rules, e.g. cong=on card_exchange=tribute "
                                   "(suggestions as you type)",
                           turn_reminder="Seconds into a turn before a reminder (0: none; "
                                         "default: half the turn)",
                           thread="Open the table in a new thread of this channel (on/off)",
                           ranked="Its games move the players' ratings (on/off; default: the "
                                  "server's)")
    @guarded
    async def start(self, interaction: discord.Interaction[Any],
                    stake: Stake | None = None,
                    rules: PresetName | None = None,
                    seats: app_commands.Range[int, 2, 8] = 4,
                    turn_seconds: TurnSeconds | None = None,
                    options: RuleOptions | None = None,
                    turn_reminder: TurnReminder | None = None,
                    thread: Literal["on", "off"] | None = None,
                    ranked: Literal["on", "off"] | None = None) -> None:
        assert interaction.guild_id is not None
        assert interaction.channel_id is not None
        await table_channels.check_start(self.bot.store, interaction)
        in_thread = await threads.wanted(self.bot, interaction, thread)
        missing = missing_permissions(
            interaction, pictures=await self.bot.image_setting.enabled(interaction.guild_id))
        if in_thread:
            missing += threads.missing(interaction)
        if missing:
            raise Refusal(words.missing_permissions(person(interaction), missing))
        existing = None if in_thread else await self.service.table_in_channel(
            interaction.channel_id)
        if existing is not None:
            raise ChannelHasTable(existing.id, guild_id=interaction.guild_id,
                                  channel_id=interaction.channel_id,
                                  board_message_id=existing.table.board_message_id)
        defaults = server_defaults(await self.bot.store.get_guild_settings(interaction.guild_id))
        preset = rules or defaults.preset or "southern"
        w = person(interaction)
        language = table_language(defaults.language, interaction.guild_locale, w.lang)
        idle = await self.bot.store.get_idle_minutes(interaction.guild_id)
        table_rules = parse_options(Rules.preset(preset), options)
        table_stake = stake or defaults.stake or 10
        channel_id = interaction.channel_id
        opened = None
        if in_thread:
            chips = await self.bot.store.ensure_player(interaction.guild_id, interaction.user.id)
            if chips < table_stake:  # refused before a thread is opened for nothing
                raise NotEnoughChips(chips, table_stake)
            opened = await threads.open_thread(self.bot, interaction, threads.thread_name(0))
            channel_id = opened.id
        try:
            live = await self.service.open_table(
                guild_id=interaction.guild_id, channel_id=channel_id,
                host_id=interaction.user.id, host_name=interaction.user.display_name,
                rules=table_rules, stake=table_stake, seats=seats,
                turn_seconds=turn_seconds or defaults.turn_seconds,
                turn_reminder=(turn_reminder if turn_reminder is not None
                               else defaults.turn_reminder),
                language=language, opener_language=w.lang, in_thread=opened is not None,
                idle_seconds=None if idle is None else idle * 60,
                ranked=await table_ranked.wanted(self.bot.store, interaction.guild_id, ranked),
            )
        except Exception:
            if opened is not None:
                await threads.archive(self.bot, opened.id)
            raise
        if opened is not None:
            await threads.rename(self.bot, opened, threads.thread_name(live.id))
        join = words_of(language)._("Join")
        # The board first: should this answer fail (a late interaction), the board is still
        # posted (or, if it cannot be, the table closes and frees the channel).
        self.service.request_board(live)
        if opened is not None:
            await interaction.response.send_message(
                w._("Table #{table} is open in its thread {thread}: the board is its first "
                    "message. Others join with its **{join}** button.", table=live.id,
                    thread=opened.mention, join=join),
                ephemeral=True)
            return
        await interaction.response.send_message(
            w._("Table #{table} is open: the board is below. Others join with its **{join}** "
                "button.", table=live.id, join=join),
            ephemeral=True)

    @start.autocomplete("options")
    async def start_options_autocomplete(self, interaction: discord.Interaction[Any],
                                         current: str) -> list[app_commands.Choice[str]]:
        return option_choices(current)

    @tienlen.command(name="stake", description="Change this table's stake between games (host)")
    @app_commands.describe(amount="The stake in chips: 1 up to what the poorest seated player "
                                  "holds")
    @guarded
    async def stake_command(self, interaction: discord.Interaction[Any],
                            amount: Stake) -> None:
        assert interaction.channel_id is not None
        live = await self.service.table_in_channel(interaction.channel_id)
        if live is None:
            raise Refusal(N_("There is no table in this channel: `/tienlen start` opens one."))
        await self.service.set_stake(live, interaction.user.id, amount)
        await interaction.response.send_message(
            words.stake_changed(render.table_words(live), live.id, amount))

    @tienlen.command(name="hand", description="Show your hand at this channel's table")
    @guarded
    async def hand_command(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        live = await self.service.table_in_channel(interaction.channel_id)
        if live is None:
            raise Refusal(N_("There is no table in this channel: `/tienlen start` opens one."))
        await self._send_hand(interaction, live)

    @tienlen.command(name="rules", description="Show this table's rules, or a preset's")
    @app_commands.describe(preset="A rule preset to show instead of this table's rules")
    @guarded
    async def rules_command(self, interaction: discord.Interaction[Any],
                            preset: PresetName | None = None) -> None:
        w = person(interaction)
        if preset is not None:
            answer = rules_view.rules_message(w, Rules.preset(preset), w._(
                "Rules: {preset}", preset=glossary.preset(w, preset)))
        else:
            live = None
            if interaction.channel_id is not None:
                live = await self.service.table_in_channel(interaction.channel_id)
            if live is None:
                answer = rules_view.rules_message(w, Rules(), w._(
                    "Rules: {preset} (the default)", preset=glossary.preset(w, "southern")))
            else:
                answer = rules_view.rules_message(w, live.rules, w._(
                    "Rules of table #{table}", table=live.id), live.id)
        await interaction.response.send_message(**answer, ephemeral=True)

    @tienlen.command(name="stop", description="End this channel's table (host or Manage Server)")
    @guarded
    async def stop(self, interaction: discord.Interaction[Any]) -> None:
        assert interaction.channel_id is not None
        live = await self.service.table_in_channel(interaction.channel_id)
        if live is None:
            raise Refusal(N_("There is no table in this channel."))
        await self.service.stop(live, interaction.user.id, can_manage=_can_manage(interaction))
        # The board says it is closed and why, to everyone: only the person who stopped it is
        # answered here.
        await interaction.response.send_message(
            person(interaction)._("Table #{table} is closed.", table=live.id), ephemeral=True)

    @tienlen.command(name="settings", description="This server's defaults (Manage Server)")
    @app_commands.describe(preset="The rule preset of new tables", stake="The stake of new tables",
                           turn_seconds="Seconds per turn at new tables",
                           turn_reminder="Seconds into a turn before a reminder at new tables "
                                         "(0: none)",
                           language="The language of tables' public messages (auto: the "
                                    "server's, else the opener's)",
                           images="Card pictures on the boards and hands (on/off)",
                           channels="The channels tables may open in (#channel …), or all",
                           idle_minutes="Minutes without a press before a lobby or finished "
                                        "table closes itself (0: never)",
                           threads="New tables open in a thread of their channel (on/off)",
                           ranked="New tables' games move the players' ratings (on/off)",
                           season="Ranked seasons: monthly (Vietnam time) or off")
    @guarded
    async def settings(self, interaction: discord.Interaction[Any],
                       preset: PresetName | None = None,
                       stake: Stake | None = None,
                       turn_seconds: TurnSeconds | None = None,
                       turn_reminder: TurnReminder | None = None,
                       language: LanguageSetting | None = None,
                       images: Literal["on", "off"] | None = None,
                       channels: table_channels.ChannelList | None = None,
                       idle_minutes: IdleMinutes | None = None,
                       threads: Literal["on", "off"] | None = None,
                       ranked: Literal["on", "off"] | None = None,
                       season: Literal["monthly", "off"] | None = None) -> None:
        assert interaction.guild_id is not None
        w = person(interaction)
        if not _can_manage(interaction):
            raise Refusal(N_("You need the Manage Server permission to change server settings."))
        store = self.bot.store
        where = await table_channels.apply(store, interaction, channels)
        if idle_minutes is not None:
            await store.set_idle_minutes(interaction.guild_id, idle_minutes)
        if threads is not None:
            await store.set_threads_default(interaction.guild_id, threads == "on")
        ranked_default = await table_ranked.apply(store, interaction.guild_id, ranked)
        period, current_season = await ranked_seasons.apply(store, interaction.guild_id, season)
        if (preset is None and stake is None and turn_seconds is None and turn_reminder is None
                and language is None and images is None):
            current = await store.get_guild_settings(interaction.guild_id)
        else:
            current = await store.set_guild_settings(
                interaction.guild_id, preset=preset, stake=stake, turn_seconds=turn_seconds,
                turn_reminder=turn_reminder, language=language,
                images=None if images is None else images == "on")
        self.bot.image_setting.remember(interaction.guild_id, current.images)
        current = server_defaults(current)
        if language is not None:
            await self._relanguage(interaction, language)
        seconds = current.turn_seconds or self.bot.settings.DEFAULT_TURN_SECONDS
        reminder = (current.turn_reminder if current.turn_reminder is not None
                    else self.bot.settings.turn_reminder_default)
        after = (w._("half the turn") if reminder is None
                 else w._("after {seconds}s", seconds=w.num(reminder)) if reminder
                 else w.pgettext("option", "off"))
        images_word = (w.pgettext("option", "off") if current.images is False
                       else w.pgettext("option", "on"))
        text = w._("Server defaults — preset: **{preset}**, stake: **{stake}**, turn time: "
                   "**{seconds}s**, turn reminder: **{reminder}**, table language: "
                   "**{language}**, card pictures: **{images}**.",
                   preset=glossary.preset(w, current.preset or "southern"),
                   stake=w.num(current.stake or 10), seconds=w.num(seconds), reminder=after,
                   language=_language_name(w, current.language or "auto"), images=images_word)
        text += " " + table_channels.describe(w, where)
        idle = await store.get_idle_minutes(interaction.guild_id)
        text += "\n" + words.idle_setting(
            w, self.bot.settings.TABLE_IDLE_SECONDS if idle is None else idle * 60)
        in_threads = await store.get_threads_default(interaction.guild_id)
        text += " " + w._("Tables in threads: **{threads}**.",
                          threads=w.pgettext("option", "on") if in_threads
                          else w.pgettext("option", "off"))
        text += " " + table_ranked.describe(w, ranked_default)
        text += " " + ranked_seasons.describe(w, period, current_season)
        await interaction.response.send_message(text, ephemeral=True)

    async def _relanguage(self, interaction: discord.Interaction[Any], setting: str) -> None:
        """A new language setting applies to this server's open tables at once."""
        for live in list(self.service.tables.values()):
            if live.table.guild_id == interaction.guild_id and live.table.status == "open":
                lang = table_language(setting, interaction.guild_locale,
                                      person_language(live.opener_language))
                await self.service.set_language(live, lang)

    @tienlen.command(name="tables", description="This server's open tables")
    @app_commands.describe(page="Page number")
    @guarded
    async def tables_command(self, interaction: discord.Interaction[Any],
                             page: app_commands.Range[int, 1, listing.MAX_PAGE] = 1) -> None:
        await listing.show_tables(self.bot, interaction, page, edit=False)

    @tienlen.command(name="stats", description="Games, wins, places, chips won and lost")
    @app_commands.describe(user="Whose numbers (yours when left out)")
    @guarded
    async def stats(self, interaction: discord.Interaction[Any],
                    user: discord.User | None = None) -> None:
        assert interaction.guild_id is not None
        target = user or interaction.user
        if not isinstance(target, discord.abc.User):  # checked at the edge; never trusted here
            raise Refusal(N_("Choose a member of this server."))
        w = person(interaction)
        s = await self.bot.store.stats(interaction.guild_id, target.id)
        places = " · ".join(
            w._("{place} ×{count}", place=glossary.place(w, p), count=w.num(n))
            for p, n in sorted(s.places.items())) or w._("none yet")
        rate = w.percent(s.win_rate) if s.win_rate is not None else "–"
        embed = discord.Embed(title=w._("Stats for {name}", name=target.display_name),
                              colour=discord.Colour.blue())
        embed.add_field(name=w._("Chips"), value=w.num(s.chips))
        embed.add_field(name=w._("Games"), value=w.num(s.games))
        embed.add_field(name=w._("Wins"), value=f"{w.num(s.wins)} ({rate})")
        embed.add_field(name=w._("Places"), value=places)
        embed.add_field(name=w._("Chips won / lost"),
                        value=f"{w.num(s.chips_won)} / {w.num(s.chips_lost)}")
        embed.add_field(name=w._("Bombs played"), value=w.num(s.bombs_played))
        await interaction.response.send_message(embed=embed, ephemeral=True)

    # ----------------------------------------------------------------- buttons
    async def on_board_button(self, interaction: discord.Interaction[Any], table_id: int,
                              action: str) -> None:
        async with self.guard(interaction, f"table {table_id}: board button {action!r}"):
            live = await self._table_here(interaction, table_id)
            handler = self.board_actions.get(action)
            if handler is None:
                raise Refusal(words.UNKNOWN_BUTTON)
            self.service.touch(live)  # a press: the table's idle time starts again
            if await handler(interaction, live):
                await self._show_board(interaction, live)

    # Board actions: each returns True when the updated board is the answer.
    async def _join(self, interaction: discord.Interaction[Any], live: LiveTable) -> bool:
        await self.service.join(live, interaction.user.id, interaction.user.display_name)
        return True

    async def _leave(self, interaction: discord.Interaction[Any], live: LiveTable) -> bool:
        if live.playing:  # leaving a running game: asked privately first
            await leaving.ask(self, interaction, live)
            return False
        if await self.service.leave(live, interaction.user.id):  # the table closed
            await self._closed_board(interaction, live)
            return False
        return True

    async def _ask_level(self, interaction: discord.Interaction[Any], live: LiveTable) -> bool:
        self.service.check_can_add_computer(live, interaction.user.id)
        w = person(interaction)
        await interaction.response.send_message(
            w._("Choose the computer player's level:"),
            **_unheld({"view": render.ai_levels(w, live)}), ephemeral=True)
        return False

    async def _start(self, interaction: discord.Interaction[Any], live: LiveTable) -> bool:
        await self.service.start(live, interaction.user.id)
        return True

    async def _cancel(self, interaction: discord.Interaction[Any], live: LiveTable) -> bool:
        await self.service.cancel(live, interaction.user.id, can_manage=_can_manage(interaction))
        await self._closed_board(interaction, live)
        return False

    async def _closed_board(self, interaction: discord.Interaction[Any],
                            live: LiveTable) -> None:
        """Answer with the closed table's board in place; a classic board (drawn before the V2
        layout) is not edited into it: the publisher shows the closed table instead."""
        if _layout.is_v2(interaction.message):
            await interaction.response.edit_message(**render.board(live), attachments=[])
        else:
            await interaction.response.defer()
            self.service.request_board(live)

    async def _hand_from_board(self, interaction: discord.Interaction[Any],
                               live: LiveTable) -> bool:
        await self._send_hand(interaction, live)
        return False

    async def _rules_from_board(self, interaction: discord.Interaction[Any],
                                live: LiveTable) -> bool:
        w = person(interaction)
        await interaction.response.send_message(**rules_view.rules_message(
            w, live.rules, w._("Rules of table #{table}", table=live.id), live.id), ephemeral=True)
        return False

    async def _again(self, interaction: discord.Interaction[Any], live: LiveTable) -> bool:
        await self.service.play_again(live, interaction.user.id)
        return True

    async def _tell_short(self, error: ShortOfChips, presser: int) -> None:
        """Tell each seated person who holds less than the stake, privately (a direct message,
        in the table's language: a direct message has no reader's locale)."""
        live = self.service.tables.get(error.table_id)
        w = render.table_words(live) if live is not None else words_of(None)
        for user_id, chips in error.short.items():
            if user_id == presser:
                continue  # already told in the private reply
            with contextlib.suppress(discord.HTTPException):
                budget = self.service.rest  # direct messages spend the bot's REST budget
                user = self.bot.get_user(user_id)
                if user is None:
                    await budget.acquire(None)
                    user = await self.bot.fetch_user(user_id)
                await budget.acquire(None)
                dm = await user.create_dm()
                await budget.acquire(dm.id)
                await dm.send(words.short_of_chips_message(w, error.table_id, chips,
                                                           error.stake))

    async def on_leave_confirm(self, interaction: discord.Interaction[Any], table_id: int,
                               game_id: int) -> None:
        async with self.guard(interaction, f"table {table_id}: leaving the game"):
            await leaving.confirm(self, interaction, await self._table_here(interaction, table_id),
                                  game_id)

    async def on_add_computer(self, interaction: discord.Interaction[Any], table_id: int,
                              level: str) -> None:
        async with self.guard(interaction, f"table {table_id}: adding a computer player"):
            live = await self._table_here(interaction, table_id)
            await self.service.add_computer(live, interaction.user.id, level)
            w = person(interaction)
            await interaction.response.edit_message(
                content=w._("A computer player ({level}) joined table #{table}.",
                            level=glossary.level(w, level), table=table_id), view=None)
            self.service.request_board(live)  # the board's seat list shows the new player

    async def _send_hand(self, interaction: discord.Interaction[Any], live: LiveTable) -> None:
        seat = live.seat_of(interaction.user.id)
        if seat is None:
            raise NotSeated()
        if not live.playing:
            raise NoGame()
        await self.service.reclaim(live, interaction.user.id)
        hands = self.bot.hands
        hand = hands.get(live.id, interaction.user.id)
        hand.lang = person(interaction).lang  # the hand speaks its owner's language
        async with hand.lock:
            # first: nothing waits after the drawing (which never waits for a picture)
            picture = await hands.files(live, hand, seat, new=True)
            payload = hands.draw(live, hand, seat,
                                 pictured=picture is not None and picture.pictured)
            files = [] if picture is None else [
                f for f in picture.attachments if isinstance(f, discord.File)]
            sent = await interaction.response.send_message(ephemeral=True, files=files,
                                                           **payload)
            # this message is the person's live hand now
            hands.attach(live, hand, interaction, sent.message_id)
            hands.sent(picture, sent.resource)
            hands.shown(live, hand, picture)

    async def on_hand_button(self, interaction: discord.Interaction[Any], table_id: int,
                             press: int, mask: int, op: str) -> None:
        """A press on a hand, judged by the table as it is now. ``press``: the drawing the button
        belongs to (a second Play or Pass on the same drawing is a double click: it is answered
        with the current hand). A refusal is the hand redrawn with the reason."""
        kind = "card" if op[1:].isdigit() else op  # a card code would reveal the hand
        async with self.guard(interaction, f"table {table_id}: hand button {kind!r}"):
            live = await self._table_here(interaction, table_id)
            seat = live.seat_of(interaction.user.id)
            if seat is None:
                raise NotSeated()
            game = live.game
            if game is None or not live.seats_match_game(interaction.user.id):
                raise NoGame(over=True)  # (after a game the seats may have changed)
            hands = self.bot.hands
            hand = hands.get(live.id, interaction.user.id)
            w = person(interaction)
            hand.lang = w.lang
            async with hand.lock:
                stale = hands.expired_note(live, hand) if hands.token_expired(hand) else None
                note = stale
                if op == "clear":  # before the card ops: "clear" starts with "c" too
                    mask, hand.note = 0, None  # a new selection: its status, not an old note
                elif op.startswith("c") and op[1:].isdigit() and int(op[1:]) < sel.MAX_CODES:
                    mask, hand.note = mask ^ 1 << int(op[1:]), None
                elif op == "hint":
                    mask, note = self._hint(w, live, seat)
                elif op in ("play", "pass"):
                    if press in hand.acted:
                        mask, note = hand.mask, words.already_done(w, passed=op == "pass")
                    elif stale is None:
                        mask, note = await self._act(w, live, hand, seat, press, mask, op)
                else:
                    raise Refusal(words.UNKNOWN_BUTTON)
                hand.mask = mask
                # first: nothing waits after the drawing (which never waits for a picture)
                message = interaction.message  # (an older hand message of theirs, maybe)
                classic = not _layout.is_v2(message)  # drawn before the V2 layout: replaced
                picture = await hands.files(
                    live, hand, seat, new=classic,
                    message_id=None if message is None or classic else message.id)
                payload = hands.draw(live, hand, seat, note,
                                     pictured=picture is not None and picture.pictured)
                attachments = [] if picture is None else picture.attachments
                with hands.sending(picture):
                    answer: discord.InteractionCallbackResponse[Any] | None
                    if classic:  # a classic hand is replaced by a new message, not edited
                        answer = await interaction.response.send_message(
                            ephemeral=True, files=[f for f in attachments
                                                   if isinstance(f, discord.File)], **payload)
                        hands.attach(live, hand, interaction, answer.message_id)
                    else:
                        answer = await interaction.response.edit_message(
                            **payload, attachments=attachments)
                        hands.attach(live, hand, interaction)  # a fresh token, the same message
                hands.sent(picture, answer.resource if answer is not None else None)
                hands.shown(live, hand, picture)
                if kind in ("card", "hint"):  # after the answer: Play's picture drawn ahead
                    await hands.ahead(live, hand, seat)

    async def _act(self, w: Words, live: LiveTable, hand: LiveHand, seat: int, press: int,
                   mask: int, op: str) -> tuple[int, str]:
        """Play or pass now; returns the selection to show and the note (a refusal's reason)."""
        game = live.game
        assert game is not None
        if not live.playing:
            return mask, words.refusal(w, NoGame(over=True))
        cards = sel.chosen_cards(game.hand(seat), mask) if op == "play" else None
        exchange = game.phase is Phase.EXCHANGE
        try:
            await self.service.act(live, hand.user_id, cards)
        except TableError as error:
            return mask, words.refusal(w, error)
        hand.acted.append(press)
        return 0, words.action_done(w, cards, exchange=exchange)

    def _hint(self, w: Words, live: LiveTable, seat: int) -> tuple[int, str]:
        """Select the computer's suggestion for this seat (from what it can see) and say why."""
        game = live.game
        assert game is not None
        hand = game.hand(seat)
        if game.phase is Phase.EXCHANGE:
            cards = choose_returns(game, seat, Level.HARD)
            return sel.mask_for(hand, cards), words.hint_note(w, exchange=True)
        suggestion = suggest(observe(game, seat))
        mask = 0 if suggestion.play is None else sel.mask_for(hand, suggestion.play.cards)
        return mask, words.hint_note(w, exchange=False, suggestion=suggestion)


BoardAction = Callable[[discord.Interaction[Any], LiveTable], Awaitable[bool]]
