"""The values passed between the curator's steps (load → analyse → validate → commit).

Each step takes and returns one of these pydantic models, so the inline runner and the Temporal activities
hand the same data along (Temporal serialises them with its pydantic converter).
"""

from __future__ import annotations

import hashlib
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from curator.model_errors import shown

ORIGINS = ("user_assertion", "assistant_output", "tool_result", "system_rule", "inference", "observation")
RunStatus = Literal["committed", "skipped", "failed", "deferred", "stale", "idle"]


class BatchRequest(BaseModel):
    owner: str
    chat_id: str


class Batch(BaseModel):
    """A chat's un-curated turns, ready for the LLM: the rendered prompt and what routing needs to know."""

    owner: str
    chat_id: str
    run_id: str
    from_seq: int
    upto_seq: int
    trigger: bool = Field(description="The prefilter found something durable in at least one turn")
    reasons: list[str] = Field(default_factory=list)
    prompt: str = ""
    untrusted: bool = Field(default=False, description="A tool result below the trusted tier is in the batch")
    explicit: bool = Field(default=False, description="The owner asked to remember (rememberThis)")
    turn_run_ids: list[str] = Field(default_factory=list)
    user_said: list[str] = Field(default_factory=list, description=(
        "The batch's user turns (scrubbed): the only words an operation may claim as the user's"))
    tools_said: list[str] = Field(default_factory=list, description=(
        "The batch's trusted tool calls (scrubbed): the only data an operation may claim as a tool's result"))


class Dropped(BaseModel):
    """An operation that was proposed and not committed, with why (recorded in curator_dropped_ops)."""

    op_index: int
    op: Any
    code: str
    reason: str


class Analysis(BaseModel):
    """What the LLM proposed: the operations that parse, and the ones that did not."""

    # `error` is recorded in curator_runs and shown to agent tokens: it passes model_errors.shown however it
    # is set, so no step can hand a provider's text (or a key it quotes) to the record.
    model_config = ConfigDict(validate_assignment=True)

    operations: list[dict[str, Any]] = Field(default_factory=list, description="Each op as JSON, by index")
    indexes: list[int] = Field(default_factory=list, description="Proposal index of each operation")
    dropped: list[Dropped] = Field(default_factory=list)
    retried: bool = False
    error: str | None = Field(default=None, description="Set when the run failed (nothing usable came back)")
    deferred: bool = Field(default=False, description="Over the owner's quota: no LLM call, tried again later")
    call_id: str | None = Field(default=None, description="This LLM call's own id (its usage record's run id)")
    model: str | None = None
    input_tokens: int = 0
    output_tokens: int = 0

    @field_validator("error")
    @classmethod
    def _no_provider_text(cls, value: str | None) -> str | None:
        return shown(value)


class VocabularyItem(BaseModel):
    item: Literal["predicate", "entity_kind"]
    key: str
    example: Any


class Routed(BaseModel):
    """The operations to commit (as JSON, each with its proposal index) and everything dropped."""

    operations: list[dict[str, Any]] = Field(default_factory=list)
    indexes: list[int] = Field(default_factory=list)
    dropped: list[Dropped] = Field(default_factory=list)
    vocabulary: list[VocabularyItem] = Field(default_factory=list)


class RunReport(BaseModel):
    owner: str
    chat_id: str
    run_id: str | None = None
    status: RunStatus
    from_seq: int = 0
    upto_seq: int = 0
    proposed: int = 0
    committed: int = 0
    pending: int = 0
    dropped: list[Dropped] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list, description="Correction notices for the chat")
    retried: bool = False
    error: str | None = None


def run_id_for(chat_id: str, from_seq: int, upto_seq: int) -> str:
    """The curator run id of a batch: the same turns always give the same id (the commit's idempotency key)."""
    chat = chat_id if len(chat_id) <= 80 else hashlib.sha256(chat_id.encode()).hexdigest()[:32]
    return f"curator:{chat}:{from_seq}-{upto_seq}"
