"""`globalGraph`: the explorer's first picture of the whole owner graph, ranked server side (ExplorerQuery)."""

from __future__ import annotations

from typing import Any

import strawberry
from pydantic import ValidationError
from strawberry.types import Info

from graph.errors import BadInput
from graph.ledger.registries import describe
from graph.reads import centrality as c
from resolvers.context import blocking, database, principal


@strawberry.type(description="An entity ranked by centrality in the owner's current relationship graph")
class RankedEntity:
    id: strawberry.ID
    ref: str
    kind: str
    name: str
    degree: int = strawberry.field(description="Relationships in and out (filtered graph)")
    pagerank: float
    community: int = strawberry.field(description="Group number; 0 = the largest group shown")


@strawberry.type(description="A relationship between two ranked entities (subject -> object)")
class GlobalEdge:
    fact_id: strawberry.ID
    predicate: str
    source: strawberry.ID
    target: strawberry.ID


@strawberry.type(description="The most central entities for a filter, grouped, with the edges among them")
class GlobalGraph:
    nodes: list[RankedEntity]
    edges: list[GlobalEdge]
    total_nodes: int = strawberry.field(description="Entities in the filtered relationship graph")
    total_edges: int
    truncated: bool = strawberry.field(description=f"More than {c.MAX_ROWS} relationships existed")

    @classmethod
    def from_model(cls, g: c.GlobalGraph) -> GlobalGraph:
        sid = strawberry.ID
        return cls(
            nodes=[RankedEntity(id=sid(str(n.id)), ref=n.ref, kind=n.kind, name=n.name, degree=n.degree,
                                pagerank=n.pagerank, community=n.community) for n in g.nodes],
            edges=[GlobalEdge(fact_id=sid(str(e.fact_id)), predicate=e.predicate, source=sid(str(e.source)),
                              target=sid(str(e.target))) for e in g.edges],
            total_nodes=g.total_nodes, total_edges=g.total_edges, truncated=g.truncated)


async def global_graph(info: Info[Any, Any], limit: int = 50, kinds: list[str] | None = None,
                       predicates: list[str] | None = None) -> GlobalGraph:
    try:
        query = c.GlobalQuery(limit=limit, kinds=kinds, predicates=predicates)
    except ValidationError as exc:
        raise BadInput(describe(exc)) from None
    result = await blocking(c.global_graph, database(info), principal(info).owner, query)
    return GlobalGraph.from_model(result)


@strawberry.type
class ExplorerQuery:
    global_graph: GlobalGraph = strawberry.field(
        resolver=global_graph,
        description=f"The `limit` (at most {c.MAX_NODES}) most central entities (PageRank over the relationships "
                    "believed and valid now, filtered by entity kinds and predicates), their communities and the "
                    "edges among them")
