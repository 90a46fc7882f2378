"""Turn table state into Discord messages: the board (public) and a hand (ephemeral)."""

from __future__ import annotations

from typing import Any

import discord

from cogs import selection as sel
from cogs.tables import LOBBY_LEVELS, Live, TableService
from engine import Rules, format_cards

from ._views import AiLevelButton, BoardButton, HandButton

GREEN = discord.Colour.green()
GOLD = discord.Colour.gold()
GREY = discord.Colour.light_grey()
RECENT = 5


def _who(live: Live, seat: int) -> str:
    s = live.seats[seat]
    return f"<@{s.user_id}>" if s.user_id is not None else s.name


def _event_line(live: Live, event: Any) -> str | None:
    name = type(event).__name__
    seat = getattr(event, "seat", None)
    who = _who(live, seat) if isinstance(seat, int) and seat < len(live.seats) else "?"
    if name == "Played":
        extra = " (out of turn)" if getattr(event, "out_of_turn", False) else ""
        return f"{who} played {format_cards(list(event.cards))}{extra}"
    if name == "Passed":
        return f"{who} passed"
    if name == "Chopped":
        return f"{who} chopped {_who(live, event.victim)}!"
    if name == "TrickWon":
        return f"{who} won the trick"
    if name == "WentOut":
        return f"{who} went out (place {event.place})"
    if name == "InstantWin":
        return f"{who} wins instantly: {event.kind}"
    return None


def board(live: Live) -> dict[str, Any]:
    """kwargs for send/edit of the board message."""
    table = live.table
    rules = live.rules
    title = f"Tiến Lên — table #{table.id}"
    if table.status != "open":
        embed = discord.Embed(title=title, description="\n".join(live.results) or "Closed.",
                              colour=GREY)
        return {"content": None, "embed": embed, "view": None}
    head = (f"Stake **{table.stake}** · rules **{_preset_name(rules)}** · "
            f"{table.turn_seconds}s turns")
    if live.phase == "lobby":
        lines = [head, "", f"Seats ({len(live.seats)}/{live.max_seats}):"]
        lines += [
            f"{i + 1}. {_who(live, i)}" + (" (host)" if s.user_id == table.host_id else "")
            for i, s in enumerate(live.seats)
        ]
        if live.results:
            lines += ["", "Last game:", *live.results]
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
    lines = [head, ""]
    if live.phase == "finished":
        lines += ["**Game over**", *live.results]
        colour = GOLD
    else:
        colour = GREEN
        actor = TableService._actor(game)
        if game.phase == "exchange":
            lines.append("Card exchange in progress.")
        if actor is not None:
            until = f" — <t:{int(live.deadline)}:R>" if live.deadline else ""
            content = f"Turn: {_who(live, actor)}{until}"
            lines.append(f"**Turn:** {_who(live, actor)}{until}")
        if game.table is not None:
            by = f" by {_who(live, game.last_play_seat)}" if game.last_play_seat is not None else ""
            lines.append(f"**To beat:** {format_cards(list(game.table.cards))}{by}")
        else:
            lines.append("**To beat:** nothing — a new lead")
    lines.append("")
    for i, _seat in enumerate(live.seats):
        count = len(game.hands[i])
        flags = []
        if i in game.passed and live.phase == "playing":
            flags.append("passed")
        if live.auto and live.auto[i]:
            flags.append("away: computer playing")
        if count == 0:
            flags.append("out")
        tail = f" ({', '.join(flags)})" if flags else ""
        lines.append(f"{i + 1}. {_who(live, i)} — {count} card{'s' if count != 1 else ''}{tail}")
    recent = [line for e in game.events if (line := _event_line(live, e))][-RECENT:]
    if recent:
        lines += ["", "Recent:", *(f"· {r}" for r in recent)]
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    view = discord.ui.View(timeout=None)
    if live.phase == "finished":
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


def ai_levels(live: Live) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for level in LOBBY_LEVELS:
        view.add_item(AiLevelButton(live.id, level))
    return view


def hand(service: TableService, live: Live, seat: int, mask: int, note: str | None = None
         ) -> dict[str, Any]:
    """kwargs for an ephemeral hand message (send or edit)."""
    game = live.game
    assert game is not None
    cards = game.hands[seat]
    mask = sel.clean_mask(cards, mask)
    codes = sel.hand_codes(cards)
    line, playable = service.hand_line(live, seat, mask)
    view = discord.ui.View(timeout=None)
    version = game.version
    for i, (card, code) in enumerate(zip(cards, codes, strict=True)):
        chosen = bool(mask >> code & 1)
        view.add_item(
            HandButton(
                live.id, version, mask, f"c{code}", label=str(card),
                style=discord.ButtonStyle.primary if chosen else discord.ButtonStyle.secondary,
                row=i // 5,
            )
        )
    action_row = min(4, (len(cards) + 4) // 5)
    leading = game.table is None and game.phase == "play" and game.current == seat
    over = live.phase != "playing"
    for op, label, style, disabled in (
        ("play", "Play", discord.ButtonStyle.success, not playable or over),
        ("pass", "Pass", discord.ButtonStyle.danger, leading or over or game.phase == "exchange"),
        ("clear", "Clear", discord.ButtonStyle.secondary, mask == 0),
        ("hint", "Hint", discord.ButtonStyle.secondary, over),
    ):
        view.add_item(HandButton(live.id, version, mask, op, label=label, style=style,
                                 disabled=disabled, row=action_row))
    header = f"**Your hand** — table #{live.id} · {len(cards)} card{'s' if len(cards) != 1 else ''}"
    text = "\n".join(filter(None, [header, line, note]))
    return {"content": text, "view": view}


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
