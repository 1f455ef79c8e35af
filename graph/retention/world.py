"""Windowed events of the causal log: world events whose type's registry class is 'windowed' (e.g. build
and test results) and that nothing depends on. Rolled up per (type, target, month), merged like fact
rollups, then pruned row by row with their AGE vertex, one transaction per series; the database refuses
the prune unless the rollup was written in the same transaction (wm_retention_prune_events)."""

from __future__ import annotations

from collections import Counter
from datetime import date, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb
from pydantic import BaseModel

from graph.governance.phrases import Lang
from graph.retention import rollup
from graph.retention.classes import month_start, next_month
from graph.retention.facts import PruneMismatch
from graph.sql import load


class EventSeries(BaseModel):
    event_type: str
    target_entity_id: UUID | None
    label: str
    month: date
    n: int

    @property
    def key(self) -> str:
        return f"world:{self.event_type}:{self.target_entity_id or '-'}:{self.month:%Y-%m}"


def plan(conn: psycopg.Connection[Any], edge: datetime) -> list[EventSeries]:
    return [EventSeries.model_validate(r) for r in conn.execute(load("retention_world_series"), {"edge": edge})]


def roll_up_and_prune(conn: psycopg.Connection[Any], s: EventSeries, edge: datetime, lang: Lang) -> int:
    bounds = {"month_start": month_start(s.month), "month_end": month_start(next_month(s.month))}
    rows = conn.execute(load("retention_world_rows"), {"edge": edge, "event_type": s.event_type,
                                                       "target_entity_id": s.target_entity_id, **bounds}).fetchall()
    if not rows:
        return 0
    counts = Counter(r["summary"] for r in rows)
    times: dict[str, list[datetime]] = {}
    for r in rows:
        times.setdefault(r["summary"], []).append(r["occurred_at"])
    fresh = rollup.of_events((k, n, min(times[k]), max(times[k])) for k, n in counts.items())
    before = conn.execute(load("retention_rollup_get"), {"series_key": s.key}).fetchone()
    stats = rollup.merge(rollup.Stats.model_validate(before["stats"]), fresh) if before else fresh
    projection = conn.execute(load("retention_projection_put"), {
        "source_key": s.key, "text": rollup.events_text(s.label, s.event_type, s.month, stats, lang),
        "entity_ids": [s.target_entity_id] if s.target_entity_id else [], "importance": 0.2,
        "valid_from": bounds["month_start"], "valid_to": bounds["month_end"]}).fetchone()
    assert projection is not None
    conn.execute(load("retention_rollup_put"), {
        "series_key": s.key, "kind": "events", "subject_id": s.target_entity_id, "predicate": None,
        "event_type": s.event_type, "month": s.month, "stats": Jsonb(stats.model_dump(mode="json")),
        "rows_rolled": (before["rows_rolled"] if before else 0) + len(rows), "projection_id": projection["id"]})
    ids = [r["id"] for r in rows]
    pruned = conn.execute(load("retention_prune_events"), {"series_key": s.key, "ids": ids, "edge": edge}).fetchone()
    n = int(pruned["n"]) if pruned else 0
    if n != len(ids):
        raise PruneMismatch(f"{s.key}: pruned {n} of the {len(ids)} events rolled up; rolled back, run again")
    return n
