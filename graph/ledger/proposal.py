"""`MemoryMutationProposal`: what a curator (or an import, or a user via the API) asks the committer to do.

A proposal never writes anything by itself; graph.ledger.committer validates and applies it. Entities are named
by ref (`kind:slug`) or alias, never by UUID.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field

from graph.timebounds import check_time

Ref = Annotated[str, Field(min_length=3, max_length=300, description="`kind:slug` ref or an alias")]
# Any UTC instant from 0001-01-02 to 9999-12-30 (graph.timebounds); outside, TIME_OUT_OF_RANGE.
BoundedTime = Annotated[AwareDatetime, AfterValidator(check_time)]
Source = Annotated[str, Field(min_length=1, max_length=100, description=(
    "Who said it. Defaults to the token's own source (owner -> user, agent -> agent, integration N -> "
    "integration:N); naming a more trusted source than the token's is refused (SOURCE_NOT_ALLOWED)"))]


class Evidence(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str = Field(min_length=1, max_length=50, description="message | tool_result | document | import ...")
    text: str = Field(max_length=4000, description="The words or data the belief rests on")
    ref: str | None = Field(default=None, max_length=500, description="Where the evidence lives")


class _Op(BaseModel):
    model_config = ConfigDict(extra="forbid")
    source: Source | None = None
    confidence: float = Field(default=1.0, ge=0.0, le=1.0)
    evidence: Evidence | None = None
    reason: str | None = Field(default=None, max_length=2000)


class UpsertEntity(_Op):
    op: Literal["upsert_entity"] = "upsert_entity"
    ref: Ref
    kind: str = Field(min_length=1, max_length=100)
    canonical_name: str = Field(min_length=1, max_length=300)
    aliases: list[Annotated[str, Field(min_length=1, max_length=300)]] = Field(default_factory=list, max_length=50)
    description: str | None = Field(default=None, max_length=4000)
    external_id: str | None = Field(default=None, max_length=300)


class AddAlias(_Op):
    op: Literal["add_alias"] = "add_alias"
    ref: Ref
    alias: str = Field(min_length=1, max_length=300)
    namespace: str = Field(default="core", pattern=r"^[a-z][a-z0-9_]*(:[a-z0-9_]+)?$", max_length=100)
    valid_from: BoundedTime | None = None


class EndAlias(_Op):
    """End an identity's world time (a phone number given up, an address moved from); its history stays."""

    op: Literal["end_alias"] = "end_alias"
    ref: Ref
    alias: str = Field(min_length=1, max_length=300)
    namespace: str = Field(default="core", pattern=r"^[a-z][a-z0-9_]*(:[a-z0-9_]+)?$", max_length=100)
    valid_to: BoundedTime | None = Field(default=None, description="End of valid time, exclusive; None = now")


class _Timed(_Op):
    subject: Ref
    predicate: str = Field(min_length=1, max_length=100)
    valid_from: BoundedTime = Field(description="Start of world (valid) time, inclusive")
    valid_to: BoundedTime | None = Field(default=None, description="End of valid time, exclusive; None = open")
    scope: Ref | None = Field(default=None, description="Entity the belief is scoped to (chat, project, ...)")


REPLACE_LATER = ("Without validTo a value holds until the next change already known after validFrom; true: it "
                 "replaces everything believed after validFrom too (refused for a token that may not retract)")


class AssertFact(_Timed):
    op: Literal["assert_fact"] = "assert_fact"
    value: Any = Field(description="JSON value of the attribute")
    replace_later: bool = Field(default=False, description=REPLACE_LATER)
    memory_type: str | None = Field(default=None, max_length=50)
    observed_at: BoundedTime | None = Field(default=None, description="When the source observed it")
    priority: int = Field(default=0, ge=-100, le=100)
    caused_by_event: str | None = Field(default=None, max_length=300, description="Event id or external ref")


