"""Command-line entry points: ``python -m bot`` and ``python -m bot play``."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import textwrap
import urllib.parse
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from bot.settings import Settings, SettingsError, StartupError, load_settings

log = logging.getLogger("bot")


async def reachable(url: str, within: float = 10.0) -> str | None:
    """None when a TCP connection to the URL's host and port opens; else why not (one line)."""
    parsed = urllib.parse.urlsplit(url)
    host = parsed.hostname or ""
    secure = parsed.scheme in ("https", "wss")
    port = parsed.port or (443 if secure else 80)
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(host, port), within)
    except TimeoutError:
        return f"no answer from {host}:{port} within {within:.0f} s"
    except OSError as error:
        return error.strerror or type(error).__name__
    writer.close()
    with contextlib.suppress(Exception):
        await writer.wait_closed()
    return None


def unopenable(path: Path) -> str | None:
    """Why an SQLite file cannot be opened or created at `path` (checked before SQLite tries,
    whose failed open leaves a worker thread behind), or None."""
    if path.is_dir():
        return "it is a directory"
    if path.exists():
        return None if os.access(path, os.R_OK | os.W_OK) else "no permission to read and write it"
    parent = path.parent
    if not parent.is_dir():
        return f"the directory {parent} does not exist"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"no permission to create a file in {parent}"
    return None


async def preflight(settings: Settings) -> None:
    """Before logging in: the API and gateway URLs answer (else name the setting)."""
    for name in ("DISCORD_API_BASE_URL", "DISCORD_GATEWAY_URL"):
        url = getattr(settings, name)
        why = await reachable(url)
        if why is not None:
            raise StartupError(f"{name}={url} cannot be reached ({why}); check the setting "
                               "and the network")


def describe_failure(error: BaseException, settings: Settings) -> str | None:
    """A one-line cause of a first-run failure naming what to fix, or None for other errors."""
    import aiohttp
    import discord

    if isinstance(error, StartupError):
        return str(error)
    if isinstance(error, discord.LoginFailure):
        return ("DISCORD_TOKEN was rejected by Discord (401 Unauthorized): copy the bot token "
                "again from the Developer Portal (Bot → Reset Token)")
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return "the bot asked for a privileged intent that is not enabled in the Developer Portal"
    if isinstance(error, discord.ConnectionClosed) and error.code == 4010:
        return (f"SHARD_IDS={settings.SHARD_IDS} / SHARD_COUNT={settings.SHARD_COUNT}: Discord "
                "refused the shard (4010 Invalid shard)")
    if isinstance(error, discord.ConnectionClosed) and error.code == 4011:
        return ("SHARD_COUNT: Discord requires the bot to be sharded, or to run more shards "
                "(4011 Sharding required)")
    if isinstance(error, (aiohttp.ClientConnectionError, OSError)):
        return (f"DISCORD_API_BASE_URL={settings.DISCORD_API_BASE_URL} or DISCORD_GATEWAY_URL="
                f"{settings.DISCORD_GATEWAY_URL} stopped answering ({type(error).__name__})")
    return None


