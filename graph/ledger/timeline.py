"""Pure time logic of the bitemporal ledger: half-open intervals and the plans that supersede beliefs.

Valid (world) time intervals are half-open `[start, end)`; `end=None` means "until further notice".
An assertion without an end holds until the next change already known after its start (`until_next`),
so news that arrives late never overwrites later knowledge unless the caller says it replaces everything
later (`replace_later`). Nothing here touches the database: the committer turns a `Plan` into row updates
and inserts.
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
    # the later belief whose start ended an open assertion early (None: it ends where it was asked to)
    until: Belief | None = None

    @property
    def is_noop(self) -> bool:
        return not self.close and not self.insert


def next_change(believed: Sequence[Belief], start: datetime) -> Belief | None:
    """The believed period that starts first after `start`: the next change already known."""
    return min((b for b in believed if b.interval.start > start), key=lambda b: b.interval.start, default=None)


def until_next(believed: Sequence[Belief], new: Interval, *, replace_later: bool = False
               ) -> tuple[Interval, Belief | None]:
    """The period an assertion really claims, and the later belief that ends it early.

    An explicit end is taken as said. Without one, the value holds until the next change already known
    after its start (as XTDB's put with only a start, or Graphiti's invalidation of an older new edge at
    the newer one's valid time): a late "from February" does not erase a known "from January next year".
    `replace_later` is the one way to say that it does.
    """
    if new.end is not None or replace_later:
        return new, None
    later = next_change(believed, new.start)
    return (new, None) if later is None else (Interval(new.start, later.interval.start), later)


def plan_replace(believed: Sequence[Belief], new: Interval, value: Hashable, *,
                 replace_later: bool = False) -> Plan:
    """Assert a functional value over `new`: SQL:2011 FOR PORTION OF semantics, over the period
    `until_next` grants it.

    Every believed row overlapping that period is closed; its parts before and after survive as new
    rows; the new value is inserted. Asserting what one row already believes over the whole period changes
    nothing (no churn in the history), unless an open value starts inside that row.
    """
    said = new.end is not None or replace_later
    new, until = until_next(believed, new, replace_later=replace_later)
    hits = [b for b in believed if b.interval.overlaps(new)]
    # An open value restated from inside an older row of the same value is a change point all the same:
    # dropped, a later-arriving value before it would run past it (the order would decide the timeline).
    if (len(hits) == 1 and hits[0].value == value and hits[0].interval.covers(new)
            and (said or hits[0].interval.start == new.start)):
        return Plan()
    plan = plan_remove(hits, new)
    plan.insert.append(Piece(new))
    plan.until = until if until is not None and until.value != value else None
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
    nothing. Members are independent of each other, so the next known change of a member is the next
    period of the same value: filling only the gaps already stops there.
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
