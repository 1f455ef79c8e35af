"""Neighbour traversal over the AGE mirror, level by level, as of a valid time and a system time.

Each level is at most two directed one-hop queries (`neighbors_out`, `neighbors_in`) from the
frontier's ids: no undirected pattern and no variable-length path, whose shapes the shared notes measured
at 690 ms and 1.1 s. Policy lives in pure functions (`level_predicates`, `label`): past depth 1 only
`inference_enabled` predicates (or ones the caller names) are expanded, and an untrusted transitive
predicate (integration-sourced or trust tier >= 2) never is. Merged entities are followed to their
survivor, and a survivor's traversal includes the edges of the entities merged into it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from enum import Enum
from functools import cache
from typing import Any
from uuid import UUID

import psycopg
from pydantic import BaseModel, Field

import cypher
from graph import timebounds
from graph.age.mirror import EPOCH, micros
from graph.errors import BadInput
from graph.ledger import entities
from graph.platform import safe_times
from graph.platform.db import Database, ReadTx
from graph.sql import load

MAX_DEPTH = 3
MAX_PREDICATES = 50
MAX_HOPS = 2000  # a hub can fan out without bound; the answer says when it stopped early
UNTRUSTED_TIER = 2


class Direction(Enum):
    OUT = "out"
    IN = "in"
    BOTH = "both"


class RelType(BaseModel):
    """What traversal needs of a relation type."""

    key: str
    inverse: str | None = None
    is_transitive: bool = False
    inference_enabled: bool = False
    source: str = "core"
    trust_tier: int = 0

    @property
    def untrusted(self) -> bool:
        return self.source == "integration" or self.trust_tier >= UNTRUSTED_TIER


class Node(BaseModel):
    id: UUID
    ref: str
    kind: str
    name: str


class Hop(BaseModel):
    """One relationship edge met during the traversal, seen from the side it was reached from."""

    depth: int = Field(description="Level at which the edge was met (1 = touches the origin)")
    fact_id: UUID = Field(description="The relationship fact the edge mirrors")
    predicate: str = Field(description="The stored predicate (subject -> object)")
    label: str = Field(description="The predicate read from `source`: the registry's inverse for incoming")
    direction: Direction = Field(description="OUT: source is the subject; IN: source is the object")
    source: Node
    target: Node
    scope_id: UUID | None = None
    valid_from: datetime = Field(description="World time the relationship starts to hold (inclusive)")
    valid_to: datetime | None = Field(description="World time it stops holding (exclusive); None = open")
    recorded_at: datetime = Field(description="System time the store started believing it")
    superseded_at: datetime | None = Field(description="System time it stopped being believed")


class Neighborhood(BaseModel):
    origin: Node
    valid_time: datetime
    system_time: datetime | None
    hops: list[Hop]
    truncated: bool = Field(default=False, description=f"True when the walk stopped at {MAX_HOPS} hops")

    @property
    def nodes(self) -> list[Node]:
        seen: dict[UUID, Node] = {}
        for hop in self.hops:
            seen.setdefault(hop.target.id, hop.target)
        return list(seen.values())


class NeighborQuery(BaseModel):
    """The traversal's parameters; one model so fields can be added compatibly."""

    ref: str = Field(min_length=1, max_length=300)
    depth: int = Field(default=1, ge=1, le=MAX_DEPTH)
    predicates: list[str] | None = Field(default=None, max_length=MAX_PREDICATES)
    direction: Direction = Direction.BOTH
    valid_time: datetime | None = Field(default=None, description="Default: now")
    system_time: datetime | None = Field(default=None, description="Default: what is believed now")


def level_predicates(types: dict[str, RelType], requested: Sequence[str] | None, level: int) -> list[str] | None:
    """Predicates to follow at `level`; None means all (level 1 without a filter)."""
    if level == 1:
        return list(requested) if requested is not None else None
    keys: Iterable[str] = requested if requested is not None else types.keys()
    named = set(requested or ())
    return sorted(k for k in keys if k in types
                  and (types[k].inference_enabled or k in named)
                  and not (types[k].is_transitive and types[k].untrusted))


