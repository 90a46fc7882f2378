"""Turn table state into Discord messages: the board (public) and a hand (ephemeral)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from cogs import words
from cogs.tables import LiveTable, TablePhase
from engine import Card, Level, Phase, Rules, format_cards

from . import selection as sel
from ._views import AiLevelButton, BoardButton, HandButton

GREEN = discord.Colour.green()
GOLD = discord.Colour.gold()
GREY = discord.Colour.light_grey()
RECENT = 5


def board(live: LiveTable, *, pictured: bool = False) -> dict[str, Any]:
    """kwargs for send/edit of the board message. ``pictured``: the board picture goes with it,
    so the stake line moves to the embed's footer (the picture shows the stake)."""
    table = live.table
    rules = live.rules
    title = f"Tiến Lên — table #{table.id}"
    if table.status != "open":
        closed = "\n".join(words.result_lines(live.results)) or "Closed."
        embed = discord.Embed(title=title, description=closed,
                              colour=GREY)
        return {"content": None, "embed": embed, "view": None}
    head = (f"Stake **{table.stake}** · rules **{_preset_name(rules)}** · "
            f"{table.turn_seconds}s turns")
    if live.phase is TablePhase.LOBBY:
        lines = [head, "", f"Seats ({len(live.seats)}/{live.max_seats}):"]
        lines += [
            f"{i + 1}. {words.seat_name(live, i)}"
            + (" (host)" if s.user_id == table.host_id else "")
            for i, s in enumerate(live.seats)
        ]
        if results := words.result_lines(live.results):
            lines += ["", "Last game:", *results]
        lines += ["", "Press **Join** to sit down. The host presses **Start** (2+ seated)."]
        embed = discord.Embed(title=title, description="\n".join(lines), colour=GREEN)
        view = discord.ui.View(timeout=None)
        for action, label, style in (
            ("join", "Join", discord.ButtonStyle.success),
            ("leave", "Leave", discord.ButtonStyle.secondary),
            ("addai", "Add computer player", discord.ButtonStyle.secondary),
            ("start", "Start", discord.ButtonStyle.primary),
            ("cancel", "Cancel", discord.ButtonStyle.danger),
        ):
            view.add_item(BoardButton(table.id, action, label=label, style=style))
        return {"content": None, "embed": embed, "view": view}
    game = live.game
    assert game is not None
    content = None
    lines = [] if pictured else [head, ""]
    if live.phase is TablePhase.FINISHED:
        lines += ["**Game over**", *words.result_lines(live.results)]
        colour = GOLD
    else:
        colour = GREEN
        actor = game.actor
        if game.phase is Phase.EXCHANGE:
            lines.append("Card exchange in progress.")
        if actor is not None:
            until = f" — <t:{int(live.deadline)}:R>" if live.deadline else ""
            content = f"Turn: {words.seat_name(live, actor)}{until}"
            lines.append(f"**Turn:** {words.seat_name(live, actor)}{until}")
        if game.table is not None:
            last = game.last_play_seat
            by = f" by {words.seat_name(live, last)}" if last is not None else ""
            lines.append(f"**To beat:** {format_cards(list(game.table.cards))}{by}")
        else:
            lines.append("**To beat:** nothing — a new lead")
    lines.append("")
    for i, _seat in enumerate(live.seats):
        count = len(game.hands[i])
        flags = []
        if i in game.passed and live.phase is TablePhase.PLAYING:
            flags.append("passed")
        if live.auto and live.auto[i]:
            flags.append("away: computer playing")
        if count == 0:
            flags.append("out")
        tail = f" ({', '.join(flags)})" if flags else ""
        plural = "s" if count != 1 else ""
        lines.append(f"{i + 1}. {words.seat_name(live, i)} — {count} card{plural}{tail}")
    recent = [line for e in game.events if (line := words.board_event(live, e))][-RECENT:]
    if recent:
        lines += ["", "Recent:", *(f"· {r}" for r in recent)]
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    if pictured:
        embed.set_footer(text=head.replace("**", ""))
    view = discord.ui.View(timeout=None)
    if live.phase is TablePhase.FINISHED:
        view.add_item(BoardButton(table.id, "again", label="Play again",
                                  style=discord.ButtonStyle.success))
        view.add_item(BoardButton(table.id, "leave", label="Leave",
                                  style=discord.ButtonStyle.secondary))
    else:
        view.add_item(BoardButton(table.id, "hand", label="My hand",
                                  style=discord.ButtonStyle.primary))
    view.add_item(BoardButton(table.id, "rules", label="Rules",
                              style=discord.ButtonStyle.secondary))
    return {"content": content, "embed": embed, "view": view}


