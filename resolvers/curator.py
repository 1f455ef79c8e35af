"""The curator's intake over GraphQL: recordTurn, rememberThis, curatorStatus.

A turn is stored first (its own transaction), then the app's TurnListener is told (the debounce
runtime; by default nobody). A listener that fails never fails the chat: the turn is stored and the
catch-up reconciler finds it through the watermark.
"""

from __future__ import annotations

import logging
from datetime import datetime
from typing import Any

import strawberry
from pydantic import ValidationError
from strawberry.types import Info

from curator import prefilter, quota, records, usage
from curator import status as st
from curator import turns as t
from curator.mentions import known_names
from curator.pipeline import OUTPUT_ESTIMATE
from curator.prompt import SYSTEM_PROMPT
from graph.agent.render import approx_tokens
from graph.errors import BadInput
from resolvers.context import blocking, database, principal
from resolvers.curator_types import (
    ChatTurn,
    CuratorQuota,
    CuratorStatus,
    CuratorUsage,
    PrefilterDecision,
    ToolCallInput,
    TurnRole,
    UsageRecord,
)

log = logging.getLogger("worldmem.curator")


def smallest_call() -> float:
    """Tokens the quota reserves for a call with an empty prompt: a bucket below this pays for none."""
    return approx_tokens(SYSTEM_PROMPT) + OUTPUT_ESTIMATE


def _turn_in(**fields: Any) -> t.TurnIn:
    try:
        return t.TurnIn(**fields)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()[:3])
        raise BadInput(problems, code="INVALID_TURN") from None


def _tool_calls(calls: list[ToolCallInput] | None) -> list[t.ToolCall]:
    try:
        return [c.to_model() for c in calls or []]
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors()[:3])
        raise BadInput(f"toolCalls: {problems}", code="INVALID_TURN") from None


async def _record(info: Info[Any, Any], turn: t.TurnIn) -> ChatTurn:
    owner = principal(info).owner
    stored = await blocking(t.record_turn, database(info), owner, turn)
    listener: t.TurnListener = getattr(info.context, "turn_listener", t.NO_LISTENER)
    try:
        listener.on_turn(owner, stored.chat_id, stored.explicit)
    except Exception:  # the turn is stored; the reconciler will find it through the watermark
        log.exception("turn listener failed for a turn of chat %s", stored.chat_id)
    return ChatTurn.from_model(stored)


@strawberry.type
class CuratorQuery:
    @strawberry.field(description="How far the curator has read a chat (backlog, watermark) and whether its "
                                  "model answers; `language` en or de for the messages")
    async def curator_status(self, info: Info[Any, Any], chat_id: str, language: str = "en") -> CuratorStatus:
        lang = st.language(language)
        view = st.model_view(info.context.settings, getattr(info.context, "curator_health", None))
        owner, db = principal(info).owner, database(info)
        last = await blocking(records.runs, db, owner, chat_id, 1)
        if last:
            view = st.after_last_run(view, info.context.settings, last[0].error, last[0].recorded_at)
        s = await blocking(st.chat_status, db, owner, chat_id, view)
        said = st.message(s, lang)
        if s.backlog and s.model_configured:  # a working model that may not be paid for
            bucket = await blocking(quota.bucket, db, owner, settings=info.context.settings)
            said = " ".join(filter(None, [said, quota.used_up(bucket, smallest_call(), lang)]))
        return CuratorStatus(chat_id=s.chat_id, backlog=s.backlog, explicit_backlog=s.explicit_backlog,
                             watermark=s.watermark, last_seq=s.last_seq, last_turn_at=s.last_turn_at,
                             model_configured=s.model_configured, model=s.model,
                             how_to_configure=st.how_to_configure(s, lang), message=said,
                             model_problem=st.model_problem(s, lang), model_checked_at=view.checked_at)

    @strawberry.field(description="The prefilter's decision for one user turn, with its reasons (names of the "
                                  "owner's entities count as mentions; `chatId` adds that chat's aliases)")
    async def prefilter_decision(self, info: Info[Any, Any], text: str,
                                 chat_id: str | None = None) -> PrefilterDecision:
        if len(text) > t.MAX_TEXT:
            raise BadInput(f"text must be at most {t.MAX_TEXT} characters", code="INVALID_TURN")
        names = await blocking(known_names, database(info), principal(info).owner, text, chat_id)
        decision = prefilter.decide(text, known_names=names)
        return PrefilterDecision(trigger=decision.trigger, reasons=list(decision.reasons))

    @strawberry.field(description="The curator's LLM calls since `since` (tokens, models, run ids, tokens per "
                                  "turn) and the owner's quota now; `language` en or de for its note")
    async def curator_usage(self, info: Info[Any, Any], since: datetime, limit: int = 100,
                            language: str = "en") -> CuratorUsage:
        lang = st.language(language)
        owner, db = principal(info).owner, database(info)
        report = await blocking(usage.usage_since, db, owner, since, limit)
        bucket = await blocking(quota.bucket, db, owner, settings=info.context.settings)
        return CuratorUsage(
            since=report.since, calls=report.calls, input_tokens=report.input_tokens,
            output_tokens=report.output_tokens, turns=report.turns, input_tokens_per_turn=report.input_per_turn,
            output_tokens_per_turn=report.output_per_turn,
            records=[UsageRecord(id=strawberry.ID(r.id), run_id=r.run_id, model=r.model, input_tokens=r.input_tokens,
                                 output_tokens=r.output_tokens, trigger_source=r.trigger_source,
                                 recorded_at=r.recorded_at, turns=r.turns) for r in report.records],
            quota=CuratorQuota(level=bucket.level, capacity=bucket.capacity, per_day=bucket.per_day,
                               used_up=quota.used_up(bucket, smallest_call(), lang)))


@strawberry.type
class CuratorMutation:
    @strawberry.mutation(description="Store one chat turn (numbered per chat): the curator's input and a "
                                     "searchable episode; `occurredAt` when it was said (default now), "
                                     "`externalId` makes it replayable")
    async def record_turn(self, info: Info[Any, Any], chat_id: str, text: str, role: TurnRole = TurnRole.USER,
                          run_id: str | None = None, thinking: str | None = None,
                          tool_calls: list[ToolCallInput] | None = None, occurred_at: datetime | None = None,
                          speaker: str | None = None, external_id: str | None = None) -> ChatTurn:
        turn = _turn_in(chat_id=chat_id, run_id=run_id, role=role.value, text=text, thinking=thinking,
                        tool_calls=_tool_calls(tool_calls), occurred_at=occurred_at, speaker=speaker,
                        external_id=external_id)
        return await _record(info, turn)

    @strawberry.mutation(description="\"Remember this\" as an explicit act: stored as a user turn that "
                                     "skips the debounce")
    async def remember_this(self, info: Info[Any, Any], chat_id: str, text: str) -> ChatTurn:
        if not text.strip():
            raise BadInput("text must not be empty", code="INVALID_TURN")
        return await _record(info, _turn_in(chat_id=chat_id, role="user", text=text, explicit=True))
