"""Neighbour traversal over the AGE mirror, level by level, as of a valid time and a system time.

Each level is at most two directed one-hop queries (`neighbors_out`, `neighbors_in`) from the
frontier's ids: no undirected pattern and no variable-length path, whose shapes the shared notes measured
at 690 ms and 1.1 s. Policy lives in pure functions (`level_predicates`, `label`): past depth 1 only
`inference_enabled` predicates (or ones the caller names) are expanded, and an untrusted transitive
predicate (integration-sourced or trust tier >= 2) never is. Merged entities are followed to their
survivor, and a survivor's traversal includes the edges of the entities merged into it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime
from enum import Enum
from typing import Any
from uuid import UUID

import psycopg
from pydantic import BaseModel, Field

from graph import timebounds
from graph.age.mirror import EPOCH, micros
from graph.errors import BadInput
from graph.platform import safe_times
from graph.platform.db import Database
from graph.platform.read_tx import ReadTx
from graph.reads import traversal_first
from graph.reads.graph_round import Call, pipelined
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


def relation_types(conn: psycopg.Connection[Any]) -> dict[str, RelType]:
    return {r["key"]: RelType.model_validate(r) for r in conn.execute(load("traversal_relation_types"))}


def neighbors(db: Database, owner: str, query: NeighborQuery) -> Neighborhood | None:
    """The relationships around `query.ref`; None when the ref names no entity of this owner.

    The first level is one statement after the owner, in one round trip (graph.reads.traversal_first: the
    ref resolved, the registry and the level's edges); a deeper level, or a target that was merged, opens a
    read transaction (Database.read_tx) for the rest."""
    valid = _aware(query.valid_time, "validTime") or datetime.now(UTC)
    system = _aware(query.system_time, "systemTime")
    directions = (query.direction in (Direction.OUT, Direction.BOTH), query.direction in (Direction.IN, Direction.BOTH))
    first = traversal_first.first_level(db, owner, query.ref, traversal_first.params(
        query.ref, valid, system, directions, level_predicates({}, query.predicates, 1), query.depth > 1))
    if first.origin is None:
        return None
    start = first.origin
    origin = Node(id=start["id"], ref=start["ref"], kind=start["kind"], name=start["name"])
    with ExitStack() as later:
        walk = _Walk(lambda: later.enter_context(db.read_tx(owner)), system,
                     {"v": micros(valid), "r": micros(system)}, query.direction)
        walk.run(origin, query.depth, query.predicates, first)
    return Neighborhood(origin=origin, valid_time=valid, system_time=system, hops=walk.hops,
                        truncated=walk.truncated)


class _Walk:
    """One traversal's state: visited nodes, edges met, and the per-level queries.

    The first level comes from graph.reads.traversal_first. A later level is one round trip in a read
    transaction opened when first needed: the merged-sources lookup and both directed hops go out together
    in a pipeline, the last level's with the COMMIT; only when entities were merged into the frontier does a
    second round fetch their edges (after the last level, in a transaction begun again: READ COMMITTED reads
    each statement's own snapshot either way).
    """

    def __init__(self, opened: Callable[[], ReadTx], system: datetime | None, times: dict[str, Any],
                 direction: Direction) -> None:
        self._open, self.system, self.times = opened, system, times
        self._tx: ReadTx | None = None
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

    @property
    def tx(self) -> ReadTx:
        if self._tx is None:
            self._tx = self._open()
        return self._tx

    def run(self, origin: Node, depth: int, requested: Sequence[str] | None, first: traversal_first.First) -> None:
        self.nodes[str(origin.id)] = origin
        self.depth = depth
        self.types = {r["key"]: RelType.model_validate(r) for r in first.types}
        if first.merged_then is not None:
            self.merges_then = first.merged_then
        frontier = self._first(origin, first.edges)
        for level in range(2, depth + 1):
            predicates = level_predicates(self.types, requested, level)
            if not frontier or predicates == [] or self.truncated:
                break
            frontier = self._level(level, frontier, predicates)

    def _first(self, origin: Node, edges: list[dict[str, Any]]) -> list[str]:
        """Level 1 from the first statement's edges: in the order the per-direction queries gave them (the
        origin's out, its in, then the merged entities' out and in), every merged one standing for the origin."""
        start = str(origin.id)
        rows = [(e, Direction.OUT if e["dir"] == "out" else Direction.IN) for e in edges]
        rows.sort(key=lambda rd: (rd[0]["from_id"] != start, rd[1] is not Direction.OUT))
        return self._take(1, rows, dict.fromkeys((e["from_id"] for e in edges), start))

    def _hops(self, ids: list[str], predicates: list[str] | None, extra: Sequence[Call], last: bool = False
              ) -> tuple[list[tuple[dict[str, Any], Direction]], list[list[dict[str, Any]]]]:
        self.tx.again()  # a no-op unless a previous round ended the transaction
        params = {**self.times, "ids": ids, "predicates": predicates}
        found, tables = pipelined(self.tx.conn, [(name, params) for name, _ in self.queries], extra,
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
        return self._take(level, rows, owner_of)

    def _take(self, level: int, rows: list[tuple[dict[str, Any], Direction]], owner_of: dict[str, str]
              ) -> list[str]:
        """The level's hops from its edges (`owner_of`: the frontier node each edge's start stands for); the
        nodes reached for the first time are the next frontier."""
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
        found = self.tx.conn.execute(load("traversal_survivors"), {"ids": [UUID(m) for m in merged],
                                                               "system_time": self.system}).fetchall()
        return {str(r["start_id"]): Node.model_validate(r) for r in found}


def _hop(types: dict[str, RelType], level: int, row: dict[str, Any], direction: Direction, source: Node,
         target: Node) -> Hop:
    return Hop(depth=level, fact_id=row["fact_id"], predicate=row["predicate"],
               label=label(types, row["predicate"], direction), direction=direction, source=source,
               target=target, scope_id=row["scope"], valid_from=from_micros(row["valid_from"]),
               valid_to=maybe_micros(row["valid_to"]), recorded_at=from_micros(row["recorded_at"]),
               superseded_at=maybe_micros(row["superseded_at"]))
