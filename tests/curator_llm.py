"""A scripted stand-in for the curator's LLM (pydantic-ai FunctionModel) and the turn helpers of the curator tests."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pydantic_ai.messages import ModelMessage, ModelMessagesTypeAdapter, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from curator.turns import ToolCall, TurnIn, record_turn
from graph.platform.db import Database

T0 = "2026-11-01T00:00:00Z"


@dataclass
class Text:
    """An answer in plain text instead of a call of the output tool."""

    content: str


Answer = dict[str, Any] | str | Text | Exception | Callable[[list[ModelMessage]], Any]


@dataclass
class Script:
    """Answers the LLM gives, in order (then an empty proposal); `calls` counts the requests it saw."""

    answers: list[Answer] = field(default_factory=list)
    default: Answer | None = None
    calls: int = 0
    prompts: list[str] = field(default_factory=list)
    sizes: list[int] = field(default_factory=list)  # bytes of each request's messages, as JSON

    def model(self) -> FunctionModel:
        return FunctionModel(self._answer, model_name="script")

    def _answer(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.calls += 1
        self.prompts.append(str(messages[-1]))
        self.sizes.append(len(ModelMessagesTypeAdapter.dump_json(messages)))
        answer: Any = self.answers.pop(0) if self.answers else self.default or {"operations": []}
        if callable(answer) and not isinstance(answer, Exception):
            answer = answer(messages)
        if isinstance(answer, Exception):
            raise answer
        if isinstance(answer, Text):
            return ModelResponse(parts=[TextPart(answer.content)])
        return ModelResponse(parts=[ToolCallPart(info.output_tools[0].name, answer)])


def ops(*operations: dict[str, Any]) -> dict[str, Any]:
    return {"operations": list(operations)}


def said(text: str) -> dict[str, Any]:
    return {"kind": "message", "text": text}


def fact(subject: str, predicate: str, value: Any, origin: str = "user_assertion", *, quote: str | None = None,
         **extra: Any) -> dict[str, Any]:
    """An assertion whose evidence quotes `quote` (words of a turn); without one, words no turn holds, so a
    claimed user_assertion is the curator's inference (curator.origin)."""
    return {"op": "assert_fact", "subject": subject, "predicate": predicate, "value": value, "valid_from": T0,
            "source": origin, "evidence": said(quote or f"{subject} {predicate} {value}"), **extra}


def rel(subject: str, predicate: str, obj: str, origin: str = "user_assertion", *, quote: str | None = None,
        **extra: Any) -> dict[str, Any]:
    return {"op": "assert_relationship", "subject": subject, "predicate": predicate, "object": obj,
            "valid_from": T0, "source": origin, "evidence": said(quote or f"{subject} {predicate} {obj}"), **extra}


def entity(ref: str, name: str, **extra: Any) -> dict[str, Any]:
    return {"op": "upsert_entity", "ref": ref, "kind": ref.split(":")[0], "canonical_name": name,
            "source": "user_assertion", **extra}


def turn(db: Database, owner: str, chat: str, text: str, role: str = "user", *, explicit: bool = False,
         tools: list[ToolCall] | None = None) -> int:
    stored = record_turn(db, owner, TurnIn.model_validate({"chat_id": chat, "role": role, "text": text,
                                                           "explicit": explicit, "tool_calls": tools or []}))
    return stored.seq


def by_turns(table: dict[str, list[dict[str, Any]]]) -> Callable[[Any], dict[str, Any]]:
    """An answer made of the operations of every known turn text among the prompt's NEW turns (so any
    batching of the same transcript gets the same operations, as from a consistent model)."""

    def answer(messages: Any) -> dict[str, Any]:
        text = str(messages)
        new = text[text.rfind("## New turns"):] if "## New turns" in text else text
        return ops(*[op for said_, operations in table.items() if said_ in new for op in operations])

    return answer
