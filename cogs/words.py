"""Every sentence players read about a table, in one Discord-free module, in their language.

The board, the hands, the results and the refusals of the table layer are worded here (and the
terminal table words game events through `describe_event` too), so there is one place to change or
translate. Every function takes the reader's :class:`~cogs.i18n.Words` (English or Vietnamese);
the game's vocabulary (combinations, places, instant wins, ...) is in :mod:`cogs.glossary`.
Mentions (`<@id>`) are written only here and in the cogs.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence

from cogs import glossary
from cogs.i18n import N_, Words
from cogs.tables import (
    ActionRefused,
    AlreadyLeft,
    AlreadyOut,
    AlreadyReady,
    AlreadySeated,
    BadSeatCount,
    BadStake,
    CardsGone,
    ChannelHasTable,
    CloseReason,
    GameInProgress,
    GameNotOver,
    GameResults,
    LegacyResults,
    LiveTable,
    NoGame,
    NoPreviousGame,
    NotEnoughChips,
    NotHost,
    NotSeated,
    PlaceResult,
    Player,
    Results,
    ShortOfChips,
    StoreRefused,
    TableChanged,
    TableClosed,
    TableClosedResults,
    TableError,
    TableFull,
    TableGone,
    TooFewSeats,
    UnknownLevel,
)
from cogs.tables.reactions import ReactionTooSoon, UnknownReaction
from engine import (
    Card,
    Cause,
    Chopped,
    Combo,
    Event,
    Exchanged,
    Fed,
    Frozen,
    InstantWin,
    Passed,
    Phase,
    Played,
    TienLenError,
    TrickWon,
    WentOut,
    can_beat,
    classify,
)
from engine.ai import HintWhy, Suggestion
from engine.ai.explain import Part

SOMETHING_WENT_WRONG = N_("Something went wrong; nothing was changed.")
UNKNOWN_BUTTON = N_("This button is not known any more.")
BOARD_MOVED = N_("This table's board moved to a newer message below.")
NEED_MANAGE_SERVER = N_("You need the Manage Server permission for that.")
HAND_EXPIRED = N_("This hand had stopped updating (Discord lets a bot update it for 15 "
                  "minutes): here it is again, up to date. Press again to act.")
HAND_RETIRED = N_("This hand no longer follows the table (Discord lets a bot update it for 15 "
                  "minutes). Press any button, or use `/tienlen hand`, for a fresh one.")

_COMPUTER = re.compile(r"^Computer (\d+) \((\w+)\)$")


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def computer_name(w: Words, number: int, level: object) -> str:
    """A computer player's name: ``Computer 2 (hard)`` / ``Máy 2 (khó)``."""
    return w._("Computer {number} ({level})", number=number, level=glossary.level(w, level))


def player(w: Words, p: Player) -> str:
    """A person as a mention, a computer player by its name in the reader's language."""
    if p.user_id is not None:
        return mention(p.user_id)
    match = _COMPUTER.match(p.name)  # the table layer names computer seats in one fixed form
    return computer_name(w, int(match[1]), match[2]) if match else p.name


def computer_level(name: str) -> str | None:
    """The level of a computer seat's fixed-form name ("Computer 2 (hard)" -> "hard")."""
    match = _COMPUTER.match(name)
    return match[2] if match else None


def seat_name(w: Words, live: LiveTable, seat: int | None) -> str:
    """Who sits in ``seat`` now ("nobody" for no seat)."""
    if seat is None:
        return w._("nobody")
    return player(w, Player.of(live.seats[seat]))


