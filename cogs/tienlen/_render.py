"""Turn table state into Discord messages: the board (public, in the table's language) and a hand
(ephemeral, in its owner's language)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from cogs import callouts, glossary, words
from cogs.i18n import N_, Words
from cogs.i18n import words as words_of
from cogs.reactions import ReactionSelect
from cogs.reactions._views import select_for
from cogs.tables import LiveTable, TablePhase
from cogs.tables import reactions as reacts
from data import HandPrefs
from data.prefs import DEFAULT_PREFS
from engine import Card, Level, Phase, Rules

from . import _layout, _menu, rules_view
from . import selection as sel
from ._views import AiLevelButton, BoardButton, HandButton, LeaveConfirmButton, SentView
from .ranked import mode

GREEN = discord.Colour.green()
GOLD = discord.Colour.gold()
GREY = discord.Colour.light_grey()
RECENT = 5
BOARD_FILE = "board.png"
HAND_FILE = "hand.png"

LOBBY_BUTTONS = (
    ("join", N_("Join"), discord.ButtonStyle.success),
    ("leave", N_("Leave"), discord.ButtonStyle.secondary),
    ("addai", N_("Add computer player"), discord.ButtonStyle.secondary),
    ("start", N_("Start"), discord.ButtonStyle.primary),
    ("cancel", N_("Cancel"), discord.ButtonStyle.danger),
)
# After a game: the lobby's buttons with `Play again` (the ready check) and the rules.
AFTER_GAME_BUTTONS = (
    ("join", N_("Join"), discord.ButtonStyle.success),
    ("leave", N_("Leave"), discord.ButtonStyle.secondary),
    ("addai", N_("Add computer player"), discord.ButtonStyle.secondary),
    ("again", N_("Play again"), discord.ButtonStyle.success),
    ("start", N_("Start"), discord.ButtonStyle.primary),
    ("cancel", N_("Cancel"), discord.ButtonStyle.danger),
    ("rules", N_("Rules"), discord.ButtonStyle.secondary),
)


def _seat_lines(w: Words, live: LiveTable) -> list[str]:
    """The seats between games: who hosts, who is ready for the next deal."""
    table = live.table
    lines = [w._("Seats ({taken}/{total}):", taken=len(live.seats), total=live.max_seats)]
    for i, s in enumerate(live.seats):
        name = words.seat_name(w, live, i)
        marks = []
        if s.user_id == table.host_id:
            marks.append(w._("host"))
        if live.ready and (s.user_id is None or s.user_id in live.ready):
            marks.append(w._("ready"))
        lines.append(f"{i + 1}. {name} ({', '.join(marks)})" if marks else f"{i + 1}. {name}")
    return lines


def _between_games_help(w: Words, live: LiveTable) -> str:
    if not live.had_game:
        return w._("Press **Join** to sit down. The host presses **Start** (2+ seated).")
    if live.ready and live.ready_deadline is not None:
        until = f"<t:{int(live.ready_deadline)}:R>"
        return w._("Ready check: the next game starts when everyone seated is ready, at "
                   "{until} if 2+ are ready, or when the host presses **Start** (those not "
                   "ready leave their seats).", until=until)
    return w._("**Play again** when you are ready for the next game; **Join** to sit down, "
               "**Leave** to get up. The host may **Start** at once.")


def _between_games_rows(w: Words, live: LiveTable) -> list[discord.ui.ActionRow[Any]]:
    return _layout.rows(
        BoardButton(live.id, action, label=w.marked(label), style=style)
        for action, label, style in (AFTER_GAME_BUTTONS if live.had_game else LOBBY_BUTTONS))


def _mode(w: Words, live: LiveTable) -> str:
    """The end of the board's head line: whether the table's games are rated."""
    return " · " + mode(w, live.ranked)


def table_words(live: LiveTable) -> Words:
    """The words of a table's public messages."""
    return words_of(live.language)


PICTURED_LINES = 6
"""At most this many text lines on a board drawn with its picture (the picture shows the seats)."""


