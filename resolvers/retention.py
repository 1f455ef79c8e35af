"""Retention over GraphQL: `recordObservations` (integration and agent tokens) writes observations, which
the retention job rolls up and drops by month (graph/retention/observations.py). Reads say when they reach
behind the retention edge through their own `retention` fields (resolvers/ledger_types.RetentionNotice).

All or nothing, as commitProposal: a call with a rejected observation writes nothing, lists every rejection
(`rejected { index code message }`) and carries one GraphQL error with the first rejection's code."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from graph.retention.observations import ObservationIn, Outcome, record_observations
from resolvers.context import blocking, database, principal


@strawberry.input(description="One observation: an event of a windowed type (default `observation`), kept in "
                              "full for the retention window, then rolled up into monthly summaries")
class ObservationInput:
    occurred_at: datetime = strawberry.field(description="When it was observed (not in the future, not before "
                                                         "the owner's retention edge)")
    event_type: str = strawberry.field(default="observation", description="A registered event type whose "
                                                                          "retention class is windowed")
    target: str | None = strawberry.field(default=None, description="Ref or alias of the entity observed "
                                                                    "(must exist: observations create none)")
    summary: str | None = strawberry.field(default=None, description="At most 2,000 characters; rollups count "
                                                                     "observations by summary")
    payload: JSON | None = strawberry.field(default=None, description="A JSON object of at most 16 KiB")
    external_ref: str | None = strawberry.field(default=None, description=(
        "The source's own id; the same externalRef and occurredAt again is a duplicate, not a second row"))


@strawberry.type(description="Why one observation was refused (nothing of the call was written)")
class ObservationRejected:
    index: int
    code: str = strawberry.field(description="An ErrorCode")
    message: str


@strawberry.type(description="What recordObservations did: all observations written, or none")
class ObservationsRecorded:
    source: str = strawberry.field(description="Who observed it, from the token: integration:<name> or agent")
    recorded: int
    duplicates: int = strawberry.field(description="Already held (same externalRef and occurredAt): skipped")
    ids: list[strawberry.ID | None] = strawberry.field(description="Per observation, in order; null: a duplicate")
    rejected: list[ObservationRejected]

    @classmethod
    def from_outcome(cls, o: Outcome) -> ObservationsRecorded:
        return cls(source=o.source, recorded=o.recorded, duplicates=o.duplicates,
                   ids=[strawberry.ID(str(i)) if i else None for i in o.ids],
                   rejected=[ObservationRejected(index=r.index, code=r.code, message=r.message) for r in o.rejected])


async def record_observations_field(info: Info[Any, Any], observations: list[ObservationInput]) -> ObservationsRecorded:
    items = [ObservationIn(event_type=o.event_type, occurred_at=o.occurred_at, target=o.target, summary=o.summary,
                           payload=o.payload, external_ref=o.external_ref) for o in observations]
    outcome = await blocking(record_observations, database(info), principal(info), items)
    if outcome.rejected:
        first = outcome.rejected[0]
        info.context.reject("recordObservations",
                            f"observations rejected, nothing written: observation {first.index}: {first.message}",
                            first.code, rejected=[r.model_dump() for r in outcome.rejected])
    return ObservationsRecorded.from_outcome(outcome)


@strawberry.type
class RetentionMutation:
    record_observations: ObservationsRecorded = strawberry.mutation(
        resolver=record_observations_field,
        description="Integration and agent tokens: record up to 10,000 observations (windowed events, source from "
                    "the token) all or nothing; they are kept in full for the retention window, then rolled up "
                    "into monthly summaries the finder can search. Owner tokens: FORBIDDEN (the owner's words "
                    "are permanent: use commitProposal)")