def describe_event(w: Words, event: Event, name: Callable[[int], str], *,
                   timed_out: bool = False) -> str | None:
    """One line for a game event (``None``: not shown); ``name`` names a seat; ``timed_out``:
    the action was the turn clock's (the person ran out of time), and the line says so."""
    if timed_out:
        match event:
            case Played(seat=seat, cards=cards):
                return w._("{player} ran out of time — played {cards}", player=name(seat),
                           cards=glossary.cards(cards))
            case Passed(seat=seat):
                return w._("{player} ran out of time — passed", player=name(seat))
            case Exchanged(giver=seat):  # the cards given back stay private
                return w._("{player} ran out of time — cards given back", player=name(seat))
    match event:
        case Played(seat=seat, cards=cards, out_of_turn=True):
            return w._("{player} played {cards} (out of turn)", player=name(seat),
                       cards=glossary.cards(cards))
        case Played(seat=seat, cards=cards):
            return w._("{player} played {cards}", player=name(seat), cards=glossary.cards(cards))
        case Passed(seat=seat):
            return w._("{player} passed", player=name(seat))
        case Chopped(seat=seat, victim=victim):
            return w._("{player} chopped {victim}!", player=name(seat), victim=name(victim))
        case TrickWon(seat=seat):
            return w._("{player} won the trick", player=name(seat))
        case WentOut(seat=seat, place=place):
            return w._("{player} went out ({place})", player=name(seat),
                       place=glossary.place(w, place))
        case Frozen(seats=seats):
            return w._("Cóng: {players} never played a card (last places, payments doubled)",
                       players=", ".join(name(s) for s in seats))
        case Fed(feeder=feeder, seat=seat):
            return w._("Fed: {feeder} let {player} out on the last card and pays for "
                       "everyone", feeder=name(feeder), player=name(seat))
        case InstantWin(seat=seat, kind=kind, multiplier=times):
            return w._("{player} wins at once: {win}", player=name(seat),
                       win=glossary.instant_win(w, kind, times))
        case _:
            return None


def board_event(w: Words, live: LiveTable, event: Event, index: int | None = None) -> str | None:
    """An event line on the board: people are mentioned; ``index``: the event's place in the
    game's events (an action the turn clock made reads "ran out of time")."""

    def name(seat: int) -> str:
        return seat_name(w, live, seat) if 0 <= seat < len(live.seats) else "?"

    return describe_event(w, event, name,
                          timed_out=index is not None and live.by_clock(index))


_SCORING = frozenset({"place", "loser_pays", "cards_left", "pot"})
"""The reasons of the table's own scoring: a payment for these alone needs no reason (the place
and the number say it all)."""


def _why(w: Words, reason: str, results: GameResults) -> str:
    """Why chips moved, in a few words; an instant win says its multiplier (the line above the
    places names the hand)."""
    if reason == "instant_win" and results.instant_win is not None:
        return w._("instant win ×{times}", times=w.num(results.multiplier))
    return glossary.reason(w, reason)


def _charge(w: Words, why: str, net: int | None, short: int) -> str:
    """One reason of a chip change: ``chop +40``, ``chop +5 (3 chips short)``; ``net`` None:
    the reason alone (its amount is the line's own number, or is not known exactly)."""
    if net is None:
        if short <= 0:
            return why
        return w.ngettext("{reason}, {n} chip short", "{reason}, {n} chips short", short,
                          reason=why)
    amount = w.signed(net)
    if short <= 0:
        return w._("{reason} {amount}", reason=why, amount=amount)
    return w.ngettext("{reason} {amount} ({n} chip short)", "{reason} {amount} ({n} chips short)",
                      short, reason=why, amount=amount)


def _reasons(w: Words, p: PlaceResult, results: GameResults) -> str:
    """The reasons of a seat's chip change, or "" when the number says it all: a payment of the
    table's own scoring alone, paid in full. Several reasons say their amounts when these add up
    to the change (the results keep equal payments once, so three equal payments of a loser
    read as one: then the reasons are named without amounts, never with a wrong one)."""
    net: dict[str, int] = {}
    short: dict[str, int] = {}
    for c in dict.fromkeys(p.charges):
        net[c.reason] = net.get(c.reason, 0) + (-c.paid if c.payer else c.paid)
        short[c.reason] = short.get(c.reason, 0) + max(0, c.owed - c.paid)
    if not net:
        return ""
    if len(net) == 1:
        (reason,) = net
        if reason in _SCORING and not short[reason]:
            return ""
        return _charge(w, _why(w, reason, results), None, short[reason])
    exact = sum(net.values()) == p.chips
    return ", ".join(_charge(w, _why(w, reason, results), net[reason] if exact else None,
                             short[reason]) for reason in net)


def chip_change(w: Words, chips: int) -> str:
    """A person's chip change in a game: ``+20 chips``, ``-50 chips``, ``no chips won or lost``."""
    if not chips:
        return w._("no chips won or lost")
    return w.ngettext("{amount} chip", "{amount} chips", abs(chips), amount=w.signed(chips))


