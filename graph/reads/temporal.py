"""The four temporal questions: what is true now / as of valid time V / as known at system time R / history."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from pydantic import BaseModel, Field

from graph.errors import BadInput
from graph.ledger import entities
from graph.platform.db import Database
from graph.sql import load


class FactView(BaseModel):
    """One fact row as readers see it (the one mapping from a facts row)."""

    id: UUID
    predicate: str
    value: Any = Field(description="The literal value, or the object's ref for a relationship")
    object_ref: str | None = None
    valid_from: datetime = Field(description="World time the value starts to hold (inclusive)")
    valid_to: datetime | None = Field(description="World time it stops holding (exclusive); None = open")
    recorded_at: datetime = Field(description="System time the store started believing this row")
    superseded_at: datetime | None = Field(description="System time the row stopped being believed")
    observed_at: datetime | None = Field(default=None, description="When the source observed it")
    status: str
    source: str
    confidence: float
    scope: str | None = None
    priority: int = 0
    memory_type: str | None = None
    reason: str | None = None
    evidence: dict[str, Any] = Field(default_factory=dict)
    supersedes_fact_id: UUID | None = None
    run_id: str | None = None

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> FactView:
        is_entity = row["object_kind"] == "entity"
        return cls(
            id=row["id"], predicate=row["predicate"],
            value=row["object_ref"] if is_entity else row["object_value"],
            object_ref=row["object_ref"] if is_entity else None,
            valid_from=row["valid_from"], valid_to=row["valid_to"], recorded_at=row["recorded_at"],
            superseded_at=row["superseded_at"], observed_at=row["observed_at"], status=row["status"],
            source=row["source"], confidence=row["confidence"], scope=row["scope_ref"],
            priority=row["priority"], memory_type=row["memory_type"], reason=row["reason"],
            evidence=row["evidence"] or {}, supersedes_fact_id=row["supersedes_fact_id"], run_id=row["run_id"],
        )


class EntityStateView(BaseModel):
    ref: str
    kind: str
    name: str
    facts: list[FactView]


def _aware(t: datetime, name: str) -> datetime:
    if t.tzinfo is None:
        raise BadInput(f"{name} needs a UTC offset", code="BAD_TIME")
    return t


def _state(conn: psycopg.Connection[Any], ref: str, query: str, params: dict[str, Any]) -> EntityStateView | None:
    entity = entities.resolve(conn, ref)
    if entity is None:
        return None
    rows = conn.execute(load(query), {**params, "subject_id": entity.id}).fetchall()
    return EntityStateView(ref=entity.ref, kind=entity.kind, name=entity.canonical_name,
                       facts=[FactView.from_row(r) for r in rows])


def state_at(db: Database, owner: str, ref: str, valid_time: datetime) -> EntityStateView | None:
    """What is believed now about valid time V."""
    with db.owner_tx(owner, read_only=True) as conn:
        return _state(conn, ref, "reads_state_at", {"valid_time": _aware(valid_time, "validTime")})


def state_as_known_at(db: Database, owner: str, ref: str, system_time: datetime,
                      valid_time: datetime | None = None) -> EntityStateView | None:
    """What was believed at system time R about valid time V (V defaults to R)."""
    r = _aware(system_time, "systemTime")
    v = _aware(valid_time, "validTime") if valid_time is not None else r
    with db.owner_tx(owner, read_only=True) as conn:
        return _state(conn, ref, "reads_state_known_at", {"system_time": r, "valid_time": v})


def fact_history(db: Database, owner: str, ref: str, predicate: str) -> list[FactView]:
    """Every row ever recorded for (ref, predicate), superseded and invalidated ones included."""
    with db.owner_tx(owner, read_only=True) as conn:
        entity = entities.resolve(conn, ref)
        if entity is None:
            return []
        rows = conn.execute(load("reads_fact_history"), {"subject_id": entity.id, "predicate": predicate})
        return [FactView.from_row(r) for r in rows.fetchall()]