async def run_bot(settings: Settings, *, force_sync: bool = False) -> int:
    """Open the store, start the bot, stop cleanly on SIGINT/SIGTERM. First-run failures raise
    `StartupError` naming the setting to fix."""
    from bot.app import ShardedTienLenBot, TienLenBot, point_at
    from data import Store

    silence_voice_warnings()
    point_at(settings.DISCORD_API_BASE_URL, settings.DISCORD_GATEWAY_URL)
    setting = "DATABASE_URL" if settings.DATABASE_URL else f"DATABASE_PATH={settings.DATABASE_PATH}"
    why = None if settings.DATABASE_URL else unopenable(settings.DATABASE_PATH)
    if why is not None:
        raise StartupError(f"{setting}: the store cannot be opened ({why})")
    try:
        store = await Store.open(
            settings.database_url,
            starting_chips=settings.STARTING_CHIPS,
            daily_chips=settings.DAILY_CHIPS,
            pool_size=settings.DATABASE_POOL_SIZE,
            shards=settings.shards,
        )
    except Exception as failed:
        reason = str(failed).splitlines()[0] if str(failed) else type(failed).__name__
        raise StartupError(f"{setting}: the store cannot be opened ({reason})") from None
    log.info("store open at %s", store.url.redacted())
    try:
        await preflight(settings)
    except StartupError:
        await store.close()
        raise
    shards = settings.shards
    if shards is not None:
        log.info("running shards %s of %d; REST budget %.1f requests/s (%s shared by %d processes)",
                 ",".join(map(str, sorted(shards.ids))), shards.count,
                 settings.rest_budget_per_process, settings.REST_BUDGET_PER_SECOND,
                 settings.rest_processes)
        if store.dialect == "sqlite" and len(shards.ids) < shards.count:
            log.warning("SHARD_IDS names some of the shards but the store is a SQLite file: "
                        "processes on other machines cannot share it (use DATABASE_URL="
                        "postgresql://…)")
    executor = ProcessPoolExecutor(max_workers=1)  # expert players search off the event loop
    options: dict[str, Any] = {}
    bot_class: type[TienLenBot] = TienLenBot
    if shards is not None:
        bot_class = ShardedTienLenBot
        options = {"shard_count": shards.count, "shard_ids": sorted(shards.ids)}
    bot = bot_class(
        settings,
        store,
        force_sync=force_sync,
        executor=executor,
        ai_delay=settings.AI_DELAY_SECONDS,
        board_interval=settings.BOARD_EDIT_INTERVAL,
        seed=settings.GAME_SEED,
        **options,
    )
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    status = 0
    startup_failure: str | None = None
    try:
        async with bot:
            runner = asyncio.create_task(bot.start(settings.DISCORD_TOKEN.get_secret_value()))
            stopper = asyncio.create_task(stop.wait())
            done, _ = await asyncio.wait({runner, stopper}, return_when=asyncio.FIRST_COMPLETED)
            if runner in done:
                stopped = runner.exception()
                if stopped is not None:
                    failure = describe_failure(stopped, settings)
                    if failure is None:
                        log.error("bot stopped: %s", type(stopped).__name__)
                        status = 1
                    else:
                        startup_failure = failure
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
    if startup_failure is not None:
        raise StartupError(startup_failure)
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
    parser.add_argument("--sync", action="store_true",
                        help="send the application commands to Discord even if they did not "
                        "change since the last sync (by default they are synced only when "
                        "changed)")
    parser.add_argument("--clear-guild-commands", metavar="GUILD_ID", type=int,
                        dest="clear_guild",
                        help="remove the commands synced to that server (by DEV_GUILD_ID) and "
                        "exit; the global commands stay")
    return parser


def main(argv: list[str]) -> int:
    if argv and argv[0] == "play":
        from bot.terminal import main as play_main

        return play_main(argv[1:])
    args = build_parser().parse_args(argv)  # --help, or exit 2 on any unknown word
    try:
        settings = load_settings()
    except SettingsError as error:
        print(f"configuration error: {error}", file=sys.stderr)
        return 2
    from bot.logs import setup_logging

    setup_logging(settings.LOG_LEVEL, [settings.DISCORD_TOKEN.get_secret_value()],
                  shard_ids=settings.shard_ids, shard_count=settings.SHARD_COUNT)
    try:
        if args.clear_guild is not None:
            from bot.app import point_at
            from bot.guild_copies import clear_guild_commands

            point_at(settings.DISCORD_API_BASE_URL, settings.DISCORD_GATEWAY_URL)
            removed = asyncio.run(clear_guild_commands(settings, args.clear_guild))
            print(f"removed {removed} commands from server {args.clear_guild}; "
                  "the global commands stay")
            return 0
        return asyncio.run(run_bot(settings, force_sync=args.sync))
    except StartupError as error:
        print(f"startup error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