def _place_line(w: Words, p: PlaceResult, results: GameResults) -> str:
    """``1. @carol +20 chips``, ``2. @bob -60 chips: place -20, chop -40``; a computer player
    holds no chips, so its line is its place and name."""
    who = player(w, p.player)
    if p.player.user_id is None and not p.chips:
        line = w._("{place}. {player}", place=p.place, player=who)
    else:
        why = _reasons(w, p, results)
        chips = chip_change(w, p.chips)
        line = (w._("{place}. {player} {chips}: {why}", place=p.place, player=who, chips=chips,
                    why=why) if why
                else w._("{place}. {player} {chips}", place=p.place, player=who, chips=chips))
    if p.frozen:
        line += " — " + w._("cóng (never played a card: pays double)")
    if p.left:
        line += " — " + w._("left the game (pays as last)")
    return line


def result_lines(w: Words, results: Results | None) -> list[str]:
    """The lines of a finished game's results, or of a closed table."""
    match results:
        case None:
            return []
        case TableClosedResults(reason=reason):
            earlier = result_lines(w, results.last_game)
            if reason is CloseReason.IDLE:
                minutes = max(1, round(results.idle_seconds / 60))
                return [*earlier, w.ngettext(
                    "Table closed: nobody pressed anything for {n} minute.",
                    "Table closed: nobody pressed anything for {n} minutes.", minutes)]
            if reason is CloseReason.LEFT_TO_COMPUTERS:
                return [*earlier, w._("Table closed: every player left the game, and the "
                                      "computers finished it.")]
            why = (w._("cancelled") if str(reason) == "cancelled" else w._("everyone left"))
            return [*earlier, w._("Table closed ({reason}). No chips moved for an unfinished "
                                  "game.", reason=why)]
        case LegacyResults(lines=saved):
            return list(saved)
        case GameResults():
            lines: list[str] = []
            if results.instant_win is not None and results.winner is not None:
                kind = glossary.instant_win_kind(w, results.instant_win)
                if results.winner_hand:
                    lines.append(w._("{player} wins at once with {hand}: {cards}",
                                     player=player(w, results.winner), hand=kind,
                                     cards=glossary.cards(results.winner_hand)))
                else:
                    lines.append(w._("{player} wins at once with {hand}.",
                                     player=player(w, results.winner), hand=kind))
            lines += [_place_line(w, p, results) for p in results.places]
            return lines


def engine_refusal(w: Words, error: TienLenError, waiting_for: Player | None = None) -> str:
    """The sentence for a refused play, with whose turn it is when it is not yours."""
    return glossary.engine_refusal(w, error, player(w, waiting_for) if waiting_for else None)


