"""Differential test: `neighbors` against networkx on the same edges (random owner graphs).

The oracle is independent of graph/reads/traversal.py: it builds a networkx multigraph of the edges that are
valid at V and believed at S, takes shortest-path distances from the origin (directed, reversed or
undirected), and expects each edge at level min(distance of the end it is reached from) + 1 when that is at
most `depth`. Predicates are named (they are then followed at every level), or none at depth 1 (all).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import networkx as nx
import pytest

from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertRelationship, MemoryMutationProposal, RetractFact, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.traversal import Direction, NeighborQuery, neighbors

PREDICATES = ["oracle_a", "oracle_b", "oracle_c"]
T0 = datetime(2024, 1, 1, tzinfo=UTC)
DAY = timedelta(days=1)
Edge = tuple[str, str, str]  # (subject ref, predicate, object ref)
Expected = set[tuple[int, str, str, str]]  # (depth, predicate, subject ref, object ref)


@dataclass
class World:
    refs: list[str]
    valid: dict[Edge, tuple[datetime, datetime | None]]
    retracted: set[Edge]
    r1: datetime
    r2: datetime


def _commit(db: Database, owner: str, run: str, ops: list[Any], at: datetime) -> None:
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=ops),
                             recorded_at=at)
    assert result.rejected == [], result.rejected


def make_world(db: Database, owner: str, rng: random.Random) -> World:
    refs = [f"thing:n{i}" for i in range(rng.randint(5, 9))]
    triples = {(u, p, v) for u in refs for v in refs for p in PREDICATES if u != v}
    chosen = rng.sample(sorted(triples), rng.randint(6, 16))
    valid: dict[Edge, tuple[datetime, datetime | None]] = {}
    for edge in chosen:
        start = T0 + rng.randint(0, 20) * DAY
        valid[edge] = (start, None if rng.random() < 0.5 else start + rng.randint(1, 20) * DAY)
    now = datetime.now(UTC).replace(microsecond=0)
    r1, r2 = now - 2 * DAY, now - DAY
    ops: list[Any] = [UpsertEntity(ref=r, kind="thing", canonical_name=r) for r in refs]
    ops += [AssertRelationship(subject=u, predicate=p, object=v, valid_from=vf, valid_to=vt)
            for (u, p, v), (vf, vt) in valid.items()]
    _commit(db, owner, "oracle-1", ops, r1)
    retracted = set(rng.sample(chosen, len(chosen) // 4))
    if retracted:
        _commit(db, owner, "oracle-2", [
            RetractFact(subject=u, predicate=p, object=v, valid_from=valid[(u, p, v)][0], valid_to=valid[(u, p, v)][1])
            for u, p, v in sorted(retracted)], r2)
    return World(refs, valid, retracted, r1, r2)


def oracle(world: World, q: NeighborQuery, valid_time: datetime, known: bool) -> Expected:
    graph: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    graph.add_nodes_from(world.refs)
    for (u, p, v), (vf, vt) in world.valid.items():
        holds = vf <= valid_time and (vt is None or valid_time < vt)
        believed = known or (u, p, v) not in world.retracted
        if holds and believed and (q.predicates is None or p in q.predicates):
            graph.add_edge(u, v, key=p)
    cutoff = q.depth - 1
    out = nx.single_source_shortest_path_length(graph, q.ref, cutoff=cutoff)
    back = nx.single_source_shortest_path_length(graph.reverse(copy=False), q.ref, cutoff=cutoff)
    both = nx.single_source_shortest_path_length(graph.to_undirected(as_view=True), q.ref, cutoff=cutoff)
    expected: Expected = set()
    for u, v, p in graph.edges(keys=True):
        if q.direction is Direction.OUT:
            levels = [out[u]] if u in out else []
        elif q.direction is Direction.IN:
            levels = [back[v]] if v in back else []
        else:
            levels = [both[n] for n in (u, v) if n in both]
        if levels:
            expected.add((min(levels) + 1, p, u, v))
    return expected


def actual(db: Database, owner: str, q: NeighborQuery) -> Expected:
    hood = neighbors(db, owner, q)
    assert hood is not None
    found: Expected = set()
    for h in hood.hops:
        subject, obj = (h.source, h.target) if h.direction.value == "out" else (h.target, h.source)
        found.add((h.depth, h.predicate, subject.ref, obj.ref))
    assert len(found) == len(hood.hops), "an edge was reported twice"
    return found


@pytest.mark.parametrize("seed", range(6))
def test_neighbors_match_networkx(db: Database, owner: str, seed: int) -> None:
    register_relation_types(db, [{"key": p, "name": p, "cardinality": "set"} for p in PREDICATES])
    rng = random.Random(seed)
    world = make_world(db, owner, rng)
    compared = 0
    for _ in range(12):
        depth = rng.randint(1, 3)
        named = sorted(rng.sample(PREDICATES, rng.randint(1, 3)))
        predicates = None if depth == 1 and rng.random() < 0.4 else named
        valid_time = T0 + rng.randint(0, 45) * DAY
        known = rng.random() < 0.5  # as known at r1 (before the retractions) or believed now
        q = NeighborQuery(ref=rng.choice(world.refs), depth=depth, predicates=predicates,
                          direction=rng.choice(list(Direction)), valid_time=valid_time,
                          system_time=world.r1 + timedelta(hours=1) if known else None)
        expected = oracle(world, q, valid_time, known)
        assert actual(db, owner, q) == expected, q
        compared += len(expected)
    assert compared > 0  # the random worlds are not all empty