def ai_levels(live: LiveTable) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for level in Level:
        view.add_item(AiLevelButton(live.id, level))
    return view


def hand_buttons(live: LiveTable, seat: int, mask: int) -> dict[str, bool]:
    """Which of Play, Pass and Hint a press would be accepted for now (enabled exactly then)."""
    game = live.game
    assert game is not None
    if not live.playing or game.is_over:
        return {"play": False, "pass": False, "hint": False}
    chosen = sel.chosen_cards(game.hands[seat], mask)
    if game.phase is Phase.EXCHANGE:
        ok = bool(chosen) and game.can_return(seat, chosen)
        return {"play": ok, "pass": False, "hint": bool(game.pending_returns.get(seat))}
    can_play = bool(chosen) and game.can_play(seat, chosen)
    return {
        "play": can_play,
        "pass": game.can_pass(seat),
        "hint": game.current == seat or bool(game.legal_plays(seat)),
    }


def hand(live: LiveTable, seat: int, mask: int, note: str | None = None, *,
         press: int = 0, emoji: Callable[[Card], discord.PartialEmoji | None] | None = None
         ) -> dict[str, Any]:
    """kwargs for an ephemeral hand message (send or edit). ``press``: the hand's drawing number,
    carried by its buttons so that a second press of the same drawing is recognised; ``emoji``
    gives a card's button emoji (none: text only)."""
    game = live.game
    assert game is not None
    cards = game.hands[seat]
    mask = sel.clean_mask(cards, mask)
    codes = sel.hand_codes(cards)
    line, _ = words.hand_status(live, seat, sel.selected_cards(cards, mask))
    enabled = hand_buttons(live, seat, mask)
    over = not live.playing or game.is_over
    view = discord.ui.View(timeout=None)
    for i, (card, code) in enumerate(zip(cards, codes, strict=True)):
        chosen = bool(mask >> code & 1)
        view.add_item(
            HandButton(
                live.id, press, mask, f"c{code}", label=str(card), disabled=over,
                style=discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary,
                row=i // 5, emoji=emoji(card) if emoji is not None else None,
            )
        )
    action_row = min(4, (len(cards) + 4) // 5)
    for op, label, style, disabled in (
        ("play", "Play", discord.ButtonStyle.success, not enabled["play"]),
        ("pass", "Pass", discord.ButtonStyle.danger, not enabled["pass"]),
        ("clear", "Clear", discord.ButtonStyle.secondary, mask == 0 or over),
        ("hint", "Hint", discord.ButtonStyle.secondary, not enabled["hint"]),
    ):
        view.add_item(HandButton(live.id, press, mask, op, label=label, style=style,
                                 disabled=disabled, row=action_row))
    header = f"**Your hand** — table #{live.id} · {len(cards)} card{'s' if len(cards) != 1 else ''}"
    lines = [header, words.hand_turn_line(live, seat)]
    if not over:
        lines += [words.hand_table_line(live), words.hand_counts_line(live), line]
    lines.append(note or "")
    return {"content": "\n".join(filter(None, lines)), "view": view}


def _preset_name(rules: Rules) -> str:
    for name in Rules.preset_names():
        if Rules.preset(name) == rules:
            return name
    return "custom"


def rules_embed(rules: Rules, title: str) -> discord.Embed:
    """An embed generated from the Rules model itself, so it can never drift from the engine."""
    embed = discord.Embed(title=title, colour=GREEN)
    for option, value in rules.describe():
        embed.add_field(name=option, value=value, inline=True)
    return embed
