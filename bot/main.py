"""Command-line entry points: ``python -m bot`` and ``python -m bot play``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys
import textwrap
from concurrent.futures import ProcessPoolExecutor

from bot.settings import Settings, SettingsError, load_settings

log = logging.getLogger("bot")


async def run_bot(settings: Settings) -> int:
    """Open the store, start the bot, stop cleanly on SIGINT/SIGTERM."""
    from bot.app import TienLenBot, point_at
    from data import Store

    silence_voice_warnings()
    point_at(settings.DISCORD_API_BASE_URL, settings.DISCORD_GATEWAY_URL)
    store = await Store.open(
        settings.database_url,
        starting_chips=settings.STARTING_CHIPS,
        daily_chips=settings.DAILY_CHIPS,
        pool_size=settings.DATABASE_POOL_SIZE,
    )
    log.info("store open at %s", store.url.redacted())
    executor = ProcessPoolExecutor(max_workers=1)  # expert players search off the event loop
    bot = TienLenBot(
        settings,
        store,
        executor=executor,
        ai_delay=settings.AI_DELAY_SECONDS,
        board_interval=settings.BOARD_EDIT_INTERVAL,
    )
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    status = 0
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(settings.DISCORD_TOKEN.get_secret_value()))
            stopper = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                error = runner.exception()
                if error is not None:
                    log.error("bot stopped: %s", type(error).__name__)
                    status = 1
            else:
                log.info("signal received, shutting down")
            stopper.cancel()
            await bot.close()
            if not runner.done():
                runner.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await runner
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
        executor.shutdown(wait=False, cancel_futures=True)
        await store.close()
        log.info("store closed; bye")
    return status


def silence_voice_warnings() -> None:
    """The bot never joins a voice channel: stop discord.py's start-up warnings that PyNaCl
    and davey (voice encryption) are not installed."""
    import discord

    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def _setting_lines() -> str:
    lines = []
    for name, field in Settings.model_fields.items():
        if field.is_required():
            default = "required"
        else:
            default = "not set" if field.default is None else f"default {field.default}"
        lines.append(f"  {name} ({default})")
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=textwrap.fill(
            "Run the Tiến Lên Discord bot until SIGINT or SIGTERM. Every setting comes from the "
            "environment or from a .env file in the working directory (see .env.example, which "
            "explains each one); a missing or malformed setting stops the bot with exit status 2.",
            width=88,
        ),
        epilog="settings:\n" + _setting_lines()
        + "\n\nother command:\n  python -m bot play [--help]   a terminal table against "
        "computer players (no Discord needed)",
    )
    parser.add_argument("command", nargs="?", choices=["play"],
                        help="'play': a terminal table instead of the bot (its own --help)")
    return parser


def main(argv: list[str]) -> int:
    if argv and argv[0] == "play":
        from bot.terminal import main as play_main

        return play_main(argv[1:])
    build_parser().parse_args(argv)  # --help, or exit 2 on any unknown word
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"configuration error: {error}", file=sys.stderr)
        return 2
    from bot.logs import setup_logging

    setup_logging(settings.LOG_LEVEL, [settings.DISCORD_TOKEN.get_secret_value()])
    try:
        return asyncio.run(run_bot(settings))
    except KeyboardInterrupt:
        return 0
