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

from typing import Any

from graph.errors import Conflict
from graph.ledger import facts
from graph.ledger.normal import normal_value_key
from graph.ledger.op_context import OpContext
from graph.ledger.trust import lifts_suppression
from graph.sql import load


def key(row: dict[str, Any]) -> dict[str, Any]:
    """The marker key of a fact row (as stored, or as about to be inserted)."""
    return {"subject_id": row["subject_id"], "predicate": row["predicate"], "value_key": facts.value_key(row),
            "scope_id": row.get("scope_entity_id")}


def covers(marker: dict[str, Any], params: dict[str, Any]) -> bool:
    """Whether a live marker (value_key, scope_entity_id) holds for the belief keyed by `params`."""
    if marker["scope_entity_id"] is not None and marker["scope_entity_id"] != params["scope_id"]:
        return False
    return normal_value_key(marker["value_key"]) == normal_value_key(params["value_key"])


def matching(ctx: OpContext, params: dict[str, Any]) -> list[Any]:
    """Ids of the live markers that hold for the belief keyed by `params`."""
    rows = ctx.conn.execute(load("gov_suppression_candidates"),
                            {"subject_id": params["subject_id"], "predicate": params["predicate"]}).fetchall()
    return [r["id"] for r in rows if covers(r, params)]


def screen(ctx: OpContext, source: str, row: dict[str, Any]) -> None:
    """Before asserting `row`: lift a matching marker (the owner) or reject the assertion (anyone else)."""
    params = key(row)
    if lifts_suppression(ctx.principal, source):
        lift(ctx, params)
        return
    if matching(ctx, params):
        raise Conflict(f"the owner rejected this belief ({row['predicate']}) before; only the owner can "
                       "assert it again", code="SUPPRESSED")


def lift(ctx: OpContext, params: dict[str, Any]) -> int:
    ids = matching(ctx, params)
    if not ids:
        return 0
    lifted = ctx.conn.execute(load("gov_suppression_lift_ids"),
                              {"ids": ids, "at": ctx.at, "run_id": ctx.run_id}).fetchall()
    return len(lifted)


def mark(ctx: OpContext, rejected: dict[str, Any], reason: str | None) -> None:
    """Suppress the belief of a rejected fact row (a second rejection of the same belief is a no-op)."""
    ctx.conn.execute(load("gov_suppression_insert"), {
        **key(rejected), "fact_id": rejected["id"], "reason": reason, "at": ctx.at, "run_id": ctx.run_id})
