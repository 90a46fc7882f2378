"""Every sentence players read about a table, in one Discord-free module.

The board, the hands, the results and the refusals of the table layer are worded here (and the
terminal table words game events through `describe_event` too), so there is one place to change or
translate. Mentions (`<@id>`) are written only here and in the cogs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from cogs.tables import (
    ActionRefused,
    AlreadySeated,
    BadSeatCount,
    BadStake,
    CardsGone,
    ChannelHasTable,
    Charge,
    GameInProgress,
    GameNotOver,
    GameResults,
    LegacyResults,
    LiveTable,
    NoGame,
    NotEnoughChips,
    NotHost,
    NotSeated,
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
from engine import (
    Card,
    Chopped,
    Combo,
    Event,
    InstantWin,
    Level,
    NotYourTurn,
    Passed,
    Phase,
    Played,
    TienLenError,
    TrickWon,
    WentOut,
    can_beat,
    classify,
    format_cards,
)
from engine.ai import HintWhy, Suggestion

SOMETHING_WENT_WRONG = "Something went wrong; nothing was changed."
UNKNOWN_BUTTON = "This button is not known any more."
BOARD_MOVED = "This table's board moved to a newer message below."
HAND_EXPIRED = ("This hand had stopped updating (Discord lets a bot update it for 15 minutes): "
                "here it is again, up to date. Press again to act.")
ALREADY_DONE = "Already done: this is your hand now."


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def player(p: Player) -> str:
    """A person as a mention, a computer player by its name."""
    return mention(p.user_id) if p.user_id is not None else p.name


def seat_name(live: LiveTable, seat: int | None) -> str:
    """Who sits in ``seat`` now ("nobody" for no seat)."""
    if seat is None:
        return "nobody"
    return player(Player.of(live.seats[seat]))


def describe_event(event: Event, name: Callable[[int], str]) -> str | None:
    """One line for a game event (``None``: not shown); ``name`` names a seat."""
    match event:
        case Played(seat=seat, cards=cards, out_of_turn=out_of_turn):
            extra = " (out of turn)" if out_of_turn else ""
            return f"{name(seat)} played {format_cards(list(cards))}{extra}"
        case Passed(seat=seat):
            return f"{name(seat)} passed"
        case Chopped(seat=seat, victim=victim):
            return f"{name(seat)} chopped {name(victim)}!"
        case TrickWon(seat=seat):
            return f"{name(seat)} won the trick"
        case WentOut(seat=seat, place=place):
            return f"{name(seat)} went out (place {place})"
        case InstantWin(seat=seat, kind=kind):
            return f"{name(seat)} wins instantly: {kind}"
        case _:
            return None


def board_event(live: LiveTable, event: Event) -> str | None:
    """An event line on the board: people are mentioned."""

    def name(seat: int) -> str:
        return seat_name(live, seat) if 0 <= seat < len(live.seats) else "?"

    return describe_event(event, name)


def _charge(charge: Charge) -> str:
    note = (f"{charge.reason} {charge.paid:+d}" if charge.paid == charge.owed
            else f"{charge.reason} {charge.paid:+d} (owed {charge.owed})")
    return note.replace("+", "-", 1) if charge.payer else note


def result_lines(results: Results | None) -> list[str]:
    """The lines of a finished game's results, or of a closed table."""
    match results:
        case None:
            return []
        case TableClosedResults(reason=reason):
            return [f"Table closed ({reason}). No chips moved for an unfinished game."]
        case LegacyResults(lines=saved):
            return list(saved)
        case GameResults():
            lines: list[str] = []
            if results.instant_win is not None and results.winner is not None:
                lines.append(f"Instant win for {player(results.winner)}: "
                             f"{results.instant_win} (×{results.multiplier}).")
            for p in results.places:
                why = "; ".join(dict.fromkeys(_charge(c) for c in p.charges))
                lines.append(f"{p.place}. {player(p.player)} {p.chips:+d} chips"
                             + (f" ({why})" if why else ""))
            return lines


def engine_refusal(error: TienLenError, waiting_for: Player | None = None) -> str:
    """The engine's sentence for a refused play, with whose turn it is when it is not yours."""
    if isinstance(error, NotYourTurn):
        waiting = player(waiting_for) if waiting_for else "nobody"
        return f"It is not your turn — waiting for {waiting}."
    return str(error)


