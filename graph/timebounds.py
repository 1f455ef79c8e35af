"""The instants worldmem accepts, and what readers do with a stored one outside them. Pure functions.

A time is accepted when its UTC instant lies in [MIN_TIME, MAX_TIME): from 0001-01-02 to 9999-12-31 UTC.
That is one day inside what Python (and so every reader) can represent, so the instant stays representable
in UTC and in any UTC offset, and a reader may add a microsecond to it. A legal ISO text can still name an
instant outside: `9999-12-31T23:00:00-14:00` is year 10000 in UTC and `0001-01-01T00:00:00+14:00` is year
0. The database refuses those too (a CHECK on every time column, migration 0021); should one exist anyway
(an older database, a restore), readers clamp it to the nearest bound and report it instead of failing.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from graph.errors import BadInput

MIN_TIME = datetime(1, 1, 2, tzinfo=UTC)
MAX_TIME = datetime(9999, 12, 31, tzinfo=UTC)  # exclusive
LATEST = MAX_TIME - timedelta(microseconds=1)
TIME_OUT_OF_RANGE = "TIME_OUT_OF_RANGE"
RANGE_TEXT = "0001-01-02T00:00:00Z to 9999-12-30T23:59:59Z (as a UTC instant)"


def utc_instant(value: datetime) -> datetime | None:
    """`value` as UTC, or None when that instant cannot be represented (before year 1, after 9999)."""
    try:
        return value.astimezone(UTC)
    except OverflowError:
        return None


def in_range(value: datetime) -> bool:
    instant = utc_instant(value)
    return instant is not None and MIN_TIME <= instant < MAX_TIME


def check_time(value: datetime, what: str = "time") -> datetime:
    """`value` unchanged when accepted; BadInput TIME_OUT_OF_RANGE otherwise."""
    if value.tzinfo is None or not in_range(value):
        raise BadInput(f"{what} must be an instant from {RANGE_TEXT}", code=TIME_OUT_OF_RANGE)
    return value


def clamp(value: datetime) -> datetime:
    """The nearest accepted instant (for readers meeting a stored time outside the range)."""
    instant = utc_instant(value)
    if instant is None:
        return MIN_TIME if value.year < 5000 else LATEST
    return min(max(instant, MIN_TIME), LATEST)


def from_micros(micros: int, epoch: datetime) -> tuple[datetime, bool]:
    """Microseconds since `epoch` as a time, clamped into the range; True when it had to be clamped."""
    low = (MIN_TIME - epoch) // timedelta(microseconds=1)
    high = (LATEST - epoch) // timedelta(microseconds=1)
    bounded = min(max(micros, low), high)
    return epoch + timedelta(microseconds=bounded), bounded != micros
