"""Live hands: each seated person's most recent hand message follows the table by itself.

A hand message is ephemeral, so only the interaction that showed it can change it: its token
(valid 15 minutes) edits ``@original``. Interaction endpoints do not count against the bot's global
rate limit. After every change at a table (the table layer calls `table_changed`) each seated
person's most recent hand is redrawn, at most one edit in flight per hand, the latest state wins.

Per hand (table, person) this module remembers, in memory: the selection, a drawing number (the
``press`` carried by the hand's buttons) and the drawings on which an action was already applied,
so that a double click applies once; and the interaction whose token edits the message. A token
is used for 14 minutes at most (Discord counts its lifetime from the interaction's creation, by
Discord's clock): then one last edit says the hand no longer follows the table and how to get a
fresh one, and the token is not used again. An edit through an expired token would be refused
(401, code 50027) and count towards Discord's limit of invalid requests. A hand that stopped
following says so on the next press; a dismissed hand (404) is forgotten.

What a hand needs to be edited again (the interaction's id, application and token, the message,
the drawing number, the selection, the language, the game version shown) is also kept in the
store with its table (`data.hands`), saved after every press that takes the hand over and
deleted when its token retires, the person leaves or the table closes. After a restart
`restore` redraws every kept hand whose token is still usable at once. The token is a secret:
it is never logged, not even at debug level, nor put in any error message or metric.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from cogs import words
from cogs.i18n import words as words_of
from cogs.tables import LiveTable
from data import HandPrefs, LiveHandRecord, Store, StoreError
from engine import Card, Phase

from . import _render as render

if TYPE_CHECKING:
    from ._pictures import HandPictures, Plan

log = logging.getLogger("cogs.tienlen.hands")

PICTURE_WAIT = 0.5
"""Seconds a refresh (it answers no one) waits for a picture being drawn; past that it goes with
the picture the hand shows, and the drawing, once done, brings its own refresh."""
TOKEN_LIFETIME = 15 * 60.0
"""Seconds an interaction token may edit its message, from the interaction's creation."""
TOKEN_RETIRE = 14 * 60.0
"""A token this old makes its hand's last edit (the hand says it stopped following the table)."""
TOKEN_MARGIN = 10.0
"""A token this close to its end is not used at all, not even for the last edit."""
INVALID_WEBHOOK_TOKEN = 50027
_DRAWINGS = itertools.count(int(time.time() * 1000) % 10**11)
"""Drawing numbers: unique in a process and, being taken from the clock, across restarts."""


class PrefsSource(Protocol):
    """People's own preferences (`/tienlen prefs`, kept by `cogs.prefs`)."""

    def known(self, user_id: int | None) -> HandPrefs: ...
    async def load(self, user_id: int | None) -> HandPrefs: ...


