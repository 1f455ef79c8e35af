"""The global explorer's first picture: the N most central entities of the owner's relationship graph.

Reads the relationships believed and valid now (graph/sql/reads_current_relationships.sql), builds a
networkx graph, and ranks entities by PageRank (ties by degree, then ref) over the filtered graph; the top
`limit` are returned with the edges among them and a community (Louvain on the undirected graph, fixed
seed, so the same graph always gives the same groups). The limit is hard: the server never returns more
than MAX_NODES nodes, whatever is asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

import networkx as nx
from pydantic import BaseModel, Field

from graph.platform.db import Database
from graph.sql import load

MAX_NODES = 200
MAX_ROWS = 50_000  # relationships read at most; the answer says when more existed
SEED = 7


class GlobalQuery(BaseModel):
    limit: int = Field(default=50, ge=1, le=MAX_NODES)
    kinds: list[str] | None = Field(default=None, max_length=50, description="Entity kinds kept; None = all")
    predicates: list[str] | None = Field(default=None, max_length=50, description="Predicates kept; None = all")


class RankedNode(BaseModel):
    id: UUID
    ref: str
    kind: str
    name: str
    degree: int
    pagerank: float
    community: int = Field(description="Group number, 0 = the largest group among the returned nodes")


class GraphEdge(BaseModel):
    fact_id: UUID
    predicate: str
    source: UUID
    target: UUID


class GlobalGraph(BaseModel):
    nodes: list[RankedNode]
    edges: list[GraphEdge]
    total_nodes: int = Field(description="Entities in the filtered relationship graph")
    total_edges: int
    truncated: bool = Field(description=f"More than {MAX_ROWS} relationships existed; only those were ranked")


def build(rows: Sequence[dict[str, Any]], kinds: Sequence[str] | None) -> nx.MultiDiGraph[UUID]:
    """The relationship graph of `rows`, keeping only edges whose both ends are of `kinds` (None = all)."""
    graph: nx.MultiDiGraph[UUID] = nx.MultiDiGraph()
    wanted = set(kinds) if kinds is not None else None
    for r in rows:
        if wanted is not None and (r["s_kind"] not in wanted or r["o_kind"] not in wanted):
            continue
        for side in ("s", "o"):
            graph.add_node(r[f"{side}_id"], ref=r[f"{side}_ref"], kind=r[f"{side}_kind"], name=r[f"{side}_name"])
        graph.add_edge(r["s_id"], r["o_id"], key=r["fact_id"], predicate=r["predicate"])
    return graph


def rank(graph: nx.MultiDiGraph[UUID], limit: int) -> GlobalGraph:
    """The `limit` most central nodes of `graph`, their edges and communities (pure: no database)."""
    if graph.number_of_nodes() == 0:
        return GlobalGraph(nodes=[], edges=[], total_nodes=0, total_edges=0, truncated=False)
    simple: nx.DiGraph[UUID] = nx.DiGraph(graph)  # PageRank over who links to whom; parallel edges do not add weight
    scores: dict[Any, float] = nx.pagerank(simple, alpha=0.85)
    degree = dict(graph.degree())
    top = sorted(graph.nodes, key=lambda n: (-scores[n], -degree[n], graph.nodes[n]["ref"]))[:limit]
    kept = set(top)
    groups = nx.community.louvain_communities(simple.to_undirected().subgraph(kept), seed=SEED)
    ordered = sorted(groups, key=lambda g: (-len(g), min(graph.nodes[n]["ref"] for n in g)))
    community = {n: i for i, g in enumerate(ordered) for n in g}
    nodes = [RankedNode(id=n, ref=graph.nodes[n]["ref"], kind=graph.nodes[n]["kind"], name=graph.nodes[n]["name"],
                        degree=degree[n], pagerank=round(scores[n], 6), community=community[n]) for n in top]
    edges = [GraphEdge(fact_id=k, predicate=d["predicate"], source=u, target=v)
             for u, v, k, d in graph.edges(keys=True, data=True) if u in kept and v in kept]
    return GlobalGraph(nodes=nodes, edges=edges, total_nodes=graph.number_of_nodes(),
                       total_edges=graph.number_of_edges(), truncated=False)


def global_graph(db: Database, owner: str, query: GlobalQuery) -> GlobalGraph:
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(load("reads_current_relationships"),
                            {"predicates": query.predicates, "max_rows": MAX_ROWS}).fetchall()
    truncated = len(rows) > MAX_ROWS
    result = rank(build(rows[:MAX_ROWS], query.kinds), query.limit)
    return result.model_copy(update={"truncated": truncated})