def refusal(w: Words, error: TableError) -> str:
    """The sentence for a refusal of the table layer."""
    match error:
        case TableGone():
            return w._("This table no longer exists.")
        case TableClosed(idle=True):
            return w._("This table was closed: nobody had pressed anything for a while.")
        case TableClosed():
            return w._("This table was closed.")
        case AlreadyReady():
            return w._("You are already ready for the next game.")
        case AlreadyLeft():
            return w._("You left this game: a computer plays your seat until it ends.")
        case AlreadyOut():
            return w._("You have played all your cards: your place is kept. Leave after the "
                       "game if you wish.")
        case NoPreviousGame():
            return w._("No game has been played at this table yet: the host presses **Start**.")
        case BadStake(minimum=minimum, maximum=None):
            return w.ngettext("The stake must be at least {n} chip.",
                              "The stake must be at least {n} chips.", minimum)
        case BadStake(minimum=minimum, maximum=int() as maximum):
            return w._("The stake must be from {minimum} to {maximum} chips: the poorest seated "
                       "player holds {maximum}.", minimum=w.num(minimum), maximum=w.num(maximum))
        case BadSeatCount(low=low, high=high):
            return w._("A table has {low} to {high} seats.", low=low, high=high)
        case NotEnoughChips(chips=chips, stake=stake):
            return w.ngettext("You hold {n} chip, less than the stake of {stake}. Try `/daily`.",
                              "You hold {n} chips, less than the stake of {stake}. Try `/daily`.",
                              chips, stake=w.num(stake))
        case ShortOfChips(short=short, stake=stake):
            names = ", ".join(mention(user) for user in short)
            return w.ngettext(
                "The table waits: {names} holds less than the stake of {stake} chips "
                "(`/daily`, or leave the table).",
                "The table waits: {names} hold less than the stake of {stake} chips "
                "(`/daily`, or leave the table).",
                len(short), names=names, stake=w.num(stake))
        case ChannelHasTable(table_id=table_id):
            link = ""
            if error.board_message_id and error.guild_id and error.channel_id:
                link = (f" https://discord.com/channels/{error.guild_id}/{error.channel_id}/"
                        f"{error.board_message_id}")
            return w._("This channel already has a table (#{table}): use its buttons, "
                       "or `/tienlen stop` it first.{link}", table=table_id, link=link)
        case GameInProgress(starting=True):
            return w._("A game is already in progress.")
        case GameInProgress():
            return w._("A game is in progress at this table.")
        case AlreadySeated():
            return w._("You are already seated at this table.")
        case TableFull():
            return w._("This table is full.")
        case NotSeated(for_computers=True):
            return w._("Only seated players can add computer players.")
        case NotSeated():
            return w._("You are not seated at this table.")
        case UnknownLevel(level=level):
            levels = ", ".join(glossary.level(w, x) for x in glossary.LEVELS)
            return w._("Unknown level {level}: choose {levels}.", level=level, levels=levels)
        case NotHost(for_close=True):
            return w._("Only the host, a member with Manage Server, or a person sitting alone "
                       "can close this table.")
        case NotHost(or_manager=True):
            return w._("Only the host (or a member with Manage Server) can do that.")
        case NotHost(for_stake=True):
            return w._("Only the host can change the stake.")
        case NotHost():
            return w._("Only the host can start the game.")
        case GameNotOver():
            return w._("The game is not over yet.")
        case TooFewSeats(minimum=minimum):
            return w.ngettext("At least {n} seat must be filled to start.",
                              "At least {n} seats must be filled to start.", minimum)
        case NoGame(over=True):
            return w._("This game is over.")
        case NoGame():
            return w._("No game is in progress at this table.")
        case CardsGone(cards=cards):
            return w.ngettext("{cards} was already played.", "{cards} were already played.",
                              len(cards), cards=glossary.cards(cards))
        case TableChanged():
            return w._("The table changed at the same moment; nothing was played.")
        case UnknownReaction():
            return w._("This reaction is not known.")
        case ReactionTooSoon(seconds=seconds):
            left = max(1, math.ceil(seconds))
            return w.ngettext("One reaction every 3 seconds: wait {n} more second.",
                              "One reaction every 3 seconds: wait {n} more seconds.", left)
        case StoreRefused():
            return w._("The game could not start; nothing was changed.")
        case ActionRefused(error=engine_error, waiting_for=waiting):
            return engine_refusal(w, engine_error, waiting)
        case _:
            return w.marked(SOMETHING_WENT_WRONG)


def idle_setting(w: Words, seconds: int) -> str:
    """The server's idle time for new tables (said by `/tienlen settings`)."""
    if seconds <= 0:
        return w._("Lobbies and finished tables never close themselves.")
    minutes = max(1, round(seconds / 60))
    return w.ngettext("A lobby or finished table closes itself after {n} minute without a press.",
                      "A lobby or finished table closes itself after {n} minutes without a press.",
                      minutes)


def stake_changed(w: Words, table_id: int, stake: int) -> str:
    """The host changed the stake (said in the channel)."""
    return w.ngettext("Table #{table}: from the next game the stake is **{n}** chip.",
                      "Table #{table}: from the next game the stake is **{n}** chips.",
                      stake, table=table_id)


def short_of_chips_message(w: Words, table_id: int, chips: int, stake: int) -> str:
    """The direct message to a seated person who holds less than the stake."""
    return w.ngettext(
        "Table #{table} is waiting for you: you hold {n} chip, less than its stake of {stake}. "
        "Claim `/daily` there, or leave the table.",
        "Table #{table} is waiting for you: you hold {n} chips, less than its stake of {stake}. "
        "Claim `/daily` there, or leave the table.",
        chips, table=table_id, stake=w.num(stake))


def board_lost_message(w: Words, table_id: int, channel_id: int) -> str:
    """The direct message to a host whose table closed because its board cannot be shown."""
    channel = f"<#{channel_id}>"
    return w._("Table #{table} in {channel} is closed: I can no longer post or edit its board "
               "there (a permission was removed, or the channel or the board was deleted). No "
               "chips moved for an unfinished game; the channel is free for a new table.",
               table=table_id, channel=channel)


