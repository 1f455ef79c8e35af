"""The buffered writer: one bulk proposal's writes collected and sent set-based, a few statements per proposal
instead of several per operation (graph/ledger/writer.py has the interface and the immediate writer).

- What the aggregates write (entities, aliases, fact rows, closes, successors, their vertices and edges) goes
  into buffers, sent as one statement per table;
- what they read back (refs, aliases, believed rows, registries) is answered from what `prefetch` fetched up
  front for every name of the proposal, kept equal to ledger + buffers; what it does not know it asks the
  immediate writer, after sending the buffers;
- `conn` sends the buffers first, so any other statement sees exactly what the immediate writer would have.
How the buffers are sent, in an order the constraints accept, is graph/ledger/writer_buffers.py. A row closed
after being buffered is sent first (the exclusion constraint sees the same sequence of states as the immediate
writer's). The committer replays a proposal through the immediate writer
when any operation was rejected (the authority on every rejection and on which operation failed).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row, kwargs_row

from graph.age import mirror, mirror_batch
from graph.ledger import entities, fact_rows, prefetch
from graph.ledger.alias_holding import Holding, NewAlias, naming, overlapping
from graph.ledger.entity import Entity, NewEntity
from graph.ledger.fact_rows import FactRow, NewFact
from graph.ledger.registries import EntityKind, RelationType
from graph.ledger.writer_buffers import Buffers
from graph.ledger.writer_immediate import Immediate
from graph.platform.arrays import text_array
from graph.sql import load

# Rows buffered before they are sent on (within one pipeline, while the next operations are planned).
CHUNK_ROWS = 200


@dataclass(frozen=True)
class _Ids:
    ids: list[UUID]


def _named(*, name: str, namespace: str, alias_valid_from: datetime, alias_valid_to: datetime | None,
           **entity: Any) -> tuple[str, Entity, Holding]:
    """A row of batch_aliases_of_names.sql: the name asked, the entity holding it, and the holding."""
    found = Entity.model_validate(entity)
    return name, found, Holding(namespace, found.id, alias_valid_from, alias_valid_to)


class Buffered:
    """One bulk proposal's writer (see the module docstring), in the caller's pipeline and transaction."""

    def __init__(self, conn: psycopg.Connection[Any], owner: str, expected_rows: int) -> None:
        self._real = conn
        self._now = Immediate(conn, owner)
        self.owner = owner
        self.kinds: dict[str, EntityKind | None] = {}
        self.relation_types: dict[str, RelationType | None] = {}
        self.entities: dict[UUID, Entity] = {}
        self._by_ref: dict[str, UUID | None] = {}
        # name asked -> (namespace, entity id) of the aliases believed now whose alias_norm is lower(name)
        self._by_alias: dict[str, list[Holding]] = {}
        # subject id -> every row believed now, when the writer knows all of them
        self._believed: dict[UUID, list[FactRow]] = {}
        self._live_markers = True
        self._ids: list[UUID] = []
        self._expected = max(expected_rows, 16)
        self._buffered_facts: set[UUID] = set()
        self._buf = Buffers()
        self.flushes = 0
        self._checks: list[mirror_batch.Written] = []

    @property
    def conn(self) -> psycopg.Connection[Any]:
        self.flush()
        return self._real

    @property
    def reader(self) -> psycopg.Connection[Any]:
        return self._real

    @property
    def live_markers(self) -> bool:
        return self._live_markers

    # --- what the writer knows -----------------------------------------------------------------------------
    def prefetch(self, operations: Sequence[Any]) -> None:
        """One round trip for what the proposal will ask: entities by ref and believed aliases of every name
        in it, the believed rows of the entities named by ref, whether any suppression marker is live, the
        registry entries it names, and fresh row ids. Entities found only by alias get their rows after."""
        asked = sorted(prefetch.names_of(operations))
        names = text_array(asked)  # one parameter, not a list psycopg dumps element by element (platform.arrays)
        with self._real.pipeline():
            # entities by ref, live markers, registry entries: the single-operation path's one statement
            fetch_known = prefetch.start(self._real, operations, refs=asked)
            aliases = self._real.cursor(row_factory=kwargs_row(_named)).execute(load("batch_aliases_of_names"),
                                                                                {"names": names})
            believed = self._real.cursor(row_factory=fact_rows.believed_row).execute(
                load("batch_believed_by_refs"), {"refs": names})
            ids = self._real.cursor(row_factory=class_row(_Ids)).execute(load("batch_new_ids"), {"n": self._expected})
        known = fetch_known()
        self._by_ref = {name: None for name in asked}
        for entity in known.entities.values():
            self._by_ref[entity.ref] = entity.id
            self.entities[entity.id] = entity
            self._believed[entity.id] = []
        for fact in believed.fetchall():
            self._believed[fact.subject_id].append(fact)
        self._by_alias = {name: [] for name in asked}
        for name, entity, holding in aliases.fetchall():
            self.entities.setdefault(entity.id, entity)
            self._by_alias[name].append(holding)
        self._live_markers = known.live_markers
        fresh = ids.fetchone()
        self._ids = list(reversed(fresh.ids)) if fresh is not None else []
        self.kinds = dict(known.kinds)
        self.relation_types = dict(known.relation_types)
        self._load_believed([i for i in self.entities if i not in self._believed])

    def _load_believed(self, ids: list[UUID]) -> None:
        if not ids:
            return
        for subject in ids:
            self._believed[subject] = []
        cursor = self._real.cursor(row_factory=fact_rows.believed_row)
        for fact in cursor.execute(load("batch_believed_for_update"), {"ids": ids}).fetchall():
            self._believed[fact.subject_id].append(fact)

    def entity_kind(self, key: str) -> EntityKind | None:
        """Asked once per proposal: registration never runs inside a commit."""
        if key not in self.kinds:
            self.kinds[key] = self._now.entity_kind(key)
        return self.kinds[key]

    def relation_type(self, key: str) -> RelationType | None:
        if key not in self.relation_types:
            self.relation_types[key] = self._now.relation_type(key)
        return self.relation_types[key]

    def by_ref(self, ref: str) -> Entity | None:
        return None  # resolve answers from what the writer holds

    def known(self, name: str) -> tuple[bool, Entity | None, int]:
        """(known, entity by exact ref else the one alias, how many entities the alias names) for `name`."""
        if name in self._by_ref and self._by_ref[name] is not None:
            found = self._by_ref[name]
            assert found is not None
            return True, self.entities[found], 1
        if name not in self._by_ref or name not in self._by_alias:
            return False, None, 0
        holders = naming(self._by_alias[name], datetime.now(UTC))
        return True, (self.entities[holders[0]] if holders else None), len(holders)

    def resolve(self, ref_or_alias: str, *, follow: bool = True) -> Entity | None:
        known, entity, holders = self.known(ref_or_alias)
        if not known:
            self.flush()
            return self._now.resolve(ref_or_alias, follow=follow)
        if holders > 1:
            raise entities.ambiguous(ref_or_alias)
        if entity is not None and follow and entity.merged_into_id is not None:
            entity = entities.survivor(self.conn, entity)
        return entity

    def alias_holders(self, alias: str, namespace: str, start: datetime | None) -> list[UUID]:
        held = self._by_alias.get(alias)
        if held is None:
            self.flush()
            return self._now.alias_holders(alias, namespace, start)
        mine = [h for h in held if h.namespace == namespace]
        return overlapping(mine, start) if start is not None else list(dict.fromkeys(h.entity_id for h in mine))

    def believed(self, subject: UUID, predicate: str, scope: UUID | None) -> list[FactRow]:
        if subject not in self._believed:
            self.flush()
            self._load_believed([subject])
        rows = [r for r in self._believed[subject] if r.predicate == predicate and r.scope_entity_id == scope]
        return sorted(rows, key=lambda r: r.valid_from)

    # --- buffered writes -----------------------------------------------------------------------------------
    def new_id(self) -> UUID:
        if not self._ids:
            cursor = self._real.cursor(row_factory=class_row(_Ids))
            fresh = cursor.execute(load("batch_new_ids"), {"n": self._expected}).fetchone()
            self._ids = list(reversed(fresh.ids)) if fresh is not None else []
        return self._ids.pop()

    def create_entity(self, values: NewEntity) -> Entity:
        entity = Entity(id=self.new_id(), ref=values.ref, kind=values.kind, canonical_name=values.name,
                        status="active", merged_into_id=None, created_at=values.at)
        self._buf.entities.append((entity, values))
        self.entities[entity.id] = entity
        self._by_ref[entity.ref] = entity.id
        self._believed[entity.id] = []
        return entity

    def renamed(self, values: NewEntity, entity: Entity) -> Entity:
        self.flush()
        updated = self._now.renamed(values, entity)
        self.entities[updated.id] = updated
        return updated

    def insert_alias(self, values: NewAlias) -> None:
        self._buf.aliases.append(values)
        alias = values.alias
        for name in list(self._by_alias):
            if not (name.isascii() and alias.isascii()):
                del self._by_alias[name]  # the database's lower() decides beyond ASCII: ask it again
            elif name.lower() == alias.lower():
                self._by_alias[name].append(Holding(values.namespace, values.entity_id, values.valid_from, None))

    def insert_fact(self, row: NewFact) -> UUID:
        fact_id = self.new_id()
        self._buf.facts.append((fact_id, row))
        self._buffered_facts.add(fact_id)
        columns = row.columns()
        columns["id"] = fact_id
        if row.has_edge:
            self._buf.edges.append({**mirror.rel_props(columns), "id": str(fact_id)})
        if row.status == "active" and row.subject_id in self._believed:
            self._believed[row.subject_id].append(FactRow.of(columns))
        return fact_id

    def close_facts(self, ids: list[UUID], at: datetime, status: str, invalidated_by: UUID | None = None
                    ) -> list[UUID]:
        """Buffered when the writer knows every row as believed, else sent now through the immediate writer."""
        if not ids:
            return []
        rows: dict[UUID, FactRow] = {}
        for believed in self._believed.values():
            for row in believed:
                if row.id in ids:
                    rows[row.id] = row
        if len(rows) != len(set(ids)):
            self.flush()
            return self._now.close_facts(ids, at, status, invalidated_by)
        if self._buffered_facts.intersection(ids):
            self.flush()  # a row closed in the same proposal that inserted it: insert it first
        for fact_id, row in rows.items():
            self._believed[row.subject_id].remove(row)
            self._buf.closes.append((fact_id, at, status, invalidated_by))
            if row.object_kind == "entity":
                self._buf.edge_closes.append((str(fact_id), at, status))
        return list(rows)

    def set_successor(self, closed: UUID, successor: UUID) -> None:
        self._buf.successors.append((closed, successor))

    def replace_facts(self, closing: list[FactRow], at: datetime, rows: list[NewFact],
                      successors: dict[str, int]) -> None:
        """Buffered in the order the flush expects: closes, new rows, successors."""
        self.close_facts([r.id for r in closing], at, "superseded")
        ids = [self.insert_fact(row) for row in rows]
        for closed_id, index in successors.items():
            self.set_successor(UUID(closed_id), ids[index])

    def flush(self) -> None:
        """Send every buffered row (graph/ledger/writer_buffers.py). In a pipeline nothing waits for the server
        here: `finish` (or any statement read through `conn`) does."""
        buf = self._buf
        if not buf:
            return
        self._buf = Buffers()
        self._buffered_facts.clear()
        self.flushes += 1
        self._checks.extend(buf.send(self._real, self.owner))

    def finish(self) -> None:
        """Send the buffers, then wait for every statement and check what each wrote."""
        self.flush()
        checks, self._checks = self._checks, []
        for written in checks:
            written.check()

    def flush_if_full(self) -> None:
        """Send the buffers once they hold a chunk, so the server writes while the next operations plan."""
        if self._buf.rows >= CHUNK_ROWS:
            self.flush()

