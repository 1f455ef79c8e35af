"""Windowed fact rows: which series would be rolled up and pruned, and doing it, one transaction per series
and month (the rollup and its projection are written, then wm_retention_prune_facts deletes exactly the
rows the rollup counted, and refuses unless that rollup was written in the same transaction)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb
from pydantic import BaseModel

from graph.errors import WorldmemError
from graph.governance.phrases import Lang
from graph.retention import rollup
from graph.retention.classes import fact_key, month_start, next_month
from graph.sql import load


class Series(BaseModel):
    """One series (subject, predicate) and month with rows to prune."""

    subject_id: UUID
    subject_ref: str
    label: str
    predicate: str
    month: date
    n: int
    readings: int

    @property
    def key(self) -> str:
        return fact_key(self.subject_id, self.predicate, self.month)


class PruneMismatch(WorldmemError):
    """The database pruned other rows than the rollup counted (a concurrent change): rolled back."""


INHERIT_ROUNDS = 20


def inherit_class(conn: psycopg.Connection[Any]) -> int:
    """Mark the committer's split-off pieces of windowed rows windowed (retention_inherit_class); returns
    the rows marked."""
    marked = 0
    for _ in range(INHERIT_ROUNDS):
        n = conn.execute(load("retention_inherit_class")).rowcount
        marked += max(n, 0)
        if n <= 0:
            break
    return marked


def plan(conn: psycopg.Connection[Any], edge: datetime) -> list[Series]:
    return [Series.model_validate(r) for r in conn.execute(load("retention_fact_series"), {"edge": edge})]


def roll_up_and_prune(conn: psycopg.Connection[Any], s: Series, edge: datetime, lang: Lang) -> int:
    """Roll one series-month up into its (merged) rollup and projection, then prune its rows. Returns the
    rows pruned. Runs inside the caller's owner transaction: all of it or nothing."""
    bounds = {"month_start": month_start(s.month), "month_end": month_start(next_month(s.month))}
    rows = conn.execute(load("retention_fact_rows"), {"subject_id": s.subject_id, "predicate": s.predicate,
                                                      "edge": edge, **bounds}).fetchall()
    if not rows:
        return 0
    fresh = rollup.of_readings((r["valid_from"], r["value"]) for r in rows if r["status"] == "active")
    before = conn.execute(load("retention_rollup_get"), {"series_key": s.key}).fetchone()
    stats = rollup.merge(rollup.Stats.model_validate(before["stats"]), fresh) if before else fresh
    text = rollup.fact_text(s.label, s.predicate, s.month, stats, lang)
    projection = conn.execute(load("retention_projection_put"), {
        "source_key": s.key, "text": text, "entity_ids": [s.subject_id], "importance": 0.3,
        "valid_from": stats.first or bounds["month_start"],
        "valid_to": _after(stats.last, bounds["month_end"])}).fetchone()
    assert projection is not None
    conn.execute(load("retention_rollup_put"), {
        "series_key": s.key, "kind": "facts", "subject_id": s.subject_id, "predicate": s.predicate,
        "event_type": None, "month": s.month, "stats": Jsonb(stats.model_dump(mode="json")),
        "rows_rolled": (before["rows_rolled"] if before else 0) + len(rows), "projection_id": projection["id"]})
    ids = [r["id"] for r in rows]
    pruned = conn.execute(load("retention_prune_facts"), {"series_key": s.key, "ids": ids, "edge": edge}).fetchone()
    n = int(pruned["n"]) if pruned else 0
    if n != len(ids):
        raise PruneMismatch(f"{s.key}: pruned {n} of the {len(ids)} rows rolled up; rolled back, run again")
    return n


def _after(last: datetime | None, month_end: datetime) -> datetime:
    """The projection's valid_to: the month's end (a rollup speaks for its whole month)."""
    return month_end if last is None or last < month_end else last
