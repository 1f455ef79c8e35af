"""What a proposal will ask first: for one operation fetched with the owner's clock (one round trip); the batched
writer (writer_buffered.Buffered.prefetch) reads the same statement beside its own.

The plain path of the committer asked for its entity kinds, its relation type, (through screening) the
owner's suppression markers and its subject by ref one round trip each. `start` queues the same reads, as one
statement, in the pipeline that locks the owner's clock, so they cost no round trip of their own; `Known`
answers the handlers from them (graph/ledger/ops.py asks it first). For the committer's single operation the
same statement also reads the proposal stored under its run_id (the replay check) and, for an operation that
plans facts, the believed rows of its subject for its predicate, locked (graph/ledger/facts.py believed).
What is not known here is still read from the database as before.

Read after the clock lock, in the same transaction: the same rows the handlers would read a moment later.
Registries change only through registration (never inside a commit); suppression markers and entities only
through writers of the same owner, which wait for the clock lock held here. An entity is used from here only
where it was found: one the operation creates itself is read again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from graph.ledger.entity import Entity, parse_ref
from graph.ledger.fact_rows import FactRow
from graph.ledger.registries import EntityKind, RelationType
from graph.platform.arrays import text_array
from graph.sql import load


@dataclass(frozen=True)
class Stored:
    """A proposal committed before under the same run_id: its hash and result (proposal_get.sql)."""

    payload_hash: str
    result: dict[str, Any]
    recorded_at: datetime | None = None


@dataclass(frozen=True)
class _Read:
    """The one row of commit_prefetch.sql (its json columns as lists of objects)."""

    live: bool
    kinds: list[dict[str, Any]]
    relation_types: list[dict[str, Any]]
    entities: list[dict[str, Any]]
    stored: dict[str, Any] | None
    believed: list[dict[str, Any]]


@dataclass(frozen=True)
class Known:
    """Registry entries by key (None: not registered), whether the owner has a live suppression marker, and the
    owner's entities found by exact ref."""

    kinds: dict[str, EntityKind | None]
    relation_types: dict[str, RelationType | None]
    live_markers: bool
    entities: dict[str, Entity]
    stored: Stored | None = None  # the proposal stored under the run_id asked for
    # believed rows by (subject id, predicate), every scope, for the entities above (asked with `believed`)
    believed: dict[tuple[UUID, str], list[FactRow]] = field(default_factory=dict)

    def take_believed(self, subject_id: UUID, predicate: str, scope_id: UUID | None) -> list[FactRow] | None:
        """The rows believed for the key as read with the clock (as facts_believed_for_update returns them, with
        the columns the plan reads), or None when they were not read. Once only: the operation writes them next."""
        rows = self.believed.pop((subject_id, predicate), None)
        return None if rows is None else [r for r in rows if r.scope_entity_id == scope_id]


def start(conn: psycopg.Connection[Any], operations: Sequence[Any], run_id: str | None = None, *,
          believed: bool = False, refs: list[str] | None = None) -> Callable[[], Known]:
    """Queue the read (one statement, in the caller's pipeline); the returned function fetches it. With a
    `run_id`, the proposal stored under it comes along (the committer's replay check); with `believed`, the
    believed rows of the entities found for the operations' predicates, locked. `refs`: the operations'
    names_of, sorted, when the caller has them already (they are walked once per proposal)."""
    refs = sorted(names_of(operations)) if refs is None else refs
    kinds, predicates = registry_keys(operations, refs)
    params = {"kinds": text_array(kinds), "predicates": text_array(predicates), "refs": text_array(refs),
              "run_id": run_id, "believed": believed}
    cursor = conn.cursor(row_factory=class_row(_Read)).execute(load("commit_prefetch"), params)

    def fetch() -> Known:
        row = cursor.fetchone()
        assert row is not None
        found_kinds: dict[str, EntityKind | None] = dict.fromkeys(kinds)
        found_kinds.update((r["key"], EntityKind.model_validate(r)) for r in row.kinds)
        found_types: dict[str, RelationType | None] = dict.fromkeys(predicates)
        found_types.update((r["key"], RelationType.model_validate(r)) for r in row.relation_types)
        found = [Entity.model_validate(r) for r in row.entities]
        rows: dict[tuple[UUID, str], list[FactRow]] = {}
        if believed:
            rows = {(e.id, predicate): [] for e in found for predicate in predicates}
            for fact in sorted(map(_typed, row.believed), key=lambda r: r.valid_from):
                rows[(fact.subject_id, fact.predicate)].append(fact)
        stored = Stored(**row.stored) if row.stored is not None else None
        return Known(found_kinds, found_types, row.live, {e.ref: e for e in found}, stored, rows)

    return fetch


_IDS = ("id", "subject_id", "object_entity_id", "caused_by_event_id", "scope_entity_id")
_TIMES = ("valid_from", "valid_to", "observed_at")


def _typed(row: dict[str, Any]) -> FactRow:
    """A believed row from JSON with the types psycopg gives its columns (uuid, timestamptz); the rest (text,
    numbers, jsonb) JSON already carries as psycopg would load them."""
    for key in _IDS:
        if row[key] is not None:
            row[key] = UUID(row[key])
    for key in _TIMES:
        if row[key] is not None:
            row[key] = datetime.fromisoformat(row[key])
    return FactRow.of(row)


def registry_keys(operations: Sequence[Any], names: Iterable[str]) -> tuple[list[str], list[str]]:
    """(entity kinds, predicates) the operations may look up: their kinds and the kinds of every ref they name
    (`names`: their names_of)."""
    kinds = sorted({op.kind for op in operations if isinstance(getattr(op, "kind", None), str)}
                   | {parsed[0] for parsed in map(parse_ref, names) if parsed is not None})
    predicates = sorted({op.predicate for op in operations if isinstance(getattr(op, "predicate", None), str)})
    return kinds, predicates


def names_of(operations: Iterable[Any]) -> set[str]:
    """Every ref or alias an operation of the proposal may look up (subjects, objects, scopes, aliases)."""
    out: set[str] = set()
    for op in operations:
        fields = vars(op)
        for attr in ("ref", "subject", "object", "scope", "alias", "actor", "target"):
            value = fields.get(attr)
            if isinstance(value, str):
                out.add(value)
        out.update(a for a in fields.get("aliases") or () if isinstance(a, str))
    return out
