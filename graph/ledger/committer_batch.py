"""The committer's batched path: one proposal's writes buffered and flushed set-based, a few
statements per proposal instead of several per operation.

The handlers in graph/ledger/ops.py run unchanged on a `Batch`, a stand-in for the transaction's connection:
- what the ledger aggregates write (entities, aliases, fact rows, closes, successors, their vertices and
  edges) goes into buffers (graph.ledger.entities / facts / ops ask `active(conn)`), flushed as one
  statement per table (unnest, Cypher UNWIND);
- what they read back (refs, aliases, believed rows, registries) is answered from what the batch fetched
  up front for every name of the proposal, kept equal to ledger + buffers;
- any other statement (events, causes, intents, an entity read the batch does not know) first flushes the
  buffers, then runs on the real connection, so it sees exactly what the one-by-one path would have.
Rows are flushed in an order the constraints accept: entities, vertices, aliases, closes, edge closes, new
rows, edges, successors. A row closed after being buffered is flushed first (the exclusion constraint
sees the same sequence of states as before). The committer runs a proposal this way without savepoints per
operation; at the first rejection it rolls the attempt back and runs it one by one (the authority on every
rejection and on which operation an internal failure belongs to).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, cast
from uuid import UUID

import psycopg

from graph.age import mirror, mirror_batch
from graph.ledger import prefetch
from graph.ledger.alias_holding import Holding, naming, overlapping
from graph.ledger.entity import Entity
from graph.ledger.fact_rows import FACT_COLUMNS, facts_json, plain, rows_json
from graph.ledger.registries import EntityKind, RelationType
from graph.platform.arrays import text_array
from graph.sql import load

# Operations whose handlers only write through the buffered aggregates (or through statements that flush).
BATCHABLE = frozenset({"upsert_entity", "add_alias", "assert_fact", "assert_relationship", "retract_fact",
                       "record_event"})
# Rows buffered before they are sent on (within one pipeline, while the next operations are planned).
CHUNK_ROWS = 200
ENTITY_COLUMNS = ("id", "ref", "kind", "name", "description", "external_id", "at", "run_id")
ALIAS_COLUMNS = ("entity_id", "namespace", "alias", "valid_from", "at", "source", "run_id", "op_index")


@dataclass
class _Buffers:
    entities: list[dict[str, Any]] = field(default_factory=list)
    vertices: list[dict[str, Any]] = field(default_factory=list)
    aliases: list[dict[str, Any]] = field(default_factory=list)
    closes: list[tuple[UUID, datetime, str, UUID | None]] = field(default_factory=list)
    edge_closes: list[tuple[str, datetime, str]] = field(default_factory=list)
    facts: list[dict[str, Any]] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    successors: list[tuple[UUID, UUID]] = field(default_factory=list)

    def __bool__(self) -> bool:
        return any((self.entities, self.aliases, self.closes, self.facts, self.successors))


class Batch:
    """Stands in for one proposal's connection (see the module docstring); `real` is the connection."""

    def __init__(self, real: psycopg.Connection[Any], owner: str, expected_rows: int) -> None:
        self.real = real
        self.owner = owner
        self.kinds: dict[str, EntityKind | None] = {}
        self.relation_types: dict[str, RelationType | None] = {}
        self.entities: dict[UUID, Entity] = {}
        self._by_ref: dict[str, UUID | None] = {}
        # name asked -> (namespace, entity id) of the aliases believed now whose alias_norm is lower(name)
        self._by_alias: dict[str, list[Holding]] = {}
        # subject id -> every row believed now, when the batch knows all of them
        self._believed: dict[UUID, list[dict[str, Any]]] = {}
        self.live_markers = True
        self._ids: list[UUID] = []
        self._expected = max(expected_rows, 16)
        self._buffered_facts: set[UUID] = set()
        self._buf = _Buffers()
        self.flushes = 0
        self._checks: list[mirror_batch.Written] = []

    # --- the connection others see -------------------------------------------------------------------------
    def execute(self, query: Any, params: Any = None, **kwargs: Any) -> psycopg.Cursor[Any]:
        self.flush()
        return self.real.execute(query, params, **kwargs)

    def cursor(self, *args: Any, **kwargs: Any) -> Any:
        self.flush()
        return self.real.cursor(*args, **kwargs)

    def transaction(self, *args: Any, **kwargs: Any) -> AbstractContextManager[Any]:
        self.flush()
        return self.real.transaction(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def as_connection(self) -> psycopg.Connection[Any]:
        return cast("psycopg.Connection[Any]", self)

    # --- what the batch knows ------------------------------------------------------------------------------
    def prefetch(self, operations: Sequence[Any]) -> None:
        """One round trip for what the proposal will ask: entities by ref and believed aliases of every name
        in it, the believed rows of the entities named by ref, whether any suppression marker is live, the
        registry entries it names, and fresh row ids. Entities found only by alias get their rows after."""
        asked = sorted(prefetch.names_of(operations))
        names = text_array(asked)  # one parameter, not a list psycopg dumps element by element (platform.arrays)
        with self.real.pipeline():
            # entities by ref, live markers, registry entries: the single-operation path's one statement
            fetch_known = prefetch.start(self.real, operations, refs=asked)
            aliases = self.real.execute(load("batch_aliases_of_names"), {"names": names})
            believed = self.real.execute(load("batch_believed_by_refs"), {"refs": names})
            ids = self.real.execute(load("batch_new_ids"), {"n": self._expected})
        known = fetch_known()
        self._by_ref = {name: None for name in asked}
        for entity in known.entities.values():
            self._by_ref[entity.ref] = entity.id
            self.entities[entity.id] = entity
            self._believed[entity.id] = []
        for row in believed.fetchall():
            self._believed[row["subject_id"]].append(dict(row))
        self._by_alias = {name: [] for name in asked}
        for row in aliases.fetchall():
            entity = Entity.model_validate(row)
            self.entities.setdefault(entity.id, entity)
            self._by_alias[row["name"]].append(Holding(row["namespace"], entity.id, row["alias_valid_from"],
                                                       row["alias_valid_to"]))
        self.live_markers = known.live_markers
        fresh = ids.fetchone()
        self._ids = list(reversed(fresh["ids"])) if fresh is not None else []
        self.kinds = dict(known.kinds)
        self.relation_types = dict(known.relation_types)
        self._load_believed([i for i in self.entities if i not in self._believed])

    def _load_believed(self, ids: list[UUID]) -> None:
        if not ids:
            return
        for subject in ids:
            self._believed[subject] = []
        for row in self.real.execute(load("batch_believed_for_update"), {"ids": ids}).fetchall():
            self._believed[row["subject_id"]].append(dict(row))

    def resolve(self, name: str) -> tuple[bool, Entity | None, int]:
        """(known, entity by exact ref else the one alias, how many entities the alias names) for `name`."""
        if name in self._by_ref and self._by_ref[name] is not None:
            return True, self.entities[cast(UUID, self._by_ref[name])], 1
        if name not in self._by_ref or name not in self._by_alias:
            return False, None, 0
        holders = naming(self._by_alias[name], datetime.now(UTC))
        return True, (self.entities[holders[0]] if holders else None), len(holders)

    def alias_holders(self, namespace: str, alias: str, start: datetime | None = None) -> list[UUID] | None:
        """Entity ids holding `alias` believed in `namespace` (alias_believed), only those whose holding
        overlaps [start, open end) when `start` is given; None when unknown here."""
        held = self._by_alias.get(alias)
        if held is None:
            return None
        mine = [h for h in held if h.namespace == namespace]
        return overlapping(mine, start) if start is not None else list(dict.fromkeys(h.entity_id for h in mine))

    def believed(self, subject: UUID, predicate: str, scope: UUID | None) -> list[dict[str, Any]]:
        """As facts_believed_for_update: the rows believed now for the key, ordered by valid_from."""
        if subject not in self._believed:
            self.flush()
            self._load_believed([subject])
        rows = [r for r in self._believed[subject] if r["predicate"] == predicate and r["scope_entity_id"] == scope]
        return sorted(rows, key=lambda r: r["valid_from"])

    def remember(self, entity: Entity) -> None:
        self.entities[entity.id] = entity

    # --- buffered writes -----------------------------------------------------------------------------------
    def new_id(self) -> UUID:
        if not self._ids:
            row = self.real.execute(load("batch_new_ids"), {"n": self._expected}).fetchone()
            self._ids = list(reversed(row["ids"])) if row is not None else []
        return self._ids.pop()

    def create_entity(self, values: dict[str, Any]) -> Entity:
        entity = Entity(id=self.new_id(), ref=values["ref"], kind=values["kind"], canonical_name=values["name"],
                        status="active", merged_into_id=None, created_at=values["at"])
        self._buf.entities.append({**{k: values.get(k) for k in ENTITY_COLUMNS}, "id": entity.id})
        self._buf.vertices.append({"id": str(entity.id), "ref": entity.ref, "kind": entity.kind,
                                   "name": entity.canonical_name, "status": entity.status})
        self.entities[entity.id] = entity
        self._by_ref[entity.ref] = entity.id
        self._believed[entity.id] = []
        return entity

    def insert_alias(self, values: dict[str, Any]) -> None:
        self._buf.aliases.append({k: values[k] for k in ALIAS_COLUMNS})
        alias: str = values["alias"]
        for name in list(self._by_alias):
            if not (name.isascii() and alias.isascii()):
                del self._by_alias[name]  # the database's lower() decides beyond ASCII: ask it again
            elif name.lower() == alias.lower():
                self._by_alias[name].append(Holding(values["namespace"], values["entity_id"], values["valid_from"],
                                                    None))

    def insert_fact(self, params: dict[str, Any], edge: dict[str, Any] | None) -> UUID:
        """Buffer one row (params as facts_insert's, object_value and evidence as Jsonb); `edge` its REL."""
        fact_id = self.new_id()
        row = {k: params.get(k) for k in FACT_COLUMNS}
        row["id"] = fact_id
        row["object_value"], row["evidence"] = plain(row["object_value"]), plain(row["evidence"])
        self._buf.facts.append(row)
        self._buffered_facts.add(fact_id)
        if edge is not None:
            self._buf.edges.append({**edge, "id": str(fact_id)})
        if params["status"] == "active" and params["subject_id"] in self._believed:
            self._believed[params["subject_id"]].append({**row, "superseded_at": None})
        return fact_id

    def close(self, ids: list[str], at: datetime, status: str,
              invalidated_by: UUID | None) -> list[dict[str, Any]] | None:
        """Buffer closing believed rows; their rows (id, object_kind), or None when the batch does not know
        every one of them as believed (the caller then closes them through the database)."""
        wanted = [UUID(i) for i in ids]
        rows: dict[UUID, dict[str, Any]] = {}
        for believed in self._believed.values():
            for row in believed:
                if row["id"] in wanted:
                    rows[row["id"]] = row
        if len(rows) != len(set(wanted)):
            return None
        if self._buffered_facts.intersection(wanted):
            self.flush()  # a row closed in the same proposal that inserted it: insert it first, as before
        for fact_id, row in rows.items():
            self._believed[row["subject_id"]].remove(row)
            self._buf.closes.append((fact_id, at, status, invalidated_by))
            if row["object_kind"] == "entity":
                self._buf.edge_closes.append((str(fact_id), at, status))
        return [{"id": r["id"], "object_kind": r["object_kind"]} for r in rows.values()]

    def set_successor(self, closed: UUID, successor: UUID) -> None:
        self._buf.successors.append((closed, successor))

    def flush(self) -> None:
        """Send every buffered row, one statement per table, in an order the constraints accept. In a
        pipeline nothing waits for the server here: `finish` (or any statement read through the batch) does."""
        buf = self._buf
        if not buf:
            return
        self._buf = _Buffers()
        self._buffered_facts.clear()
        self.flushes += 1
        conn = self.real
        if buf.entities:
            conn.execute(load("batch_entities_insert"), {"rows": rows_json(buf.entities)})
            self._checks.append(mirror_batch.create_entities(conn, self.owner, buf.vertices))
        if buf.aliases:
            conn.execute(load("batch_aliases_insert"), {"rows": rows_json(buf.aliases)})
        if buf.closes:
            closed = conn.execute(load("batch_facts_close"), {
                "id": [c[0] for c in buf.closes], "at": [c[1] for c in buf.closes],
                "status": [c[2] for c in buf.closes], "invalidated_by": [c[3] for c in buf.closes]})
            self._checks.append(mirror_batch.Written(closed, len(buf.closes), "batch_facts_close"))
        for edge_id, at, status in buf.edge_closes:
            mirror.close_rel(conn, edge_id, at, status)
        if buf.facts:
            conn.execute(load("batch_facts_insert"), {"rows": facts_json(buf.facts)})
        if buf.edges:
            self._checks.append(mirror_batch.create_rels(conn, self.owner, buf.edges))
        if buf.successors:
            conn.execute(load("batch_facts_set_successor"), {
                "id": [s[0] for s in buf.successors], "successor": [s[1] for s in buf.successors]})

    def finish(self) -> None:
        """Flush, then wait for every statement and check what each wrote."""
        self.flush()
        checks, self._checks = self._checks, []
        for written in checks:
            written.check()

    def flush_if_full(self) -> None:
        """Send the buffers once they hold a chunk, so the server writes while the next operations plan."""
        if len(self._buf.facts) + len(self._buf.entities) >= CHUNK_ROWS:
            self.flush()


def active(conn: Any) -> Batch | None:
    """The batch `conn` stands for, or None on a real connection."""
    return conn if isinstance(conn, Batch) else None
