"""Retention classes and the time arithmetic of the window, as pure functions.

permanent: user assertions, policies, corrections, curated preferences, agent actions with a reason; never
pruned. 'standard' (facts' default since migration 0003) means permanent. windowed: integration-observed
state and trivial events: kept in full for the window, then rolled up and pruned. A fact becomes windowed
when its writer sets facts.retention_class = 'windowed' (the sync API does for observed state); an event
is windowed when its type's registry class is (event_types.retention_class, migration 0042).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

PERMANENT = "permanent"
STANDARD = "standard"  # the ledger's default: permanent
WINDOWED = "windowed"
CLASSES = (STANDARD, PERMANENT, WINDOWED)


def is_permanent(retention_class: str) -> bool:
    return retention_class != WINDOWED


@dataclass(frozen=True)
class Row:
    """What decides whether a fact row may be pruned (the columns of wm_retention_prunable)."""

    retention_class: str
    source: str
    status: str
    object_kind: str = "literal"
    valid_to: datetime | None = None
    superseded_at: datetime | None = None
    memory_type: str | None = None
    reason: str | None = None


def prunable(row: Row, edge: datetime) -> bool:
    """The Python twin of wm_retention_prunable (graph/sql/functions): windowed, not the user's words, not a
    curated preference or a reasoned action, not a correction or pending, a literal, and its whole life
    before the edge on one axis (it stopped holding, or stopped being believed, at or before the edge).
    Rows with valid and system time at or after the edge therefore all stay: as-of is exact there."""
    if row.retention_class != WINDOWED or row.source == "user" or row.memory_type or row.reason:
        return False
    if row.status not in ("active", "superseded") or row.object_kind != "literal":
        return False
    return ((row.valid_to is not None and row.valid_to <= edge)
            or (row.superseded_at is not None and row.superseded_at <= edge))


def window_edge(now: datetime, window_days: int) -> datetime:
    """The oldest instant still kept in full."""
    return now.astimezone(UTC) - timedelta(days=window_days)


def month_of(t: datetime) -> date:
    """The first day of t's month in UTC (rollups and event partitions are per UTC month)."""
    u = t.astimezone(UTC)
    return date(u.year, u.month, 1)


def next_month(m: date) -> date:
    return date(m.year + (m.month == 12), m.month % 12 + 1, 1)


def month_start(m: date) -> datetime:
    return datetime(m.year, m.month, 1, tzinfo=UTC)


def month_over(m: date, edge: datetime) -> bool:
    """Whether all of month m lies before the edge (its partition of observed events may be dropped)."""
    return month_start(next_month(m)) <= edge


def before_edge(edge: datetime | None, valid_time: datetime | None, system_time: datetime | None) -> bool:
    """Whether a read about valid time V as known at system time R reaches behind the edge, where windowed
    rows may have been replaced by rollups."""
    if edge is None:
        return False
    return any(t is not None and t < edge for t in (valid_time, system_time))


def fact_key(subject_id: object, predicate: str, m: date) -> str:
    return f"fact:{subject_id}:{predicate}:{m:%Y-%m}"


def events_key(event_type: str, target_id: object | None, m: date) -> str:
    return f"events:{event_type}:{target_id or '-'}:{m:%Y-%m}"


def events_month_key(m: date) -> str:
    return f"events-month:{m:%Y-%m}"