class AssertRelationship(_Timed):
    op: Literal["assert_relationship"] = "assert_relationship"
    object: Ref
    replace_later: bool = Field(default=False, description=REPLACE_LATER)
    memory_type: str | None = Field(default=None, max_length=50)
    observed_at: BoundedTime | None = None
    priority: int = Field(default=0, ge=-100, le=100)
    caused_by_event: str | None = Field(default=None, max_length=300)


class RetractFact(_Timed):
    op: Literal["retract_fact"] = "retract_fact"
    value: Any = Field(default=None, description="For set predicates: retract only this value")
    object: Ref | None = Field(default=None, description="For relationships: retract only this object")


class InvalidateFact(_Op):
    op: Literal["invalidate_fact"] = "invalidate_fact"
    fact_id: str = Field(min_length=36, max_length=36, description="The belief that was wrong")


class RecordEvent(_Op):
    op: Literal["record_event"] = "record_event"
    event_type: str = Field(min_length=1, max_length=100)
    occurred_at: BoundedTime
    observed_at: BoundedTime | None = None
    actor: Ref | None = None
    target: Ref | None = None
    caused_by: str | None = Field(default=None, max_length=300, description="Event id or external ref")
    correlation_id: str | None = Field(default=None, max_length=300)
    causation_kind: Literal["direct", "trigger", "inferred"] | None = None
    intent: str | None = Field(default=None, max_length=2000)
    expected_effect: dict[str, Any] | None = None
    goal_ref: str | None = Field(default=None, max_length=300)
    tool_call_id: str | None = Field(default=None, max_length=300)
    automation_id: str | None = Field(default=None, max_length=300)
    payload: dict[str, Any] = Field(default_factory=dict)
    summary: str | None = Field(default=None, max_length=2000)
    external_ref: str | None = Field(default=None, max_length=300, description="Idempotency key of the event")


class AcceptProposal(_Op):
    """Governance: the owner confirms a pending fact; it becomes an active belief now."""

    op: Literal["accept_proposal"] = "accept_proposal"
    fact_id: str = Field(min_length=36, max_length=36, description="The pending fact")


class RejectProposal(_Op):
    """Governance: the owner refuses a pending fact; the same belief is not proposed again."""

    op: Literal["reject_proposal"] = "reject_proposal"
    fact_id: str = Field(min_length=36, max_length=36, description="The pending fact")


class MergeEntities(_Op):
    """Governance: `entity` and `into` are the same thing; `entity` is merged into `into`."""

    op: Literal["merge_entities"] = "merge_entities"
    entity: Ref = Field(description="The duplicate: merged away, its ref then resolves to `into`")
    into: Ref = Field(description="The survivor")


class SplitEntity(_Op):
    """Governance: undo a merge, named by its id or by the merged entity's ref."""

    op: Literal["split_entity"] = "split_entity"
    merge_id: str | None = Field(default=None, min_length=36, max_length=36)
    entity: Ref | None = Field(default=None, description="The merged entity (its latest merge is undone)")


class DismissMergeSuggestion(_Op):
    """Governance: the owner says `entity` and `other` are two things; the pair is not suggested again."""

    op: Literal["dismiss_merge_suggestion"] = "dismiss_merge_suggestion"
    entity: Ref = Field(description="One entity of the suggested pair")
    other: Ref = Field(description="The other one (the order does not matter)")


Operation = Annotated[
    UpsertEntity | AddAlias | EndAlias | AssertFact | AssertRelationship | RetractFact | InvalidateFact | RecordEvent
    | AcceptProposal | RejectProposal | MergeEntities | SplitEntity | DismissMergeSuggestion,
    Field(discriminator="op"),
]


class MemoryMutationProposal(BaseModel):
    model_config = ConfigDict(extra="forbid")
    run_id: str = Field(min_length=1, max_length=200, description="Idempotency key of the whole proposal")
    chat_id: str | None = Field(default=None, max_length=200)
    created_at: datetime | None = None
    proposed_by: str = Field(default="api", max_length=100)
    untrusted: bool = Field(default=False, description=(
        "The run read untrusted content (web pages, mails, low-trust tool output): nothing an agent or "
        "integration token proposes in it is believed before the owner reviews it"))
    operations: list[Operation] = Field(max_length=500)