def board(live: LiveTable, *, pictured: bool = False) -> dict[str, Any]:
    """kwargs for send/edit of the board message (a V2 layout), in the table's language.
    ``pictured``: the board picture goes with it; the text then leaves the seats to the picture
    and keeps to 6 lines (the seat list becomes the picture's description)."""
    w = table_words(live)
    table = live.table
    rules = live.rules
    title = w._("Tiến Lên — table #{table}", table=table.id)
    if table.status != "open":
        closed = "\n".join(words.result_lines(w, live.results)) or w._("Closed.")
        return {"view": _layout.message(GREY, f"### {title}\n{closed}")}
    head = w._("Stake **{stake}** · rules **{rules}** · {seconds}s turns",
               stake=w.num(table.stake), rules=glossary.preset(w, rules.preset_name()),
               seconds=w.num(table.turn_seconds)) + _mode(w, live)
    if live.phase is TablePhase.LOBBY:
        lines = [f"### {title}", head]
        if results := words.result_lines(w, live.results):
            lines += ["", w._("Last game:"), *results]
        lines += ["", *_seat_lines(w, live), "", _between_games_help(w, live)]
        return {"view": _layout.message(GREEN, "\n".join(lines),
                                        controls=_between_games_rows(w, live))}
    game = live.game
    assert game is not None
    lines = [f"-# {title} · {head}"] if pictured else [f"### {title}", head]
    if live.phase is TablePhase.FINISHED:
        lines += [w._("**Game over**"), *words.result_lines(w, live.results)]
        colour = GOLD
    else:
        colour = GREEN
        if game.actor is not None:
            lines.append(words.turn_line(w, live))
        elif game.phase is Phase.EXCHANGE:
            lines.append(w._("Card exchange in progress."))
        if to_beat := words.hand_table_line(w, live):
            lines.append(to_beat)
    shouts = _callout_lines(w, live)
    beside, seated, others = _reactions(w, live)
    plain = [_seat_line(w, live, i) for i in range(len(live.seats))]
    seats = [line + beside.get(i, "") for i, line in enumerate(plain)]
    recent = [line for i, e in enumerate(game.events)
              if (line := words.board_event(w, live, e, i))][-RECENT:]
    after: list[str] = []
    if live.phase is TablePhase.FINISHED:  # the board is a lobby again, below the results
        after = [*_seat_lines(w, live), "", _between_games_help(w, live)]
        others = [*seated, *others]
        seats = []
    reactions = ([w._("Reactions: {reactions}", reactions=" · ".join(others))]
                 if others else [])
    if pictured and seated and live.phase is not TablePhase.FINISHED:
        # the seat lines are the picture's: the seated people's reactions go in the text
        reactions = [w._("Reactions: {reactions}", reactions=" · ".join([*seated, *others]))]
    if pictured and live.phase is not TablePhase.FINISHED:
        # the picture shows the seats: the latest call-out and the reactions, then the latest
        # actions fill the lines left
        room = max(0, PICTURED_LINES - len(lines))
        keep = [*shouts[-1:], *reactions][:room]
        room -= len(keep)
        lines += [*keep, *([f"· {r}" for r in recent][-room:] if room else [])]
        text, text_after = "\n".join(lines), ""
    else:
        lines += [*(["", *shouts] if shouts else []), *(["", *seats] if seats else []),
                  *reactions]
        if recent:
            lines += ["", w._("Recent:"), *(f"· {r}" for r in recent)]
        text = "\n".join(lines)
        text_after = "\n".join(after)
    # the picture's description (its alt text): the seat list, worded as the text board words it
    gallery = _layout.picture(BOARD_FILE, "\n".join(plain)) if pictured else None
    if live.phase is TablePhase.FINISHED:  # a lobby again; reactions still welcome
        controls = [*_between_games_rows(w, live),
                    discord.ui.ActionRow(_reaction_select(w, table.id))]
    else:
        buttons = [
            BoardButton(table.id, "hand", label=w._("My hand"),
                        style=discord.ButtonStyle.primary),
            BoardButton(table.id, "leave", label=w._("Leave game"),
                        style=discord.ButtonStyle.secondary),
            BoardButton(table.id, "rules", label=w._("Rules"),
                        style=discord.ButtonStyle.secondary),
        ]
        controls = [*_layout.rows(buttons), discord.ui.ActionRow(_reaction_select(w, table.id))]
    return {"view": _layout.message(colour, text, gallery=gallery, text_after=text_after,
                                    controls=controls)}