def label(types: dict[str, RelType], predicate: str, direction: Direction) -> str:
    if direction is Direction.OUT:
        return predicate
    rt = types.get(predicate)
    return rt.inverse if rt is not None and rt.inverse else predicate


def from_micros(value: int) -> datetime:
    """An edge's time; one outside 0001..9999 is clamped and reported, never an OverflowError."""
    at, clamped = timebounds.from_micros(int(value), EPOCH)
    if clamped:
        safe_times.note(f"graph edge time {int(value)} µs")
    return at


def maybe_micros(value: int | None) -> datetime | None:
    return None if value is None else from_micros(value)


def _aware(t: datetime | None, name: str) -> datetime | None:
    if t is not None and t.tzinfo is None:
        raise BadInput(f"{name} needs a UTC offset", code="BAD_TIME")
    return t


Call = tuple[str, dict[str, Any]]


def pipelined(conn: psycopg.Connection[Any], graph: Sequence[Call], tabular: Sequence[Call] = (),
              finish: Callable[[], None] | None = None
              ) -> tuple[list[list[dict[str, Any]]], list[list[dict[str, Any]]]]:
    """Run named Cypher (`graph`) and SQL (`tabular`) queries in one round trip (psycopg pipeline); with
    `finish` (ReadTx.finish), the queries end the transaction (its COMMIT goes out with them)."""
    with ExitStack() as stack:
        if finish is None:
            stack.enter_context(conn.pipeline())
        gcurs = [conn.execute(_statement(name), (json.dumps(params),)) for name, params in graph]
        tcurs = [conn.execute(load(name), params) for name, params in tabular]
        if finish is not None:
            finish()
    return ([cypher.decode_rows(c.fetchall(), cypher.columns(name)) for c, (name, _) in zip(gcurs, graph, strict=True)],
            [list(c.fetchall()) for c in tcurs])


@cache
def _statement(name: str) -> bytes:
    """cypher.statement rendered once (psycopg would compose it again on every execution); UTF-8."""
    return cypher.statement(name).as_bytes(None)


def relation_types(conn: psycopg.Connection[Any]) -> dict[str, RelType]:
    return {r["key"]: RelType.model_validate(r) for r in conn.execute(load("traversal_relation_types"))}


def neighbors(db: Database, owner: str, query: NeighborQuery) -> Neighborhood | None:
    """The relationships around `query.ref`; None when the ref names no entity of this owner."""
    valid = _aware(query.valid_time, "validTime") or datetime.now(UTC)
    system = _aware(query.system_time, "systemTime")
    with db.read_tx(owner) as tx:  # BEGIN and the owner go out with the ref's lookup (Database.read_tx)
        start = entities.resolve(tx.conn, query.ref, system_time=system)
        if start is None:
            return None
        origin = Node(id=start.id, ref=start.ref, kind=start.kind, name=start.canonical_name)
        walk = _Walk(tx, system, {"v": micros(valid), "r": micros(system)}, query.direction)
        walk.run(origin, query.depth, query.predicates)
    return Neighborhood(origin=origin, valid_time=valid, system_time=system, hops=walk.hops,
                        truncated=walk.truncated)


