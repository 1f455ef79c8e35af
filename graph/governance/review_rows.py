"""The rows the review and the correction notices read (graph/governance/review.py), one class per query.

Each class has exactly the columns of its query (graph/sql/gov_review_*.sql, gov_correction_notices.sql,
gov_cut_short_notices.sql), so psycopg builds it directly (`class_row`). Contact suggestions
(graph/sql/contacts_suggestions.sql) come in the shape of a merge candidate, with why they were made.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row, kwargs_row

from graph.sql import load


@dataclass(frozen=True, slots=True)
class PendingRow:
    """A pending fact (gov_review_pending.sql), with the active functional value it would replace, if any."""

    id: UUID
    predicate_name: str
    object_kind: str
    object_value: Any
    source: str
    confidence: float
    subject_ref: str
    subject_name: str
    object_name: str | None
    scope_ref: str | None
    conflict_id: UUID | None
    conflict_kind: str | None
    conflict_value: Any
    conflict_object_name: str | None


@dataclass(frozen=True, slots=True)
class MergeCandidate:
    """Two entities of one kind that may be one (gov_review_merge_candidates.sql; contacts_suggestions.sql adds
    the signal that suggested them and its detail)."""

    a_id: UUID
    a_ref: str
    a_name: str
    a_created: datetime
    b_id: UUID
    b_ref: str
    b_name: str
    b_created: datetime
    kind: str
    similarity: float
    signal: str | None = None
    detail: str | None = None

    @property
    def pair(self) -> frozenset[UUID]:
        """The pair in either order."""
        return frozenset((self.a_id, self.b_id))


@dataclass(frozen=True, slots=True)
class CorrectionRow:
    """A value a chat's proposal replaced by a different one (gov_correction_notices.sql): the new row and the
    believed row it closed (`previous_*`)."""

    id: UUID
    recorded_at: datetime
    predicate: str
    predicate_name: str
    subject_ref: str
    subject_name: str
    object_kind: str
    object_value: Any
    object_name: str | None
    object_ref: str | None
    previous_id: UUID
    previous_kind: str
    previous_value: Any
    previous_object_name: str | None
    previous_object_ref: str | None
    previous_source: str


@dataclass(frozen=True, slots=True)
class CutRow:
    """One `cut_short` entry of a proposal's stored result (gov_cut_short_notices.sql), as JSON."""

    recorded_at: datetime
    item: dict[str, Any]


@dataclass(frozen=True, slots=True)
class StateRow:
    """An entity and one row believed about it at the time asked (gov_states_now.sql); `fact` holds that row's
    columns as graph.reads.temporal.FactView reads them, None when nothing is believed."""

    entity_ref: str
    entity_kind: str
    entity_name: str
    fact: dict[str, Any] | None


def _state(*, entity_ref: str, entity_kind: str, entity_name: str, **fact: Any) -> StateRow:
    return StateRow(entity_ref, entity_kind, entity_name, fact if fact["id"] is not None else None)


def pending(conn: psycopg.Connection[Any], limit: int) -> list[PendingRow]:
    """Pending facts, oldest first."""
    cursor = conn.cursor(row_factory=class_row(PendingRow))
    return cursor.execute(load("gov_review_pending"), {"limit": limit}).fetchall()


def merge_candidates(conn: psycopg.Connection[Any], params: dict[str, Any]) -> list[MergeCandidate]:
    """Alike names of one kind (params: skip_kinds, recent, low, high, limit), most alike first."""
    cursor = conn.cursor(row_factory=class_row(MergeCandidate))
    return cursor.execute(load("gov_review_merge_candidates"), params).fetchall()


def corrections(conn: psycopg.Connection[Any], chat_id: str, since: datetime, limit: int) -> list[CorrectionRow]:
    cursor = conn.cursor(row_factory=class_row(CorrectionRow))
    return cursor.execute(load("gov_correction_notices"),
                          {"chat_id": chat_id, "since": since, "limit": limit}).fetchall()


def cuts(conn: psycopg.Connection[Any], chat_id: str, since: datetime, limit: int) -> list[CutRow]:
    cursor = conn.cursor(row_factory=class_row(CutRow))
    return cursor.execute(load("gov_cut_short_notices"),
                          {"chat_id": chat_id, "since": since, "limit": limit}).fetchall()


def states(conn: psycopg.Connection[Any], refs: list[str], valid_time: datetime) -> list[StateRow]:
    """Each of `refs` with every row believed about it at `valid_time`, in one statement (for a DataLoader)."""
    cursor = conn.cursor(row_factory=kwargs_row(_state))
    return cursor.execute(load("gov_states_now"), {"refs": refs, "valid_time": valid_time}).fetchall()
