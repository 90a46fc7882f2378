"""Verify a store's database: ``python -m data.check URL`` (SQLite file or PostgreSQL).

Checks that every balance equals the sum of its ledger rows, no balance is or ever was negative,
every finished game was settled exactly once (results for each seat, ledger rows matching them,
transfers summing to zero), unfinished and cancelled games moved no chips, every player got at
most one starting grant, daily claims are 24 hours apart, one open table per channel, the
ledger's append-only triggers are in place, every admin change moved exactly the ledger rows it
records, and SQLite's own integrity and foreign-key checks. It also explains the chips held:
starting grants + dailies + admin grants - admin takes + game transfers.
Writes nothing. Prints what it finds; exits 0 when the database is sound, 1 on any fault, 2 when
it cannot be read. The checks themselves live in `data.audit`.
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections.abc import Sequence

import asyncpg

from data.audit import Report, audit, check_path, check_url
from data.db import DatabaseURL
from data.errors import StoreError

__all__ = ["Report", "audit", "check_path", "check_url", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m data.check",
        description="Verify a store's database, SQLite or PostgreSQL: balances against the "
        "ledger, settlements, starting grants, daily claims, admin changes, open tables, the "
        "ledger's append-only triggers, and SQLite's integrity and foreign keys; explains the "
        "chips held; writes nothing. "
        "Exits 0 when the database is sound, 1 on any fault, 2 when it cannot be read.",
    )
    parser.add_argument(
        "database",
        metavar="URL",
        help="the store: a SQLite file (tienlen.sqlite3, the DATABASE_PATH setting), "
        "sqlite:///file.sqlite3, or postgresql://user:password@host:port/database "
        "(the DATABASE_URL setting)",
    )
    args = parser.parse_args(argv)
    shown = "that database"  # never echo an unparsed URL: it may hold a password
    try:
        url = DatabaseURL.parse(args.database)
        shown = url.redacted()
        report = check_url(url)
    except (OSError, sqlite3.Error, asyncpg.PostgresError, StoreError) as exc:
        print(f"cannot check {shown}: {exc}", file=sys.stderr)
        return 2
    for fact in report.facts:
        print(fact)
    for fault in report.faults:
        print(f"FAULT: {fault}")
    print("OK: no faults found" if report.ok else f"{len(report.faults)} fault(s) found")
    return 0 if report.ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