def refusal(error: TableError) -> str:
    """The sentence for a refusal of the table layer."""
    match error:
        case TableGone():
            return "This table no longer exists."
        case TableClosed():
            return "This table is closed."
        case BadStake(minimum=minimum):
            return f"The stake must be at least {minimum} chip{'s' if minimum != 1 else ''}."
        case BadSeatCount(low=low, high=high):
            return f"A table has {low} to {high} seats."
        case NotEnoughChips(chips=chips, stake=stake):
            return f"You hold {chips} chips, less than the stake of {stake}. Try `/daily`."
        case ShortOfChips(short=short, stake=stake):
            names = ", ".join(mention(user) for user in short)
            return (f"The table waits: {names} {'holds' if len(short) == 1 else 'hold'} less than "
                    f"the stake of {stake} chips (`/daily`, or leave the table).")
        case ChannelHasTable(table_id=table_id):
            link = ""
            if error.board_message_id and error.guild_id and error.channel_id:
                link = (f" https://discord.com/channels/{error.guild_id}/{error.channel_id}/"
                        f"{error.board_message_id}")
            return (f"This channel already has a table (#{table_id}): use its buttons, "
                    f"or `/tienlen stop` it first.{link}")
        case GameInProgress(starting=True):
            return "A game is already in progress."
        case GameInProgress():
            return "A game is in progress at this table."
        case AlreadySeated():
            return "You are already seated at this table."
        case TableFull():
            return "This table is full."
        case NotSeated(for_computers=True):
            return "Only seated players can add computer players."
        case NotSeated():
            return "You are not seated at this table."
        case UnknownLevel(level=level):
            return f"Unknown level {level!r}: choose {', '.join(Level)}."
        case NotHost(or_manager=True):
            return "Only the host (or a member with Manage Server) can do that."
        case NotHost():
            return "Only the host can start the game."
        case GameNotOver():
            return "The game is not over yet."
        case TooFewSeats(minimum=minimum):
            return f"At least {'two' if minimum == 2 else minimum} seats must be filled to start."
        case NoGame(over=True):
            return "This game is over."
        case NoGame():
            return "No game is in progress at this table."
        case CardsGone(cards=cards):
            verb = "was" if len(cards) == 1 else "were"
            return f"{format_cards(list(cards))} {verb} already played."
        case TableChanged():
            return "The table changed at the same moment; nothing was played."
        case StoreRefused():
            return str(error)
        case ActionRefused(error=engine_error, waiting_for=waiting):
            return engine_refusal(engine_error, waiting)
        case _:
            return str(error) or SOMETHING_WENT_WRONG


def short_of_chips_message(table_id: int, chips: int, stake: int) -> str:
    """The direct message to a seated person who holds less than the stake."""
    return (f"Table #{table_id} is waiting for you: you hold {chips} chips, less than its "
            f"stake of {stake}. Claim `/daily` there, or leave the table.")


def action_done(cards: Sequence[Card] | None, *, exchange: bool) -> str:
    """The note under a hand after a play, a pass or cards given back."""
    if cards is None:
        return "You passed."
    verb = "gave back" if exchange else "played"
    return f"You {verb} " + " ".join(map(str, cards)) + "."


def hand_status(live: LiveTable, seat: int, cards: Sequence[Card]) -> tuple[str, bool]:
    """The status line under a hand with ``cards`` selected, and whether `Play` is enabled."""
    game = live.game
    assert game is not None
    rules = game.rules
    selected = list(cards)
    if game.phase is Phase.EXCHANGE:
        need = game.pending_returns.get(seat, 0)
        if not need:
            return "Waiting for the card exchange to finish.", False
        ok = len(selected) == need
        return (
            f"Card exchange: select {need} card{'s' if need > 1 else ''} to give back"
            + (" — ready." if ok else "."),
            ok,
        )
    if not selected:
        if game.current == seat:
            lead = game.table is None
            return ("Your lead: select cards to play." if lead else "Your turn."), False
        return f"Waiting for {seat_name(live, game.current)}.", False
    try:
        combo = classify(selected, rules)
    except (TienLenError, ValueError):
        combo = None
    if combo is None:
        return f"{' '.join(map(str, selected))} is not a combination.", False
    text = combo.describe()
    if game.table is None:
        beats = True
        text += " — a lead."
    else:
        beats = game.can_play(seat, selected) or can_beat(
            combo, game.table, game.rules, chop_context=game.chop_context)
        table = " ".join(map(str, game.table.cards))
        text += (f" — beats the {table} on the table." if beats
                 else f" — does not beat the {table} on the table.")
    if beats and not game.can_play(seat, selected):
        try:
            game.verify_play(seat, selected)
        except TienLenError as error:
            current = None if game.current is None else Player.of(live.seats[game.current])
            text += f" But: {engine_refusal(error, current)}"
    return text, beats