def missing_permissions(w: Words, names: Sequence[tuple[str, str]]) -> str:
    """The refusal of `/tienlen start` where the bot lacks channel permissions; ``names``: the
    permissions' names as Discord shows them, marked with `NP_` (context, name)."""
    permissions = ", ".join(w.pgettext(*name) for name in names)
    return w._("I cannot run a table in this channel: I am missing {permissions}. Ask a server "
               "manager to give me those permissions here, or use another channel.",
               permissions=permissions)


def action_done(w: Words, cards: Sequence[Card] | None, *, exchange: bool) -> str:
    """The note under a hand after a play, a pass or cards given back."""
    if cards is None:
        return w._("You passed.")
    if exchange:
        return w._("You gave back {cards}.", cards=glossary.cards(cards))
    return w._("You played {cards}.", cards=glossary.cards(cards))


PLAY_MENU = N_("Choose a play…")


def play_choice(w: Words, play: Combo, *, chop: bool) -> str:
    """A play in the hand's menu, named as a player says it: ``pair of 7s``, ``sequence
    3-4-5-6``, ``three consecutive pairs 5-6-7 (chop)``."""
    what = glossary.combo_short(w, play)
    return w._("{play} (chop)", play=what) if chop else what


def already_done(w: Words, *, passed: bool) -> str:
    """The note under a hand when Play or Pass is pressed again on a drawing it already acted
    on (a double click): the first press counted, the second did nothing."""
    if passed:
        return w._("You had already passed; the second press did nothing.")
    return w._("You had already played; the second press did nothing.")


def _why_not(w: Words, live: LiveTable, error: TienLenError) -> str | None:
    """Why a play cannot be made now, as the end of a status line ("…, but it is @alice's
    turn"); ``None`` for a cause said better by the refusal's own sentence."""
    game = live.game
    assert game is not None
    match error.cause:
        case Cause.NOT_YOUR_TURN if game.current is not None:
            return w._("but it is {player}'s turn", player=seat_name(w, live, game.current))
        case Cause.PASSED:
            return w._("but you passed this trick")
        case Cause.MUST_INCLUDE:
            return w._("but the first play must include {card}",
                       card=error.data.get("card", "3♠"))
        case Cause.THREE_PAIRS_MAY_NOT_LEAD:
            return w._("but three consecutive pairs may not lead")
        case Cause.NO_TWO_LAST:
            return w._("but you may not go out on a 2 at this table")
        case _:
            return None


def hand_status(w: Words, live: LiveTable, seat: int, cards: Sequence[Card]) -> tuple[str, bool]:
    """The one status line of a hand with ``cards`` selected ("pair of 7s — beats the pair of
    6s, but it is @alice's turn"), and whether the selection beats the table. Empty with nothing
    selected: the turn line already says whose turn it is."""
    game = live.game
    assert game is not None
    rules = game.rules
    selected = list(cards)
    if game.phase is Phase.EXCHANGE:
        need = game.pending_returns.get(seat, 0)
        if not need or not selected:
            return "", False
        if len(selected) == need:
            return w._("{cards} — ready to give back.", cards=glossary.cards(selected)), True
        return w.ngettext("{cards} — give back exactly {n} card.",
                          "{cards} — give back exactly {n} cards.", need,
                          cards=glossary.cards(selected)), False
    if not selected or game.is_over:
        return "", False
    try:
        combo = classify(selected, rules)
    except (TienLenError, ValueError):
        combo = None
    if combo is None:
        return w._("{cards} is not a combination.", cards=glossary.cards(selected)), False
    what = glossary.combo_short(w, combo)
    playable = game.can_play(seat, selected)
    why: str | None = None
    if not playable:
        try:
            game.verify_play(seat, selected)
        except TienLenError as error:
            why = _why_not(w, live, error)
            if why is None and error.cause is not Cause.DOES_NOT_BEAT:
                return w._("{play}: {reason}", play=what, reason=engine_refusal(w, error)), False
    if game.table is None:
        if why is not None:
            return w._("{play} — {why}.", play=what, why=why), True
        return w._("{play} — ready to play.", play=what), True
    beats = playable or can_beat(combo, game.table, game.rules, chop_context=game.chop_context)
    table = glossary.combo_short(w, game.table)
    if not beats:
        return w._("{play} — does not beat the {table}.", play=what, table=table), False
    if why is not None:
        return w._("{play} — beats the {table}, {why}.", play=what, table=table, why=why), True
    return w._("{play} — beats the {table}.", play=what, table=table), True


