"""Splitting a merged entity again: the exact inverse of graph.governance.merge, also after later changes.

A merge closed rows naming the duplicate (`old`) and inserted the survivor's equivalents (`new`, listed
in entity_merge_moves). Beliefs may have changed since: a later assertion may have split a moved row, or
replaced part of a restored key's period. So a split goes through the time planner instead of copying
rows back blindly:

1. What the merge moved leaves the survivor over exactly the periods it moved (`plan_remove` over each
   new row's period, on the survivor's rows that still say the same thing); what those rows hold
   outside these periods (a later, wider re-assertion) stays.
2. Each closed row is restored over the parts of its period that nothing believed now covers
   (`uncovered`: for a functional key any value, for a set member the same value). A later belief wins
   over the restored one; the audit event lists the rows restored only in part.

Pending rows never compete for time: they are closed and restored as they were. An alias that another
entity has taken since cannot be restored: the split is refused with SPLIT_CONFLICT naming it.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any
from uuid import UUID

from graph.errors import BadInput, Conflict, NotFound
from graph.governance.decisions import audit, close_rows, copy_row, parse_id, require_owner
from graph.governance.moves import close_aliases, insert_alias, insert_fact, interval, set_status, uncovered
from graph.ledger import aliases, entities, facts
from graph.ledger import proposal as p
from graph.ledger.op_context import OpContext, OpOutcome
from graph.ledger.timeline import plan_remove
from graph.sql import load


def _find_merge(ctx: OpContext, op: p.SplitEntity) -> dict[str, Any]:
    if (op.merge_id is None) == (op.entity is None):
        raise BadInput("name either the merge (mergeId) or the merged entity", code="BAD_INPUT")
    if op.merge_id is not None:
        merge = ctx.conn.execute(load("gov_merge_by_id"), {"id": parse_id(op.merge_id, "mergeId")}).fetchone()
    else:
        gone = entities.resolve(ctx.conn, op.entity or "", follow=False)
        if gone is None:
            raise NotFound(f"no entity {op.entity!r}", code="UNKNOWN_ENTITY")
        merge = ctx.conn.execute(load("gov_merge_open_for"), {"merged_id": gone.id}).fetchone()
    if merge is None or merge["split_at"] is not None:
        raise Conflict("no open merge to split", code="NOT_MERGED")
    return dict(merge)


def split_entity(ctx: OpContext, op: p.SplitEntity) -> OpOutcome:
    """Undo a merge: take what it moved off the survivor, restore what it closed where still uncovered."""
    require_owner(ctx, op, "split an entity")
    merge = _find_merge(ctx, op)
    gone, into = entities.by_id(ctx.conn, merge["merged_id"]), entities.by_id(ctx.conn, merge["into_id"])
    assert gone is not None and into is not None
    if into.status == "merged":
        raise Conflict(f"{into.ref} was merged again since; split that merge first", code="SPLIT_ORDER")
    moves = [dict(m) for m in ctx.conn.execute(load("gov_merge_moves"), {"merge_id": merge["id"]}).fetchall()]
    fact_moves = [m for m in moves if m["item"] == "fact"]
    alias_moves = [m for m in moves if m["item"] == "alias"]
    _unmove_facts(ctx, [m["new_id"] for m in fact_moves if m["new_id"]])
    trimmed = _restore_facts(ctx, fact_moves)
    _unmove_aliases(ctx, [m["new_id"] for m in alias_moves if m["new_id"]])
    _restore_aliases(ctx, [m["old_id"] for m in alias_moves if m["old_id"]])
    set_status(ctx, gone, merge["previous_status"], None)
    event = audit(ctx, "split", gone.ref, {"merge_id": merge["id"], "merged": gone.ref, "into": into.ref,
                                           "reason": op.reason, "restored_in_part": [str(t) for t in trimmed]},
                  f"split {gone.ref} from {into.ref}")
    ctx.conn.execute(load("gov_merge_mark_split"), {"id": merge["id"], "at": ctx.at, "run_id": ctx.run_id,
                                                    "event_id": event})
    return "committed"


def _rows(ctx: OpContext, ids: list[UUID]) -> list[dict[str, Any]]:
    return [dict(r) for r in ctx.conn.execute(load("gov_facts_by_ids"), {"ids": ids}).fetchall()]


def _unmove_facts(ctx: OpContext, inserted: list[UUID]) -> None:
    """Take what the merge inserted off the survivor, over the periods it inserted."""
    rows = _rows(ctx, inserted)
    pending = [r["id"] for r in rows if not r["believed"]]
    if pending:  # copies of a pending row, also by a later merge and split: closed as they are
        like = [r["id"] for r in ctx.conn.execute(load("gov_facts_like"), {"ids": pending}).fetchall()]
        close_rows(ctx, like, "superseded")
    for new in (r for r in rows if r["believed"]):
        held = facts.believed(ctx.writer, new["subject_id"], new["predicate"], new["scope_entity_id"])
        same = [h for h in held if facts.value_key(h) == facts.value_key(new)]
        plan = plan_remove(facts.as_beliefs(same), interval(new))
        close_rows(ctx, [UUID(i) for i in plan.close], "superseded")
        by_id = {str(h.id): h for h in same}
        for piece in plan.insert:
            assert piece.split_from is not None
            kept = by_id[piece.split_from]
            insert_fact(ctx, copy_row(asdict(kept)), piece.interval, "active", kept.id)


def _restore_facts(ctx: OpContext, moves: list[dict[str, Any]]) -> list[UUID]:
    """Re-insert each row the merge closed where nothing believed now covers it; the ids restored in part."""
    successor: dict[UUID, UUID] = {}
    for move in moves:
        if move["new_id"] is not None:
            successor.setdefault(move["old_id"], move["new_id"])
    trimmed: list[UUID] = []
    for old in _rows(ctx, list(dict.fromkeys(m["old_id"] for m in moves))):
        supersedes = successor.get(old["id"], old["id"])
        if not old["believed"]:
            insert_fact(ctx, copy_row(old), interval(old), "pending", supersedes)
            continue
        held = facts.believed(ctx.writer, old["subject_id"], old["predicate"], old["scope_entity_id"])
        if not old["functional"]:
            held = [h for h in held if facts.value_key(h) == facts.value_key(old)]
        pieces = uncovered(interval(old), [facts.period(h) for h in held])
        if pieces != [interval(old)]:
            trimmed.append(old["id"])
        for piece in pieces:
            insert_fact(ctx, copy_row(old), piece, "active", supersedes)
    return trimmed


def _unmove_aliases(ctx: OpContext, inserted: list[UUID]) -> None:
    """Close what the merge inserted, as believed now: a later merge and split may have copied it."""
    close_aliases(ctx, [r["id"] for r in ctx.conn.execute(load("gov_aliases_like"), {"ids": inserted}).fetchall()])


def _restore_aliases(ctx: OpContext, closed: list[UUID]) -> None:
    rows = [dict(a) for a in ctx.conn.execute(load("gov_aliases_by_ids"), {"ids": closed}).fetchall()]
    for alias in rows:
        # only a holding that overlaps the restored one's period clashes (an alias can be taken over)
        held = aliases.holders(ctx, alias["alias"], alias["namespace"], alias["valid_from"])
        if any(h != alias["entity_id"] for h in held):
            raise Conflict(f"alias {alias['alias']!r} ({alias['namespace']}) now names another entity; "
                           "restore it by hand or rename that entity first", code="SPLIT_CONFLICT")
        if not held:
            insert_alias(ctx, alias["entity_id"], alias)
