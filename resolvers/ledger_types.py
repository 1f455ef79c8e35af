"""GraphQL types of the ledger: proposal inputs (a @oneOf operation), commit results, facts, states.

Inputs mirror graph.ledger.proposal's operations field for field; `to_operation` is the one mapping.
"""

from __future__ import annotations

from datetime import date, datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from graph.ledger.committer import CommitResult as CommitOutcome
from graph.ledger.cut_short import CutShort as CutShortModel
from graph.ledger.proposal import REPLACE_LATER
from graph.reads.temporal import EntityStateView, FactView
from graph.retention.notice import RetentionNotice as RetentionModel
from resolvers.episode_types import Episode, evidence_episode


@strawberry.input(description="What a belief rests on")
class EvidenceInput:
    kind: str = strawberry.field(description="message | tool_result | document | import | ...")
    text: str
    ref: str | None = None


SOURCE_DEFAULTS = ("Who said it; defaults to the token's source (owner: user, agent: agent, integration N: "
                   "integration:N); a more trusted source than the token's is refused")


@strawberry.input
class UpsertEntityInput:
    ref: str = strawberry.field(description="`kind:slug`, e.g. person:sally")
    kind: str
    canonical_name: str
    aliases: list[str] | None = None
    description: str | None = None
    external_id: str | None = None
    source: str | None = strawberry.field(default=None, description=SOURCE_DEFAULTS)
    evidence: EvidenceInput | None = strawberry.field(default=None, description=(
        "Why: an agent token renames an existing entity only with the user's words (user_assertion) or a "
        "direct observation"))


@strawberry.input
class AddAliasInput:
    ref: str
    alias: str
    namespace: str = "core"
    valid_from: datetime | None = None
    source: str | None = strawberry.field(default=None, description=SOURCE_DEFAULTS)
    evidence: EvidenceInput | None = strawberry.field(default=None, description=(
        "Why: an agent token adds an alias to an existing entity only with the user's words (user_assertion) "
        "or a direct observation"))


@strawberry.input(description="End an identity's world time (a number given up); its history stays")
class EndAliasInput:
    ref: str
    alias: str
    namespace: str = "core"
    valid_to: datetime | None = strawberry.field(default=None, description="End, exclusive; default now")
    source: str | None = strawberry.field(default=None, description=SOURCE_DEFAULTS)
    evidence: EvidenceInput | None = strawberry.field(default=None, description=(
        "Why: an agent token ends an alias only with the user's words (user_assertion) or a direct observation"))


@strawberry.input
class AssertFactInput:
    subject: str = strawberry.field(description="Ref or alias of the subject entity")
    predicate: str
    value: JSON
    valid_from: datetime = strawberry.field(description="Start of world time, inclusive")
    valid_to: datetime | None = strawberry.field(default=None, description="End of world time, exclusive")
    source: str = strawberry.field(description="user | agent | integration:<name>: must not claim more trust "
                                             "than the token (SOURCE_NOT_ALLOWED); the token's own source fits")
    confidence: float
    evidence: EvidenceInput
    memory_type: str | None = None
    reason: str | None = None
    scope: str | None = strawberry.field(default=None, description="Ref of the scope entity (chat, project...)")
    observed_at: datetime | None = None
    priority: int = 0
    caused_by_event: str | None = strawberry.field(default=None, description="Event id or external ref")
    replace_later: bool = strawberry.field(default=False, description=REPLACE_LATER)


@strawberry.input
class AssertRelationshipInput:
    subject: str
    predicate: str
    object: str = strawberry.field(description="Ref or alias of the object entity")
    valid_from: datetime
    valid_to: datetime | None = None
    source: str
    confidence: float
    evidence: EvidenceInput
    memory_type: str | None = None
    reason: str | None = None
    scope: str | None = None
    observed_at: datetime | None = None
    priority: int = 0
    caused_by_event: str | None = None
    replace_later: bool = strawberry.field(default=False, description=REPLACE_LATER)


@strawberry.input
class RetractFactInput:
    subject: str
    predicate: str
    valid_from: datetime
    valid_to: datetime | None = None
    source: str
    evidence: EvidenceInput
    reason: str | None = None
    value: JSON | None = strawberry.field(default=None, description="Set predicates: only this value")
    object: str | None = strawberry.field(default=None, description="Relationships: only this object")
    scope: str | None = None


@strawberry.input
class InvalidateFactInput:
    fact_id: strawberry.ID
    reason: str | None = None
    source: str | None = strawberry.field(default=None, description=SOURCE_DEFAULTS)
    evidence: EvidenceInput | None = None


