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

from curator import prefilter, quota, usage
from curator import status as st
from curator import turns as t
from curator.mentions import known_names
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
    @strawberry.field(description="How far the curator has read a chat (backlog, watermark) and whether a "
                                  "model is configured; `language` en or de for the message")
    async def curator_status(self, info: Info[Any, Any], chat_id: str, language: str = "en") -> CuratorStatus:
        lang = st.language(language)
        settings = info.context.settings
        model = settings.curator_model or (f"openai-compatible:{settings.curator_model_name}"
                                           if settings.curator_base_url else None)
        s = await blocking(st.chat_status, database(info), principal(info).owner, chat_id, model)
        return CuratorStatus(chat_id=s.chat_id, backlog=s.backlog, explicit_backlog=s.explicit_backlog,
                             watermark=s.watermark, last_seq=s.last_seq, last_turn_at=s.last_turn_at,
                             model_configured=s.model_configured, model=s.model,
                             how_to_configure=st.how_to_configure(s, lang), message=st.message(s, lang))

    @strawberry.field(description="The prefilter's decision for one user turn, with its reasons (names of the "
                                  "owner's entities count as mentions; `chatId` adds that chat's aliases)")
    async def prefilter_decision(self, info: Info[Any, Any], text: str,
                                 chat_id: str | None = None) -> PrefilterDecision:
        if len(text) > t.MAX_TEXT:
            raise BadInput(f"text must be at most {t.MAX_TEXT} characters", code="INVALID_TURN")
        names = await blocking(known_names, database(info), principal(info).owner, text, chat_id)
        decision = prefilter.decide(text, known_names=names)
        return PrefilterDecision(trigger=decision.trigger, reasons=list(decision.reasons))

    @strawberry.field(description="The curator's LLM calls since `since` (tokens, models, run ids) and the "
                                  "owner's quota now")
    async def curator_usage(self, info: Info[Any, Any], since: datetime, limit: int = 100) -> CuratorUsage:
        owner, db = principal(info).owner, database(info)
        report = await blocking(usage.usage_since, db, owner, since, limit)
        bucket = await blocking(quota.bucket, db, owner, settings=info.context.settings)
        return CuratorUsage(
            since=report.since, calls=report.calls, input_tokens=report.input_tokens,
            output_tokens=report.output_tokens,
            records=[UsageRecord(id=strawberry.ID(r.id), run_id=r.run_id, model=r.model, input_tokens=r.input_tokens,
                                 output_tokens=r.output_tokens, trigger_source=r.trigger_source,
                                 recorded_at=r.recorded_at) for r in report.records],
            quota=CuratorQuota(level=bucket.level, capacity=bucket.capacity, per_day=bucket.per_day))


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
