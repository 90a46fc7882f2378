"""The board publisher: puts a table's board on screen (edits it in place, or posts a new one),
passes "the table changed" on to the live hands, posts turn reminders and edits each to a
past-tense line once its turn is over (never deleting one), and sends the game-over post.

The bot builds it and hands it to the table service, which calls it (coalesced, after a slot of
the bot's REST budget) after changes. Every further request it makes (a repost, emptying an old
board, a turn reminder and its edit, the game-over post, a direct message) waits for its own
slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from cogs import words
from cogs.tables import BoardUnavailable, GameResults, LiveTable, StandingReminder, acted
from engine import Passed, Played

from . import _layout, gameover, threads
from . import _pictures as pictures
from . import _render as render

if TYPE_CHECKING:
    from bot.app import TienLenBot

log = logging.getLogger("cogs.tienlen.board")

TOO_OLD_TO_EDIT = 30046  # Discord's error code for an edit of a message that is too old
ANNOUNCE_TRIES = 4  # sends of a game-over post before waiting for the table's next change


def _unavailable(error: discord.HTTPException) -> BoardUnavailable:
    return BoardUnavailable(error.status, error.code)


def _mentioning(user_id: int) -> discord.AllowedMentions:
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False,
                                   users=[discord.Object(user_id)])


def how_it_ended(live: LiveTable, standing: StandingReminder) -> str:
    """How the reminded turn ended, for its past-tense line (see `words.reminder_done`): the
    reminded seat's first action after the reminder, and whether the clock made it."""
    game = live.game
    if game is not None:
        events = game.events
        for index in range(standing.events_at, len(events)):
            event = events[index]
            if acted(event, standing.seat):
                kind = ("played" if isinstance(event, Played)
                        else "passed" if isinstance(event, Passed) else "gave")
                return f"{kind}_timeout" if live.by_clock(index) else kind
    return "over"


def classic_board(bot: TienLenBot, live: LiveTable) -> bool:
    """Whether the table's board message was posted before boards used the V2 layout (it is
    then replaced by a new message: a classic message is never edited into the new layout)."""
    return _layout.posted_before(live.table.board_posted_at, bot.hands.layout_since)


