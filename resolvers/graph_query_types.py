"""GraphQL types of the traversal and causality reads (`neighbors`, `effectsOf`, `explainChange`).

One mapping per model: each type is built from its graph.reads.traversal / graph.reads.causality model by `from_model`.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum

import strawberry
from strawberry.scalars import JSON

from graph.reads import causality as c
from graph.reads import traversal as t
from resolvers.erasure import ErasureCut
from resolvers.ledger_types import Fact, RetentionNotice


@strawberry.enum(description="Which edges of an entity to follow: outgoing, incoming or both")
class Direction(Enum):
    OUT = "out"
    IN = "in"
    BOTH = "both"


def _id(value: object) -> strawberry.ID:
    return strawberry.ID(str(value))


@strawberry.type(description="An entity met during a traversal (merged ones appear as their survivor)")
class GraphNode:
    id: strawberry.ID
    ref: str
    kind: str
    name: str

    @classmethod
    def from_model(cls, n: t.Node) -> GraphNode:
        return cls(id=_id(n.id), ref=n.ref, kind=n.kind, name=n.name)


@strawberry.type(description="One relationship edge, read from the side it was reached from")
class RelationshipHop:
    depth: int = strawberry.field(description="Level at which the edge was met (1 = touches the origin)")
    fact_id: strawberry.ID = strawberry.field(description="The relationship fact the edge mirrors")
    predicate: str = strawberry.field(description="The stored predicate (subject -> object)")
    label: str = strawberry.field(description="The predicate read from `source`: the inverse for incoming")
    direction: Direction = strawberry.field(description="OUT: source is the subject; IN: the object")
    source: GraphNode
    target: GraphNode
    scope_id: strawberry.ID | None
    valid_from: datetime = strawberry.field(description="World time it starts to hold (inclusive)")
    valid_to: datetime | None = strawberry.field(description="World time it stops holding (exclusive)")
    recorded_at: datetime = strawberry.field(description="System time the store started believing it")
    superseded_at: datetime | None = strawberry.field(description="System time it stopped being believed")

    @classmethod
    def from_model(cls, h: t.Hop) -> RelationshipHop:
        return cls(depth=h.depth, fact_id=_id(h.fact_id), predicate=h.predicate, label=h.label,
                   direction=Direction(h.direction.value), source=GraphNode.from_model(h.source),
                   target=GraphNode.from_model(h.target), scope_id=_id(h.scope_id) if h.scope_id else None,
                   valid_from=h.valid_from, valid_to=h.valid_to, recorded_at=h.recorded_at,
                   superseded_at=h.superseded_at)


@strawberry.type(description="The relationships around one entity, as of a valid time and a system time")
class Neighborhood:
    origin: GraphNode
    valid_time: datetime
    system_time: datetime | None = strawberry.field(description="null: what is believed now")
    hops: list[RelationshipHop]
    truncated: bool = strawberry.field(description=f"True when the walk stopped at {t.MAX_HOPS} hops")

    @classmethod
    def from_model(cls, n: t.Neighborhood | None) -> Neighborhood | None:
        if n is None:
            return None
        return cls(origin=GraphNode.from_model(n.origin), valid_time=n.valid_time, system_time=n.system_time,
                   hops=[RelationshipHop.from_model(h) for h in n.hops], truncated=n.truncated)


@strawberry.type(description="A world event in a causal walk")
class CausalEvent:
    id: strawberry.ID
    event_type: str
    occurred_at: datetime
    recorded_at: datetime
    depth: int = strawberry.field(description="Hops from where the walk started (0 = a starting event)")
    caused_by_event_id: strawberry.ID | None
    causation_kind: str | None = strawberry.field(description="direct | trigger | inferred (a hypothesis)")
    correlation_id: str | None
    run_id: str | None
    summary: str | None
    intent: str | None
    expected_effect: JSON | None = strawberry.field(description="{target, predicate, expected_value}")
    goal_ref: str | None
    intent_outcome: str | None = strawberry.field(description="fulfilled | partial | unfulfilled | null")
    actor_ref: str | None
    target_ref: str | None

    @classmethod
    def from_model(cls, e: c.CausalEvent) -> CausalEvent:
        data = e.model_dump()
        data["id"] = _id(e.id)
        data["caused_by_event_id"] = _id(e.caused_by_event_id) if e.caused_by_event_id else None
        return cls(**data)


@strawberry.type(description="A fact an event caused")
class CausedFact:
    subject_ref: str
    fact: Fact
    caused_by_event_id: strawberry.ID
    depth: int = strawberry.field(description="Depth of the causing event")

    @classmethod
    def from_model(cls, f: c.CausedFact) -> CausedFact:
        return cls(subject_ref=f.subject_ref, fact=Fact.from_view(f.fact),
                   caused_by_event_id=_id(f.caused_by_event_id), depth=f.depth)


@strawberry.type(description="What an event or a run caused: events over CAUSED edges and the facts they caused")
class Effects:
    events: list[CausalEvent]
    facts: list[CausedFact]
    truncated: bool = strawberry.field(description=f"True when the walk stopped at {c.MAX_EVENTS} events or "
                                                   f"{c.MAX_FACTS} facts")

    @classmethod
    def from_model(cls, e: c.Effects | None) -> Effects | None:
        if e is None:
            return None
        return cls(events=[CausalEvent.from_model(x) for x in e.events],
                   facts=[CausedFact.from_model(f) for f in e.facts], truncated=e.truncated)


@strawberry.type(description="Why a fact is what it is: evidence, supersedes chain, causes up to the root")
class ChangeExplanation:
    subject_ref: str
    fact: Fact = strawberry.field(description="The row explained; its evidence is on it")
    supersedes: list[Fact] = strawberry.field(description="Older rows it replaced, nearest first")
    superseded_by: list[Fact] = strawberry.field(description="Rows that replaced it, nearest first")
    causes: list[CausalEvent] = strawberry.field(description="The causing event, then its causes to the root")
    root: CausalEvent | None = strawberry.field(description="Where the chain starts, e.g. the user's message")
    intent: CausalEvent | None = strawberry.field(description="The nearest cause that states an intent")
    hypothesis: bool = strawberry.field(description="True when a link of the chain is only inferred")
    retention: RetentionNotice | None = strawberry.field(description="Set when the supersedes chain ends where "
                                                                     "retention pruned older rows of the series")
    erased: list[ErasureCut] = strawberry.field(description="Where the chain was cut by an erasure (de/en message)")

    @classmethod
    def from_model(cls, x: c.Explanation | None) -> ChangeExplanation | None:
        if x is None:
            return None
        return cls(subject_ref=x.subject_ref, fact=Fact.from_view(x.fact),
                   supersedes=[Fact.from_view(f) for f in x.supersedes],
                   superseded_by=[Fact.from_view(f) for f in x.superseded_by],
                   causes=[CausalEvent.from_model(e) for e in x.causes],
                   root=CausalEvent.from_model(x.root) if x.root else None,
                   intent=CausalEvent.from_model(x.intent) if x.intent else None, hypothesis=x.hypothesis,
                   retention=RetentionNotice.from_model(x.retention),
                   erased=[ErasureCut.from_model(e) for e in x.erased])