def moved(text: str) -> _layout.SentLayout:
    """What an earlier board shows once a newer one replaced it."""
    return _layout.message(GREY, text)


def leave_confirmation(w: Words, live: LiveTable, game_id: int) -> dict[str, Any]:
    """The private question after `Leave game`: a confirm button carrying the game's id."""
    view = SentView()
    view.add_item(LeaveConfirmButton(live.id, game_id, label=w._("Yes, leave the game"),
                                     style=discord.ButtonStyle.danger))
    text = w._("Leave the game at table #{table}? A computer plays your seat to the end, and "
               "you pay as the last place (with the cards you hold now). You leave the table "
               "after the game.", table=live.id)
    return {"content": text, "view": view}
def _reaction_select(w: Words, table_id: int) -> ReactionSelect:
    """The reaction select (on a row of its own)."""
    item = select_for(w, table_id)
    item.row = None
    return item


def _reactions(w: Words, live: LiveTable) -> tuple[dict[int, str], list[str], list[str]]:
    """The reactions made since the board last went out: `` · 👍`` beside a seat, and
    ``@x 👍`` for the seated and for each person who is not seated."""
    beside: dict[int, str] = {}
    seated: list[str] = []
    others: list[str] = []
    for r in reacts.shown(live):
        text = callouts.reaction_text(w, r.key, reacts.EMOTES.get(r.key))
        seat = live.seat_of(r.user_id)
        named = f"{words.mention(r.user_id)} {text}"
        if seat is not None:
            beside[seat] = f" · {text}"
            seated.append(named)
        else:
            others.append(named)
    return beside, seated, others


def _callout_lines(w: Words, live: LiveTable) -> list[str]:
    """The latest call-outs ("@bob: last card!", "Chop! …"), drawn from the game's log in the
    same render (so in the same coalesced edit) as the move."""
    game = live.game
    assert game is not None

    def name(seat: int) -> str:
        return words.seat_name(w, live, seat) if 0 <= seat < len(live.seats) else "?"

    timeouts = [(i, seat) for i in live.clock_events if i < len(game.events)
                for seat in [_actor_of(game.events[i])] if seat is not None]
    shouts = callouts.latest(w, game.events, name, stake=live.table.stake, timeouts=timeouts)
    return ["", *(f"📣 {line}" for line in shouts)] if shouts else []


def _seat_line(w: Words, live: LiveTable, i: int) -> str:
    return w._("{number}. {player} — {state}", number=i + 1,
               player=words.seat_name(w, live, i), state=words.seat_state(w, live, i))


def ai_levels(w: Words, live: LiveTable) -> discord.ui.View:
    view = SentView()
    for level in Level:
        label = glossary.level(w, level)
        view.add_item(AiLevelButton(live.id, level, label=label[:1].upper() + label[1:]))
    return view


HAND_BUTTONS = {"play": N_("Play"), "pass": N_("Pass"), "clear": N_("Clear"),
                "hint": N_("Hint")}


def hand_buttons(live: LiveTable, seat: int, mask: int) -> dict[str, bool]:
    """Which of Play, Pass and Hint a press would be accepted for now (enabled exactly then)."""
    game = live.game
    assert game is not None
    if not live.playing or game.is_over:
        return {"play": False, "pass": False, "hint": False}
    chosen = sel.chosen_cards(game.hand(seat), mask)
    if game.phase is Phase.EXCHANGE:
        ok = bool(chosen) and game.can_return(seat, chosen)
        return {"play": ok, "pass": False, "hint": bool(game.pending_returns.get(seat))}
    can_play = bool(chosen) and game.can_play(seat, chosen)
    return {
        "play": can_play,
        "pass": game.can_pass(seat),
        "hint": game.current == seat or bool(game.legal_plays(seat)),
    }


