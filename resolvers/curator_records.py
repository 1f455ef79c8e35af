"""The curator's record over GraphQL: its runs (with dropped operations and why) and its vocabulary proposals."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from curator import records
from resolvers.context import blocking, database, principal


@strawberry.type(description="An operation the curator proposed and did not commit")
class DroppedOperation:
    op_index: int = strawberry.field(description="Its index in the LLM's proposal")
    code: str = strawberry.field(description="Why, as a code (UNKNOWN_PREDICATE, INVALID_OP, SUPPRESSED, ...)")
    reason: str
    op: JSON = strawberry.field(description="The operation as proposed")


@strawberry.type(description="One curator run over a batch of a chat's turns")
class CuratorRun:
    run_id: str
    chat_id: str
    from_seq: int
    upto_seq: int
    status: str = strawberry.field(description="committed | skipped (nothing durable) | failed | deferred (quota)")
    model: str | None
    retried: bool = strawberry.field(description="The LLM's first answer failed validation and was retried once")
    proposed: int
    committed: int
    pending: int = strawberry.field(description="Operations sent to the owner's review")
    dropped: int
    error: str | None
    recorded_at: datetime
    dropped_operations: list[DroppedOperation]


@strawberry.enum(description="State of a vocabulary proposal")
class VocabularyState(Enum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


@strawberry.type(description="A predicate or entity kind the curator needed and the registry lacks")
class VocabularyProposal:
    item: str = strawberry.field(description="predicate | entity_kind")
    key: str
    state: str
    uses: int = strawberry.field(description="How many curator runs asked for it")
    example: JSON = strawberry.field(description="The first operation that used it")
    run_id: str
    recorded_at: datetime


def _run(r: records.RunRecord) -> CuratorRun:
    fields: dict[str, Any] = r.model_dump(exclude={"dropped_ops"})
    return CuratorRun(**fields, dropped_operations=[
        DroppedOperation(op_index=d.op_index, code=d.code, reason=d.reason, op=d.op) for d in r.dropped_ops])


@strawberry.type
class CuratorRecordQuery:
    @strawberry.field(description="The curator's runs over a chat, newest first, with what each dropped and why")
    async def curator_runs(self, info: Info[Any, Any], chat_id: str, limit: int = 20) -> list[CuratorRun]:
        found = await blocking(records.runs, database(info), principal(info).owner, chat_id, limit)
        return [_run(r) for r in found]

    @strawberry.field(description="Predicates and kinds the curator proposed for the vocabulary (never added by it)")
    async def vocabulary_proposals(self, info: Info[Any, Any],
                                   state: VocabularyState = VocabularyState.PENDING) -> list[VocabularyProposal]:
        found = await blocking(records.vocabulary, database(info), principal(info).owner, state.value)
        return [VocabularyProposal(**v.model_dump()) for v in found]