def _parts(w: Words, parts: Sequence[Part]) -> str:
    """The parts of a hand a play breaks: ``pair of Queens and pair of Aces``."""
    return glossary.listing(w, [glossary.part(w, p.kind, p.low, p.high) for p in parts])


def hint_note(w: Words, *, exchange: bool, suggestion: Suggestion | None = None) -> str:
    """The one line under a hand after `Hint`: what is suggested and why. Every reason is the
    engine's, computed from the hand (:mod:`engine.ai.explain`): a play that breaks up a pair,
    a sequence, ... of the hand says which, and "without breaking up your hand" is said only of
    one that breaks nothing."""
    if exchange or suggestion is None:
        return w._("Hint: give back these cards, the ones that fit no combination.")
    play, left, kept = suggestion.play, suggestion.plays_left, suggestion.kept
    broken = _parts(w, suggestion.broken)
    short = glossary.combo_short
    match suggestion.why:
        case HintWhy.GO_OUT:
            return w._("Hint: play your last cards and go out.")
        case HintWhy.LEAD_LOWEST if play is not None and broken:
            return w._("Hint: lead your lowest card, the {card}, though it breaks up your "
                       "{parts}.", card=play.top, parts=broken)
        case HintWhy.LEAD_LOWEST if play is not None:
            return w.ngettext("Hint: lead your lowest card, the {card}; then {n} more play to "
                              "go out.",
                              "Hint: lead your lowest card, the {card}; then {n} more plays to "
                              "go out.", left, card=play.top)
        case HintWhy.LEAD_PLAN if play is not None:
            return w.ngettext("Hint: lead the {play}, the weakest part of your hand; then {n} "
                              "more play to go out.",
                              "Hint: lead the {play}, the weakest part of your hand; then {n} "
                              "more plays to go out.", left, play=short(w, play))
        case HintWhy.LEAD if play is not None and broken:
            return w._("Hint: lead the {play}, though it breaks up your {parts}.",
                       play=short(w, play), parts=broken)
        case HintWhy.LEAD if play is not None:
            return w.ngettext("Hint: lead the {play}; then {n} more play to go out.",
                              "Hint: lead the {play}; then {n} more plays to go out.", left,
                              play=short(w, play))
        case HintWhy.CHOP if play is not None and broken:
            return w._("Hint: chop with the {play}, though it breaks up your {parts}.",
                       play=short(w, play), parts=broken)
        case HintWhy.CHOP if play is not None:
            return w._("Hint: chop with the {play}.", play=short(w, play))
        case HintWhy.BLOCK if play is not None and broken:
            return w.ngettext("Hint: someone has only {n} card left: beat it now with the "
                              "{play}, though it breaks up your {parts}.",
                              "Hint: someone has only {n} cards left: beat it now with the "
                              "{play}, though it breaks up your {parts}.",
                              suggestion.opponent_cards or 1, play=short(w, play), parts=broken)
        case HintWhy.BLOCK if play is not None:
            return w.ngettext("Hint: beat it now with the {play}: someone has only {n} card left.",
                              "Hint: beat it now with the {play}: someone has only {n} cards "
                              "left.", suggestion.opponent_cards or 1, play=short(w, play))
        case HintWhy.FITS_PLAN if play is not None:
            return w.ngettext("Hint: the {play} beats it without breaking up your hand; then "
                              "{n} more play to go out.",
                              "Hint: the {play} beats it without breaking up your hand; then "
                              "{n} more plays to go out.", left, play=short(w, play))
        case HintWhy.ANSWER if play is not None:
            return w._("Hint: beat it with the {play}, though it breaks up your {parts}.",
                       play=short(w, play), parts=broken)
        case HintWhy.KEEP if kept is not None:
            return w._("Hint: pass — beating it with the {play} would break up your {parts}.",
                       play=short(w, kept), parts=broken)
        case HintWhy.KEEP_FOR_LATER if kept is not None:
            return w._("Hint: pass — keep your {play} for a later trick.", play=short(w, kept))
        case HintWhy.KEEP_CONTROL if kept is not None:
            return w._("Hint: pass — keep your {play} to win a trick later.",
                       play=short(w, kept))
        case HintWhy.NO_PLAY:
            return w._("Hint: pass — nothing in your hand beats the table.")
        case _:
            return w._("Hint: nothing to do now — wait for your turn.")


