"""Can the configured curator model answer? One tiny structured call, and what to change when it cannot.

Run when the server and the worker start, again while it fails (curator.health), and on demand
(`worldmem curator check`). Each failure shape gets its own kind and a sentence in English and German
saying what is wrong and which setting to change (curator.check_text).
"""

from __future__ import annotations

import time
from typing import Literal

from pydantic import BaseModel
from pydantic_ai import AgentRunError, UnexpectedModelBehavior
from pydantic_ai.exceptions import (
    ModelAuthenticationError,
    ModelConnectionError,
    ModelHTTPError,
    ModelNotFoundError,
    ModelRequestTimeout,
    ModelTimeoutError,
    RunTimedOut,
)
from pydantic_ai.models import Model

from curator import output_mode
from curator.check_text import Texts, texts
from curator.extract import ModelNotConfigured, build_model, model_label, run_structured
from curator.model_errors import shown
from graph.settings import Settings

Kind = Literal["ok", "not_configured", "unusable", "auth", "unreachable", "wrong_path", "model_missing",
               "no_structured_output", "slow", "failed"]
CHECK_PROMPT = ("This is a connection check, not a conversation: nothing is to be remembered. "
                "Answer with a proposal that has no operations.")


class CheckResult(BaseModel):
    """One check's outcome; `problem` and `fix` are owner-facing, keyed by language (en, de)."""

    kind: Kind
    model: str | None = None
    mode: output_mode.OutputMode | None = None
    seconds: float = 0.0
    detail: str = ""
    problem: dict[str, str] = {}
    fix: dict[str, str] = {}

    @property
    def ok(self) -> bool:
        return self.kind == "ok"


def configured_label(settings: Settings) -> str | None:
    """The model the settings name (without building it), as curatorStatus shows it."""
    if settings.curator_base_url:
        return f"openai-compatible:{settings.curator_model_name} at {settings.curator_base_url}"
    return settings.curator_model or None


def build(settings: Settings) -> tuple[Model | None, CheckResult | None]:
    """The settings' model, or the result saying why there is none (not configured, or unusable)."""
    try:
        model = build_model(settings)
    except ModelNotConfigured as exc:
        said = _first_line(exc.__cause__ or exc)
        return None, result(settings, "unusable", configured_label(settings), detail=said.split(". ")[0])
    if model is None:
        return None, result(settings, "not_configured", None)
    return model, None


async def check(settings: Settings, model: Model | None = None) -> CheckResult:
    """One tiny structured call to `model` (default: the settings' model), classified."""
    if model is None:
        model, failed = build(settings)
        if model is None:
            assert failed is not None
            return failed
    label = model_label(model)
    started = time.monotonic()
    tried = output_mode.attempts(settings.curator_output_mode, label)
    try:
        await run_structured(model, CHECK_PROMPT, settings.curator_check_timeout_s, settings.curator_output_mode,
                             probing=True)
    except (AgentRunError, TimeoutError) as exc:
        kind = classify(exc)
        detail = f"tried {', '.join(tried)}" if kind == "no_structured_output" else _said(exc)
        return result(settings, kind, label, detail=detail, seconds=time.monotonic() - started)
    mode = output_mode.known(label)
    return result(settings, "ok", label, seconds=time.monotonic() - started, mode=mode)


def classify(exc: BaseException) -> Kind:
    """The failure shape of a model call's exception."""
    if isinstance(exc, ModelAuthenticationError):
        return "auth"
    if isinstance(exc, ModelTimeoutError | ModelRequestTimeout | RunTimedOut | TimeoutError):
        return "slow"
    if isinstance(exc, ModelConnectionError):
        return "unreachable"
    if isinstance(exc, ModelNotFoundError):
        return "model_missing" if _names_a_model(exc.body) else "wrong_path"
    if isinstance(exc, UnexpectedModelBehavior) or (isinstance(exc, ModelHTTPError)
                                                    and output_mode.is_refusal(exc)):
        return "no_structured_output"
    return "failed"


def _names_a_model(body: object) -> bool:
    """A 404 from the API itself names the model ("model 'x' not found"); a wrong path gets the web
    server's page ("404 page not found", an HTML error page)."""
    if isinstance(body, dict):
        body = body.get("message") or body.get("error") or ""
    return isinstance(body, str) and "model" in body.lower() and "<html" not in body.lower()


def result(settings: Settings, kind: Kind, label: str | None, *, detail: str = "", seconds: float = 0.0,
           mode: output_mode.OutputMode | None = None) -> CheckResult:
    seconds = round(seconds, 1)
    said: Texts = texts(kind, settings, label, detail, seconds)
    return CheckResult(kind=kind, model=label, mode=mode, seconds=seconds, detail=detail,
                       problem=said.problem, fix=said.fix)


def _said(exc: BaseException) -> str:
    """What the server said (its error message), else the exception's first line; through the same guard as
    a run's error (curator.model_errors.shown): a provider's message may quote the server's key, and the
    check's text reaches curatorStatus, which agent tokens read."""
    if isinstance(exc, ModelHTTPError) and isinstance(exc.body, dict):
        message = exc.body.get("message") or exc.body.get("error")
        if isinstance(message, str) and message:
            return shown(f"HTTP {exc.status_code}: {message}") or ""
    return shown(_first_line(exc)) or ""


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__
