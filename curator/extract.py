"""The LLM step: pydantic-ai with `output_type` = the proposal model; messy output never loses data.

- A bad answer (text instead of the output tool, broken JSON, a schema error) gets exactly one retry: a new
  request with the prompt and a short note of what was wrong (at most RETRY_NOTE_CHARS), never the bad
  answer itself, so a retry costs one call and about the size of the first request whatever came back.
- When the retry fails too, its answer is salvaged operation by operation: every operation that parses
  is kept, every one that does not is dropped with its reason (never silently).
- At most `max_ops` operations (settings.curator_max_operations) of an answer are kept; the rest are
  dropped as one TOO_MANY_OPS record.
- Nothing usable (no JSON, a timeout, a provider error) is a failed analysis: the runtime records it and
  leaves the watermark where it was, so the same turns are curated later.
The model comes from settings (`build_model`): a pydantic-ai model string, or an OpenAI-compatible server.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass, field
from typing import Any

from pydantic import Field, TypeAdapter, ValidationError
from pydantic_ai import Agent, AgentRunError, AgentRunResult, UnexpectedModelBehavior, capture_run_messages
from pydantic_ai.exceptions import ModelHTTPError
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models import Model, infer_model

from curator.batch import Analysis, Batch, Dropped
from curator.model_errors import classify
from curator.output_mode import OutputMode, Setting, attempts, forget, is_refusal, output_spec, remember
from curator.prompt import SYSTEM_PROMPT
from graph.ledger.proposal import MemoryMutationProposal, Operation
from graph.ledger.registries import describe
from graph.settings import Settings

log = logging.getLogger("worldmem.curator")
OPERATION: TypeAdapter[Any] = TypeAdapter(Operation)
MAX_OPS = 200
RETRY_NOTE_CHARS = 2000


class CuratorDraft(MemoryMutationProposal):
    """What the LLM returns: a MemoryMutationProposal whose run id and chat the runtime fills in."""

    run_id: str = Field(default="curator", min_length=1, max_length=200, description="Ignored: set by the runtime")
    proposed_by: str = Field(default="curator", max_length=100)


class ModelNotConfigured(Exception):
    """Raised by `build_model` when a configured model cannot be built (a missing key, an unknown name)."""


def build_model(settings: Settings) -> Model | None:
    """The curator's model from settings, or None when none is configured (then nothing is curated)."""
    try:
        if settings.curator_base_url:
            from pydantic_ai.models.openai import OpenAIChatModel
            from pydantic_ai.providers.openai import OpenAIProvider

            provider = OpenAIProvider(base_url=settings.curator_base_url, api_key=settings.curator_api_key or "none")
            return OpenAIChatModel(settings.curator_model_name, provider=provider)
        if settings.curator_model:
            return infer_model(settings.curator_model)
    except Exception as exc:  # a provider's own errors (missing key, unknown model): one message for the owner
        raise ModelNotConfigured(f"the curator model cannot be used: {exc}") from exc
    return None


def model_label(model: Model) -> str:
    return f"{model.system}:{model.model_name}"


_AGENTS: dict[tuple[int, OutputMode], tuple[Model, Agent[None, CuratorDraft]]] = {}


def agent(model: Model, mode: OutputMode = "tool") -> Agent[None, CuratorDraft]:
    """The curator agent of `model` asking for output in `mode` (curator.output_mode), built once: building
    one derives the proposal's JSON schema (~180 ms)."""
    known = _AGENTS.get((id(model), mode))
    if known is None or known[0] is not model:
        known = (model, Agent(model, output_type=output_spec(mode, CuratorDraft), system_prompt=SYSTEM_PROMPT,
                              retries={"output": 0}, name="curator"))
        _AGENTS[(id(model), mode)] = known
    return known[1]


async def run_structured(model: Model, prompt: str, timeout_s: float, setting: Setting = "auto",
                         messages: list[ModelMessage] | None = None, *,
                         probing: bool = False) -> AgentRunResult[CuratorDraft]:
    """One curator call in the first output mode the server accepts (curator.output_mode); what worked is
    remembered for the model. Raises the last refusal when the server accepts none. `messages` receives the
    messages of the last attempt (also when it raises), for `salvage`. `probing` (the model check) moves on
    also when a mode's answer is not usable, since some models ignore tools but follow a prompted schema."""
    label = model_label(model)
    modes = attempts(setting, label)
    for mode in modes:
        try:
            with capture_run_messages() as captured:
                try:
                    result = await agent(model, mode).run(prompt, timeout=timeout_s)
                finally:
                    if messages is not None:
                        messages[:] = captured
        except (ModelHTTPError, UnexpectedModelBehavior) as exc:
            usable_shape = is_refusal(exc) or (probing and isinstance(exc, UnexpectedModelBehavior))
            if not usable_shape or mode == modes[-1]:
                if is_refusal(exc):  # the remembered mode stopped working: try them all next time
                    forget(label)
                raise
            log.info("the curator model %s gave nothing usable in %s output; trying the next mode", label, mode)
            continue
        remember(label, mode)
        return result
    raise AssertionError("attempts() always names at least one mode")


