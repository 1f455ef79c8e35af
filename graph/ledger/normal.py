"""Comparable forms of what people write: the same words in another case, spacing, Unicode form or
punctuation compare equal. Pure functions.

Used where a value must be recognised in another spelling: an owner's rejection holds for "Suppress me",
"suppress-me" and "suppress me " alike (graph.ledger.suppression), and the curator checks that a quoted
span really is in a user's turn (curator.origin).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

_NOT_WORD = re.compile(r"[^\w]+", re.UNICODE)
_LEADING_ZEROS = re.compile(r"(?<!\w)0+(?=\d)")


def normal_text(text: str) -> str:
    """NFKC, case-folded, every run of punctuation or whitespace one space, numbers without leading zeros
    ("07:30" and "7.30" are both "7 30")."""
    folded = unicodedata.normalize("NFKC", text).casefold().replace("_", " ")
    spaced = _NOT_WORD.sub(" ", folded).strip()
    return _LEADING_ZEROS.sub("", spaced)


def normal_value(value: Any) -> Any:
    """A JSON value with every string in its normal form (numbers, booleans and keys as they are)."""
    if isinstance(value, str):
        return normal_text(value)
    if isinstance(value, list):
        return [normal_value(v) for v in value]
    if isinstance(value, dict):
        return {k: normal_value(v) for k, v in value.items()}
    return value


def normal_value_key(key: str) -> str:
    """graph.ledger.facts.value_key in normal form: an entity key as it is, a literal's strings normalised."""
    if not key.startswith("literal:"):
        return key
    try:
        value = json.loads(key.removeprefix("literal:"))
    except ValueError:
        return key
    return "literal:" + json.dumps(normal_value(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