def _until(live: LiveTable) -> str:
    return f"<t:{int(live.deadline)}:R>" if live.deadline else ""


def hand_turn_line(w: Words, live: LiveTable, seat: int) -> str:
    """Whose turn it is, seen from ``seat`` ("Your turn" stands out), with when the turn ends;
    a lead is said here (there is then nothing to beat)."""
    game = live.game
    assert game is not None
    actor = game.actor
    if game.is_over:
        user_id = live.seats[seat].user_id if 0 <= seat < len(live.seats) else None
        results = live.results
        if isinstance(results, GameResults) and results.game_id not in (None, live.game_id):
            results = None  # another game's
        return game_over_hand_line(w, results, user_id or 0)
    until = _until(live)
    if actor == seat:
        if game.phase is Phase.EXCHANGE:
            need = game.pending_returns.get(seat, 0)
            return (w.ngettext("🟢 **Your turn**: give back {n} card — ends {until}",
                               "🟢 **Your turn**: give back {n} cards — ends {until}", need,
                               until=until) if until
                    else w.ngettext("🟢 **Your turn**: give back {n} card",
                                    "🟢 **Your turn**: give back {n} cards", need))
        if game.table is None:
            return (w._("🟢 **Your turn**: you lead — ends {until}", until=until) if until
                    else w._("🟢 **Your turn**: you lead"))
        return (w._("🟢 **Your turn** — ends {until}", until=until) if until
                else w._("🟢 **Your turn**"))
    return turn_line(w, live)


def turn_line(w: Words, live: LiveTable) -> str:
    """Whose turn it is and when it ends, for everyone ("@dave to play — ends <t:…:R>"); the
    board's line, and a hand's when it is someone else's turn."""
    game = live.game
    assert game is not None
    actor = game.actor
    if actor is None:
        return ""
    who = seat_name(w, live, actor)
    until = _until(live)
    if game.phase is Phase.EXCHANGE:
        return (w._("{player} to give back cards — ends {until}", player=who, until=until)
                if until else w._("{player} to give back cards", player=who))
    if game.table is None:
        return (w._("{player} to lead — ends {until}", player=who, until=until) if until
                else w._("{player} to lead", player=who))
    return (w._("{player} to play — ends {until}", player=who, until=until) if until
            else w._("{player} to play", player=who))


def hand_table_line(w: Words, live: LiveTable) -> str:
    """The play to beat and by whom; empty when there is none (the turn line says who leads)."""
    game = live.game
    assert game is not None
    if game.phase is not Phase.PLAY or game.table is None or game.is_over:
        return ""
    cards = glossary.cards(game.table.cards)
    if game.last_play_seat is None:
        return w._("To beat: {cards}", cards=cards)
    return w._("To beat: {cards} by {player}", cards=cards,
               player=seat_name(w, live, game.last_play_seat))


def seat_state(w: Words, live: LiveTable, seat: int) -> str:
    """A seat's cards and marks, worded one way on the board, the hand and the alt text:
    ``13 cards (passed)``, ``0 cards (out)``."""
    game = live.game
    assert game is not None
    count = game.card_counts[seat]
    flags = []
    if seat in game.passed and not game.is_over:
        flags.append(w._("passed"))
    if live.has_left(seat):
        flags.append(w._("left: computer playing"))
    elif live.auto and seat < len(live.auto) and live.auto[seat]:
        flags.append(w._("away: computer playing"))
    if count == 0:
        flags.append(w._("out"))
    cards = w.ngettext("{n} card", "{n} cards", count)
    if flags:
        return w._("{cards} ({flags})", cards=cards, flags=", ".join(flags))
    return cards


def hand_counts_line(w: Words, live: LiveTable) -> str:
    """Every seat's cards, in seat order, worded as on the board (``@bob 13 cards
    (passed)``)."""
    game = live.game
    assert game is not None
    parts = [w._("{player} {state}", player=seat_name(w, live, i), state=seat_state(w, live, i))
             for i in range(len(live.seats))]
    return " · ".join(parts)


