"""The writer: how a proposal's operations write, and read back what they wrote.

The aggregates (entities, aliases, facts, events) decide what to write and call a `Writer`; the committer
decides once per proposal which writer they get:
- `Immediate` (graph/ledger/writer_immediate.py) executes each write now, on the proposal's connection (one
  operation, governance, and the replay of a proposal the buffered writer gave up on);
- `Buffered` (graph/ledger/writer_buffered.py) collects the rows of a bulk proposal and sends them set-based,
  one statement per table, answering the reads of later operations from what it holds.
Both give the same rows: tests/test_committer_batch.py compares them row by row.

`conn` is for every statement the writer does not know (events, causes, intents, governance reads): the
buffered writer sends what it holds first, so such a statement sees what the immediate writer would have.
`reader` skips that for reads no row of the proposal can change (registries, a row read before it wrote).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol
from uuid import UUID

import psycopg

from graph.ledger import registries
from graph.ledger.alias_holding import NewAlias
from graph.ledger.entity import Entity, NewEntity
from graph.ledger.fact_rows import FactRow, NewFact


class Writer(Protocol):
    owner: str

    @property
    def conn(self) -> psycopg.Connection[Any]: ...
    @property
    def reader(self) -> psycopg.Connection[Any]: ...
    @property
    def live_markers(self) -> bool: ...

    def entity_kind(self, key: str) -> registries.EntityKind | None: ...
    def relation_type(self, key: str) -> registries.RelationType | None: ...
    def by_ref(self, ref: str) -> Entity | None:
        """An entity found by exact ref before the proposal wrote (None: not asked here, resolve it)."""
    def resolve(self, ref_or_alias: str, *, follow: bool = True) -> Entity | None:
        """As graph.ledger.entities.resolve, seeing what this proposal wrote."""
    def alias_holders(self, alias: str, namespace: str, start: datetime | None) -> list[UUID]:
        """Entities holding `alias` believed now; with `start`, those whose holding overlaps [start, open end)."""
    def believed(self, subject: UUID, predicate: str, scope: UUID | None) -> list[FactRow]:
        """The rows believed now for the key, ordered by valid_from, locked for the transaction."""
    def create_entity(self, values: NewEntity) -> Entity: ...
    def renamed(self, values: NewEntity, entity: Entity) -> Entity: ...
    def insert_alias(self, values: NewAlias) -> None: ...
    def insert_fact(self, row: NewFact) -> UUID: ...
    def close_facts(self, ids: list[UUID], at: datetime, status: str, invalidated_by: UUID | None = None
                    ) -> list[UUID]:
        """End believed rows (their edges follow); the ids closed."""
    def set_successor(self, closed: UUID, successor: UUID) -> None: ...
    def replace_facts(self, closing: list[FactRow], at: datetime, rows: list[NewFact],
                      successors: dict[str, int]) -> None:
        """One key's plan: close `closing` as superseded at `at`, insert `rows`, and name each closed row's
        successor (`successors`: closed id -> index into `rows`)."""
    def flush_if_full(self) -> None: ...
    def finish(self) -> None: ...