@strawberry.input
class RecordEventInput:
    event_type: str
    occurred_at: datetime
    observed_at: datetime | None = None
    actor: str | None = None
    target: str | None = None
    caused_by: str | None = strawberry.field(default=None, description="Event id or external ref")
    correlation_id: str | None = None
    causation_kind: str | None = strawberry.field(default=None, description="direct | trigger | inferred")
    intent: str | None = None
    expected_effect: JSON | None = strawberry.field(
        default=None, description="{target, predicate, expected_value}")
    goal_ref: str | None = None
    tool_call_id: str | None = None
    automation_id: str | None = None
    payload: JSON | None = None
    summary: str | None = None
    external_ref: str | None = strawberry.field(default=None, description="Idempotency key of the event")
    source: str | None = strawberry.field(default=None, description=SOURCE_DEFAULTS)


@strawberry.input(one_of=True, description="Exactly one operation")
class OperationInput:
    upsert_entity: UpsertEntityInput | None = strawberry.UNSET
    add_alias: AddAliasInput | None = strawberry.UNSET
    end_alias: EndAliasInput | None = strawberry.UNSET
    assert_fact: AssertFactInput | None = strawberry.UNSET
    assert_relationship: AssertRelationshipInput | None = strawberry.UNSET
    retract_fact: RetractFactInput | None = strawberry.UNSET
    invalidate_fact: InvalidateFactInput | None = strawberry.UNSET
    record_event: RecordEventInput | None = strawberry.UNSET


@strawberry.input
class ProposalInput:
    run_id: str = strawberry.field(description="Idempotency key: a retried proposal writes nothing twice")
    chat_id: str | None = None
    operations: list[OperationInput]
    untrusted: bool = strawberry.field(default=False, description=(
        "The run read untrusted content: nothing an agent or integration token proposes in it is believed "
        "before the owner reviews it"))


OP_NAMES = ("upsert_entity", "add_alias", "end_alias", "assert_fact", "assert_relationship", "retract_fact",
            "invalidate_fact", "record_event")


def to_operation(op: OperationInput) -> dict[str, Any]:
    """The chosen member of a oneOf operation as the committer's operation dict."""
    for name in OP_NAMES:
        chosen = getattr(op, name)
        if chosen is not None and chosen is not strawberry.UNSET:
            fields = {k: v for k, v in vars(chosen).items() if v is not None and v is not strawberry.UNSET}
            if isinstance(fields.get("evidence"), EvidenceInput):
                fields["evidence"] = vars(fields["evidence"])
            if name == "invalidate_fact":
                fields["fact_id"] = str(fields["fact_id"])
            if name in ("assert_fact",) and "value" not in fields:
                fields["value"] = None
            return {"op": name, **fields}
    raise ValueError("an operation must name exactly one kind")


@strawberry.type(description="One operation the committer refused; nothing of the proposal was written")
class Rejected:
    op_index: int
    code: str = strawberry.field(description="A value of the enum ErrorCode")
    message: str


@strawberry.type(description="An assertion without validTo that ends where a change already known starts")
class CutShort:
    op_index: int
    subject: str = strawberry.field(description="The subject's ref")
    predicate: str
    value: JSON | None = strawberry.field(description="What was said: the literal, or the object's ref")
    valid_from: datetime
    ends_at: datetime = strawberry.field(description="Where it now ends: the start of the later belief")
    later_fact_id: strawberry.ID = strawberry.field(description="The later belief that stays")
    later_value: JSON | None
    message: str = strawberry.field(description="What this means, in the owner's language (de/en)")

    @classmethod
    def from_model(cls, c: CutShortModel) -> CutShort:
        return cls(op_index=c.op_index, subject=c.subject, predicate=c.predicate, value=c.value,
                   valid_from=c.valid_from, ends_at=c.ends_at, later_fact_id=strawberry.ID(c.later_fact_id),
                   later_value=c.later_value, message=c.message)


@strawberry.type(description="What a proposal did")
class CommitResult:
    committed: int = strawberry.field(description="Operations applied as beliefs")
    pending: int = strawberry.field(description="Operations stored as pending, awaiting review")
    rejected: list[Rejected]
    recorded_at: datetime | None = strawberry.field(description="The proposal's system time")
    replayed: bool = strawberry.field(description="True when this run was committed before (nothing written)")
    cut_short: list[CutShort] = strawberry.field(description=(
        "Assertions without validTo that hold only until a change already known after their validFrom "
        "(replaceLater says otherwise)"))

    @classmethod
    def from_outcome(cls, outcome: CommitOutcome) -> CommitResult:
        return cls(committed=outcome.committed, pending=outcome.pending,
                   rejected=[Rejected(op_index=r.op_index, code=r.code, message=r.message)
                             for r in outcome.rejected],
                   recorded_at=outcome.recorded_at, replayed=outcome.replayed,
                   cut_short=[CutShort.from_model(c) for c in outcome.cut_short])