class _Walk:
    """One traversal's state: visited nodes, edges met, and the per-level queries.

    A level is one round trip: the merged-sources lookup and both directed hops go out together in a
    pipeline (the first level also fetches the registry), the last level's with the COMMIT; only when
    entities were merged into the frontier does a second round fetch their edges (after the last level, in
    a transaction begun again: READ COMMITTED reads each statement's own snapshot either way).
    """

    def __init__(self, tx: ReadTx, system: datetime | None, times: dict[str, Any], direction: Direction) -> None:
        self.tx, self.conn, self.system, self.times = tx, tx.conn, system, times
        self.depth = 0
        # As known at a past system time, a target's survivor is looked up unless the owner had merged
        # nothing by then (found out along with the first level).
        self.merges_then = system is not None
        self.queries = [(name, d) for name, d in (("neighbors_out", Direction.OUT), ("neighbors_in", Direction.IN))
                        if direction in (d, Direction.BOTH)]
        self.types: dict[str, RelType] = {}
        self.hops: list[Hop] = []
        self.seen_facts: set[str] = set()
        self.nodes: dict[str, Node] = {}
        self.truncated = False

    def run(self, origin: Node, depth: int, requested: Sequence[str] | None) -> None:
        self.nodes[str(origin.id)] = origin
        self.depth = depth
        frontier = [str(origin.id)]
        for level in range(1, depth + 1):
            predicates = level_predicates(self.types, requested, level)
            if not frontier or predicates == [] or self.truncated:
                break
            frontier = self._level(level, frontier, predicates)

    def _hops(self, ids: list[str], predicates: list[str] | None, extra: Sequence[Call], last: bool = False
              ) -> tuple[list[tuple[dict[str, Any], Direction]], list[list[dict[str, Any]]]]:
        self.tx.again()  # a no-op unless a previous round ended the transaction
        params = {**self.times, "ids": ids, "predicates": predicates}
        found, tables = pipelined(self.conn, [(name, params) for name, _ in self.queries], extra,
                                  self.tx.finish if last else None)
        return [(row, d) for rows, (_, d) in zip(found, self.queries, strict=True) for row in rows], tables

    def _level(self, level: int, frontier: list[str], predicates: list[str] | None) -> list[str]:
        ids = [UUID(f) for f in frontier]
        extra: list[Call] = [("traversal_merged_sources", {"ids": ids}) if self.system is None else
                             ("traversal_merged_sources_at", {"ids": ids, "system_time": self.system})]
        if not self.types:
            extra.append(("traversal_relation_types", {}))
            if self.system is not None:
                extra.append(("traversal_any_merge_at", {"system_time": self.system}))
        rows, tables = self._hops(frontier, predicates, extra, last=level == self.depth)
        if len(tables) > 1:
            self.types = {r["key"]: RelType.model_validate(r) for r in tables[1]}
        if len(tables) > 2:
            self.merges_then = bool(tables[2][0]["merged"])
        owner_of = {f: f for f in frontier}
        merged = {str(r["id"]): str(r["survivor"]) for r in tables[0]}
        if merged:
            owner_of.update(merged)
            rows += self._hops(list(merged), predicates, ())[0]
        survivors = self._survivors(row for row, _ in rows)
        reached: list[str] = []
        for row, d in rows:
            if row["fact_id"] in self.seen_facts:
                continue
            source = self.nodes[owner_of[row["from_id"]]]
            target = survivors.get(row["to_id"]) or Node(id=row["to_id"], ref=row["to_ref"], kind=row["to_kind"],
                                                         name=row["to_name"])
            if target.id == source.id:
                continue  # an edge between an entity and one merged into it
            if len(self.hops) >= MAX_HOPS:
                self.truncated = True
                break
            self.seen_facts.add(row["fact_id"])
            self.hops.append(_hop(self.types, level, row, d, source, target))
            if str(target.id) not in self.nodes:
                self.nodes[str(target.id)] = target
                reached.append(str(target.id))
        return reached

    def _survivors(self, rows: Iterable[dict[str, Any]]) -> dict[str, Node]:
        """The entity each target stood for at the walk's system time. A vertex's status is today's, so as
        of a past system time every target is asked (merges carry their own system time)."""
        merged = {r["to_id"] for r in rows if self.merges_then or (self.system is None and r["to_status"] == "merged")}
        if not merged:
            return {}
        self.tx.again()
        found = self.conn.execute(load("traversal_survivors"), {"ids": [UUID(m) for m in merged],
                                                               "system_time": self.system}).fetchall()
        return {str(r["start_id"]): Node.model_validate(r) for r in found}


def _hop(types: dict[str, RelType], level: int, row: dict[str, Any], direction: Direction, source: Node,
         target: Node) -> Hop:
    return Hop(depth=level, fact_id=row["fact_id"], predicate=row["predicate"],
               label=label(types, row["predicate"], direction), direction=direction, source=source,
               target=target, scope_id=row["scope"], valid_from=from_micros(row["valid_from"]),
               valid_to=maybe_micros(row["valid_to"]), recorded_at=from_micros(row["recorded_at"]),
               superseded_at=maybe_micros(row["superseded_at"]))
