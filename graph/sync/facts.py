"""The fact rows of a sync's changes: planned with the ledger's pure time logic, written set-based.

Each change of a predicate is a functional assertion from `observedAt` until the next change already known
(graph.ledger.timeline `plan_replace`: an entry that arrives late does not erase a later one), a removed
key a retraction from then on (`plan_remove`), against the rows believed now: rows overlapping it are
closed (superseded) and their parts before survive as new rows, exactly as the committer does one
assertion at a time. Every row the sync writes is observed state: retention class `windowed`, caused by
the entry's sync event. A piece split from an older row keeps that row's provenance.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg

from graph.ledger import fact_rows
from graph.ledger import facts as ledger_facts
from graph.ledger.fact_rows import FactRow
from graph.ledger.timeline import Interval, Piece, Plan, plan_remove, plan_replace
from graph.ledger.writer_immediate import close_with_edges
from graph.sync.entries import Change
from graph.sync.store import as_json, chunks, fetch

WINDOWED = "windowed"


@dataclass(frozen=True)
class Work:
    """One entry's changes on its entity, with the event that caused them."""

    index: int
    subject_id: UUID
    observed_at: datetime
    changes: list[Change]
    event_id: UUID | None
    evidence: dict[str, Any]
    fresh: bool = False  # its entity was created by this call: nothing can be believed about it yet


@dataclass
class _Rows:
    insert: list[dict[str, Any]] = field(default_factory=list)
    close: list[UUID] = field(default_factory=list)
    # closed row -> (subject, predicate, valid_from) of the row that replaced it
    successor: dict[UUID, tuple[str, str, str]] = field(default_factory=dict)


def believed(conn: psycopg.Connection[Any], work: list[Work]) -> dict[tuple[UUID, str], list[dict[str, Any]]]:
    """The rows believed now for every (subject, predicate) the work touches, locked."""
    keys = sorted({(w.subject_id, c.predicate) for w in work if not w.fresh for c in w.changes})
    found: dict[tuple[UUID, str], list[dict[str, Any]]] = defaultdict(list)
    for part in chunks(keys):
        for row in fetch(conn, "sync_facts_believed", {"subjects": [k[0] for k in part],
                                                       "predicates": [k[1] for k in part]}):
            found[(row["subject_id"], row["predicate"])].append(row)
    return found


def entity_valued(current: dict[tuple[UUID, str], list[dict[str, Any]]]) -> set[tuple[UUID, str]]:
    """Keys whose believed rows are relationships: a sync writes literals only, so it leaves them alone."""
    return {k for k, rows in current.items() if any(r["object_kind"] != "literal" for r in rows)}


def _key(subject: UUID | str, predicate: str, start: datetime) -> tuple[str, str, str]:
    return (str(subject), predicate, start.astimezone(UTC).isoformat())


def plan(work: list[Work], current: dict[tuple[UUID, str], list[dict[str, Any]]]) -> _Rows:
    rows = _Rows()
    for w in work:
        for change in w.changes:
            existing = current.get((w.subject_id, change.predicate), [])
            new = Interval(w.observed_at, None)
            if not existing:  # the common case of a first sync: nothing to supersede
                p = Plan() if change.removed else Plan(insert=[Piece(new)])
            else:
                beliefs = ledger_facts.as_beliefs([FactRow.of(r) for r in existing])
                value_key = ledger_facts.object_key("literal", change.after, None)
                p = plan_remove(beliefs, new) if change.removed else plan_replace(beliefs, new, value_key)
            _collect(rows, p, existing, w, change)
    return rows


def _collect(rows: _Rows, p: Plan, existing: list[dict[str, Any]], w: Work, change: Change) -> None:
    by_id = {str(r["id"]): r for r in existing}
    rows.close.extend(UUID(i) for i in p.close)
    new_value: tuple[str, str, str] | None = None
    pieces: dict[str, tuple[str, str, str]] = {}
    for piece in p.insert:
        key = _key(w.subject_id, change.predicate, piece.interval.start)
        if piece.split_from is None:
            new_value = key
            rows.insert.append({
                "subject_id": str(w.subject_id), "predicate": change.predicate, "object_value": change.after,
                "valid_from": piece.interval.start.isoformat(),
                "valid_to": piece.interval.end.isoformat() if piece.interval.end else None,
                "observed_at": w.observed_at.isoformat(), "caused_by_event_id": str(w.event_id) if w.event_id else None,
                "confidence": 1.0, "supersedes_fact_id": p.close[0] if p.close else None,
                "op_index": w.index, "evidence": w.evidence})
        else:
            pieces.setdefault(piece.split_from, key)
            rows.insert.append(_piece(by_id[piece.split_from], piece.interval, w.index))
    for closed in p.close:
        successor = new_value or pieces.get(closed)
        if successor is not None:
            rows.successor[UUID(closed)] = successor


def _piece(old: dict[str, Any], interval: Interval, index: int) -> dict[str, Any]:
    """What is left of an older row outside the new value: its own value and provenance."""
    return {
        "subject_id": str(old["subject_id"]), "predicate": old["predicate"], "object_value": old["object_value"],
        "valid_from": interval.start.isoformat(), "valid_to": interval.end.isoformat() if interval.end else None,
        "observed_at": old["observed_at"].isoformat() if old["observed_at"] else None,
        "caused_by_event_id": str(old["caused_by_event_id"]) if old["caused_by_event_id"] else None,
        "confidence": old["confidence"], "supersedes_fact_id": str(old["id"]), "op_index": index,
        "evidence": old["evidence"] or {}, "source": old["source"], "tier": old["source_trust_tier"],
        "retention_class": old["retention_class"], "changed_by": old["changed_by"],
        "memory_type": old["memory_type"], "reason": old["reason"]}


def write(conn: psycopg.Connection[Any], rows: _Rows, *, at: datetime, source: str, tier: int,
          run_id: str, retention: str = WINDOWED) -> list[dict[str, Any]]:
    """Close, insert and link the planned rows; returns the inserted (id, subject_id, predicate, valid_from)."""
    for part in chunks(rows.close):
        close_with_edges(conn, part, at, "superseded")
    params = {"at": at, "source": source, "tier": tier, "run_id": run_id, "retention": retention}
    inserted: list[dict[str, Any]] = []
    for part in chunks(rows.insert):
        inserted.extend(fact_rows.insert_synced(conn, as_json(part), params).fetchall())
    ids = {_key(r["subject_id"], r["predicate"], r["valid_from"]): r["id"] for r in inserted}
    links = [(closed, ids[key]) for closed, key in rows.successor.items()]
    for part in chunks(links):
        fact_rows.set_successors(conn, part, prepare=False)
    return inserted


