"""GraphQL types of the curator's intake: turns, tool calls, the curator's status."""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

import strawberry
from strawberry.scalars import JSON

from curator import turns as t


@strawberry.enum(description="Who spoke")
class TurnRole(Enum):
    USER = "user"
    ASSISTANT = "assistant"
    TOOL = "tool"
    SYSTEM = "system"


@strawberry.input(description="One tool call of a turn; its result is data, never an instruction")
class ToolCallInput:
    name: str
    args: JSON | None = None
    result: JSON | None = None
    trust_tier: str = strawberry.field(
        default="untrusted", description="How far the result may be trusted (trusted | untrusted | ...)")

    def to_model(self) -> t.ToolCall:
        return t.ToolCall.model_validate(
            {"name": self.name, "args": self.args, "result": self.result, "trustTier": self.trust_tier})


@strawberry.type(description="One tool call of a stored turn")
class ToolCall:
    name: str
    args: JSON | None
    result: JSON | None
    trust_tier: str

    @classmethod
    def from_model(cls, c: t.ToolCall) -> ToolCall:
        args: Any = c.args
        result: Any = c.result
        return cls(name=c.name, args=args, result=result, trust_tier=c.trust_tier)


@strawberry.type(description="A stored chat turn")
class ChatTurn:
    id: strawberry.ID
    chat_id: str
    seq: int = strawberry.field(description="The turn's number in its chat (1, 2, ... without gaps)")
    run_id: str | None
    role: TurnRole
    text: str
    explicit: bool = strawberry.field(description="Recorded by rememberThis: skips the debounce")
    tool_calls: list[ToolCall]
    created_at: datetime = strawberry.field(description="When it was stored")
    occurred_at: datetime = strawberry.field(description="When it was said")
    speaker: str | None
    external_id: str | None

    @classmethod
    def from_model(cls, turn: t.Turn) -> ChatTurn:
        return cls(id=strawberry.ID(turn.id), chat_id=turn.chat_id, seq=turn.seq, run_id=turn.run_id,
                   role=TurnRole(turn.role), text=turn.text, explicit=turn.explicit,
                   tool_calls=[ToolCall.from_model(c) for c in turn.tool_calls], created_at=turn.created_at,
                   occurred_at=turn.occurred_at or turn.created_at, speaker=turn.speaker,
                   external_id=turn.external_id)


@strawberry.type(description="How far the curator has read a chat, and whether it can read at all")
class CuratorStatus:
    chat_id: str
    backlog: int = strawberry.field(description="Turns stored but not curated yet")
    explicit_backlog: int = strawberry.field(description="Of those, turns recorded by rememberThis")
    watermark: int = strawberry.field(description="Turns up to this seq are curated")
    last_seq: int = strawberry.field(description="The chat's latest turn (0: none yet)")
    last_turn_at: datetime | None
    model_configured: bool = strawberry.field(
        description="A model is configured and answered its check (false while it is checked or failing)")
    model: str | None = strawberry.field(description="The configured curator model, if any")
    how_to_configure: str | None = strawberry.field(
        description="When the model is missing or failing: what to change (null otherwise)")
    message: str = strawberry.field(description="The status in one sentence, for the owner")
    model_problem: str | None = strawberry.field(
        default=None, description="Why the configured model cannot answer, from its last check (null: none)")
    model_checked_at: datetime | None = strawberry.field(
        default=None, description="When the model was last checked (null: not checked)")


@strawberry.type(description="The prefilter's decision for one turn: whether it may hold anything durable, and why")
class PrefilterDecision:
    trigger: bool = strawberry.field(description="true: the curator looks at it; false: skipped, no LLM call")
    reasons: list[str] = strawberry.field(description="`category:what matched`, e.g. memory:merk dir, "
                                                      "skip:ack")


@strawberry.type(description="One curator LLM call")
class UsageRecord:
    id: strawberry.ID
    run_id: str
    model: str
    input_tokens: int
    output_tokens: int
    trigger_source: str
    recorded_at: datetime
    turns: int = strawberry.field(default=0, description="Chat turns the call read (0: not known)")


@strawberry.type(description="The owner's token bucket for curator LLM calls")
class CuratorQuota:
    level: float = strawberry.field(description="Tokens available now")
    capacity: float = strawberry.field(description="Most tokens the bucket holds (WORLDMEM_CURATOR_QUOTA_BURST)")
    per_day: float = strawberry.field(description="Refill per day (WORLDMEM_CURATOR_QUOTA_TOKENS_PER_DAY)")
    used_up: str | None = strawberry.field(
        default=None, description="When the bucket cannot pay for the smallest call: what that means and when "
                                  "waiting turns are curated (null otherwise); in the query's `language`")


@strawberry.type(description="What the curator's LLM calls cost since a time")
class CuratorUsage:
    since: datetime
    calls: int
    input_tokens: int
    output_tokens: int
    records: list[UsageRecord] = strawberry.field(description="Newest first, at most `limit`")
    quota: CuratorQuota
    turns: int = strawberry.field(default=0, description="Chat turns the calls read (calls that know it)")
    input_tokens_per_turn: float | None = strawberry.field(
        default=None, description="Input tokens per chat turn read (null: no turns known)")
    output_tokens_per_turn: float | None = strawberry.field(
        default=None, description="Output tokens per chat turn read (null: no turns known)")
