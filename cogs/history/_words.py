"""The words of history pages and replays, in the reader's language (no Discord here)."""

from __future__ import annotations

from cogs import glossary, words
from cogs.i18n import Words
from cogs.tables import Player
from data import HistoryEntry, HistoryPage
from engine import Rules, TrickWon

from ._replays import Loaded

RECENT = 5


def seat_name(w: Words, loaded: Loaded, seat: int) -> str:
    """A seat as text: a person as a mention, a computer player by its name."""
    players = loaded.players
    return words.player(w, players[seat]) if 0 <= seat < len(players) else "?"


def plain_name(w: Words, player: Player) -> str:
    """A seat's name as drawn in a picture (no mention syntax)."""
    if player.user_id is None:
        return words.player(w, player)
    return player.name


def preset_of(w: Words, rules_json: str) -> str:
    try:
        name = Rules.model_validate_json(rules_json).preset_name()
    except ValueError:
        name = None
    return glossary.preset(w, name) if name else w._("custom rules")


def history_line(w: Words, entry: HistoryEntry) -> str:
    """One game of a history page: date, table, rules, place, chip change (and rating)."""
    when = f"<t:{int(entry.finished_at.timestamp())}:d>" if entry.finished_at else "?"
    table = f"#{entry.table_id}" if entry.table_id is not None else "—"
    chips = w.ngettext("{amount} chip", "{amount} chips", abs(entry.chip_change),
                       amount=w.signed(entry.chip_change) if entry.chip_change else "+0")
    line = w._("**Game #{game}** · {when} · table {table} · {rules} · {place} of {seats} · "
               "{chips}", game=entry.game_id, when=when, table=table,
               rules=preset_of(w, entry.rules_json), place=glossary.place(w, entry.place),
               seats=entry.seats, chips=chips)
    if entry.rating_change is not None:  # RANKED: shown once ratings are stored
        change = format(entry.rating_change, "+.1f")
        line += " · " + w._("rating {change}", change=change)
    return line


def history_text(w: Words, page: HistoryPage, who: str) -> str:
    """A history page: whose, then one line per game and the page number."""
    if not page.entries:
        if page.total == 0:
            return w._("{player} has no finished game in this server yet.", player=who)
        return w._("There is no page {page}: there are {pages}.", page=page.page,
                   pages=page.pages)
    lines = [w._("Games of {player}, newest first:", player=who)]
    lines.extend(history_line(w, e) for e in page.entries)
    lines.append(w.ngettext("Page {page} of {pages} · {n} game",
                            "Page {page} of {pages} · {n} games",
                            page.total, page=page.page, pages=page.pages))
    return "\n".join(lines)


def step_title(w: Words, loaded: Loaded, step: int) -> str:
    return w._("Replay of game #{game} — step {step} of {last}", game=loaded.record.id,
               step=step, last=len(loaded.replay) - 1)


def step_text(w: Words, loaded: Loaded, step: int) -> str:
    """Step ``step`` in words: the trick, the play to beat and by whom, every seat's cards (all
    face up: the game is over), the trick winner and the recent actions."""
    replay = loaded.replay
    at = replay[step]
    game = at.game

    def name(seat: int) -> str:
        return seat_name(w, loaded, seat)

    lines = []
    if step == 0:
        lines.append(w._("The deal."))
    else:
        lines.append(w._("Trick {trick}.", trick=at.trick))
    if game.is_over:
        order = ", ".join(f"{glossary.place(w, i + 1, of=len(game.places))} {name(s)}"
                          for i, s in enumerate(game.places))
        lines.append(w._("Game over: {places}", places=order))
    elif game.table is not None and game.last_play_seat is not None:
        lines.append(w._("To beat: {cards} by {player}", cards=glossary.cards(game.table.cards),
                         player=name(game.last_play_seat)))
    else:
        lines.append(w._("New lead."))
    winner = at.trick_winner
    if winner is not None:
        lines.append(w._("{player} won the trick.", player=name(winner)))
    lines.append("")
    counts, hands, places = game.card_counts, game.hands, game.places
    for seat in range(game.seat_count):
        marks = []
        if seat == game.actor:
            marks.append(w._("to play"))
        if seat in game.passed and not game.is_over:
            marks.append(w._("passed"))
        if seat in places:  # the last place is said as a table says it ("bét") at the end
            marks.append(glossary.place(w, places.index(seat) + 1,
                                        of=game.seat_count if game.is_over else None))
        cards = w.ngettext("{n} card", "{n} cards", counts[seat])
        held = glossary.cards(hands[seat]) if hands[seat] else "—"
        mark = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"**{seat + 1}.** {name(seat)} · {cards}{mark}: {held}")
    recent = []
    for k in range(max(1, step - RECENT + 1), step + 1):
        for event in replay.step_events(k):
            if isinstance(event, TrickWon):
                continue
            line = words.describe_event(w, event, name)
            if line:
                recent.append(line)
    if recent:
        lines.append("")
        lines.append(w._("Recent actions:"))
        lines.extend(f"• {line}" for line in recent[-RECENT:])
    return "\n".join(lines)


def caption(w: Words, loaded: Loaded) -> str:
    """The one line under a shared replay: players, places and chip changes."""
    chips = loaded.chips()
    parts = []
    places = loaded.places()
    for i, seat in enumerate(places):
        amount = w.signed(chips[seat]) if chips[seat] else "±0"
        parts.append(f"{glossary.place(w, i + 1, of=len(places))} {seat_name(w, loaded, seat)} "
                     f"({amount})")
    return w._("Replay of game #{game}: {places}", game=loaded.record.id,
               places=" · ".join(parts))
