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

from graph.errors import BadInput
from graph.governance.phrases import Lang
from graph.retention import rollup
from graph.retention.classes import events_key, events_month_key, month_of, month_start, next_month
from graph.sql import load


class Observation(BaseModel):
    event_type: str = Field(description="A registered event type whose retention class is windowed")
    occurred_at: datetime
    source: str = Field(description="Who observed it, e.g. integration:homeassistant")
    target_entity_id: UUID | None = None
    summary: str | None = None
    payload: dict[str, Any] = Field(default_factory=dict)
    external_ref: str | None = None


def record(conn: psycopg.Connection[Any], observations: Sequence[Observation]) -> list[UUID]:
    """Store observations in the owner's transaction; a type that is not windowed is BAD_INPUT."""
    for at in sorted({month_start(month_of(o.occurred_at)) for o in observations}):
        conn.execute(load("retention_observed_partition"), {"at": at})
    ids: list[UUID] = []
    for o in observations:
        if o.occurred_at.tzinfo is None:
            raise BadInput("occurredAt needs a UTC offset", code="BAD_TIME")
        row = conn.execute(load("retention_observed_insert"), {
            **o.model_dump(exclude={"payload"}), "payload": Jsonb(o.payload)}).fetchone()
        if row is None:
            raise BadInput(f"event type {o.event_type!r} is not a windowed (observation) type; record it "
                           "with recordEvent instead", code="UNKNOWN_EVENT_TYPE")
        ids.append(row["id"])
    return ids


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