def _plays(n: int) -> str:
    return f"{n} play{'s' if n != 1 else ''}"


def _short(combo: Combo) -> str:
    """A combination in a few words: "pair of Qs", "single 7♥", "sequence 8-9-10"."""
    return combo.describe().split(",")[0]


def hint_note(*, exchange: bool, suggestion: Suggestion | None = None) -> str:
    """The one line under a hand after `Hint`: what is suggested and why."""
    if exchange or suggestion is None:
        return "Hint: give back these cards, the ones that fit no combination."
    play, left, kept = suggestion.play, suggestion.plays_left, suggestion.kept
    match suggestion.why:
        case HintWhy.GO_OUT:
            return "Hint: play your last cards and go out."
        case HintWhy.LEAD_LOWEST:
            return f"Hint: lead your lowest single; {_plays(left)} left after it."
        case HintWhy.LEAD_PLAN if play is not None:
            return (f"Hint: lead the {_short(play)}, the weakest part of your hand; "
                    f"{_plays(left)} left after it.")
        case HintWhy.CHOP if play is not None:
            return f"Hint: chop with the {_short(play)}."
        case HintWhy.BLOCK if play is not None:
            cards = suggestion.opponent_cards or 1
            return (f"Hint: beat it now with the {_short(play)}: someone has only {cards} "
                    f"card{'s' if cards != 1 else ''} left.")
        case HintWhy.FITS_PLAN if play is not None:
            return (f"Hint: the {_short(play)} beats it without breaking up your hand; "
                    f"{_plays(left)} left after it.")
        case HintWhy.KEEP if kept is not None:
            return (f"Hint: pass — keep your {_short(kept)} for later: passing keeps a "
                    f"{left}-play plan.")
        case HintWhy.KEEP_CONTROL if kept is not None:
            return f"Hint: pass — keep your {_short(kept)} to win a trick later."
        case HintWhy.NO_PLAY:
            return "Hint: pass — nothing in your hand beats the table."
        case _:
            return "Hint: nothing to do now — wait for your turn."


def hand_turn_line(live: LiveTable, seat: int) -> str:
    """Whose turn it is, seen from ``seat`` ("Your turn" stands out), with the time left."""
    game = live.game
    assert game is not None
    actor = game.actor
    until = f" (ends <t:{int(live.deadline)}:R>)" if live.deadline else ""
    if game.is_over:
        return "**Game over** — the results are on the board."
    if actor == seat:
        if game.phase is Phase.EXCHANGE:
            return f"🟢 **Your turn** — give back cards{until}"
        lead = game.phase is Phase.PLAY and game.table is None
        return f"🟢 **Your turn**{' — you lead' if lead else ''}{until}"
    return f"Turn: {seat_name(live, actor)}{until}"


def hand_table_line(live: LiveTable) -> str:
    """The play to beat and by whom."""
    game = live.game
    assert game is not None
    if game.phase is Phase.EXCHANGE:
        return "Card exchange before play."
    if game.table is None:
        return "To beat: nothing — a new lead."
    by = seat_name(live, game.last_play_seat) if game.last_play_seat is not None else "?"
    return f"To beat: {format_cards(list(game.table.cards))} by {by}"


def hand_counts_line(live: LiveTable) -> str:
    """Every seat's card count, in seat order (who passed, who is out)."""
    game = live.game
    assert game is not None
    parts = []
    for i in range(len(live.seats)):
        count = len(game.hands[i])
        flag = " out" if count == 0 else (" passed" if i in game.passed else "")
        parts.append(f"{seat_name(live, i)} {count}{flag}")
    return "Cards: " + " · ".join(parts)


def turn_reminder(user_id: int, seconds_left: int) -> str:
    """The channel message that reminds a person of their turn (it mentions only them)."""
    return f"{mention(user_id)}, your turn — {seconds_left} s left."
