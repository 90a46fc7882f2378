"""Standalone: ``python -m tests.support.fake_discord --port 8765`` prints its URLs and serves
until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal

from tests.support.fake_discord.faults import FaultConfig
from tests.support.fake_discord.server import FakeDiscord


async def _serve(args: argparse.Namespace) -> None:
    fake = FakeDiscord(
        host=args.host,
        port=args.port,
        allowed_tokens=[args.token] if args.token else None,
        faults=FaultConfig(
            rate_limit_fraction=args.rate_limit_fraction,
            server_error_fraction=args.server_error_fraction,
            seed=args.seed,
        ),
        recommended_shards=max(1, args.shards),
    )
    for shard in range(args.shards):  # one more guild on each shard
        fake.add_guild(f"Shard {shard} Guild", shard=(shard, args.shards),
                       channel_names=("general", "tienlen"))
    await fake.start()
    print(f"API_BASE={fake.api_base}", flush=True)
    print(f"GATEWAY_URL={fake.gateway_url}", flush=True)
    print(f"GUILD_ID={fake.guild_id}", flush=True)
    for guild in list(fake.guilds.values())[1:]:
        print(f"SHARDED_GUILD_ID={guild.id} (shard {(guild.id >> 22) % args.shards} of "
              f"{args.shards})", flush=True)
    print(f"APPLICATION_ID={fake.application_id}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await fake.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m tests.support.fake_discord",
        description="Serve a loopback fake Discord (REST API and gateway) and print its URLs; "
        "point the bot at them with DISCORD_API_BASE_URL and DISCORD_GATEWAY_URL.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=0, help="port to listen on (0: any free)")
    parser.add_argument("--token", default=None, help="only accept this bot token")
    parser.add_argument("--rate-limit-fraction", type=float, default=0.0,
                        help="share of message edits answered 429 (default 0)")
    parser.add_argument("--server-error-fraction", type=float, default=0.0,
                        help="share of message edits answered 500 (default 0)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the injected faults")
    parser.add_argument("--shards", type=int, default=0,
                        help="add one guild on each of this many shards (and recommend this "
                        "many shards in GET /gateway/bot)")
    parser.add_argument("--log-level", default="INFO", help="DEBUG, INFO, WARNING or ERROR")
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=args.log_level, format="%(asctime)s %(levelname)s %(name)s %(message)s"
    )
    asyncio.run(_serve(args))


if __name__ == "__main__":
    main()
