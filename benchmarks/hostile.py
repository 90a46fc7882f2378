"""What the edge costs for the worst inputs a modified client can send.

`python -m benchmarks.hostile` prints, for each kind of hostile input, the time the bot spends on
it before refusing (median of many runs, microseconds): matching a custom id against every button
template, reading a selection, parsing the longest `options` text the command accepts (600
characters), clipping a huge value for a reply. The figures show that no input costs more than a
few tens of microseconds; before the edge checks a card code of 10^9 made one toggle cost about a
second and a gigabyte.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections.abc import Callable, Sequence

from cogs import guard
from cogs.tienlen import _views as views
from cogs.tienlen import selection as sel
from cogs.tienlen._cog import Refusal, parse_options
from engine import Rules

TEMPLATES = [item.__discord_ui_compiled_template__ for item in views.DYNAMIC_ITEMS]


def _match_all(custom_id: str) -> bool:
    return any(t.fullmatch(custom_id) for t in TEMPLATES)


def _parse(text: str) -> None:
    with contextlib.suppress(Refusal):
        parse_options(Rules(), text)


def cases() -> list[tuple[str, Callable[[], object]]]:
    long_id = "tl:h:" + "9" * 4000
    return [
        ("custom id of 100 chars, no template", lambda: _match_all("tl:h:" + "1" * 95)),
        ("custom id of 4,000 chars (beyond Discord's 100)", lambda: _match_all(long_id)),
        (f"card code 10^9 ({'c' + str(10**9)})", lambda: _match_all(f"tl:h:1:1:0:c{10**9}")),
        ("largest selection (26 hex digits)", lambda: sel.decode("f" * sel.MAX_HEX)),
        ("options text of 600 chars (refused)", lambda: _parse("suit_order=" + "Q" * 589)),
        ("options text of 600 chars (every rule)", lambda: _parse(
            " ".join(f"{n}=on" for n in ("card_exchange", "chop_bonus", "deuce_penalty",
                                          "instant_wins", "three_player_17")) * 7)),
        ("clip a 1 MB value for a reply", lambda: guard.clip("x" * 1_000_000)),
    ]


def measure(func: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hostile",
                                     description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--repeat", type=int, default=200, help="runs of each case (median)")
    args = parser.parse_args(argv)
    print(f"{'hostile input':<50} {'median µs':>10}")
    for name, func in cases():
        print(f"{name:<50} {measure(func, args.repeat):>10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
