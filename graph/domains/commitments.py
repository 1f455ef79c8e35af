"""Commitments: task entities with a `status` fact, a `due` fact and `blocked_by` relationships, all
written through the committer like any other fact (so their history is bitemporal), read here as one list.

The time logic is pure (`parse_due`, `is_open`, `overdue`, `open_blockers`, `select`): a task without a
status is open; `done`, `cancelled` (and their German words) are closed; a due date alone means by the end
of that day (UTC), so a task due 2026-12-01 is overdue from 2026-12-02T00:00Z. pendingReview asks about
open commitments that are overdue or blocked by an open one (`attention`).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any, Literal

import psycopg
from pydantic import BaseModel, Field, ValidationError

from graph.errors import BadInput
from graph.ledger import entities
from graph.ledger import proposal as p
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.op_context import WriteRules
from graph.ledger.registries import describe
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.sql import load

KINDS = ["task"]
CLOSED = frozenset({"done", "cancelled", "canceled", "erledigt", "abgesagt"})
OPEN = "open"
MAX_LIST = 1000  # answered at most
MAX_SCAN = 5000  # read at most (the due filter runs after the status filter, in Python)


class Blocker(BaseModel):
    ref: str
    name: str
    status: str = Field(description="Its status now (open when none is known)")


class Commitment(BaseModel):
    ref: str
    name: str
    status: str = Field(description="The status believed now (open when none is known)")
    due: datetime | None = Field(description="When it is due (a date alone: the end of that day, UTC)")
    due_value: Any = Field(default=None, description="The due fact's value as stored")
    overdue: bool
    blocked_by: list[Blocker]
    blocked: bool = Field(description="At least one blocker is still open")


@dataclass(frozen=True)
class Attention:
    """What pendingReview asks about one commitment."""

    kind: Literal["overdue", "blocked"]
    commitment: Commitment
    blocker: Blocker | None = None


def parse_due(value: Any) -> datetime | None:
    """The instant a due value ends: an ISO date-time with offset as it is, a date alone the next midnight
    UTC; anything else (no offset, not a date) None, so a malformed value is never called overdue."""
    if not isinstance(value, str):
        return None
    text = value.strip()
    try:
        if len(text) == 10:
            return datetime.combine(date.fromisoformat(text), time(), UTC) + timedelta(days=1)
        parsed = datetime.fromisoformat(text)
    except OverflowError:  # due 9999-12-31: the end of that day is past the last instant we can hold
        return datetime.max.replace(tzinfo=UTC)
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else None


def status_of(value: Any) -> str:
    return value.strip().lower() if isinstance(value, str) and value.strip() else OPEN


def is_open(status: str) -> bool:
    return status not in CLOSED


def overdue(status: str, due: datetime | None, now: datetime) -> bool:
    return is_open(status) and due is not None and due <= now


def open_blockers(blockers: list[Blocker]) -> list[Blocker]:
    return [b for b in blockers if is_open(b.status)]


def from_row(row: dict[str, Any], now: datetime) -> Commitment:
    status, due = status_of(row["status"]), parse_due(row["due"])
    blockers = [Blocker(ref=b["ref"], name=b["name"], status=status_of(b["status"])) for b in row["blockers"]]
    return Commitment(ref=row["ref"], name=row["name"], status=status, due=due, due_value=row["due"],
                      overdue=overdue(status, due, now), blocked_by=blockers, blocked=bool(open_blockers(blockers)))


def select(items: list[Commitment], status: str | None, due_before: datetime | None) -> list[Commitment]:
    """Those with `status` (exact, lower case; open = no status or `open`) due before `due_before`."""
    wanted = status.strip().lower() if status else None
    return [c for c in items if (wanted is None or c.status == wanted)
            and (due_before is None or (c.due is not None and c.due <= due_before))]


def _wanted(status: str | None) -> str | None:
    return status.strip().lower() if status and status.strip() else None


def attention_of(items: list[Commitment]) -> list[Attention]:
    """Open overdue commitments first (earliest due first), then each open blocker of an open commitment."""
    late = sorted((c for c in items if c.overdue), key=lambda c: (c.due or datetime.max.replace(tzinfo=UTC), c.ref))
    found = [Attention("overdue", c) for c in late]
    found += [Attention("blocked", c, b) for c in items if is_open(c.status) for b in open_blockers(c.blocked_by)]
    return found


def read(conn: psycopg.Connection[Any], now: datetime, status: str | None = None,
         open_only: bool = False) -> list[Commitment]:
    rows = conn.execute(load("commitments_list"), {
        "kinds": KINDS, "at": now, "status": _wanted(status), "open_only": open_only, "closed": sorted(CLOSED),
        "limit": MAX_SCAN}).fetchall()
    return [from_row(dict(r), now) for r in rows]


def commitments(db: Database, owner: str, status: str | None = None, due_before: datetime | None = None,
                limit: int = 200, now: datetime | None = None) -> list[Commitment]:
    """The owner's commitments as believed now (about world time `now`, default the current time), by ref."""
    if not 1 <= limit <= MAX_LIST:
        raise BadInput(f"limit must be between 1 and {MAX_LIST}", code="BAD_LIMIT")
    at = now or datetime.now(UTC)
    with db.owner_tx(owner, read_only=True) as conn:
        return select(read(conn, at, status), status, due_before)[:limit]


def attention(conn: psycopg.Connection[Any], now: datetime) -> list[Attention]:
    """Open commitments that are overdue or blocked by an open one (for pendingReview)."""
    return attention_of(read(conn, now, open_only=True))


def set_status(db: Database, principal: Principal, ref: str, status: str, valid_from: datetime | None = None,
               run_id: str | None = None, rules: WriteRules | None = None) -> CommitResult:
    """Believe `status` for the commitment `ref` from `valid_from` (default now), through the committer (the
    token decides trust: an agent's status change without evidence waits for the owner's review)."""
    value = status.strip().lower()
    if not value or len(value) > 50:
        raise BadInput("status must be 1-50 characters", code="BAD_INPUT")
    with db.owner_tx(principal.owner, read_only=True) as conn:
        entity = entities.require(conn, ref)
    if entity.kind not in KINDS:
        raise BadInput(f"{entity.ref} is a {entity.kind}, not a commitment (task)", code="KIND_MISMATCH")
    try:
        op = p.AssertFact(subject=entity.ref, predicate="status", value=value,
                          valid_from=valid_from or datetime.now(UTC))
        proposal = p.MemoryMutationProposal(run_id=run_id or f"commitments:{uuid.uuid4().hex}",
                                            proposed_by="commitments", operations=[op])
    except ValidationError as exc:  # a run id too long
        raise BadInput(describe(exc), code="INVALID_OPERATION") from None
    return commit_proposal(db, principal, proposal, rules=rules)
