"""Pure time logic of the bitemporal ledger: half-open intervals and the plans that supersede beliefs.

Valid (world) time intervals are half-open `[start, end)`; `end=None` means "until further notice".
Nothing here touches the database: the committer turns a `Plan` into row updates and inserts.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Interval:
    start: datetime
    end: datetime | None = None

    def __post_init__(self) -> None:
        if self.end is not None and self.end <= self.start:
            raise ValueError("an interval must end after it starts")

    def contains(self, t: datetime) -> bool:
        return during(self.start, self.end, t)

    def overlaps(self, other: Interval) -> bool:
        return _before(self.start, other.end) and _before(other.start, self.end)

    def covers(self, other: Interval) -> bool:
        return self.start <= other.start and _end_le(other.end, self.end)


def _before(t: datetime, end: datetime | None) -> bool:
    """t < end, where None is +infinity."""
    return end is None or t < end


def _end_le(a: datetime | None, b: datetime | None) -> bool:
    """a <= b for interval ends, where None is +infinity."""
    if b is None:
        return True
    return a is not None and a <= b


def subtract(interval: Interval, cut: Interval) -> list[Interval]:
    """The parts of `interval` outside `cut` (0, 1 or 2 pieces, in order)."""
    if not interval.overlaps(cut):
        return [interval]
    parts: list[Interval] = []
    if interval.start < cut.start:
        parts.append(Interval(interval.start, cut.start))
    if cut.end is not None and _before(cut.end, interval.end):
        parts.append(Interval(cut.end, interval.end))
    return parts


def hull(intervals: Sequence[Interval]) -> Interval:
    """Smallest interval covering all of `intervals`."""
    start = min(i.start for i in intervals)
    ends = [i.end for i in intervals]
    return Interval(start, None if any(e is None for e in ends) else max(e for e in ends if e is not None))


@dataclass(frozen=True)
class Belief:
    """A row believed now: its id, valid interval and comparable value."""

    id: str
    interval: Interval
    value: Hashable


@dataclass(frozen=True)
class Piece:
    """A row to insert: its valid interval, and the believed row it was split from (None = the new value)."""

    interval: Interval
    split_from: str | None = None


@dataclass
class Plan:
    close: list[str] = field(default_factory=list)
    insert: list[Piece] = field(default_factory=list)

    @property
    def is_noop(self) -> bool:
        return not self.close and not self.insert


def plan_replace(believed: Sequence[Belief], new: Interval, value: Hashable) -> Plan:
    """Assert a functional value over `new`: SQL:2011 FOR PORTION OF semantics.

    Every believed row overlapping `new` is closed; its parts before and after `new` survive as new
    rows; the new value is inserted. Asserting what is already believed over the whole period changes
    nothing (no churn in the history).
    """
    hits = [b for b in believed if b.interval.overlaps(new)]
    if len(hits) == 1 and hits[0].value == value and hits[0].interval.covers(new):
        return Plan()
    plan = plan_remove(hits, new)
    plan.insert.append(Piece(new))
    return plan


def plan_remove(believed: Sequence[Belief], cut: Interval) -> Plan:
    """Retract over `cut`: overlapping rows are closed, their parts outside `cut` survive."""
    plan = Plan()
    for belief in believed:
        if not belief.interval.overlaps(cut):
            continue
        plan.close.append(belief.id)
        plan.insert.extend(Piece(part, belief.id) for part in subtract(belief.interval, cut))
    return plan


def plan_add_member(believed_same_value: Sequence[Belief], new: Interval) -> Plan:
    """Assert one member of a set predicate: only the parts of `new` not yet covered by the same value.

    Rows already believed keep their provenance (source, confidence, evidence) and stay open; nothing is
    closed. A value already believed over the whole period, also across several adjacent rows, changes
    nothing.
    """
    gaps = [new]
    for belief in believed_same_value:
        gaps = [part for gap in gaps for part in subtract(gap, belief.interval)]
    return Plan(insert=[Piece(gap) for gap in gaps])


def during(lo: datetime, hi: datetime | None, t: datetime) -> bool:
    """t lies in the half-open [lo, hi), hi None = open: the one as-of condition.

    The database has the same function, `wm_during` (graph/sql/functions/wm_during.sql), which every SQL and
    Cypher as-of read calls; tests/test_as_of.py checks the two agree on every ordering of the arguments.
    """
    return lo <= t and (hi is None or t < hi)


def believed(superseded_at: datetime | None) -> bool:
    """Is a row believed now (never superseded)? The twin of the database's `wm_believed`."""
    return superseded_at is None


def known(recorded_at: datetime, superseded_at: datetime | None, system_time: datetime | None) -> bool:
    """Was a row believed at `system_time` ([recorded_at, superseded_at))? None means now (still open).

    The twin of the database's `wm_known`, used by facts, aliases, merges (split_at) and edges alike.
    """
    if system_time is None:
        return believed(superseded_at)
    return during(recorded_at, superseded_at, system_time)
