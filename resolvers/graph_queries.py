"""Traversal and causality over GraphQL: `neighbors`, `effectsOf`, `explainChange` (GraphQueryQuery).

Not found is null; bad arguments are typed errors (BAD_INPUT, BAD_ID, BAD_TIME).
"""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any
from uuid import UUID

import strawberry
from pydantic import ValidationError
from strawberry.types import Info

from graph.errors import BadInput
from graph.ledger.registries import describe
from graph.reads import causality, suggest, traversal
from resolvers.context import blocking, database, principal
from resolvers.graph_query_types import CausalEvent, ChangeExplanation, Direction, Effects, Neighborhood


def _uuid(value: strawberry.ID | None, what: str) -> UUID | None:
    if value is None:
        return None
    try:
        return UUID(str(value))
    except ValueError:
        raise BadInput(f"{what} is not a UUID", code="BAD_ID") from None


async def neighbors(info: Info[Any, Any], ref: str, depth: int = 1, predicates: list[str] | None = None,
                    direction: Direction = Direction.BOTH, valid_time: datetime | None = None,
                    system_time: datetime | None = None) -> Neighborhood | None:
    try:
        query = traversal.NeighborQuery(ref=ref, depth=depth, predicates=predicates,
                                        direction=traversal.Direction(direction.value), valid_time=valid_time,
                                        system_time=system_time)
    except ValidationError as exc:
        raise BadInput(describe(exc)) from None
    hood = await blocking(traversal.neighbors, database(info), principal(info).owner, query)
    return Neighborhood.from_model(hood)


async def effects_of(info: Info[Any, Any], event_id: strawberry.ID | None = None, run_id: str | None = None,
                     depth: int = 3) -> Effects | None:
    effects = await blocking(causality.effects_of, database(info), principal(info).owner,
                             event_id=_uuid(event_id, "eventId"), run_id=run_id, depth=depth)
    if effects is None and run_id is not None:
        typo = await blocking(suggest.explain_empty_run, database(info), principal(info).owner, run_id)
        if typo is not None:
            raise typo
    return Effects.from_model(effects)


async def explain_change(info: Info[Any, Any], fact_id: strawberry.ID | None = None, ref: str | None = None,
                         predicate: str | None = None) -> ChangeExplanation | None:
    explanation = await blocking(causality.explain_change, database(info), principal(info).owner,
                                 fact_id=_uuid(fact_id, "factId"), ref=ref, predicate=predicate)
    return ChangeExplanation.from_model(explanation)


async def entity_events(info: Info[Any, Any], ref: str, limit: int = 30, valid_time: datetime | None = None,
                        system_time: datetime | None = None) -> list[CausalEvent] | None:
    events = await blocking(partial(causality.entity_events, valid_time=valid_time, system_time=system_time),
                            database(info), principal(info).owner, ref, limit)
    return None if events is None else [CausalEvent.from_model(e) for e in events]


@strawberry.type
class GraphQueryQuery:
    neighbors: Neighborhood | None = strawberry.field(
        resolver=neighbors, description="Relationships in and out of an entity, depth 1-3, as of `validTime` "
                                        "(default now) and as known at `systemTime` (default: believed now). "
                                        "Past depth 1 only inference-enabled or named predicates are followed, "
                                        "untrusted transitive ones never; merged entities show as their survivor")
    effects_of: Effects | None = strawberry.field(
        resolver=effects_of, description="What an event (eventId) or every event of a run (runId) caused, "
                                         "`depth` CAUSED hops on (0-10), with the facts those events caused")
    explain_change: ChangeExplanation | None = strawberry.field(
        resolver=explain_change, description="Why a fact is what it is (factId, or ref + predicate): evidence, "
                                             "supersedes chain, causes up to the root, intent and outcome")
    entity_events: list[CausalEvent] | None = strawberry.field(
        resolver=entity_events, description="The latest `limit` (1-100) events an entity is the target or actor "
                                            "of (depth 0) and the events that directly caused them (depth 1); at an "
                                            "instant, those that had occurred by `validTime` and were recorded "
                                            "by `systemTime`")
