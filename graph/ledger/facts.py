"""Facts: reading the believed rows of one (subject, predicate, scope), closing rows, inserting rows.

What to write is decided here and in the time planner (graph/ledger/timeline.py); the proposal's writer
(graph/ledger/writer.py) writes it, with the REL edges of relationship rows in the same transaction.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from graph.ledger.fact_rows import FactRow, NewFact, Said
from graph.ledger.timeline import Belief, Interval

if TYPE_CHECKING:
    from graph.ledger.writer import Writer

def value_key(row: Said) -> str:
    """A comparable form of a row's object (believed, or about to be written): the entity id, or canonical JSON
    of the literal."""
    return object_key(row.object_kind, row.object_value, row.object_entity_id)


def object_key(kind: str, value: Any, entity_id: UUID | None) -> str:
    """`value_key` of an object given by its parts (a literal to compare with believed rows)."""
    if kind == "entity":
        return "entity:" + str(entity_id)
    return "literal:" + json.dumps(value, sort_keys=True, separators=(",", ":"))


def believed(writer: Writer, subject_id: UUID, predicate: str, scope_id: UUID | None) -> list[FactRow]:
    """Rows believed now for the key, locked for the rest of the transaction."""
    return writer.believed(subject_id, predicate, scope_id)


def period(row: FactRow) -> Interval:
    return Interval(row.valid_from, row.valid_to)


def as_beliefs(rows: list[FactRow]) -> list[Belief]:
    return [Belief(str(r.id), period(r), value_key(r)) for r in rows]


def close(writer: Writer, ids: list[UUID], at: datetime, status: str,
          invalidated_by: UUID | None = None) -> list[UUID]:
    """Close the system time of believed rows; their edges follow. The ids closed."""
    return writer.close_facts(ids, at, status, invalidated_by)


def insert(writer: Writer, row: NewFact) -> UUID:
    """Insert one row (the literal and evidence as they are)."""
    return writer.insert_fact(row)


def replace(writer: Writer, closing: list[FactRow], at: datetime, rows: list[NewFact],
            successors: dict[str, int]) -> None:
    """Carry out one plan for one key: close the believed rows `closing` (as read by `believed`) at `at`, insert
    `rows`, and name each closed row's successor (`successors`: closed id -> index into `rows`)."""
    writer.replace_facts(closing, at, rows, successors)
