"""Observed events: events of a windowed type (event_types.retention_class, 0042), stored in
observed_events, partitioned by UTC month. Nothing references them (unlike world_events, the causal log),
so a month whose every owner is rolled up is dropped as one partition instead of deleted row by row."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from datetime import date, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb
from pydantic import BaseModel, Field

from graph.errors import BadInput, Conflict
from graph.governance.phrases import Lang
from graph.retention import rollup
from graph.retention.classes import WINDOWED, events_key, events_month_key, month_of, month_start, next_month
from graph.sql import load


class Observation(BaseModel):
    event_type: str = Field(description="A registered event type whose retention class is windowed")
    occurred_at: datetime
    source: str = Field(description="Who observed it, e.g. integration:homeassistant")
    target_entity_id: UUID | None = None
    summary: str | None = None
    payload: dict[str, Any] = Field(default_factory=dict)
    external_ref: str | None = None


def record(conn: psycopg.Connection[Any], observations: Sequence[Observation]) -> list[UUID | None]:
    """Store observations in the owner's transaction, set-based; one id per observation in input order,
    None for one the owner already holds (same external_ref and occurred_at: a retry). A type that is not
    windowed is BAD_INPUT; a time before the owner's retention edge is BEHIND_RETENTION_EDGE (its month may
    be rolled up and dropped already: a late row there would replace the rollup with itself)."""
    if not observations:
        return []
    classes = windowed_types(conn, {o.event_type for o in observations})
    edge = retention_edge(conn)
    for o in observations:
        if o.occurred_at.tzinfo is None:
            raise BadInput("occurredAt needs a UTC offset", code="BAD_TIME")
        if classes.get(o.event_type) != WINDOWED:
            raise BadInput(not_windowed(o.event_type, classes),
                           code="NOT_WINDOWED" if o.event_type in classes else "UNKNOWN_EVENT_TYPE")
        if edge is not None and o.occurred_at < edge:
            raise Conflict(behind_edge(o.occurred_at, edge), code="BEHIND_RETENTION_EDGE")
    for at in sorted({month_start(month_of(o.occurred_at)) for o in observations}):
        conn.execute(load("retention_observed_partition"), {"at": at})
    rows = conn.execute(load("retention_observed_insert"), {
        "event_type": [o.event_type for o in observations], "occurred_at": [o.occurred_at for o in observations],
        "target_entity_id": [o.target_entity_id for o in observations], "source": [o.source for o in observations],
        "external_ref": [o.external_ref for o in observations], "payload": [Jsonb(o.payload) for o in observations],
        "summary": [o.summary for o in observations]}).fetchall()
    return [r["id"] for r in rows]


def windowed_types(conn: psycopg.Connection[Any], keys: set[str]) -> dict[str, str]:
    """The registry class of each registered event type among `keys`."""
    rows = conn.execute(load("retention_event_type_classes"), {"keys": sorted(keys)})
    return {r["key"]: r["retention_class"] for r in rows}


def retention_edge(conn: psycopg.Connection[Any]) -> datetime | None:
    row = conn.execute(load("retention_edge_get")).fetchone()
    return row["edge"] if row else None


def not_windowed(event_type: str, classes: dict[str, str]) -> str:
    if event_type not in classes:
        return f"event type {event_type!r} is not registered"
    return (f"event type {event_type!r} is not a windowed (observation) type; record it with recordEvent "
            "instead (the causal log, permanent)")


def behind_edge(at: datetime, edge: datetime) -> str:
    return (f"occurredAt {at.isoformat()} lies before the retention edge {edge.isoformat()}: memory holds only "
            "rollups there, and a late row would not be counted in them")


def months(conn: psycopg.Connection[Any]) -> list[date]:
    return [r["month"] for r in conn.execute(load("retention_observed_months"))]


def owners(conn: psycopg.Connection[Any], month: date) -> dict[str, int]:
    return {r["owner_sub"]: int(r["n"]) for r in conn.execute(load("retention_observed_owners"), {"month": month})}


def roll_up_month(conn: psycopg.Connection[Any], month: date, lang: Lang) -> int:
    """Write (or rewrite: the rows stay until the partition goes) the owner's event rollups of one month
    and the month's marker counting them. Returns the events rolled up."""
    bounds = {"month_start": month_start(month), "month_end": month_start(next_month(month))}
    groups: dict[tuple[str, UUID | None], list[dict[str, Any]]] = defaultdict(list)
    for r in conn.execute(load("retention_observed_groups"), bounds):
        groups[(r["event_type"], r["target_entity_id"])].append(r)
    total = 0
    for (event_type, target), rows in groups.items():
        stats = rollup.of_events((r["summary"], int(r["n"]), r["first"], r["last"]) for r in rows)
        key = events_key(event_type, target, month)
        text = rollup.events_text(rows[0]["label"], event_type, month, stats, lang)
        projection = conn.execute(load("retention_projection_put"), {
            "source_key": key, "text": text, "entity_ids": [target] if target else [], "importance": 0.2,
            "valid_from": bounds["month_start"], "valid_to": bounds["month_end"]}).fetchone()
        assert projection is not None
        _put(conn, key, month, stats, projection["id"], event_type=event_type, subject_id=target)
        total += stats.n
    _put(conn, events_month_key(month), month, rollup.Stats(n=total), None)
    return total


def _put(conn: psycopg.Connection[Any], key: str, month: date, stats: rollup.Stats, projection_id: UUID | None, *,
         event_type: str | None = None, subject_id: UUID | None = None) -> None:
    conn.execute(load("retention_rollup_put"), {
        "series_key": key, "kind": "events", "subject_id": subject_id, "predicate": None, "event_type": event_type,
        "month": month, "stats": Jsonb(stats.model_dump(mode="json")), "rows_rolled": stats.n,
        "projection_id": projection_id})


def drop_month(conn: psycopg.Connection[Any], month: date) -> int:
    row = conn.execute(load("retention_observed_drop"), {"month": month}).fetchone()
    return int(row["n"]) if row else 0
