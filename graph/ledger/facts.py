"""Facts: reading the believed rows of one (subject, predicate, scope), closing rows, inserting rows.

Relationship rows (object_kind = entity) are mirrored as REL edges in the same transaction.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.types.json import Jsonb

from graph.age import mirror
from graph.errors import InvariantViolation
from graph.ledger import committer_batch, fact_rows, prefetch
from graph.ledger.timeline import Belief, Interval
from graph.sql import load

# Columns a piece split from an older row inherits: what was believed, and on what evidence.
INHERITED = ("object_kind", "object_value", "object_entity_id", "observed_at", "source", "source_trust_tier",
             "changed_by", "caused_by_event_id", "confidence", "memory_type", "scope_entity_id", "scope_kind",
             "priority", "evidence", "reason")


def value_key(row: dict[str, Any]) -> str:
    """A comparable form of a row's object: the entity id, or canonical JSON of the literal."""
    if row["object_kind"] == "entity":
        return "entity:" + str(row["object_entity_id"])
    return "literal:" + json.dumps(row["object_value"], sort_keys=True, separators=(",", ":"))


def believed(conn: psycopg.Connection[Any], subject_id: UUID, predicate: str, scope_id: UUID | None,
             known: prefetch.Known | None = None) -> list[dict[str, Any]]:
    """Rows believed now for the key, locked for the rest of the transaction (`known`: as read with the clock)."""
    batch = committer_batch.active(conn)
    if batch is not None:
        return batch.believed(subject_id, predicate, scope_id)
    read = known.take_believed(subject_id, predicate, scope_id) if known is not None else None
    if read is not None:
        return read
    rows = conn.execute(load("facts_believed_for_update"),
                        {"subject_id": subject_id, "predicate": predicate, "scope_id": scope_id}).fetchall()
    return list(rows)


def as_beliefs(rows: list[dict[str, Any]]) -> list[Belief]:
    return [Belief(str(r["id"]), Interval(r["valid_from"], r["valid_to"]), value_key(r)) for r in rows]


def by_id(conn: psycopg.Connection[Any], fact_id: UUID) -> dict[str, Any] | None:
    row = conn.execute(load("facts_by_id"), {"id": fact_id}).fetchone()
    return dict(row) if row else None


def close(conn: psycopg.Connection[Any], ids: list[str], at: datetime, status: str,
          invalidated_by: UUID | None = None) -> int:
    """Close the system time of believed rows; their edges follow."""
    if not ids:
        return 0
    batch = committer_batch.active(conn)
    buffered = batch.close(ids, at, status, invalidated_by) if batch is not None else None
    if buffered is not None:
        return len(buffered)
    closed = conn.execute(load("facts_close"), {"ids": [UUID(i) for i in ids], "at": at, "status": status,
                                                "invalidated_by": invalidated_by}).fetchall()
    for row in closed:
        if row["object_kind"] == "entity":
            mirror.close_rel(conn, str(row["id"]), at, status)
    return len(closed)


def set_successor(conn: psycopg.Connection[Any], closed_id: str, successor: UUID) -> None:
    batch = committer_batch.active(conn)
    if batch is not None:
        batch.set_successor(UUID(closed_id), successor)
        return
    conn.execute(load("facts_set_successor"), {"id": UUID(closed_id), "successor": successor})


def insert(conn: psycopg.Connection[Any], owner: str, row: dict[str, Any]) -> UUID:
    params = {**row, "object_value": Jsonb(row["object_value"]) if row["object_kind"] == "literal" else None,
              "evidence": Jsonb(row.get("evidence") or {})}
    edge = _edge(row)
    batch = committer_batch.active(conn)
    if batch is not None:
        return batch.insert_fact(params, mirror.rel_props(row) if edge else None)
    result = conn.execute(load("facts_insert"), params).fetchone()
    assert result is not None
    fact_id: UUID = result["id"]
    if edge:
        mirror.create_rel(conn, owner, {**row, "id": fact_id})
    return fact_id


def replace(conn: psycopg.Connection[Any], owner: str, closing: list[dict[str, Any]], at: datetime,
            rows: list[dict[str, Any]], successors: dict[str, int]) -> None:
    """Carry out one plan for one key: close the believed rows `closing` (as read by `believed`) at `at`, insert
    `rows` (as `insert` takes them), and name each closed row's successor (`successors`: closed id -> index
    into `rows`). Outside a batch this is ONE statement (facts_replace.sql), fetched only when the mirror needs
    the new ids; a refusal then surfaces at the next fetch or at COMMIT."""
    batch = committer_batch.active(conn)
    if batch is not None:  # buffered, in the order the batch expects
        close(conn, [str(r["id"]) for r in closing], at, "superseded")
        ids = [insert(conn, owner, row) for row in rows]
        for closed_id, index in successors.items():
            set_successor(conn, closed_id, ids[index])
        return
    if not closing and not rows:
        return
    close_ids = [r["id"] for r in closing]
    cursor = conn.execute(load("facts_replace"), {
        "close": close_ids, "successor": [successors.get(str(i)) for i in close_ids], "at": at,
        "rows": fact_rows.numbered_facts_json(rows)})
    edges = [(index, row) for index, row in enumerate(rows) if _edge(row)]
    closed_edges = [r for r in closing if r["object_kind"] == "entity"]
    if not edges and not closed_edges:
        return
    done = cursor.fetchone()
    if done is None or done["closed"] != len(closing):
        raise InvariantViolation(f"facts_replace closed {done and done['closed']} of {len(closing)} rows")
    for row in closed_edges:
        mirror.close_rel(conn, str(row["id"]), at, "superseded")
    for index, row in edges:
        mirror.create_rel(conn, owner, {**row, "id": done["ids"][index]})


def _edge(row: dict[str, Any]) -> bool:
    return bool(row["object_kind"] == "entity" and row["status"] == "active")


def inherit(old: dict[str, Any]) -> dict[str, Any]:
    return {k: old[k] for k in INHERITED}
