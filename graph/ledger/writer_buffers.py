"""What the buffered writer (graph/ledger/writer_buffered.py) holds to send, and how it is sent.

Rows are sent one statement per table, in an order the constraints accept: entities, vertices, aliases,
closes, edge closes, new rows, edges, successors. In a pipeline nothing waits for the server here; each
statement whose row count must be checked comes back as a `mirror_batch.Written` for the writer's `finish`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg

from graph.age import mirror, mirror_batch
from graph.ledger import fact_rows
from graph.ledger.alias_holding import NewAlias
from graph.ledger.entity import Entity, NewEntity
from graph.ledger.fact_rows import NewFact
from graph.sql import load


@dataclass
class Buffers:
    """The rows of one proposal not sent yet; the writer appends to them and starts new ones once sent."""

    entities: list[tuple[Entity, NewEntity]] = field(default_factory=list)  # (as read back, as written)
    aliases: list[NewAlias] = field(default_factory=list)
    closes: list[tuple[UUID, datetime, str, UUID | None]] = field(default_factory=list)
    edge_closes: list[tuple[str, datetime, str]] = field(default_factory=list)
    facts: list[tuple[UUID, NewFact]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    successors: list[tuple[UUID, UUID]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any((self.entities, self.aliases, self.closes, self.facts, self.successors))

    @property
    def rows(self) -> int:
        """Entity and fact rows held: what decides when a chunk is full."""
        return len(self.facts) + len(self.entities)

    def send(self, conn: psycopg.Connection[Any], owner: str) -> list[mirror_batch.Written]:
        """Send every row held, one statement per table, in an order the constraints accept; the writes whose
        row counts are to be checked once the pipeline is read."""
        checks: list[mirror_batch.Written] = []
        if self.entities:
            rows = [{**values.columns(), "id": entity.id} for entity, values in self.entities]
            conn.execute(load("batch_entities_insert"), {"rows": fact_rows.rows_json(rows)})
            checks.append(mirror_batch.create_entities(conn, owner, [
                {"id": str(e.id), "ref": e.ref, "kind": e.kind, "name": e.canonical_name, "status": e.status}
                for e, _ in self.entities]))
        if self.aliases:
            conn.execute(load("batch_aliases_insert"),
                         {"rows": fact_rows.rows_json([alias.columns() for alias in self.aliases])})
        if self.closes:
            closed = fact_rows.close_each(conn, self.closes)
            checks.append(mirror_batch.Written(closed, len(self.closes), "fact rows closed"))
        for edge_id, at, status in self.edge_closes:
            mirror.close_rel(conn, edge_id, at, status)
        if self.facts:
            fact_rows.insert_with_ids(conn, self.facts)
        if self.edges:
            checks.append(mirror_batch.create_rels(conn, owner, self.edges))
        if self.successors:
            fact_rows.set_successors(conn, self.successors)
        return checks
