"""Governance over GraphQL (Appendix D): the owner's mutations, the review and correction notices.

Each mutation is one proposal operation committed by the committer with the request's principal: one
transaction, all or nothing, idempotent on `runId` (a new one is made when none is given). Only an owner
token governs; any other token's action is rejected with FORBIDDEN. A rejected action writes
nothing; its result lists the rejection and the response also carries a typed error with its code.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from typing import Any

import strawberry
from pydantic import ValidationError
from strawberry.types import Info

from graph.errors import BadInput
from graph.governance.merge import merges_for_run
from graph.governance.review import correction_notices, pending_review
from graph.ledger import proposal as p
from graph.ledger.committer import commit_proposal
from resolvers.context import blocking, database, principal, write_rules
from resolvers.governance_types import CorrectionNotice, EntityMerge, GovernanceResult, PendingReview
from resolvers.ledger_types import CommitResult

MAX_ITEMS = 100


def _limit(value: int) -> int:
    if not 1 <= value <= MAX_ITEMS:
        raise BadInput(f"limit must be between 1 and {MAX_ITEMS}", code="BAD_LIMIT")
    return value


def _operation(kind: Callable[..., Any], **fields: Any) -> Any:
    try:
        return kind(**fields)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()[:3])
        raise BadInput(problems, code="INVALID_OPERATION") from None


async def _govern(info: Info[Any, Any], field: str, op: Any, run_id: str | None,
                  merges: bool = False) -> GovernanceResult:
    who = principal(info)
    run = run_id if run_id is not None else f"gov-{uuid.uuid4().hex}"
    try:
        proposal = p.MemoryMutationProposal(run_id=run, proposed_by="governance", operations=[op])
    except ValidationError:
        raise BadInput("runId must be 1-200 characters", code="INVALID_OPERATION") from None
    outcome = await blocking(commit_proposal, database(info), who, proposal, rules=write_rules(info))
    if outcome.rejected:
        first = outcome.rejected[0]
        info.context.reject(field, f"{field} rejected, nothing written: {first.message}", first.code)
    found = await blocking(merges_for_run, database(info), who.owner, run) if merges and not outcome.rejected \
        else []
    return GovernanceResult(ok=not outcome.rejected, run_id=run, commit=CommitResult.from_outcome(outcome),
                            merges=[EntityMerge.from_record(r) for r in found])


@strawberry.type
class GovernanceQuery:
    @strawberry.field(description="Pending facts, conflicts and merge suggestions as ONE chat-ready message")
    async def pending_review(self, info: Info[Any, Any], limit: int = 20) -> PendingReview:
        review = await blocking(pending_review, database(info), principal(info).owner, _limit(limit))
        return PendingReview.from_model(review)

    @strawberry.field(description="Values this chat's proposals replaced since `since` (new learnings "
                                  "stay silent)")
    async def correction_notices(self, info: Info[Any, Any], chat_id: str, since: datetime,
                                 limit: int = 50) -> list[CorrectionNotice]:
        notices = await blocking(correction_notices, database(info), principal(info).owner, chat_id, since,
                                 _limit(limit))
        return [CorrectionNotice.from_model(n) for n in notices]


@strawberry.type
class GovernanceMutation:
    @strawberry.mutation(description="Believe a pending fact from now on (its pending row is closed)")
    async def accept_proposal(self, info: Info[Any, Any], id: strawberry.ID,
                              run_id: str | None = None) -> GovernanceResult:
        op = _operation(p.AcceptProposal, fact_id=str(id))
        return await _govern(info, "acceptProposal", op, run_id)

    @strawberry.mutation(description="Refuse a pending fact; it is not proposed again until you say it")
    async def reject_proposal(self, info: Info[Any, Any], id: strawberry.ID, reason: str | None = None,
                              run_id: str | None = None) -> GovernanceResult:
        op = _operation(p.RejectProposal, fact_id=str(id), reason=reason)
        return await _govern(info, "rejectProposal", op, run_id)

    @strawberry.mutation(description="The belief was wrong: its row is closed as invalidated, and kept")
    async def invalidate_fact(self, info: Info[Any, Any], id: strawberry.ID, reason: str,
                              run_id: str | None = None) -> GovernanceResult:
        op = _operation(p.InvalidateFact, fact_id=str(id), reason=reason)
        return await _govern(info, "invalidateFact", op, run_id)

    @strawberry.mutation(description="`entity` and `into` are one: merge `entity` into `into`")
    async def merge_entities(self, info: Info[Any, Any], entity: str, into: str, reason: str | None = None,
                             run_id: str | None = None) -> GovernanceResult:
        op = _operation(p.MergeEntities, entity=entity, into=into, reason=reason)
        return await _govern(info, "mergeEntities", op, run_id, merges=True)

    @strawberry.mutation(description="`entity` and `other` are two things: never suggest merging them "
                                     "again (either order)")
    async def dismiss_merge_suggestion(self, info: Info[Any, Any], entity: str, other: str,
                                       reason: str | None = None, run_id: str | None = None) -> GovernanceResult:
        op = _operation(p.DismissMergeSuggestion, entity=entity, other=other, reason=reason)
        return await _govern(info, "dismissMergeSuggestion", op, run_id)

    @strawberry.mutation(description="Undo a merge, named by `mergeId` or by the merged `entity`")
    async def split_entity(self, info: Info[Any, Any], merge_id: strawberry.ID | None = None,
                           entity: str | None = None, reason: str | None = None,
                           run_id: str | None = None) -> GovernanceResult:
        op = _operation(p.SplitEntity, merge_id=str(merge_id) if merge_id else None, entity=entity, reason=reason)
        return await _govern(info, "splitEntity", op, run_id, merges=True)
