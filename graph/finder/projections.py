"""Projections: the texts the finder searches (table memory_projections, migration 0038).

`upsert_projection` is the one way to write a row (entity projections from the reconciler's sweep; rollups
and summaries from retention); a new or changed text is marked pending and embedded later by the
reconciler, so writing a projection never waits for a model and never fails because of one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal
from uuid import UUID

import psycopg

from graph.sql import load

SourceKind = Literal["entity", "summary", "rollup", "event_summary", "episode"]
RetentionClass = Literal["permanent", "windowed", "episodic"]
MAX_TEXT = 8000
NO_ID = UUID(int=0)


@dataclass(frozen=True)
class Projection:
    """One thing worth finding. `source_key` is stable across rewrites (an entity id, a rollup's series and
    window, an event id); `entity_ids` are what a hit points at."""

    source_kind: SourceKind
    source_key: str
    text: str
    entity_ids: list[UUID] = field(default_factory=list)
    valid_from: datetime | None = None
    valid_to: datetime | None = None
    importance: float = 0.5
    retention_class: RetentionClass = "permanent"


def upsert_projection(conn: psycopg.Connection[Any], projection: Projection) -> bool:
    """Insert or rewrite one projection of the transaction's owner; True when it now waits for embedding
    (new or changed text). Runs in the caller's transaction."""
    p = projection
    row = conn.execute(load("finder_projection_upsert"), {
        "source_kind": p.source_kind, "source_key": p.source_key, "text": p.text[:MAX_TEXT],
        "entity_ids": p.entity_ids, "valid_from": p.valid_from, "valid_to": p.valid_to,
        "importance": p.importance, "retention_class": p.retention_class,
    }).fetchone()
    return row is not None and bool(row["embedding_pending"])


def sync_entities(conn: psycopg.Connection[Any], *, after: UUID = NO_ID, refs: list[str] | None = None,
                  batch: int = 500) -> tuple[int, UUID | None]:
    """Rewrite the projections of one batch of rag-kind entities (the next `batch` after `after` in id
    order, or those named by `refs`); remove projections of entities merged away or no longer rag.
    Returns (rows now pending, the last id seen or None at the end of the sweep)."""
    rows = conn.execute(load("finder_entity_texts"), {"after": after, "refs": refs, "batch": batch}).fetchall()
    pending = 0
    for row in rows:
        pending += upsert_projection(conn, Projection(
            source_kind="entity", source_key=str(row["id"]), text=row["text"], entity_ids=[row["id"]]))
    keys = [str(row["id"]) for row in rows] if refs is not None else None
    if keys is None:  # the sweep: every entity projection key in the batch's id range
        last = rows[-1]["id"] if len(rows) == batch else None
        keys = _keys_between(conn, after, last)
        conn.execute(load("finder_entity_orphans"), {"keys": keys})
        return pending, last
    return pending, None


def _keys_between(conn: psycopg.Connection[Any], after: UUID, last: UUID | None) -> list[str]:
    rows = conn.execute(load("finder_entity_keys"), {"after": after, "last": last}).fetchall()
    return [r["source_key"] for r in rows]
