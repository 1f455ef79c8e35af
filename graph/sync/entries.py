"""What an integration syncs, what each entry came to, and the pure parts of a sync (checks, hash, diff).

An entry is one row of the source system: `sourceEntryId` (the source's own row id), `kind` (a registered
entity kind), `externalId` (the real thing's id: one entity per kind and external id), `content` (a JSON
object: each key is a predicate, each value that predicate's value) and `observedAt` (when the source saw
it). A bare content key names a predicate of the integration's own namespace (`state` from integration
`github` is `github:state`); a namespaced key (`github:state`) is used as it is.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from graph.ledger.entity import REF
from graph.ledger.registries import KEY_RE
from graph.timebounds import in_range

MAX_ENTRIES = 10_000
MAX_KEYS = 64
MAX_ID = 200
SOURCE_RE = re.compile(r"^[a-z0-9][a-z0-9_.\-/]{0,99}$")
FUTURE_SKEW = timedelta(seconds=5)
Status = Literal["created", "changed", "unchanged", "rejected"]


class SyncEntry(BaseModel):
    source_entry_id: str
    kind: str
    external_id: str
    content: dict[str, Any]
    observed_at: datetime


class EntryResult(BaseModel):
    index: int
    source_entry_id: str
    kind: str
    external_id: str
    status: Status
    ref: str | None = None
    changed: list[str] = Field(default_factory=list, description="Predicates whose value changed")
    event_id: str | None = None
    code: str | None = None
    message: str | None = None


class SyncOutcome(BaseModel):
    source: str
    recorded_at: datetime | None = None
    created: int = 0
    changed: int = 0
    unchanged: int = 0
    rejected: int = 0
    entries: list[EntryResult] = Field(default_factory=list)

    def count(self) -> SyncOutcome:
        for status in ("created", "changed", "unchanged", "rejected"):
            setattr(self, status, sum(1 for e in self.entries if e.status == status))
        return self


class EntryRejected(Exception):
    """Why one entry is not synced (the others go on)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Change:
    """One predicate of one entry: its value before (None when new) and now (None when removed)."""

    predicate: str
    before: Any
    after: Any
    removed: bool = False


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def content_hash(content: Mapping[str, Any]) -> str:
    return hashlib.sha256(canonical(content).encode()).hexdigest()


def predicate_of(key: str, integration: str) -> str:
    return key if ":" in key else f"{integration}:{key}"


def ref_of(kind: str, external_id: str) -> str:
    return f"{kind}:{external_id}"


def check_source(source: str) -> None:
    if not SOURCE_RE.match(source):
        raise EntryRejected("BAD_INPUT", "source is 1-100 of a-z, 0-9 and _.-/, starting with a letter or digit")


def check_entry(entry: SyncEntry, now: datetime, max_value_bytes: int, integration: str) -> dict[str, Any]:
    """The entry's content as predicate -> value; raises EntryRejected for a malformed entry."""
    if not 0 < len(entry.source_entry_id) <= MAX_ID:
        raise EntryRejected("BAD_INPUT", f"sourceEntryId must be 1-{MAX_ID} characters")
    if not KEY_RE.match(entry.kind):
        raise EntryRejected("UNKNOWN_KIND", f"kind {entry.kind!r} is not a kind key")
    if not 0 < len(entry.external_id) <= MAX_ID or not REF.match(ref_of(entry.kind, entry.external_id)):
        raise EntryRejected("BAD_REF", f"externalId {entry.external_id[:MAX_ID]!r} cannot name an entity: it "
                            "must be ASCII letters, digits and _.-#/@+ (starting with a letter or digit)")
    if entry.observed_at.tzinfo is None:
        raise EntryRejected("BAD_TIME", "observedAt needs a UTC offset")
    if not in_range(entry.observed_at):
        raise EntryRejected("TIME_OUT_OF_RANGE", "observedAt is outside the years 0001-9999")
    if entry.observed_at > now + FUTURE_SKEW:
        raise EntryRejected("BAD_TIME", "observedAt lies in the future")
    if len(entry.content) > MAX_KEYS:
        raise EntryRejected("BAD_INPUT", f"content has more than {MAX_KEYS} keys")
    values: dict[str, Any] = {}
    for key, value in entry.content.items():
        if not KEY_RE.match(key):
            raise EntryRejected("UNKNOWN_PREDICATE", f"content key {key[:100]!r} is not a predicate key")
        if value is None:
            continue  # null is "no value": the same as the key missing
        if len(canonical(value).encode()) > max_value_bytes:
            raise EntryRejected("VALUE_TOO_LARGE", f"the value of {key!r} is too large")
        values[predicate_of(key, integration)] = value
    return values


def diff(before: Mapping[str, Any] | None, after: Mapping[str, Any]) -> list[Change]:
    """What changed from the stored content to the new one, predicate by predicate (sorted)."""
    old = before or {}
    changes = [Change(p, old.get(p), v) for p, v in after.items() if p not in old or canonical(old[p]) != canonical(v)]
    changes += [Change(p, old[p], None, removed=True) for p in old if p not in after]
    return sorted(changes, key=lambda c: c.predicate)


def summary(ref: str, changes: list[Change], created: bool) -> str:
    """The sync event's one-line summary (integration-facing text, also shown on the timeline)."""
    if created:
        return f"{ref} first synced"
    parts = [f"{c.predicate}: {_short(c.before)} → {'∅' if c.removed else _short(c.after)}" for c in changes[:5]]
    more = f" (+{len(changes) - 5} more)" if len(changes) > 5 else ""
    return "; ".join(parts) + more


def _short(value: Any) -> str:
    text = "∅" if value is None else canonical(value)
    return text if len(text) <= 40 else text[:39] + "…"
