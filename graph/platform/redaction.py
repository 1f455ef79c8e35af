"""Secrets never leave in text: provider keys, tokens, private keys and passwords are replaced.

Pure functions, one entry point (`scrub`, and `scrub_value` for JSON-like data), for everything a model
reads (the curator's turns, tool calls and Known World State) and any other text the store hands out of
process. Each pattern is a known, realistic credential shape (the prefix a provider documents, or a
structure like a JWT or a PEM block), or a secret someone names: an assignment (`password=...`,
`api_key: ...`) or a sentence ("mein Passwort ist hunter2", "my password is hunter2", "Lunas Passwort
lautet Katze123!"), short secrets included. A match becomes `[REDACTED:<kind>]` (a named secret keeps its
name), so a reader still sees that something secret was there and never what it was.
"""

from __future__ import annotations

import re
from typing import Any

# Words that name a password-like secret, German and English ("pin" and "pwd" only as whole words).
SECRET_WORDS = (r"passw(?:or)?[dt]|kennwort|passphrase|passcode|zugangscode|geheimzahl|geheimcode|"
                r"\bpin\b|\bpwd\b")
# What introduces the secret in a sentence.
SAYING = r"is|ist|lautet|lauten|was|war|are|sind|heißt|equals|wäre"

# What may follow the name of a secret before its verb ("das Passwort für das WLAN ist ...").
FOR = r"for|für|fürs|von|vom|of|zum|zur|at|on|bei|beim|des|der|to|in|im"
# Patterns whose first group is the secret's name (kept: "Passwort ist [REDACTED:said_secret]").
NAMED = frozenset({"assigned_secret", "said_secret"})

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
    # name = value assignments whose name says secret (password, api_key, token, secret, aws_secret_access_key)
    ("assigned_secret", re.compile(
        r"(?i)\b((?:[a-z0-9_-]*(?:" + SECRET_WORDS + r"|passwd|secret|api[_-]?key|token|private[_-]?key))"
        r"\s*[=:]\s*)"
        r"(['\"]?)(?!\[REDACTED)[^\s'\"]+\2")),
    # a password named in a sentence: "Passwort ist X", "my password for the router is X", "PIN lautet: 1234";
    # what stands between the name and the verb must start with a preposition ("my password manager is
    # great" names no secret), the secret is the next word (however short)
    ("said_secret", re.compile(
        r"(?i)(\w*(?:" + SECRET_WORDS + r")\w*"
        r"(?:[ \t]+(?:" + FOR + r")\b(?:[ \t]+(?!(?:" + SAYING + r")\b)[^\s:=]+){1,3}?)?"
        r"[ \t]+(?:" + SAYING + r")\b(?:[ \t]*:[ \t]*|[ \t]+))"
        r"(?!\[REDACTED)(?:\"[^\"\n]*\"|'[^'\n]*'|„[^“”\n]*[“”]|“[^”\n]*”|[^\s\"'“”]+)")),
)


def scrub(text: str) -> str:
    """`text` with every credential-shaped span replaced by `[REDACTED:<kind>]`."""
    for kind, pattern in PATTERNS:
        replace = f"[REDACTED:{kind}]"
        text = pattern.sub(rf"\1{replace}" if kind in NAMED else replace, text)
    return text


def scrub_value(value: Any) -> Any:
    """Scrub every string inside a JSON-like value (tool arguments and results)."""
    if isinstance(value, str):
        return scrub(value)
    if isinstance(value, list):
        return [scrub_value(v) for v in value]
    if isinstance(value, dict):
        return {k: scrub_value(v) for k, v in value.items()}
    return value
