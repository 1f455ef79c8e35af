"""History for automations: an attribute's values over a world-time range (a chart's series), and "was X
in state Y for at least N minutes as of T" (`heldFor`), as believed now or as known at a system time.

The time logic is pure and tested directly (`clip`, `coalesce`, `held_for`); the rows come from one named
query (graph/sql/history_rows.sql) over the same as-of condition as stateAsKnownAt (wm_known). Times are
half-open: a value holds from validFrom up to, not including, validTo. Adjacent or overlapping rows of
the same value are one segment (a supersession elsewhere in time splits rows without changing the value).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
from pydantic import BaseModel, Field

from graph.errors import BadInput, NotFound
from graph.ledger import entities
from graph.ledger.registries import get_relation_type
from graph.platform.db import Database
from graph.reads import suggest
from graph.retention import notice
from graph.retention.notice import RetentionNotice
from graph.sql import load

MAX_ROWS = 5000
MAX_MINUTES = 60 * 24 * 366 * 10  # ten years
TICK = timedelta(microseconds=1)


@dataclass(frozen=True)
class Segment:
    value: Any
    start: datetime
    end: datetime | None  # None: still open
    fact_ids: tuple[UUID, ...] = field(default=())


class Held(BaseModel):
    held: bool = Field(description="The value held without a gap for at least `minutes` up to `asOf`")
    since: datetime | None = Field(description="Start of the unbroken run of the value containing asOf")
    until: datetime | None = Field(description="End of that run (exclusive); None = still open")
    minutes_held: float = Field(description="Minutes from `since` to asOf (0 when the value does not hold)")
    retention: RetentionNotice | None = Field(default=None, description="Set when the minutes asked about reach "
                                                                        "behind the retention edge")


class Series(BaseModel):
    ref: str
    predicate: str
    points: list[dict[str, Any]]
    truncated: bool = False
    retention: RetentionNotice | None = Field(default=None, description="Set when [from, to) reaches behind the "
                                                                        "retention edge: the months' rollups")


def _plain(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def key(value: Any) -> str:
    """One spelling per JSON value (key order ignored; 1 and 1.0 alike, true and 1 not)."""
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"))


def _end(end: datetime | None) -> datetime:
    return end if end is not None else datetime.max.replace(tzinfo=UTC)


def clip(segments: list[Segment], lo: datetime | None, hi: datetime | None) -> list[Segment]:
    """The parts of `segments` inside [lo, hi) (None: unbounded)."""
    out: list[Segment] = []
    for s in segments:
        start = max(s.start, lo) if lo is not None else s.start
        end = s.end if hi is None else (hi if s.end is None else min(s.end, hi))
        if end is None or start < end:
            out.append(Segment(s.value, start, end, s.fact_ids))
    return out


def coalesce(segments: list[Segment]) -> list[Segment]:
    """Touching or overlapping segments of one value as one; ordered by start, then value."""
    by_value: dict[str, list[Segment]] = {}
    for s in sorted(segments, key=lambda s: (s.start, _end(s.end))):
        runs = by_value.setdefault(key(s.value), [])
        last = runs[-1] if runs else None
        if last is not None and s.start <= _end(last.end):
            end = None if last.end is None or s.end is None else max(last.end, s.end)
            runs[-1] = Segment(last.value, last.start, end, last.fact_ids + s.fact_ids)
        else:
            runs.append(s)
    return sorted((s for runs in by_value.values() for s in runs), key=lambda s: (s.start, key(s.value)))


def held_for(segments: list[Segment], value: Any, at: datetime, minutes: float) -> Held:
    """Whether `value` held at every instant of [at - minutes, at] (half-open rows: it must still hold at
    `at`); `since` is where its unbroken run began."""
    wanted = key(value)
    for run in coalesce([s for s in segments if key(s.value) == wanted]):
        if run.start <= at < _end(run.end):
            held = (at - run.start).total_seconds() / 60
            return Held(held=held >= minutes, since=run.start, until=run.end, minutes_held=held)
    return Held(held=False, since=None, until=None, minutes_held=0.0)


def _rows(db: Database, owner: str, ref: str, predicate: str, window: tuple[datetime | None, datetime | None],
          system_time: datetime | None, scope: str | None, *,
          asked: tuple[datetime, datetime]) -> tuple[str, list[Segment], bool, RetentionNotice | None]:
    """The rows read over `window`, and the retention notice for the span `asked` about."""
    with db.owner_tx(owner, read_only=True) as conn:
        entity = entities.resolve(conn, ref, system_time=system_time)
        if entity is None:
            raise suggest.unknown_ref(conn, ref)
        _check_predicate(conn, predicate)
        scope_id = _scope_id(conn, scope, system_time)
        rows = conn.execute(load("history_rows"), {
            "subject_id": entity.id, "predicate": predicate, "scope_id": scope_id, "system_time": system_time,
            "from": window[0], "to": window[1], "limit": MAX_ROWS + 1}).fetchall()
        retention = notice.for_span(conn, entity.id, predicate, asked, system_time)
    segments = [Segment(r["value"], r["valid_from"], r["valid_to"], (r["id"],)) for r in rows[:MAX_ROWS]]
    return entity.ref, segments[::-1], len(rows) > MAX_ROWS, retention


def _check_predicate(conn: psycopg.Connection[Any], predicate: str) -> None:
    if get_relation_type(conn, predicate) is None:
        raise suggest.unknown_predicate(conn, predicate) or NotFound(f"unknown predicate {predicate!r}",
                                                                     code="UNKNOWN_PREDICATE")


def _scope_id(conn: psycopg.Connection[Any], scope: str | None, system_time: datetime | None) -> UUID | None:
    if scope is None:
        return None
    found = entities.resolve(conn, scope, system_time=system_time)
    if found is None:
        raise suggest.unknown_ref(conn, scope)
    return found.id


def attribute_series(db: Database, owner: str, ref: str, predicate: str, start: datetime, end: datetime, *,
                     system_time: datetime | None = None, scope: str | None = None) -> Series:
    """The values of (ref, predicate) over [start, end), as believed now or as known at `system_time`."""
    if end <= start:
        raise BadInput("`to` must be after `from`", code="BAD_INTERVAL")
    subject, segments, truncated, retention = _rows(db, owner, ref, predicate, (start, end), system_time, scope,
                                                    asked=(start, end))
    points = [{"value": s.value, "valid_from": s.start, "valid_to": s.end, "fact_ids": list(s.fact_ids)}
              for s in coalesce(clip(segments, start, end))]
    return Series(ref=subject, predicate=predicate, points=points, truncated=truncated, retention=retention)


def held(db: Database, owner: str, ref: str, predicate: str, value: Any, minutes: float, *,
         at: datetime | None = None, system_time: datetime | None = None, scope: str | None = None) -> Held:
    """Was (ref, predicate) = value for at least `minutes` up to world time `at` (default now)?"""
    if not 0 < minutes <= MAX_MINUTES:
        raise BadInput(f"minutes must be between 1 and {MAX_MINUTES}", code="BAD_LIMIT")
    when = at or datetime.now(UTC)
    _, segments, _, retention = _rows(db, owner, ref, predicate, (None, when + TICK), system_time, scope,
                                      asked=(when - timedelta(minutes=minutes), when + TICK))
    return held_for(segments, value, when, minutes).model_copy(update={"retention": retention})
