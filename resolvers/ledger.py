"""The core contract: commitProposal, stateAt, stateAsKnownAt, factHistory.

A proposal with rejected operations writes nothing; its result lists every rejection, and the response
also carries one GraphQL error with the first rejection's code, so clients that only look at `errors`
see that nothing was committed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import strawberry
from pydantic import TypeAdapter, ValidationError
from strawberry.types import Info

from graph.ledger.committer import CommitResult as CommitOutcome
from graph.ledger.committer import Rejected as RejectedOutcome
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import MemoryMutationProposal, Operation
from graph.reads import suggest
from graph.reads.temporal import fact_history_retention
from resolvers import pinned
from resolvers.context import blocking, database, principal, require, write_rules
from resolvers.ledger_types import CommitResult, EntityState, Fact, ProposalInput, RetentionNotice, to_operation

OPERATION = TypeAdapter(Operation)


def _validate(proposal: ProposalInput) -> tuple[MemoryMutationProposal | None, list[RejectedOutcome]]:
    """Each operation validated on its own, so every bad one is reported with its index."""
    ops: list[Any] = []
    rejected: list[RejectedOutcome] = []
    for index, op in enumerate(proposal.operations):
        try:
            ops.append(OPERATION.validate_python(to_operation(op)))
        except (ValidationError, ValueError) as exc:
            rejected.append(RejectedOutcome(op_index=index, code="INVALID_OPERATION", message=_describe(exc)))
    if rejected:
        return None, rejected
    try:
        return MemoryMutationProposal(run_id=proposal.run_id, chat_id=proposal.chat_id, operations=ops,
                                      untrusted=proposal.untrusted), []
    except ValidationError as exc:
        return None, [RejectedOutcome(op_index=-1, code="INVALID_PROPOSAL", message=_describe(exc))]


def _describe(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()[:5])
    return str(exc)


def _signal_rejections(info: Info[Any, Any], outcome: CommitOutcome) -> None:
    if outcome.rejected:
        first = outcome.rejected[0]
        info.context.reject("commitProposal",
                            f"proposal rejected, nothing written: operation {first.op_index}: {first.message}",
                            first.code, rejected=[r.model_dump() for r in outcome.rejected])


@strawberry.type
class LedgerQuery:
    @strawberry.field(description="What is believed now about valid time `validTime` (default: now). "
                                  "An unknown ref is an UNKNOWN_REF error with suggestions")
    async def state_at(self, info: Info[Any, Any], ref: str, valid_time: datetime | None = None) -> EntityState | None:
        who = principal(info)
        at = valid_time or datetime.now(UTC)
        view = await pinned.state_at(database(info), who.owner, ref, at)
        if view is None:
            raise await blocking(suggest.explain_empty_state, database(info), who.owner, ref)
        return EntityState.from_view(view)

    @strawberry.field(description="What was believed at system time `systemTime` about `validTime` "
                                  "(defaults to systemTime)")
    async def state_as_known_at(self, info: Info[Any, Any], ref: str, system_time: datetime,
                                valid_time: datetime | None = None) -> EntityState | None:
        who = principal(info)
        view = await pinned.state_as_known_at(database(info), who.owner, ref, system_time, valid_time)
        if view is None:
            raise await blocking(suggest.explain_empty_state, database(info), who.owner, ref, system_time)
        return EntityState.from_view(view)

    @strawberry.field(description="Every row ever recorded for (ref, predicate), superseded ones included. "
                                  "An unknown ref or predicate is an UNKNOWN_REF / UNKNOWN_PREDICATE error. "
                                  "Rows retention pruned are not listed: ask `factHistoryRetention` beside it")
    async def fact_history(self, info: Info[Any, Any], ref: str, predicate: str) -> list[Fact]:
        who = principal(info)
        rows = await pinned.fact_history(database(info), who.owner, ref, predicate)
        if not rows:
            typo = await blocking(suggest.explain_empty_history, database(info), who.owner, ref, predicate)
            if typo is not None:
                raise typo
        return [Fact.from_view(f) for f in rows]

    @strawberry.field(description="What factHistory(ref, predicate) lacks: set when observed rows of the series "
                                  "were rolled up and pruned (the edge, a de/en message, the rollups standing in "
                                  "for them); null when the history is complete or the ref unknown")
    async def fact_history_retention(self, info: Info[Any, Any], ref: str, predicate: str) -> RetentionNotice | None:
        notice = await blocking(fact_history_retention, database(info), principal(info).owner, ref, predicate)
        return RetentionNotice.from_model(notice)


@strawberry.type
class LedgerMutation:
    @strawberry.mutation(description="Apply a proposal: all or nothing, idempotent on runId. "
                                     "`recordedAt` (import tokens only) names the system time.")
    async def commit_proposal(self, info: Info[Any, Any], proposal: ProposalInput,
                              recorded_at: datetime | None = None) -> CommitResult:
        who = require(info, import_=recorded_at is not None)
        parsed, rejected = _validate(proposal)
        if parsed is None:
            outcome = CommitOutcome(rejected=rejected)
        else:
            # the committer tells the finder's nudger (graph.ledger.commit_listeners)
            outcome = await blocking(commit_proposal, database(info), who, parsed, recorded_at=recorded_at,
                                     rules=write_rules(info))
        _signal_rejections(info, outcome)
        return CommitResult.from_outcome(outcome)
