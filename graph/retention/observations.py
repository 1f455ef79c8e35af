"""recordObservations: observations (events of a windowed type, e.g. `observation`) from a feed or the agent,
stored in observed_events (partitioned by month, rolled up and dropped by the retention job).

Who: integration tokens (source `integration:<name>`) and agent tokens (source `agent`); the source comes
from the token, never from the request. An owner token is refused: the owner's words are permanent
(retention never prunes what the user said), so they go through commitProposal / recordEvent.
All or nothing: every observation is checked first; if any is rejected, nothing is written and every
rejection is listed with its index and code. A retried call writes nothing twice: an observation with an
`externalRef` is unique per owner and `occurredAt` (migration 0063) and comes back as a duplicate.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

import psycopg
from pydantic import BaseModel, Field

from graph.errors import BadInput, Forbidden
from graph.ledger import entities
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.retention import observed
from graph.retention.classes import WINDOWED
from graph.timebounds import in_range

MAX_OBSERVATIONS = 10_000
MAX_PAYLOAD_BYTES = 16 * 1024  # as a fact value (the committer's limit)
MAX_SUMMARY = 2000  # observed_events.summary's CHECK
MAX_EXTERNAL_REF = 400  # 0063's CHECK
FUTURE_SKEW = timedelta(minutes=5)  # clocks of feeds drift; an hour ahead is a bug, not drift


class ObservationIn(BaseModel):
    """One observation as a caller sends it (the GraphQL input, field for field)."""

    event_type: str = "observation"
    occurred_at: datetime
    target: str | None = Field(default=None, description="Ref or alias of the entity observed")
    summary: str | None = None
    payload: Any = None
    external_ref: str | None = Field(default=None, description="The source's own id: makes a retry idempotent")


class Rejection(BaseModel):
    index: int
    code: str
    message: str


class Outcome(BaseModel):
    source: str
    ids: list[UUID | None] = Field(default_factory=list, description="Per observation; None: a duplicate")
    rejected: list[Rejection] = Field(default_factory=list)

    @property
    def recorded(self) -> int:
        return sum(1 for i in self.ids if i is not None)

    @property
    def duplicates(self) -> int:
        return sum(1 for i in self.ids if i is None)


class Known(BaseModel):
    """What the checks need from the database, read once per call."""

    classes: dict[str, str] = Field(description="event type -> registry retention class")
    edge: datetime | None
    targets: dict[str, UUID | Rejection] = Field(description="target as given -> entity id, or why not")
    now: datetime


def allowed(principal: Principal) -> None:
    if principal.kind not in ("integration", "agent"):
        raise Forbidden("recordObservations takes observations from an integration or agent token; the owner's "
                        "own words are permanent: record them with commitProposal (recordEvent)")


def check(index: int, o: ObservationIn, known: Known) -> Rejection | UUID | None:
    """Why observation `index` is rejected, else its target's id (None: no target). Pure."""
    def no(code: str, message: str) -> Rejection:
        return Rejection(index=index, code=code, message=message)

    if o.event_type not in known.classes:
        return no("UNKNOWN_EVENT_TYPE", observed.not_windowed(o.event_type, known.classes))
    if known.classes[o.event_type] != WINDOWED:
        return no("NOT_WINDOWED", observed.not_windowed(o.event_type, known.classes))
    if o.occurred_at.tzinfo is None or not in_range(o.occurred_at):
        return no("BAD_TIME", "occurredAt needs a UTC offset and a year between 1 and 9999")
    if o.occurred_at > known.now + FUTURE_SKEW:
        return no("BAD_TIME", f"occurredAt {o.occurred_at.isoformat()} lies in the future")
    if known.edge is not None and o.occurred_at < known.edge:
        return no("BEHIND_RETENTION_EDGE", observed.behind_edge(o.occurred_at, known.edge))
    texts = [t for t in (o.summary, o.external_ref, o.target) if t is not None]
    if any("\x00" in t for t in texts):
        return no("BAD_INPUT", "text may not contain NUL characters")
    if o.summary is not None and len(o.summary) > MAX_SUMMARY:
        return no("VALUE_TOO_LARGE", f"summary is longer than {MAX_SUMMARY} characters")
    if o.external_ref is not None and not 1 <= len(o.external_ref) <= MAX_EXTERNAL_REF:
        return no("BAD_INPUT", f"externalRef must have 1 to {MAX_EXTERNAL_REF} characters")
    if o.payload is not None:
        if not isinstance(o.payload, dict):
            return no("BAD_INPUT", "payload must be a JSON object")
        text = json.dumps(o.payload)
        if "\\u0000" in text:
            return no("BAD_INPUT", "payload may not contain NUL characters")
        if len(text.encode()) > MAX_PAYLOAD_BYTES:
            return no("VALUE_TOO_LARGE", f"payload is larger than {MAX_PAYLOAD_BYTES // 1024} KiB")
    if o.target is None:
        return None
    target = known.targets[o.target]
    return target.model_copy(update={"index": index}) if isinstance(target, Rejection) else target


def record_observations(db: Database, principal: Principal, items: Sequence[ObservationIn]) -> Outcome:
    allowed(principal)
    if not 1 <= len(items) <= MAX_OBSERVATIONS:
        raise BadInput(f"give 1 to {MAX_OBSERVATIONS} observations per call", code="BAD_LIMIT")
    outcome = Outcome(source=principal.source)
    with db.owner_tx(principal.owner) as conn:
        known = _known(conn, items)
        checked = [check(i, o, known) for i, o in enumerate(items)]
        outcome.rejected = [c for c in checked if isinstance(c, Rejection)]
        if outcome.rejected:
            return outcome
        targets = [c if isinstance(c, UUID) else None for c in checked]
        outcome.ids = observed.record(conn, [
            observed.Observation(event_type=o.event_type, occurred_at=o.occurred_at, source=principal.source,
                                 target_entity_id=t, summary=o.summary, payload=o.payload or {},
                                 external_ref=o.external_ref) for o, t in zip(items, targets, strict=True)])
    return outcome


def _known(conn: psycopg.Connection[Any], items: Sequence[ObservationIn]) -> Known:
    targets: dict[str, UUID | Rejection] = {}
    for name in sorted({o.target for o in items if o.target is not None and "\x00" not in o.target}):
        try:
            entity = entities.resolve(conn, name)
        except BadInput as exc:  # an alias of several entities
            targets[name] = Rejection(index=-1, code=exc.code, message=exc.message)
            continue
        targets[name] = entity.id if entity is not None else Rejection(
            index=-1, code="UNKNOWN_REF", message=f"no entity {name!r} (observations never create entities)")
    return Known(classes=observed.windowed_types(conn, {o.event_type for o in items}),
                 edge=observed.retention_edge(conn), targets=targets, now=datetime.now(UTC))
