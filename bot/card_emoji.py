"""Application emoji for the card buttons: one per card and one for the back.

At start-up the bot lists its application's emoji and creates only the missing ones, so a restart
(or a second shard process) creates nothing new. If the emoji cannot be listed or created, the card
buttons show text only and one log line says why.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from cogs.pictures import Pictures, emoji_name, emoji_names
from cogs.tables import RestBudget
from engine import Card

__all__ = ["CardEmoji", "ensure_card_emoji"]

log = logging.getLogger(__name__)


class CardEmoji:
    """The emoji of each card, by name; empty (text-only buttons) until synced or on failure."""

    def __init__(self, emoji: dict[str, discord.PartialEmoji] | None = None,
                 reason: str | None = None) -> None:
        self.emoji = emoji or {}
        self.reason = reason

    def for_card(self, card: Card | None) -> discord.PartialEmoji | None:
        """The emoji of a card (``None``: the back), or ``None`` when emoji are unavailable."""
        return self.emoji.get(emoji_name(card))

    def __len__(self) -> int:
        return len(self.emoji)


async def ensure_card_emoji(client: discord.Client, pictures: Pictures,
                            budget: RestBudget | None = None) -> CardEmoji:
    """List the application's emoji, create the missing card emoji, and return them all.

    Each request waits for a slot of the bot's REST ``budget`` (when given)."""

    async def slot() -> None:
        if budget is not None:
            await budget.acquire()

    wanted = emoji_names()
    created = 0
    try:
        await slot()
        have = {e.name: e for e in await client.fetch_application_emojis()}
        missing = {name: card for name, card in wanted.items() if name not in have}
        images = await asyncio.to_thread(
            lambda: {name: pictures.emoji_png(card) for name, card in missing.items()})
        for name, image in images.items():
            await slot()
            try:
                have[name] = await client.create_application_emoji(name=name, image=image)
            except discord.HTTPException as exc:
                if exc.status != 400:
                    raise
                # Another process may have created it meanwhile: look again once.
                await slot()
                have.update({e.name: e for e in await client.fetch_application_emojis()})
                if name not in have:
                    raise
            else:
                created += 1
    except (discord.DiscordException, OSError) as exc:
        reason = f"{type(exc).__name__}: {exc}"
        log.warning("card emoji unavailable (%s); card buttons show text only", reason)
        return CardEmoji(reason=reason)
    log.info("card emoji ready: %d present, %d created", len(wanted) - created, created)
    return CardEmoji({name: discord.PartialEmoji(name=name, id=have[name].id)
                      for name in wanted})
