"""The immediate writer: every write executed now, on the proposal's connection (graph/ledger/writer.py)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row

from graph.age import mirror
from graph.errors import InvariantViolation
from graph.ledger import entities, fact_rows, prefetch, registries
from graph.ledger.alias_holding import AliasRow, Holding, NewAlias, overlapping
from graph.ledger.entity import Entity, NewEntity
from graph.ledger.fact_rows import FactRow, NewFact
from graph.sql import load


def close_with_edges(conn: psycopg.Connection[Any], ids: Sequence[UUID], at: datetime, status: str,
                     invalidated_by: UUID | None = None) -> list[UUID]:
    """Close believed rows now, and the REL edges of the believed relationships among them; the ids closed."""
    if not ids:
        return []
    closed = fact_rows.close(conn, ids, at, status, invalidated_by)
    for row in closed:
        if row.object_kind == "entity" and row.believed:
            mirror.close_rel(conn, str(row.id), at, status)
    return [row.id for row in closed]


class Immediate:
    """Writes now, on the proposal's connection; `known` is what the committer read with the owner's clock."""

    def __init__(self, conn: psycopg.Connection[Any], owner: str, known: prefetch.Known | None = None) -> None:
        self._conn = conn
        self.owner = owner
        self._known = known

    @property
    def conn(self) -> psycopg.Connection[Any]:
        return self._conn

    @property
    def reader(self) -> psycopg.Connection[Any]:
        return self._conn

    @property
    def live_markers(self) -> bool:
        return self._known is None or self._known.live_markers

    def entity_kind(self, key: str) -> registries.EntityKind | None:
        if self._known is not None and key in self._known.kinds:
            return self._known.kinds[key]
        return registries.get_entity_kind(self._conn, key)

    def relation_type(self, key: str) -> registries.RelationType | None:
        if self._known is not None and key in self._known.relation_types:
            return self._known.relation_types[key]
        return registries.get_relation_type(self._conn, key)

    def by_ref(self, ref: str) -> Entity | None:
        return self._known.entities.get(ref) if self._known is not None else None

    def resolve(self, ref_or_alias: str, *, follow: bool = True) -> Entity | None:
        return entities.resolve(self._conn, ref_or_alias, follow=follow)

    def alias_holders(self, alias: str, namespace: str, start: datetime | None) -> list[UUID]:
        cursor = self._conn.cursor(row_factory=class_row(AliasRow))
        rows = cursor.execute(load("alias_believed"), {"namespace": namespace, "alias": alias}).fetchall()
        holdings = [Holding(namespace, r.entity_id, r.valid_from, r.valid_to) for r in rows]
        return overlapping(holdings, start) if start is not None else [h.entity_id for h in holdings]

    def believed(self, subject: UUID, predicate: str, scope: UUID | None) -> list[FactRow]:
        read = self._known.take_believed(subject, predicate, scope) if self._known is not None else None
        if read is not None:
            return read
        cursor = self._conn.cursor(row_factory=fact_rows.believed_row)
        return cursor.execute(load("facts_believed_for_update"),
                              {"subject_id": subject, "predicate": predicate, "scope_id": scope}).fetchall()

    def create_entity(self, values: NewEntity) -> Entity:
        entity = entities.from_row(self._conn.execute(load("entity_insert"), values.columns()).fetchone())
        mirror.create_entity(self._conn, self.owner, entity)
        return entity

    def renamed(self, values: NewEntity, entity: Entity) -> Entity:
        params = {**values.columns(), "id": entity.id}
        updated = entities.from_row(self._conn.execute(load("entity_update"), params).fetchone())
        mirror.update_entity(self._conn, updated)
        return updated

    def insert_alias(self, values: NewAlias) -> None:
        self._conn.execute(load("alias_insert"), values.columns())

    def insert_fact(self, row: NewFact) -> UUID:
        done = fact_rows.replace(self._conn, [], [], row.recorded_at, [row]).fetchone()
        assert done is not None
        fact_id = done.ids[0]
        if row.has_edge:
            mirror.create_rel(self._conn, self.owner, {**row.columns(), "id": fact_id})
        return fact_id

    def close_facts(self, ids: list[UUID], at: datetime, status: str, invalidated_by: UUID | None = None
                    ) -> list[UUID]:
        return close_with_edges(self._conn, ids, at, status, invalidated_by)

    def set_successor(self, closed: UUID, successor: UUID) -> None:
        fact_rows.set_successors(self._conn, [(closed, successor)])

    def replace_facts(self, closing: list[FactRow], at: datetime, rows: list[NewFact],
                      successors: dict[str, int]) -> None:
        """ONE statement (facts_replace.sql), fetched only when the mirror needs the new ids."""
        if not closing and not rows:
            return
        close_ids = [r.id for r in closing]
        cursor = fact_rows.replace(self._conn, close_ids, [successors.get(str(i)) for i in close_ids], at, rows)
        edges = [(index, row) for index, row in enumerate(rows) if row.has_edge]
        closed_edges = [r for r in closing if r.object_kind == "entity"]
        if not edges and not closed_edges:
            return
        done = cursor.fetchone()
        if done is None or done.closed != len(closing):
            raise InvariantViolation(f"facts_replace closed {done and done.closed} of {len(closing)} rows")
        for old in closed_edges:
            mirror.close_rel(self._conn, str(old.id), at, "superseded")
        for index, new in edges:
            mirror.create_rel(self._conn, self.owner, {**new.columns(), "id": done.ids[index]})

    def flush_if_full(self) -> None:
        """Nothing waits: every write was sent."""

    def finish(self) -> None:
        """Nothing waits: every write was sent."""
