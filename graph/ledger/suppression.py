"""Suppression markers: a belief the owner rejected is not proposed again.

A marker is bound to (subject, predicate, object-or-value, scope). The committer asks `screen` before
every assertion: from an owner token speaking as the user, the assertion lifts the marker (the owner
changed their mind); from any other token or source (an agent relaying "the user said" included) it is
rejected with the code SUPPRESSED.

A marker holds for the value in any spelling that means the same (case, spacing, Unicode form,
punctuation: graph.ledger.normal), and a marker without a scope holds in every scope: an agent cannot
bring a rejected belief back as "Suppress-me " or under some chat's or project's scope.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from psycopg.rows import class_row

from graph.errors import Conflict
from graph.ledger import facts
from graph.ledger.fact_rows import Claim, FactRow, Said
from graph.ledger.normal import normal_value_key
from graph.ledger.op_context import OpContext
from graph.ledger.trust import lifts_suppression
from graph.sql import load


@dataclass(frozen=True, slots=True)
class Key:
    """What a marker is bound to: the belief's subject, predicate, value (facts.value_key) and scope."""

    subject_id: UUID
    predicate: str
    value_key: str
    scope_id: UUID | None


@dataclass(frozen=True, slots=True)
class Marker:
    """A live marker of one subject and predicate (gov_suppression_candidates.sql); no scope: every scope."""

    id: UUID
    value_key: str
    scope_entity_id: UUID | None


def key(row: Said) -> Key:
    """The marker key of a fact row (as stored, or as about to be inserted)."""
    return Key(row.subject_id, row.predicate, facts.value_key(row), row.scope_entity_id)


def covers(marker: Marker, belief: Key) -> bool:
    """Whether a live marker holds for the belief keyed by `belief`."""
    if marker.scope_entity_id is not None and marker.scope_entity_id != belief.scope_id:
        return False
    return normal_value_key(marker.value_key) == normal_value_key(belief.value_key)


def matching(ctx: OpContext, belief: Key) -> list[UUID]:
    """Ids of the live markers that hold for the belief keyed by `belief`."""
    cursor = ctx.conn.cursor(row_factory=class_row(Marker))
    markers = cursor.execute(load("gov_suppression_candidates"),
                             {"subject_id": belief.subject_id, "predicate": belief.predicate}).fetchall()
    return [m.id for m in markers if covers(m, belief)]


def screen(ctx: OpContext, source: str, claim: Claim) -> None:
    """Before asserting `claim`: lift a matching marker (the owner) or reject the assertion (anyone else)."""
    belief = key(claim)
    if lifts_suppression(ctx.principal, source):
        lift(ctx, belief)
        return
    if matching(ctx, belief):
        raise Conflict(f"the owner rejected this belief ({claim.predicate}) before; only the owner can "
                       "assert it again", code="SUPPRESSED")


def lift(ctx: OpContext, belief: Key) -> int:
    ids = matching(ctx, belief)
    if not ids:
        return 0
    lifted = ctx.conn.execute(load("gov_suppression_lift_ids"),
                              {"ids": ids, "at": ctx.at, "run_id": ctx.run_id}).fetchall()
    return len(lifted)


def mark(ctx: OpContext, rejected: FactRow, reason: str | None) -> None:
    """Suppress the belief of a rejected fact row (a second rejection of the same belief is a no-op)."""
    belief = key(rejected)
    ctx.conn.execute(load("gov_suppression_insert"), {
        "subject_id": belief.subject_id, "predicate": belief.predicate, "value_key": belief.value_key,
        "scope_id": belief.scope_id, "fact_id": rejected.id, "reason": reason, "at": ctx.at, "run_id": ctx.run_id})