@dataclass
class _Attempt:
    """One request to the model: its output, or why there is none (`failure`: no retry helps)."""

    output: CuratorDraft | None = None
    messages: list[ModelMessage] = field(default_factory=list)
    failure: str | None = None
    why: str = ""


async def _ask(model: Model, prompt: str, timeout_s: float, mode: Setting) -> _Attempt:
    messages: list[ModelMessage] = []
    try:
        result = await run_structured(model, prompt, timeout_s, mode, messages)
    except UnexpectedModelBehavior as exc:
        # The retry note and a failed run's record hold our classification, never the provider's text.
        return _Attempt(messages=messages, why=classify(exc).text())
    except (AgentRunError, TimeoutError) as exc:  # the provider's text is never kept (curator.model_errors)
        return _Attempt(messages=messages, failure=classify(exc).text())
    return _Attempt(output=result.output, messages=messages)


async def analyse(batch: Batch, model: Model, timeout_s: float, max_ops: int = MAX_OPS,
                  mode: Setting = "auto") -> Analysis:
    """Ask the model for a proposal about `batch`; see the module docstring for what happens to bad output."""
    label = model_label(model)
    tries = [await _ask(model, batch.prompt, timeout_s, mode)]
    if tries[0].output is None and tries[0].failure is None:
        tries.append(await _ask(model, batch.prompt + "\n\n" + retry_note(tries[0], max_ops), timeout_s, mode))
    last = tries[-1]
    tokens_in, tokens_out = _tokens([m for a in tries for m in a.messages])
    retried = len(tries) > 1
    if last.failure is not None:
        log.warning("curator run %s failed: %s", batch.run_id, last.failure.split(":", 1)[0])
        return Analysis(error=last.failure, model=label, retried=retried, input_tokens=tokens_in,
                        output_tokens=tokens_out)
    if last.output is None:
        analysis = salvage(last.messages, label, last.why, max_ops)
    else:
        analysis = Analysis(model=label, retried=retried)
        _keep(analysis, [op.model_dump(mode="json") for op in last.output.operations], max_ops)
    analysis.input_tokens, analysis.output_tokens = tokens_in, tokens_out
    return analysis


def retry_note(attempt: _Attempt, max_ops: int) -> str:
    """What the retry tells the model about its first answer: the problem, bounded, never the answer itself."""
    raw = _last_answer(attempt.messages)
    if not isinstance(raw, dict):
        problem = "it was not a JSON proposal passed to the output tool"
    else:
        try:
            CuratorDraft.model_validate(raw)
            problem = attempt.why
        except ValidationError as exc:
            problem = describe(exc)
    return (f"## Your previous answer was rejected\n{problem[:RETRY_NOTE_CHARS]}\nAnswer again with one call of "
            f"the output tool and at most {max_ops} operations (propose nothing rather than guess).")


def salvage(messages: list[ModelMessage], label: str, why: str, max_ops: int = MAX_OPS) -> Analysis:
    """The last answer, operation by operation: the ones that parse are kept, the rest dropped with a reason."""
    raw = _last_answer(messages)
    analysis = Analysis(model=label, retried=True)
    if not isinstance(raw, dict) or not isinstance(raw.get("operations"), list):
        analysis.error = why
        return analysis
    items = raw["operations"]
    for index, item in enumerate(items[:max_ops]):
        try:
            op = OPERATION.validate_python(item)
        except ValidationError as exc:
            analysis.dropped.append(Dropped(op_index=index, op=item, code="INVALID_OP", reason=describe(exc)))
            continue
        analysis.operations.append(op.model_dump(mode="json"))
        analysis.indexes.append(index)
    _overflow(analysis, len(items), max_ops)
    return analysis


def _keep(analysis: Analysis, ops: list[dict[str, Any]], max_ops: int) -> None:
    analysis.operations = ops[:max_ops]
    analysis.indexes = list(range(len(analysis.operations)))
    _overflow(analysis, len(ops), max_ops)


def _overflow(analysis: Analysis, count: int, max_ops: int) -> None:
    """Operations beyond `max_ops` are dropped as one record (not one per operation: an answer may be huge)."""
    if count > max_ops:
        analysis.dropped.append(Dropped(op_index=max_ops, op={"operations": count - max_ops}, code="TOO_MANY_OPS",
                                        reason=f"one run commits at most {max_ops} operations; "
                                               f"{count - max_ops} more were proposed"))


def _last_answer(messages: list[ModelMessage]) -> Any:
    """The JSON of the model's last answer (an output tool call's arguments, or its text), or None."""
    for message in reversed(messages):
        if not isinstance(message, ModelResponse):
            continue
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                args = part.args
                return _json(args) if isinstance(args, str) else args if isinstance(args, dict) else None
            if isinstance(part, TextPart):
                return _json(part.content)
        return None
    return None


def _json(value: str | dict[str, Any] | None) -> Any:
    if isinstance(value, dict) or value is None:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return None


def _tokens(messages: list[ModelMessage]) -> tuple[int, int]:
    responses = [m for m in messages if isinstance(m, ModelResponse)]
    return (sum(m.usage.input_tokens or 0 for m in responses), sum(m.usage.output_tokens or 0 for m in responses))