def turn_reminder(w: Words, user_id: int, deadline: float) -> str:
    """The channel message that reminds a person of their turn (it mentions only them), with
    the end of the turn as a timestamp Discord counts down."""
    until = f"<t:{int(deadline)}:R>"
    return w._("{player}, your turn — it ends {until}.", player=mention(user_id), until=until)


def reminder_done(w: Words, user_id: int, how: str) -> str:
    """The past-tense line a turn reminder is edited to once the turn is over (the mention
    stays; an edit notifies nobody). ``how``: "played", "passed", "gave", "played_timeout",
    "passed_timeout", "gave_timeout", or anything else for a turn that ended otherwise."""
    who = mention(user_id)
    match how:
        case "played":
            return w._("{player} played.", player=who)
        case "passed":
            return w._("{player} passed.", player=who)
        case "gave":
            return w._("{player} gave cards back.", player=who)
        case "played_timeout" | "passed_timeout" | "gave_timeout":
            return w._("{player} ran out of time.", player=who)
        case _:
            return w._("{player}: the turn is over.", player=who)


def game_over_call(w: Words, table_id: int, results: GameResults) -> str:
    """The first line of the game-over post: it mentions (and so notifies) the seated people."""
    people = " ".join(mention(p.player.user_id) for p in results.places
                      if p.player.user_id is not None)
    return w._("🏁 Game over at table #{table}: {players}", table=table_id,
               players=people or "—").rstrip()


def game_over_lines(w: Words, results: GameResults) -> list[str]:
    """The game-over post: places with chip changes and reasons, new balances, and every card
    still held (lật bài), per seat."""
    lines = result_lines(w, results)
    balances = [w._("{player} {chips}", player=player(w, p.player), chips=w.num(p.balance))
                for p in results.places if p.balance is not None]
    if balances:
        lines += ["", w._("**New balances:** {balances}", balances=" · ".join(balances))]
    lines += ["", w._("**Cards left, face up:**")]
    for p in results.places:
        if p.held:
            lines.append(w.ngettext("{player}: {n} card — {cards}",
                                    "{player}: {n} cards — {cards}", len(p.held),
                                    player=player(w, p.player), cards=glossary.cards(p.held)))
        else:
            lines.append(w._("{player}: no cards left", player=player(w, p.player)))
    return lines


def game_over_hand_line(w: Words, results: Results | None, user_id: int) -> str:
    """The line a person's own hand shows at the end: their place, chip change and balance."""
    if isinstance(results, GameResults):
        for p in results.places:
            if p.player.user_id != user_id:
                continue
            place = glossary.place(w, p.place, of=len(results.places))
            chips = chip_change(w, p.chips)
            if p.balance is None:
                return w._("**Game over** — you finished {place}: {chips}.", place=place,
                           chips=chips)
            return w.ngettext("**Game over** — you finished {place}: {chips}. You hold **{n}** "
                              "chip.",
                              "**Game over** — you finished {place}: {chips}. You hold **{n}** "
                              "chips.", p.balance, place=place, chips=chips)
    return w._("**Game over** — the results are on the board.")


def table_list_title(w: Words, count: int, page: int, pages: int) -> str:
    """The title of `/tienlen tables`."""
    if pages <= 1:
        return w.ngettext("{n} open table in this server", "{n} open tables in this server",
                          count)
    return w.ngettext("{n} open table in this server (page {page}/{pages})",
                      "{n} open tables in this server (page {page}/{pages})", count,
                      page=w.num(page), pages=w.num(pages))


def table_list_line(w: Words, live: LiveTable) -> str:
    """One table in `/tienlen tables`: where it is, its phase, free seats, stake, preset."""
    phase = {"lobby": w._("waiting for players"), "playing": w._("playing"),
             "finished": w._("between games")}.get(str(live.phase), str(live.phase))
    free = max(0, live.max_seats - len(live.seats))
    seats = w.ngettext("{n} seat free", "{n} seats free", free)
    return w._("**#{table}** <#{channel}> · {phase} · {seats} · stake {stake} · {rules}",
               table=live.id, channel=live.table.channel_id, phase=phase, seats=seats,
               stake=w.num(live.table.stake), rules=glossary.preset(w, live.rules.preset_name()))