def hand(w: Words, live: LiveTable, seat: int, mask: int, note: str | None = None, *,
         press: int = 0, emoji: Callable[[Card], discord.PartialEmoji | None] | None = None,
         pictured: bool = False, prefs: HandPrefs = DEFAULT_PREFS) -> dict[str, Any]:
    """kwargs for an ephemeral hand message (send or edit, a V2 layout), in its owner's language
    ``w``. ``press``: the hand's drawing number, carried by its buttons so that a second press of
    the same drawing is recognised; ``emoji`` gives a card's button emoji (none: text only);
    ``pictured``: the hand picture goes with it (then at most 4 text lines: the header, whose
    turn, the play to beat, and the note or the selection's status); ``prefs``: the owner's own
    preferences (the cards' order)."""
    game = live.game
    assert game is not None
    cards = prefs.arrange(game.hand(seat), live.rules.suit_order)
    mask = sel.clean_mask(cards, mask)
    codes = sel.hand_codes(cards)
    line, _ = words.hand_status(w, live, seat, sel.selected_cards(cards, mask))
    enabled = hand_buttons(live, seat, mask)
    over = not live.playing or game.is_over
    card_buttons = [
        HandButton(
            live.id, press, mask, f"c{code}", label=str(card), disabled=over,
            style=(discord.ButtonStyle.primary if mask >> code & 1
                   else discord.ButtonStyle.secondary),
            emoji=emoji(card) if emoji is not None else None,
        )
        for card, code in zip(cards, codes, strict=True)
    ]
    actions = [
        HandButton(live.id, press, mask, op, label=w.marked(HAND_BUTTONS[op]), style=style,
                   disabled=disabled)
        for op, style, disabled in (
            ("play", discord.ButtonStyle.success, not enabled["play"]),
            ("pass", discord.ButtonStyle.danger, not enabled["pass"]),
            ("clear", discord.ButtonStyle.secondary, mask == 0 or over),
            ("hint", discord.ButtonStyle.secondary, not enabled["hint"]),
        )
    ]
    header = w.ngettext("**Your hand** — table #{table} · {n} card",
                        "**Your hand** — table #{table} · {n} cards", len(cards), table=live.id)
    lines = [header, words.hand_turn_line(w, live, seat)]
    if not over:
        lines.append(words.hand_table_line(w, live))
        if not pictured:  # no picture of the table at hand: every seat's cards in words
            lines.append(words.hand_counts_line(w, live))
    lines.append(note or line)  # one line: the latest note, else the selection's status
    colour = GREY if over else GOLD if game.actor == seat else GREEN
    gallery = (_layout.picture(HAND_FILE, w._("Your hand: {cards}", cards=glossary.cards(cards)))
               if pictured else None)
    controls: list[discord.ui.Item[Any]] = [*_layout.rows(card_buttons),
                                            *_layout.rows(actions)]
    if not over and (menu := _menu.play_menu(w, live, seat, press)) is not None:
        controls.append(discord.ui.ActionRow(menu))  # the plays to make now, in one choice
    return {"view": _layout.message(colour, "\n".join(filter(None, lines)), gallery=gallery,
                                    controls=controls)}


def rules_embed(w: Words, rules: Rules, title: str) -> discord.Embed:
    """The rules as a player reads them: the preset's name and only what they change from it
    (generated from the Rules model, so it can never drift from the engine); `rules_view` adds
    the button that shows every option."""
    return rules_view.changes_embed(w, rules, title)


def _actor_of(event: object) -> int | None:
    """The seat that made a play or a pass (the clock's actions are kept by their index)."""
    seat = getattr(event, "seat", None)
    return seat if isinstance(seat, int) else None
