"""Scalars of the public schema: DateTime (ISO 8601 with a UTC offset) and JSON (any JSON value).

Python `datetime` annotations map to our DateTime through `SCALAR_MAP` (see resolvers/schema.py).
A time without an offset is ambiguous for a bitemporal ledger, so it is refused, never guessed; a time whose
UTC instant lies outside 0001-01-02..9999-12-30 (graph.timebounds) is refused as TIME_OUT_OF_RANGE. A date
alone (2024-05-01) means that day's midnight UTC.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import strawberry
from strawberry.scalars import JSON
from strawberry.types.scalar import ScalarDefinition

from graph.errors import BadInput
from graph.timebounds import check_time

__all__ = ["JSON", "SCALAR_MAP", "DateTime", "parse_datetime", "serialize_datetime"]
DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def parse_datetime(value: object) -> datetime:
    if not isinstance(value, str):
        raise BadInput("DateTime must be an ISO 8601 string with a UTC offset, e.g. 2024-05-01T12:00:00Z")
    if DATE_ONLY.match(value):
        try:
            return check_time(datetime.fromisoformat(value).replace(tzinfo=UTC), f"DateTime {value!r}")
        except ValueError:
            raise BadInput(f"not an ISO 8601 date: {value!r}") from None
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise BadInput(f"not an ISO 8601 date-time: {value[:60]!r}") from None
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise BadInput(f"DateTime needs a UTC offset (Z or +hh:mm): {value[:60]!r}")
    return check_time(parsed, f"DateTime {value[:60]!r}")


def serialize_datetime(value: datetime) -> str:
    if value.tzinfo is None:
        raise ValueError("refusing to serialize a naive datetime")
    return value.isoformat()


DateTime: ScalarDefinition = strawberry.scalar(
    name="DateTime",
    description="ISO 8601 date and time with a UTC offset, e.g. 2024-05-01T12:00:00Z; a date alone "
                "(2024-05-01) is midnight UTC",
    specified_by_url="https://datatracker.ietf.org/doc/html/rfc3339",
    serialize=serialize_datetime,
    parse_value=parse_datetime,
)

SCALAR_MAP: dict[object, ScalarDefinition] = {datetime: DateTime}
