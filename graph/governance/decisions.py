"""Governance operations (Appendix D): invalidate a wrong belief, accept or reject a pending fact, dismiss
a merge suggestion.

They are proposal operations like any other, so they run in the committer's one transaction with its
one system time, all or nothing, idempotent on the run id. Merges and splits live in graph/governance/merge.py.
Only an owner token, speaking as the user, may accept, reject, invalidate, dismiss, merge or split
(graph.ledger.trust.require_owner; FORBIDDEN otherwise), and every governance action leaves an audit
event of type 'governance'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import kwargs_row

from graph.errors import BadInput, Conflict, NotFound
from graph.ledger import entities, fact_rows, facts, suppression, trust
from graph.ledger import proposal as p
from graph.ledger.entity import Entity
from graph.ledger.events import record as record_event
from graph.ledger.fact_rows import Claim, FactRow
from graph.ledger.op_context import OpContext, OpOutcome
from graph.ledger.ops import believe
from graph.sql import load

# What the owner's confirmation adds to a pending belief: it is then as sure as anything they say.
ACCEPTED_CONFIDENCE = 1.0


@dataclass(frozen=True, slots=True)
class StoredFact:
    """A fact row as governance reads it (`facts.*`: gov_fact_for_update.sql, gov_facts_by_ids.sql,
    gov_facts_referencing.sql): what it says, and where it stands."""

    row: FactRow
    status: str
    believed: bool
    superseded_at: datetime | None

    @property
    def id(self) -> UUID:
        return self.row.id


def _stored(*, status: str, believed: bool, superseded_at: datetime | None, **columns: Any) -> StoredFact:
    return StoredFact(FactRow.of(columns), status, believed, superseded_at)


def stored_facts(conn: psycopg.Connection[Any], query: str, params: dict[str, Any]) -> list[StoredFact]:
    """The rows of one of the `facts.*` statements above."""
    return conn.cursor(row_factory=kwargs_row(_stored)).execute(load(query), params).fetchall()


def require_owner(ctx: OpContext, op: p._Op, action: str) -> None:
    assert op.source is not None, "the committer binds every op's source"
    trust.require_owner(ctx.principal, op.source, action)


def parse_id(value: str, what: str = "factId") -> UUID:
    try:
        return UUID(value)
    except ValueError as exc:
        raise BadInput(f"{what} is not a UUID", code="BAD_ID") from exc


def locked_fact(ctx: OpContext, fact_id: str) -> StoredFact:
    found = stored_facts(ctx.conn, "gov_fact_for_update", {"id": parse_id(fact_id)})
    if not found:
        raise NotFound(f"no fact {fact_id}", code="UNKNOWN_FACT")
    return found[0]


def pending_fact(ctx: OpContext, fact_id: str) -> StoredFact:
    fact = locked_fact(ctx, fact_id)
    if fact.status != "pending" or fact.superseded_at is not None:
        raise Conflict(f"fact {fact_id} is not pending review ({fact.status})", code="NOT_PENDING")
    return fact


def close_rows(ctx: OpContext, ids: list[UUID], status: str) -> list[UUID]:
    """Close the system time of rows still believed; only active relationship rows have an edge."""
    return facts.close(ctx.writer, ids, ctx.at, status)


def copy_row(old: FactRow, **changes: Any) -> Claim:
    """What `old` said (with `changes`), to be written again by this run."""
    copy = old.claim()
    return replace(copy, **changes) if changes else copy


def audit(ctx: OpContext, action: str, target: str | None, payload: dict[str, Any], summary: str) -> UUID | None:
    """The governance world event that records what the owner did, and why."""
    return record_event(ctx, p.RecordEvent(
        event_type="governance", occurred_at=ctx.at, target=target, summary=summary[:2000],
        payload={"action": action, **{k: _jsonable(v) for k, v in payload.items()}}))


def _jsonable(value: Any) -> Any:
    return str(value) if isinstance(value, UUID) else value


def _subject_ref(ctx: OpContext, row: FactRow) -> str:
    subject = entities.by_id(ctx.conn, row.subject_id)
    assert subject is not None  # a foreign key
    return subject.ref


def accept_proposal(ctx: OpContext, op: p.AcceptProposal) -> OpOutcome:
    """The pending row is closed; what it says becomes believed now, through the assert logic."""
    require_owner(ctx, op, "accept a proposal")
    row = pending_fact(ctx, op.fact_id).row
    close_rows(ctx, [row.id], "superseded")
    accepted = copy_row(row, confidence=ACCEPTED_CONFIDENCE, changed_by=ctx.run_id)
    believe(ctx, accepted, facts.period(row), supersedes=str(row.id))
    fact_rows.set_accepted_successor(ctx.conn, row.id)
    suppression.lift(ctx, suppression.key(row))
    ref = _subject_ref(ctx, row)
    audit(ctx, "accept", ref, {"fact_id": row.id, "reason": op.reason}, f"accepted {ref} {row.predicate}")
    return "committed"


def reject_proposal(ctx: OpContext, op: p.RejectProposal) -> OpOutcome:
    """The pending row is invalidated (kept), and its belief suppressed for every source but the owner."""
    require_owner(ctx, op, "reject a proposal")
    row = pending_fact(ctx, op.fact_id).row
    close_rows(ctx, [row.id], "invalidated")
    suppression.mark(ctx, row, op.reason)
    ref = _subject_ref(ctx, row)
    audit(ctx, "reject", ref, {"fact_id": row.id, "reason": op.reason},
          f"rejected {ref} {row.predicate}" + (f": {op.reason}" if op.reason else ""))
    return "committed"


def invalidate_fact(ctx: OpContext, op: p.InvalidateFact) -> OpOutcome:
    """The belief was wrong: its row is closed as invalidated (kept, so what was known stays known)."""
    require_owner(ctx, op, "invalidate a fact")
    fact = locked_fact(ctx, op.fact_id)
    if fact.superseded_at is not None or fact.status not in ("active", "pending"):
        raise Conflict(f"fact {op.fact_id} is no longer believed ({fact.status})", code="NOT_BELIEVED")
    close_rows(ctx, [fact.id], "invalidated")
    ref = _subject_ref(ctx, fact.row)
    audit(ctx, "invalidate", ref, {"fact_id": fact.id, "reason": op.reason, "source": op.source},
          f"invalidated {ref} {fact.row.predicate}" + (f": {op.reason}" if op.reason else ""))
    return "committed"


def _entity(ctx: OpContext, ref: str) -> Entity:
    """The entity a ref names as it is (a merged entity is not followed to its survivor)."""
    found = entities.resolve(ctx.conn, ref, follow=False)
    if found is None:
        raise NotFound(f"no entity {ref!r}", code="UNKNOWN_ENTITY")
    return found


def dismiss_merge_suggestion(ctx: OpContext, op: p.DismissMergeSuggestion) -> OpOutcome:
    """The owner said no to "are A and B the same?": the pair (either order) is never suggested again.

    Dismissing a pair already dismissed records the owner's answer (the audit event) and changes nothing else.
    """
    require_owner(ctx, op, "dismiss a merge suggestion")
    one, other = _entity(ctx, op.entity), _entity(ctx, op.other)
    if one.id == other.id:
        raise BadInput("an entity is always the same as itself", code="SAME_ENTITY")
    event = audit(ctx, "dismiss_merge", one.ref, {"entity": one.ref, "other": other.ref, "reason": op.reason},
                  f"{one.ref} and {other.ref} are not the same" + (f": {op.reason}" if op.reason else ""))
    ctx.conn.execute(load("gov_merge_dismiss"), {"a": one.id, "b": other.id, "reason": op.reason, "at": ctx.at,
                                                 "run_id": ctx.run_id, "event_id": event})
    return "committed"


HANDLERS: dict[str, Callable[[OpContext, Any], OpOutcome]] = {
    "invalidate_fact": invalidate_fact,
    "accept_proposal": accept_proposal,
    "reject_proposal": reject_proposal,
    "dismiss_merge_suggestion": dismiss_merge_suggestion,
}