@strawberry.type(description="One row of the ledger: a belief about world time, held during system time")
class Fact:
    id: strawberry.ID
    predicate: str
    value: JSON | None = strawberry.field(description="Literal value, or the object's ref for a relationship")
    object_ref: str | None
    valid_from: datetime = strawberry.field(description="World time it starts to hold (inclusive)")
    valid_to: datetime | None = strawberry.field(description="World time it stops holding (exclusive)")
    recorded_at: datetime = strawberry.field(description="System time the store started believing it")
    superseded_at: datetime | None = strawberry.field(description="System time it stopped being believed")
    observed_at: datetime | None
    status: str
    source: str
    confidence: float
    scope: str | None
    priority: int
    memory_type: str | None
    reason: str | None
    evidence: JSON
    supersedes_fact_id: strawberry.ID | None
    run_id: str | None

    @strawberry.field(description="Where did you get that? The chat turn this fact's evidence came from (its "
                                  "evidence.ref `episode:<id>`, or the turn of the curator run that quotes it)")
    async def evidence_episode(self, info: Info[Any, Any]) -> Episode | None:
        return await evidence_episode(info, str(self.id))

    @classmethod
    def from_view(cls, f: FactView) -> Fact:
        # shallow: every field is a plain value (model_dump copied `value` and `evidence` deeply), read from the
        # model's __dict__ (pydantic keeps exactly its fields there): dict(f) iterates through pydantic, 11 us a fact
        data = dict(f.__dict__)
        data["id"] = strawberry.ID(str(f.id))
        data["supersedes_fact_id"] = strawberry.ID(str(f.supersedes_fact_id)) if f.supersedes_fact_id else None
        return cls(**data)


@strawberry.enum(description="Why a read carries a retention notice")
class RetentionReason(Enum):
    AS_OF = "as_of"
    HISTORY = "history"
    CHAIN = "chain"


@strawberry.type(description="A rollup standing in for pruned rows: a summary the finder holds")
class RetentionRollup:
    projection_id: strawberry.ID = strawberry.field(description="The memory's id (searchWorldMemory's memory.id)")
    predicate: str | None
    month: date = strawberry.field(description="The UTC month it summarises")
    text: str


@strawberry.type(description="Said when a read reaches behind the retention edge: windowed (observed) rows "
                              "older than `edge` were rolled up into summaries and pruned")
class RetentionNotice:
    reason: RetentionReason = strawberry.field(description="AS_OF: a time before the edge; HISTORY: a series "
                                                           "with pruned rows; CHAIN: a supersedes chain cut there")
    edge: datetime = strawberry.field(description="Windowed rows before this instant were rolled up and pruned")
    message: str = strawberry.field(description="What this means for the answer, in the owner's language (de/en)")
    summaries: list[str] = strawberry.field(description="The texts of `rollups`")
    rollups: list[RetentionRollup] = strawberry.field(description="The rollups standing in for the pruned rows")

    @classmethod
    def from_model(cls, n: RetentionModel | None) -> RetentionNotice | None:
        if n is None:
            return None
        return cls(reason=RetentionReason(n.reason), edge=n.edge, message=n.message, summaries=n.summaries,
                   rollups=[RetentionRollup(projection_id=strawberry.ID(str(r.projection_id)), predicate=r.predicate,
                                            month=r.month, text=r.text) for r in n.rollups])


@strawberry.type(description="What is believed about one entity for one point of world time")
class EntityState:
    ref: str
    kind: str
    name: str
    facts: list[Fact]
    retention: RetentionNotice | None = strawberry.field(
        default=None, description="Set when the time asked lies before the retention edge and this entity's "
                                  "observed values there were rolled up: the answer falls back to summaries")

    @classmethod
    def from_view(cls, s: EntityStateView | None) -> EntityState | None:
        if s is None:
            return None
        return cls(ref=s.ref, kind=s.kind, name=s.name, facts=[Fact.from_view(f) for f in s.facts],
                   retention=RetentionNotice.from_model(s.retention))