class BoardPublisher:
    """The table service's publisher for a running bot."""

    def __init__(self, bot: TienLenBot) -> None:
        self.bot = bot
        self.reminders_sent = 0
        self.announce_retry = 2.0  # seconds before the first retry of a failed game-over post
        self._ending: set[int] = set()  # reminders being edited to their past-tense line
        self._announcing: set[int] = set()  # games whose game-over post is on its way
        self._archived: set[int] = set()  # tables whose thread is archived
        self._tasks: set[asyncio.Task[Any]] = set()

    def table_changed(self, live: LiveTable) -> None:
        self.bot.hands.table_changed(live)
        standing = live.reminder
        game = live.game
        if standing is not None and (game is None or game.version != standing.version
                                     or not live.playing or live.table.status != "open"):
            self._end_soon(live, standing)
        if live.table.status != "open" and live.in_thread and live.id not in self._archived:
            self._archived.add(live.id)
            self._spawn(threads.archive_when_shown(self.bot, live))
        results = self.bot.table_service.game_over_pending(live)
        if results is not None and results.game_id not in self._announcing:
            assert results.game_id is not None
            self._announcing.add(results.game_id)
            self._spawn(self._announce(live, results))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _announce(self, live: LiveTable, results: GameResults) -> None:
        """Post it, trying again a few times after a failure (the nonce keeps Discord from
        showing it twice); past that, at the table's next change or the next start."""
        assert results.game_id is not None
        for attempt in range(ANNOUNCE_TRIES):
            try:
                await gameover.post_game_over(self.bot, live, results)
                return
            except Exception as error:
                log.warning("table %s: the game-over post failed (%s)", live.id,
                            type(error).__name__, extra=live.log_extra)
                if attempt + 1 < ANNOUNCE_TRIES:
                    await asyncio.sleep(self.announce_retry * 2.0 ** attempt)
        self._announcing.discard(results.game_id)

    def _end_soon(self, live: LiveTable, standing: StandingReminder) -> None:
        """Edit the standing reminder to its past-tense line (under the table's lock: the line
        is worded from the game as it is now)."""
        if standing.message_id in self._ending:
            return
        self._ending.add(standing.message_id)
        self._spawn(self._end(live, standing, how_it_ended(live, standing)))

    async def _end(self, live: LiveTable, standing: StandingReminder, how: str) -> None:
        """A reminder is never deleted (a vanished mention is a ghost ping): it becomes a short
        past-tense line with its mention as it was (an edit notifies nobody)."""
        channel = self.bot.get_partial_messageable(standing.channel_id)
        try:
            await self.bot.table_service.rest.acquire(standing.channel_id)
            await channel.get_partial_message(standing.message_id).edit(
                content=words.reminder_done(render.table_words(live), standing.user_id, how),
                allowed_mentions=_mentioning(standing.user_id))
        except discord.NotFound:
            pass  # deleted by someone else: nothing left to end
        except discord.HTTPException as error:
            log.warning("a turn reminder could not be edited (%s); tried again at the next "
                        "change", error.status, extra=live.log_extra)
            return
        finally:
            self._ending.discard(standing.message_id)
        await self.bot.table_service.reminder_ended(live, standing.message_id)

    async def remind_turn(self, live: LiveTable, seat: int, seconds_left: int) -> None:
        """Post a new channel message that mentions (and so notifies) only the person on turn;
        Discord notifies nobody for a mention added by an edit, so the board cannot do this.
        The end of the turn is a timestamp Discord counts down; once the turn is over the
        message is edited to a past-tense line, never deleted."""
        user_id = live.seats[seat].user_id
        game = live.game
        if user_id is None or game is None or live.deadline is None:
            return
        version, events_at, deadline = game.version, len(game.events), live.deadline
        old = live.reminder
        if old is not None and old.version != version:  # at most one standing per table
            self._ending.add(old.message_id)
            await self._end(live, old, how_it_ended(live, old))
        channel = self.bot.get_partial_messageable(live.table.channel_id)
        await self.bot.table_service.rest.acquire(channel.id, urgent=True)
        message = await channel.send(
            words.turn_reminder(render.table_words(live), user_id, deadline),
            allowed_mentions=_mentioning(user_id),
        )
        self.reminders_sent += 1
        standing = StandingReminder(channel.id, message.id, seat, user_id, version, events_at)
        if not await self.bot.table_service.reminder_posted(live, standing):
            self._end_soon(live, standing)  # the turn is over already

    async def publish_board(self, live: LiveTable) -> None:
        bot = self.bot
        service = bot.table_service
        channel_id = live.table.channel_id
        budget = service.rest
        channel = bot.get_channel(channel_id)
        if channel is None:
            await budget.acquire(None)
            try:
                channel = await bot.fetch_channel(channel_id)
            except (discord.Forbidden, discord.NotFound) as error:
                raise _unavailable(error) from None
        assert isinstance(channel, discord.abc.Messageable)
        # An edit keeps the picture the board shows when it did not change; a picture being
        # drawn is waited for a moment, else it comes with the next edit (see `_pictures`).
        ready = pictures.board_ready(bot, live)
        old = live.table.board_message_id
        classic = classic_board(bot, live)  # drawn before the V2 layout: replaced, not edited
        editing = old is not None and not service.board_needs_repost(live) and not classic
        picture = await pictures.board_picture(bot, live, wait=pictures.PICTURE_WAIT,
                                               ready=ready, new=not editing)
        payload = render.board(live, pictured=picture.pictured)
        if editing:
            assert old is not None
            try:
                with bot.picture_memory.sending(picture.slot):
                    edited = await channel.get_partial_message(old).edit(
                        **payload, attachments=picture.attachments)
                pictures.sent(bot, picture, edited)
                return
            except discord.NotFound:
                pass  # the board was deleted: post a new one
            except discord.Forbidden as error:
                raise _unavailable(error) from None
            except discord.HTTPException as error:
                if error.code != TOO_OLD_TO_EDIT:  # too old to edit: post a fresh one
                    raise
            await budget.acquire(channel_id, urgent=True)
            # a new message: nothing to keep (and the state may have moved while waiting)
            picture = await pictures.board_picture(bot, live, wait=pictures.PICTURE_WAIT,
                                                   ready=ready, new=True)
            payload = render.board(live, pictured=picture.pictured)
        files = [f for f in picture.attachments if isinstance(f, discord.File)]
        if files:
            payload["files"] = files
        try:
            message = await channel.send(**payload)
        except (discord.Forbidden, discord.NotFound) as error:
            raise _unavailable(error) from None
        await service.set_board_message(live, message.id)
        pictures.sent(bot, picture, message)
        if old is not None:
            await budget.acquire(channel_id)
            moved = render.table_words(live).marked(words.BOARD_MOVED)
            with contextlib.suppress(discord.HTTPException):
                if classic:  # a classic message keeps its classic form
                    await channel.get_partial_message(old).edit(
                        content=moved, embed=None, view=None, attachments=[])
                else:  # the V2 flag cannot be removed: the layout says it
                    await channel.get_partial_message(old).edit(
                        view=render.moved(moved), attachments=[])

    async def board_lost(self, live: LiveTable, error: BoardUnavailable) -> None:
        """Tell the host, by direct message, that the table closed: its board cannot be shown."""
        bot = self.bot
        budget = bot.table_service.rest
        host_id = live.table.host_id
        user = bot.get_user(host_id)
        if user is None:
            await budget.acquire(None)
            user = await bot.fetch_user(host_id)
        await budget.acquire(None)  # opening the direct-message channel
        dm = await user.create_dm()
        await budget.acquire(dm.id)
        await dm.send(words.board_lost_message(render.table_words(live), live.id,
                                                live.table.channel_id))
