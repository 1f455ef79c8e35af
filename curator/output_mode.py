"""How the curator asks a model for structured output: pydantic-ai's tool output, native JSON schema, or
prompted JSON, and which one works with a given model.

Hosted models do tool calls; many small local models (through Ollama, llama.cpp, vLLM) refuse a request with
tools ("does not support tools") or with a JSON-schema response format. The setting
WORLDMEM_CURATOR_OUTPUT_MODE picks one mode, or `auto`: tool first, then native, then prompted, moving on only
when the server refuses the request (an HTTP 4xx that is neither auth, a missing model, nor a rate limit).
What worked is remembered per model for the life of the process, so only the first call pays for a refusal.
"""

from __future__ import annotations

from typing import Literal, TypeVar

from pydantic import BaseModel
from pydantic_ai import NativeOutput, PromptedOutput, ToolOutput
from pydantic_ai.exceptions import (
    ModelAuthenticationError,
    ModelContextWindowExceededError,
    ModelHTTPError,
    ModelNotFoundError,
)

OutputMode = Literal["tool", "native", "prompted"]
Setting = Literal["auto", "tool", "native", "prompted"]
ORDER: tuple[OutputMode, ...] = ("tool", "native", "prompted")
# 400 (Ollama, vLLM), 422 (llama.cpp's server), 501 (servers without the feature at all)
REFUSAL_STATUSES = frozenset({400, 422, 501})

_WORKED: dict[str, OutputMode] = {}
T = TypeVar("T", bound=BaseModel)


def attempts(setting: Setting, label: str) -> list[OutputMode]:
    """The modes to try, in order, for the model `label` under `setting`."""
    if setting != "auto":
        return [setting]
    known = _WORKED.get(label)
    return [known] if known is not None else list(ORDER)


def remember(label: str, mode: OutputMode) -> None:
    _WORKED[label] = mode


def forget(label: str) -> None:
    """A remembered mode that stopped working (the server changed): try every mode again next time."""
    _WORKED.pop(label, None)


def known(label: str) -> OutputMode | None:
    return _WORKED.get(label)


def is_refusal(exc: BaseException) -> bool:
    """Whether the server refused the request's *shape* (tools, a response format), not the caller or the model."""
    if isinstance(exc, ModelAuthenticationError | ModelNotFoundError | ModelContextWindowExceededError):
        return False
    return isinstance(exc, ModelHTTPError) and exc.status_code in REFUSAL_STATUSES


def output_spec(mode: OutputMode, output: type[T]) -> ToolOutput[T] | NativeOutput[T] | PromptedOutput[T]:
    if mode == "tool":
        return ToolOutput(output)
    if mode == "native":
        return NativeOutput(output)
    return PromptedOutput(output)
