"""Season periods in Vietnam's time (engine/season.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.season import Period, next_end, period_start


def test_month_ends_at_vietnam_midnight() -> None:
    # 31 Jan 2026 16:59 UTC is 23:59 on the 31st in Vietnam: the season ends one minute later.
    moment = datetime(2026, 1, 31, 16, 59, tzinfo=UTC)
    assert next_end(moment, Period.MONTHLY) == datetime(2026, 1, 31, 17, 0, tzinfo=UTC)
    # 17:00 UTC is already 1 February in Vietnam: February's season, ending 28 Feb 17:00 UTC.
    later = datetime(2026, 1, 31, 17, 0, tzinfo=UTC)
    assert next_end(later, Period.MONTHLY) == datetime(2026, 2, 28, 17, 0, tzinfo=UTC)
    assert period_start(later) == later
    # December rolls into the next year.
    assert next_end(datetime(2026, 12, 5, tzinfo=UTC), Period.MONTHLY) == datetime(
        2026, 12, 31, 17, 0, tzinfo=UTC)


def test_off_never_ends_and_naive_times_are_refused() -> None:
    assert next_end(datetime(2026, 3, 3, tzinfo=UTC), Period.OFF) is None
    with pytest.raises(ValueError):
        next_end(datetime(2026, 3, 3), Period.MONTHLY)


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1),
                    timezones=st.just(UTC)))
def test_every_moment_lies_in_its_season(moment: datetime) -> None:
    start, end = period_start(moment), next_end(moment, Period.MONTHLY)
    assert end is not None
    assert start <= moment < end
    assert timedelta(days=28) <= end - start <= timedelta(days=31)
    assert period_start(end) == end  # the next season starts where this one ends