@dataclass
class LiveHand:
    """One person's hand at one table, as the Discord side shows it."""

    table_id: int
    user_id: int
    mask: int = 0
    press: int = 0
    """The number of the latest drawing (every drawing gets a new one)."""
    acted: deque[int] = field(default_factory=lambda: deque(maxlen=16))
    """Drawings on which Play or Pass was applied: a second press there is a double click."""
    note: str | None = None
    note_changes: int = -1
    """The table's change count the note belongs to (a later change drops it)."""
    interaction: discord.Interaction[Any] | None = None
    issued: float = 0.0
    """When the interaction was created (Discord's time, seconds since the epoch): its token
    lives 15 minutes from then."""
    retire: asyncio.TimerHandle | None = None
    """The timer for the token's last edit."""
    expired: bool = False
    shown_key: tuple[int, int, int] | None = None
    """(table changes, selection, drawing) last put on screen."""
    shown_version: int | None = None
    """The game version of the last drawing that reached the screen."""
    task: asyncio.Task[None] | None = None
    editing: bool = False
    """An edit of this hand is in flight (it may land after a press's answer)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    lang: str = "en"
    """The owner's language (from their last press): the hand is always drawn in it."""
    guild_id: int = 0
    message_id: int | None = None
    """The hand message (for the store; edits go through the token's ``@original``)."""
    saving: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Store writes of this hand, one at a time, in order (the latest state wins)."""


class LiveHands:
    """Every live hand of the bot; the Discord side of the table's "changed" signal."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.hands: dict[int, dict[int, LiveHand]] = {}
        """Table id -> person -> hand."""
        self._clock = clock
        self._ahead = 0.0
        """How far Discord's clock was seen ahead of ours (from interactions' creation stamps)."""
        self.emoji: Callable[[Card], discord.PartialEmoji | None] | None = None
        """A card's button emoji (none: text buttons); set by the bot."""
        self.picture: HandPictures | None = None
        """The hands' pictures (none: text only); set by the bot."""
        self.edits = 0
        """Hand edits sent (refreshes through tokens)."""
        self.expired_count = 0
        """Hands whose token ran out (or was refused) before a last edit could say so."""
        self.retired_count = 0
        """Hands that made their token's last edit (they say they stopped following)."""
        self.dismissed_count = 0
        self.store: Store | None = None
        self.layout_since: float | None = None
        """When hands and boards were first drawn in the V2 layout (seconds since the epoch, kept
        in the store; see `_layout.layout_since`): a message drawn before is classic, and is
        replaced by a new one rather than edited into the new layout."""
        self.classic_kept = False
        """The hands kept in the store were drawn classic (this is the first start with the V2
        layout): they are not restored (their next press answers with a new hand)."""
        """Where hands are kept across restarts (none: memory only); set by the bot."""
        self.restored_count = 0
        """Hands redrawn at start-up from the store."""
        self._saves: set[asyncio.Task[None]] = set()
        self.prefs: PrefsSource | None = None
        """Each person's own hand preferences (none: the defaults); set by `cogs.prefs`."""

    def _wall(self) -> float:
        return self._clock() if self._clock is not None else discord.utils.utcnow().timestamp()

    def now(self) -> float:
        """Discord's time as far as this process can tell (seconds since the epoch): the wall
        clock, or later when an interaction arrived stamped later than the wall clock said. A
        token's lifetime runs on Discord's clock."""
        return self._wall() + self._ahead

    def saw_time(self, stamp: float) -> None:
        """Discord's time as a response's ``Date`` header gave it (seconds since the epoch):
        after a restart the first interaction may be minutes away, and the kept tokens' ages
        run on Discord's clock."""
        self._ahead = max(self._ahead, stamp - self._wall())

    def saw(self, interaction: discord.Interaction[Any]) -> float:
        """Learn Discord's time from an interaction just received; returns its creation time."""
        stamp = interaction.created_at.timestamp()
        self._ahead = max(self._ahead, stamp - self._wall())
        return stamp

    def get(self, table_id: int, user_id: int) -> LiveHand:
        table = self.hands.setdefault(table_id, {})
        hand = table.get(user_id)
        if hand is None:
            hand = table[user_id] = LiveHand(table_id, user_id)
        return hand

    def drop_table(self, table_id: int) -> None:
        """Forget a table's hands in memory (the store drops them with the table)."""
        for hand in self.hands.pop(table_id, {}).values():
            self._forget(hand)

    @staticmethod
    def _forget(hand: LiveHand) -> None:
        if hand.task is not None and not hand.task.done():
            hand.task.cancel()
        if hand.retire is not None:
            hand.retire.cancel()
            hand.retire = None

    # ----------------------------------------------------------------- drawing
    def draw(self, live: LiveTable, hand: LiveHand, seat: int,
             note: str | None = None, *, last: bool = False,
             pictured: bool = False) -> dict[str, Any]:
        """The hand as it is now (a new drawing number); ``note`` stays until the table changes.
        ``last``: the last drawing through its token (it says the hand stops following);
        ``pictured``: the hand picture goes with it."""
        from . import selection as sel

        if note is not None:
            hand.note, hand.note_changes = note, live.changes
        elif hand.note_changes != live.changes:
            hand.note = None
        game = live.game
        assert game is not None
        hand.mask = sel.clean_mask(game.hand(seat), hand.mask)
        hand.press = next(_DRAWINGS)
        hand.shown_key = (live.changes, hand.mask, hand.press)
        w = words_of(hand.lang)
        shown_note = hand.note
        if last:  # not kept: the next press shows a live hand again
            shown_note = "\n".join(filter(None, (hand.note, w.marked(words.HAND_RETIRED))))
        payload = render.hand(w, live, seat, hand.mask, shown_note, press=hand.press,
                              emoji=self.emoji, pictured=pictured,
                              prefs=self.prefs_known(hand.user_id))
        # Every button is a dynamic item, dispatched from its custom id: a stopped view is sent
        # as components but never kept by discord.py (no timer, no memory per drawing).
        payload["view"].stop()
        return payload

    def prefs_known(self, user_id: int | None) -> HandPrefs:
        """A person's hand preferences as loaded (by :meth:`load_prefs`, which every drawing's
        picture step awaits first), else the defaults."""
        return self.prefs.known(user_id) if self.prefs is not None else HandPrefs()

    async def load_prefs(self, user_id: int | None) -> HandPrefs:
        return await self.prefs.load(user_id) if self.prefs is not None else HandPrefs()

    def redraw(self, live: LiveTable, user_id: int) -> None:
        """Draw a person's hand at ``live`` again (their preferences changed)."""
        hand = self.hands.get(live.id, {}).get(user_id)
        if hand is not None and hand.interaction is not None:
            hand.shown_key = None
            self._start(live, hand)

    async def files(self, live: LiveTable, hand: LiveHand, seat: int, *, wait: float = 0.0,
                    message_id: int | None = None, new: bool = False) -> Plan | None:
        """The hand picture's part of a drawing (none without the picture hook): a new file, the
        message's attachment kept, or nothing; described in its owner's language. ``wait``:
        seconds to wait for a picture being drawn (0 for an answer); ``message_id``: the
        message edited (default: the hand's); ``new``: for a new message."""
        await self.load_prefs(live.seats[seat].user_id)  # before `draw` orders the buttons
        if self.picture is None:
            return None
        return await self.picture.plan(live, hand, seat, wait=wait, message_id=message_id,
                                       new=new)

    async def ahead(self, live: LiveTable, hand: LiveHand, seat: int) -> None:
        """After a press that leaves a selection Play would take: draw now the picture of the
        hand once it is played, so that the answer to Play carries it (no second edit)."""
        from . import selection as sel

        game = live.game
        if (self.picture is None or game is None or game.phase is not Phase.PLAY
                or not render.hand_buttons(live, seat, hand.mask)["play"]):
            return
        held = list(game.hand(seat))
        for card in sel.chosen_cards(held, hand.mask):  # one by one: two decks hold twins
            held.remove(card)
        await self.picture.ahead(live, hand, held)

    def sending(self, picture: Plan | None) -> contextlib.AbstractContextManager[None]:
        """Around an edit carrying ``picture`` (see `_pictures.PictureMemory.sending`)."""
        if self.picture is None or picture is None:
            return contextlib.nullcontext()
        return self.picture.sending(picture)

    def sent(self, picture: Plan | None, message: Any) -> None:
        """A drawing carrying ``picture`` reached Discord as ``message``."""
        if self.picture is not None and picture is not None:
            self.picture.sent(picture, message)

    def picture_ready(self, live: LiveTable, hand: LiveHand, key: str) -> None:
        """A hand picture being drawn is done: the hand's next refresh brings it (unless the
        hand shows it already)."""
        if (hand.interaction is None or self.picture is None
                or self.picture.shows(hand.table_id, hand.user_id, key)):
            return
        hand.shown_key = None
        self._start(live, hand)

    def attach(self, live: LiveTable, hand: LiveHand,
               interaction: discord.Interaction[Any], message_id: int | None = None,
               *, keep: bool = True) -> None:
        """``interaction`` showed this hand: its token edits the message from now on, until the
        last edit at `TOKEN_RETIRE`. ``keep``: save it in the store (not when restored from
        there)."""
        hand.interaction = interaction
        hand.guild_id = live.table.guild_id
        if message_id is not None:
            hand.message_id = message_id
        elif interaction.message is not None:
            hand.message_id = interaction.message.id
        if keep:
            self._save(hand)
        hand.issued = self.saw(interaction)
        hand.expired = False
        if hand.retire is not None:
            hand.retire.cancel()
        delay = max(0.0, hand.issued + TOKEN_RETIRE - self.now())
        hand.retire = asyncio.get_running_loop().call_later(delay, self._start, live, hand)

    def shown(self, live: LiveTable, hand: LiveHand, picture: Plan | None = None) -> None:
        """The drawing just answered reached the screen. An edit in flight may land after it
        with an older drawing: draw again when it is done. A change while the press was being
        answered was left to this answer (see `_refresh`): draw again if the answer missed it,
        or if it went without its ``picture``, which is ready by now."""
        hand.shown_version = live.game.version if live.game is not None else None
        if picture is not None and self.picture is not None and self.picture.behind(picture):
            hand.shown_key = None
        if hand.editing:
            hand.shown_key = None
        elif hand.shown_key is None or hand.shown_key[:2] != (live.changes, hand.mask):
            self._start(live, hand)

    def token_expired(self, hand: LiveHand) -> bool:
        """Whether the hand's token may not be used any more (not even for a last edit)."""
        if hand.expired:
            return True
        if hand.interaction is not None and (
                self.now() - hand.issued > TOKEN_LIFETIME - TOKEN_MARGIN):
            self._unkeep(hand, hand.interaction)
            hand.expired = True
            hand.interaction = None
            self.expired_count += 1
        return hand.expired

    # ----------------------------------------------------------------- refreshing
    def table_changed(self, live: LiveTable) -> None:
        """Redraw every seated person's most recent hand at this table (coalesced)."""
        if live.table.status != "open":
            self.drop_table(live.id)
            return
        table = self.hands.get(live.id, {})
        for user_id, hand in list(table.items()):
            if live.seat_of(user_id) is None:  # left the table
                self._forget(table.pop(user_id))
                self._unkeep(hand, None)
                continue
            if hand.interaction is None:
                continue
            self._start(live, hand)

    def _start(self, live: LiveTable, hand: LiveHand) -> None:
        """Start the hand's refresh unless one is running (it looks again before it ends)."""
        if hand.task is None or hand.task.done():
            hand.task = asyncio.get_running_loop().create_task(
                self._refresh(live, hand), name=f"hand-{live.id}-{hand.user_id}")

    async def _refresh(self, live: LiveTable, hand: LiveHand) -> None:
        """Edit the hand until it shows the table's latest state (one edit in flight)."""
        while True:
            await asyncio.sleep(0)  # let the change's own response (a press) go first
            seat = live.seat_of(hand.user_id)
            if (seat is None or live.game is None or hand.interaction is None
                    or not live.seats_match_game(hand.user_id)):  # seats changed after it
                return
            if self.token_expired(hand):
                return
            last = self.now() - hand.issued >= TOKEN_RETIRE
            if (not last and hand.shown_key is not None
                    and hand.shown_key[:2] == (live.changes, hand.mask)):
                return
            if hand.lock.locked():
                # A press on this hand is being answered: its answer shows the table as it is
                # then, through a fresh token, and `shown` looks again afterwards. Editing now
                # would go through the token the press replaces (and, with a picture being
                # drawn, land after the answer).
                return
            interaction = hand.interaction
            changes, mask, had_picture = live.changes, hand.mask, hand.shown_key is not None
            picture = await self.files(live, hand, seat, wait=PICTURE_WAIT)
            if (live.changes != changes or hand.mask != mask
                    or (had_picture and hand.shown_key is None)):
                continue  # the hand (or its owner's prefs) moved while its picture was planned
            if (live.game is None or hand.interaction is not interaction
                    or hand.lock.locked()
                    or self.token_expired(hand)):  # the picture took a moment: look again
                return
            payload = self.draw(live, hand, seat, last=last,
                                pictured=picture is not None and picture.pictured)
            version = live.game.version
            hand.editing = True
            try:
                with self.sending(picture):
                    message = await interaction.edit_original_response(
                        **payload, attachments=[] if picture is None else picture.attachments)
            except discord.NotFound:  # the person dismissed the message
                if hand.interaction is interaction:
                    self._unkeep(hand, interaction)
                    hand.interaction = None
                    self.dismissed_count += 1
                return
            except discord.HTTPException as error:
                if error.status == 401 or error.code == INVALID_WEBHOOK_TOKEN:
                    if hand.interaction is interaction:
                        self._unkeep(hand, interaction)
                        hand.interaction = None
                        hand.expired = True
                        self.expired_count += 1
                    return
                log.warning("table %s: a hand edit failed (%s)", live.id, error.status)
                hand.shown_key = None
                return
            finally:
                hand.editing = False
            self.edits += 1
            self.sent(picture, message)
            hand.shown_version = version
            if last:
                if hand.interaction is interaction:  # this token is done: the next press
                    self._unkeep(hand, interaction)  # brings a fresh one
                    hand.interaction = None
                    hand.expired = True
                    self.retired_count += 1
                return
            if hand.interaction is not interaction or hand.lock.locked():
                hand.shown_key = None  # a press took over meanwhile: make sure it is current

    def expired_note(self, live: LiveTable, hand: LiveHand) -> str | None:
        """For a press on a hand whose token had expired: the note to show, when the picture the
        person saw is older than the game (their press is then not applied)."""
        if not hand.expired:
            return None
        game = live.game
        if game is not None and hand.shown_version == game.version:
            return None
        return words_of(hand.lang).marked(words.HAND_EXPIRED)

    # ----------------------------------------------------------------- the store
    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._saves.add(task)
        task.add_done_callback(self._saves.discard)

    def _save(self, hand: LiveHand) -> None:
        """Keep the hand as it is now in the store (in the background, in order)."""
        if self.store is not None and hand.interaction is not None:
            self._spawn(self._write(hand), f"hand-save-{hand.table_id}-{hand.user_id}")

    def _unkeep(self, hand: LiveHand, interaction: discord.Interaction[Any] | None) -> None:
        """The hand's token is done (or the person left): delete it from the store, unless a
        newer interaction took the hand over meanwhile."""
        if self.store is not None:
            iid = None if interaction is None else interaction.id
            self._spawn(self._delete(hand, iid), f"hand-forget-{hand.table_id}-{hand.user_id}")

    async def _write(self, hand: LiveHand) -> None:
        assert self.store is not None
        async with hand.saving:
            interaction = hand.interaction  # the state when this write's turn comes
            if interaction is None or hand.expired:
                return
            application = interaction.application_id
            record = LiveHandRecord(
                hand.table_id, hand.user_id, hand.guild_id, application, interaction.id,
                interaction.token, hand.message_id, hand.press, hand.mask, hand.lang,
                hand.shown_version)
            try:
                await self.store.save_live_hand(record)
            except StoreError as error:  # the hand still follows; only a restart would lose it
                log.warning("table %s: a live hand could not be kept (%s)", hand.table_id,
                            type(error).__name__)

    async def _delete(self, hand: LiveHand, interaction_id: int | None) -> None:
        assert self.store is not None
        async with hand.saving:
            try:
                await self.store.forget_live_hand(hand.table_id, hand.user_id, interaction_id)
            except StoreError as error:
                log.warning("table %s: a live hand could not be forgotten (%s)",
                            hand.table_id, type(error).__name__)

    async def settle(self) -> None:
        """Wait for the store writes under way (at shutdown; tests)."""
        while self._saves:
            await asyncio.gather(*list(self._saves), return_exceptions=True)

    async def restore(self, state: Any, tables: dict[int, LiveTable]) -> int:
        """After a (re)start: every hand kept in the store for an open table here whose token is
        still usable is redrawn to the table's current state at once (its picture drawn again);
        a hand whose token is past its life is deleted and not edited (its next press says it
        had stopped updating). ``state``: discord.py's connection state, which edits go
        through. Returns how many hands were restored."""
        if self.store is None:
            return 0
        restored = 0
        for record in await self.store.live_hands():
            live = tables.get(record.table_id)
            if live is None:
                continue
            hand = self.get(record.table_id, record.user_id)
            hand.mask, hand.press, hand.lang = record.selection, record.drawing, record.lang
            hand.shown_version, hand.message_id = record.shown_version, record.message_id
            hand.guild_id = record.guild_id
            interaction = discord.Interaction(data=cast(Any, {
                "id": str(record.interaction_id),
                "application_id": str(record.application_id),
                "type": discord.InteractionType.component.value,
                "token": record.token,
                "version": 1,
                "attachment_size_limit": 8 * 1024 * 1024,
            }), state=state)
            issued = interaction.created_at.timestamp()
            if self.classic_kept:
                # a classic hand message: never edited into the new layout; its next press
                # answers with a new hand
                self._unkeep(hand, interaction)
                continue
            if (live.seat_of(record.user_id) is None or live.game is None
                    or self.now() - issued > TOKEN_LIFETIME - TOKEN_MARGIN):
                hand.expired = live.seat_of(record.user_id) is not None
                self._unkeep(hand, interaction)
                continue
            self.attach(live, hand, interaction, keep=False)
            hand.shown_key = None
            self._start(live, hand)
            restored += 1
        self.restored_count += restored
        return restored
