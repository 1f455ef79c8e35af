"""Secrets never reach a stored episode, an embedding or the curator's LLM: provider keys, tokens, private keys
and passwords are replaced.

Pure functions. Each pattern is a known, realistic credential shape (the prefix a provider documents, or a
structure like a JWT or a PEM block); a match becomes `[REDACTED:<kind>]`, so a reader still sees that something
secret was there and never what it was.
"""

from __future__ import annotations

import re
from typing import Any

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("private_key", re.compile(
        r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----.*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY( BLOCK)?-----",
        re.DOTALL)),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("anthropic_key", re.compile(r"\bsk-ant-[A-Za-z0-9_-]{20,}")),
    ("openai_key", re.compile(r"\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}")),
    ("github_token", re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}|\bgithub_pat_[A-Za-z0-9_]{40,}")),
    ("aws_access_key", re.compile(r"\b(?:AKIA|ASIA)[A-Z0-9]{16}\b")),
    ("slack_token", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),
    ("google_api_key", re.compile(r"\bAIza[0-9A-Za-z_-]{35}")),
    ("stripe_key", re.compile(r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("worldmem_token", re.compile(r"\bwm_[A-Za-z0-9_-]{40,}")),
    ("bearer", re.compile(r"(?i)\bbearer\s+[A-Za-z0-9._~+/=-]{20,}")),
    ("url_password", re.compile(r"(?<=://)[^/\s:@]+:[^/\s@]+(?=@)")),
    # key = value assignments whose name says secret (password, api_key, token, secret, aws_secret_access_key)
    ("assigned_secret", re.compile(
        r"(?i)\b((?:[a-z0-9_]*(?:password|passwd|secret|api[_-]?key|token|private[_-]?key))\s*[=:]\s*)"
        r"(['\"]?)(?!\[REDACTED)[^\s'\"]{8,}\2")),
)


def scrub(text: str) -> str:
    """`text` with every credential-shaped span replaced by `[REDACTED:<kind>]`."""
    for kind, pattern in PATTERNS:
        if kind == "assigned_secret":
            text = pattern.sub(_keep_name, text)
        else:
            text = pattern.sub(f"[REDACTED:{kind}]", text)
    return text


def _keep_name(match: re.Match[str]) -> str:
    return f"{match.group(1)}[REDACTED:assigned_secret]"


def scrub_value(value: Any) -> Any:
    """Scrub every string inside a JSON-like value (tool arguments and results)."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, list):
        return [scrub_value(v) for v in value]
    if isinstance(value, dict):
        return {k: scrub_value(v) for k, v in value.items()}
    return value
