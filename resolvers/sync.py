"""syncEntities (integration tokens) and removeIntegration (owner tokens): graph.sync rendered as GraphQL."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from graph.sync import entries as model
from graph.sync.removal import remove_integration
from graph.sync.writer import sync_entities
from resolvers.context import blocking, database, principal, write_rules


@strawberry.enum(description="What one synced entry came to")
class SyncStatus(Enum):
    CREATED = "created"
    CHANGED = "changed"
    UNCHANGED = "unchanged"
    REJECTED = "rejected"


@strawberry.input(description="One row of the source system")
class SyncEntryInput:
    source_entry_id: str = strawberry.field(description="The source's own id of the row (its backing reference)")
    kind: str = strawberry.field(description="A registered entity kind, e.g. github:issue")
    external_id: str = strawberry.field(description="The real thing's id: one entity per kind and external id")
    content: JSON = strawberry.field(description="A JSON object: predicate -> value. A bare key is the "
                                                 "integration's own namespace (state = github:state); null = no value")
    observed_at: datetime = strawberry.field(description="When the source observed this state")


@strawberry.type(description="What became of one entry")
class SyncEntryResult:
    index: int
    source_entry_id: str
    kind: str
    external_id: str
    status: SyncStatus
    ref: str | None = strawberry.field(description="The entity it backs")
    changed: list[str] = strawberry.field(description="Predicates whose value changed (created: all of them)")
    event_id: str | None = strawberry.field(description="The integration_sync event of a created or changed entry")
    code: str | None = strawberry.field(description="Why it was rejected: an ErrorCode")
    message: str | None

    @classmethod
    def from_model(cls, m: model.EntryResult) -> SyncEntryResult:
        return cls(index=m.index, source_entry_id=m.source_entry_id, kind=m.kind, external_id=m.external_id,
                   status=SyncStatus(m.status), ref=m.ref, changed=m.changed, event_id=m.event_id, code=m.code,
                   message=m.message)


@strawberry.type(description="The result of one syncEntities call")
class SyncResult:
    source: str
    recorded_at: datetime | None
    created: int
    changed: int
    unchanged: int
    rejected: int
    entries: list[SyncEntryResult]


@strawberry.type(description="What removing an integration did")
class RemovedIntegration:
    name: str
    deprecated_kinds: list[str]
    deprecated_predicates: list[str]
    stale_entities: int
    message: str = strawberry.field(description="For the owner, in their answer language (German or English)")


def _entry(e: SyncEntryInput) -> model.SyncEntry | None:
    if not isinstance(e.content, dict):
        return None
    return model.SyncEntry(source_entry_id=e.source_entry_id, kind=e.kind, external_id=e.external_id,
                           content=e.content, observed_at=e.observed_at)


async def sync_entities_field(info: Info[Any, Any], source: str, entries: list[SyncEntryInput]) -> SyncResult:
    who = principal(info)
    parsed = [_entry(e) for e in entries]
    valid = [p for p in parsed if p is not None]
    outcome = await blocking(sync_entities, database(info), who, source, valid,
                             max_value_bytes=write_rules(info).max_value_bytes)
    # entries whose content is not an object never reach the writer: put them back in place
    results: list[model.EntryResult] = []
    written = iter(outcome.entries)
    for index, (raw, p) in enumerate(zip(entries, parsed, strict=True)):
        if p is None:
            results.append(model.EntryResult(index=index, source_entry_id=raw.source_entry_id, kind=raw.kind,
                                             external_id=raw.external_id, status="rejected", code="BAD_INPUT",
                                             message="content must be a JSON object"))
        else:
            results.append(next(written).model_copy(update={"index": index}))
    outcome = model.SyncOutcome(source=outcome.source, recorded_at=outcome.recorded_at, entries=results).count()
    return SyncResult(source=outcome.source, recorded_at=outcome.recorded_at, created=outcome.created,
                      changed=outcome.changed, unchanged=outcome.unchanged, rejected=outcome.rejected,
                      entries=[SyncEntryResult.from_model(e) for e in outcome.entries])


async def remove_integration_field(info: Info[Any, Any], name: str) -> RemovedIntegration:
    removed = await blocking(remove_integration, database(info), principal(info), name)
    return RemovedIntegration(name=removed.name, deprecated_kinds=removed.deprecated_kinds,
                              deprecated_predicates=removed.deprecated_predicates,
                              stale_entities=removed.stale_entities, message=removed.message)


@strawberry.type
class SyncMutation:
    sync_entities: SyncResult = strawberry.mutation(
        resolver=sync_entities_field,
        description="Integration tokens: upsert up to 10,000 rows of `source` idempotently (one entity per "
                    "kind and externalId); only changed content becomes facts and integration_sync events")
    remove_integration: RemovedIntegration = strawberry.mutation(
        resolver=remove_integration_field,
        description="Owner tokens: deprecate an integration's kinds and predicates and mark its synced "
                    "entries stale")
