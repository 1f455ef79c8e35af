"""A failed model call, as the owner may read it: a class and a detail the server wrote, never the provider's text.

A provider's error body is not ours to show: OpenAI's 401 quotes the API key it was sent ("Incorrect API key
provided: sk-proj-..."), which is the server's key, and `curatorRuns` is read with agent tokens. So a failure is
recorded as `model error (<kind>): <detail>`, where the kind is one of KINDS and the detail is built here from
the exception's type and HTTP status only. `shown` is the last guard on any error text that reaches a run
record or a reader (texts stored before this existed included): it cuts a provider body off and scrubs
whatever looks like a credential.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

import httpx
from pydantic_ai import UnexpectedModelBehavior
from pydantic_ai.exceptions import (
    ModelAuthenticationError,
    ModelConnectionError,
    ModelHTTPError,
    ModelQuotaExceededError,
    ModelRateLimitError,
    ModelRequestTimeout,
    ModelServerError,
    ModelUnavailableError,
)

from graph.platform.redaction import scrub

Kind = Literal["auth", "rate_limit", "timeout", "bad_output", "unreachable", "other"]
KINDS: tuple[Kind, ...] = ("auth", "rate_limit", "timeout", "bad_output", "unreachable", "other")
MAX_SHOWN = 300
DETAILS: dict[Kind, str] = {
    "auth": "the model provider refused the server's credentials; the admin checks the curator's API key",
    "rate_limit": "the model provider is limiting requests or the account is out of quota; tried again later",
    "timeout": "the model gave no answer within the curator's timeout; tried again later",
    "bad_output": "the model's answer was no usable proposal, also after a retry",
    "unreachable": "the model provider could not be reached or failed on its side; tried again later",
    "other": "the model call failed",
}
# Where a provider's own text starts in pydantic-ai's and the SDKs' messages ("..., body: {...}").
BODY = re.compile(r"(?is)[,;]?\s*\bbody\s*[:=].*$")
# Any long unbroken run of token characters: keys of providers scrub.py has no pattern for.
OPAQUE = re.compile(r"[A-Za-z0-9_\-+/=]{32,}")


@dataclass(frozen=True)
class ModelFailure:
    kind: Kind
    status: int | None = None  # the provider's HTTP status, when there was one
    error_type: str = ""  # the exception's class name (ours or the library's, never provider text)

    def text(self) -> str:
        """What the run record holds and `curatorRuns` shows."""
        where = ", ".join(part for part in (f"HTTP {self.status}" if self.status else "", self.error_type) if part)
        return f"model error ({self.kind}): {DETAILS[self.kind]}" + (f" ({where})" if where else "")


def classify(exc: BaseException) -> ModelFailure:
    """The class of a model call's failure, from the exception's type and HTTP status alone."""
    status = exc.status_code if isinstance(exc, ModelHTTPError) else None
    return ModelFailure(kind=_kind(exc, status), status=status, error_type=type(exc).__name__)


def _kind(exc: BaseException, status: int | None) -> Kind:
    if isinstance(exc, ModelAuthenticationError) or status in (401, 403):
        return "auth"
    if isinstance(exc, (ModelRateLimitError, ModelQuotaExceededError)) or status == 429:
        return "rate_limit"
    if isinstance(exc, (TimeoutError, ModelRequestTimeout, httpx.TimeoutException)) or status in (408, 504):
        return "timeout"
    if isinstance(exc, UnexpectedModelBehavior):
        return "bad_output"
    if isinstance(exc, (ModelConnectionError, ModelUnavailableError, ModelServerError, httpx.TransportError,
                        OSError)) or (status is not None and status >= 500):
        return "unreachable"
    return "other"


def shown(text: str | None) -> str | None:
    """`text` fit to store and show: a provider body cut off, credentials scrubbed, at most MAX_SHOWN characters.
    Texts this module wrote pass unchanged."""
    if text is None:
        return None
    if any(text.startswith(f"model error ({kind}): {DETAILS[kind]}") for kind in KINDS):
        return text[:MAX_SHOWN]
    cut = BODY.sub(" (the provider's text is not kept)", text.strip())
    cleaned = OPAQUE.sub("[REDACTED]", scrub(cut))
    return cleaned.splitlines()[0][:MAX_SHOWN] if cleaned else cleaned
