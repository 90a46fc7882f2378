"""Seasons of ranked play: the period maths (docs/RATING.md). Pure: no I/O, no clock.

A server's seasons are ``monthly`` (the default) or ``off``. A monthly season runs from midnight
on the first day of a month to midnight on the first day of the next, in Vietnam's time
(Asia/Ho_Chi_Minh, UTC+7 all year). Times in and out are aware datetimes in UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo
from enum import StrEnum
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

__all__ = [
    "DEFAULT_PERIOD",
    "VIETNAM",
    "Period",
    "next_end",
    "period_start",
]


def _vietnam() -> tzinfo:
    try:
        return ZoneInfo("Asia/Ho_Chi_Minh")
    except ZoneInfoNotFoundError:  # pragma: no cover - a system without a time zone database
        return timezone(timedelta(hours=7), "ICT")  # Vietnam keeps UTC+7 all year


#: the time zone of season boundaries
VIETNAM = _vietnam()


class Period(StrEnum):
    MONTHLY = "monthly"
    OFF = "off"


#: a server's seasons when it has chosen nothing
DEFAULT_PERIOD = Period.MONTHLY


def _aware(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        raise ValueError("Season times are aware datetimes (UTC).")
    return moment


def period_start(moment: datetime) -> datetime:
    """The start (UTC) of the month holding `moment` in Vietnam's time."""
    local = _aware(moment).astimezone(VIETNAM)
    first = local.replace(day=1, hour=0, minute=0, second=0, microsecond=0)
    return first.astimezone(UTC)


def next_end(moment: datetime, period: Period) -> datetime | None:
    """When a season running at `moment` ends (UTC): midnight of the next month's first day in
    Vietnam for ``monthly``; None for ``off`` (it runs until an admin ends it)."""
    if period is Period.OFF:
        return None
    local = _aware(moment).astimezone(VIETNAM)
    year, month = (local.year + 1, 1) if local.month == 12 else (local.year, local.month + 1)
    return datetime(year, month, 1, tzinfo=VIETNAM).astimezone(UTC)
