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

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from psycopg.rows import class_row

from graph.errors import BadInput, Conflict, NotFound
from graph.governance.decisions import StoredFact, audit, close_rows, copy_row, parse_id, require_owner, stored_facts
from graph.governance.moves import close_aliases, insert_alias, insert_fact, set_status, stored_aliases, uncovered
from graph.ledger import aliases, entities, facts
from graph.ledger import proposal as p
from graph.ledger.op_context import OpContext, OpOutcome
from graph.ledger.timeline import plan_remove
from graph.sql import IdRow, load


@dataclass(frozen=True, slots=True)
class Merge:
    """A merge, locked (gov_merge_by_id.sql, gov_merge_open_for.sql)."""

    id: UUID
    merged_id: UUID
    into_id: UUID
    previous_status: str
    split_at: datetime | None


@dataclass(frozen=True, slots=True)
class MergeMove:
    """One row a merge moved (gov_merge_moves.sql): the row closed, the row inserted (None where none was)."""

    item: str
    old_id: UUID | None
    new_id: UUID | None


def _find_merge(ctx: OpContext, op: p.SplitEntity) -> Merge:
    if (op.merge_id is None) == (op.entity is None):
        raise BadInput("name either the merge (mergeId) or the merged entity", code="BAD_INPUT")
    cursor = ctx.conn.cursor(row_factory=class_row(Merge))
    if op.merge_id is not None:
        merge = cursor.execute(load("gov_merge_by_id"), {"id": parse_id(op.merge_id, "mergeId")}).fetchone()
    else:
        gone = entities.resolve(ctx.conn, op.entity or "", follow=False)
        if gone is None:
            raise NotFound(f"no entity {op.entity!r}", code="UNKNOWN_ENTITY")
        merge = cursor.execute(load("gov_merge_open_for"), {"merged_id": gone.id}).fetchone()
    if merge is None or merge.split_at is not None:
        raise Conflict("no open merge to split", code="NOT_MERGED")
    return merge


def split_entity(ctx: OpContext, op: p.SplitEntity) -> OpOutcome:
    """Undo a merge: take what it moved off the survivor, restore what it closed where still uncovered."""
    require_owner(ctx, op, "split an entity")
    merge = _find_merge(ctx, op)
    gone, into = entities.by_id(ctx.conn, merge.merged_id), entities.by_id(ctx.conn, merge.into_id)
    assert gone is not None and into is not None
    if into.status == "merged":
        raise Conflict(f"{into.ref} was merged again since; split that merge first", code="SPLIT_ORDER")
    moves = ctx.conn.cursor(row_factory=class_row(MergeMove)).execute(load("gov_merge_moves"),
                                                                     {"merge_id": merge.id}).fetchall()
    fact_moves = [m for m in moves if m.item == "fact"]
    alias_moves = [m for m in moves if m.item == "alias"]
    _unmove_facts(ctx, [m.new_id for m in fact_moves if m.new_id])
    trimmed = _restore_facts(ctx, fact_moves)
    _unmove_aliases(ctx, [m.new_id for m in alias_moves if m.new_id])
    _restore_aliases(ctx, [m.old_id for m in alias_moves if m.old_id])
    set_status(ctx, gone, merge.previous_status, None)
    event = audit(ctx, "split", gone.ref, {"merge_id": merge.id, "merged": gone.ref, "into": into.ref,
                                           "reason": op.reason, "restored_in_part": [str(t) for t in trimmed]},
                  f"split {gone.ref} from {into.ref}")
    ctx.conn.execute(load("gov_merge_mark_split"), {"id": merge.id, "at": ctx.at, "run_id": ctx.run_id,
                                                    "event_id": event})
    return "committed"


def _rows(ctx: OpContext, ids: list[UUID]) -> list[StoredFact]:
    return stored_facts(ctx.conn, "gov_facts_by_ids", {"ids": ids})


def _ids(ctx: OpContext, query: str, ids: list[UUID]) -> list[UUID]:
    """The ids a `SELECT id` statement answers for `ids`."""
    return [r.id for r in ctx.conn.cursor(row_factory=class_row(IdRow)).execute(load(query), {"ids": ids})]


def _unmove_facts(ctx: OpContext, inserted: list[UUID]) -> None:
    """Take what the merge inserted off the survivor, over the periods it inserted."""
    rows = _rows(ctx, inserted)
    pending = [r.id for r in rows if not r.believed]
    if pending:  # copies of a pending row, also by a later merge and split: closed as they are
        close_rows(ctx, _ids(ctx, "gov_facts_like", pending), "superseded")
    for new in (r.row for r in rows if r.believed):
        held = facts.believed(ctx.writer, new.subject_id, new.predicate, new.scope_entity_id)
        same = [h for h in held if facts.value_key(h) == facts.value_key(new)]
        plan = plan_remove(facts.as_beliefs(same), facts.period(new))
        close_rows(ctx, [UUID(i) for i in plan.close], "superseded")
        by_id = {str(h.id): h for h in same}
        for piece in plan.insert:
            assert piece.split_from is not None
            kept = by_id[piece.split_from]
            insert_fact(ctx, copy_row(kept), piece.interval, "active", kept.id)


def _restore_facts(ctx: OpContext, moves: list[MergeMove]) -> list[UUID]:
    """Re-insert each row the merge closed where nothing believed now covers it; the ids restored in part."""
    successor: dict[UUID, UUID] = {}
    for move in moves:
        if move.old_id is not None and move.new_id is not None:
            successor.setdefault(move.old_id, move.new_id)
    trimmed: list[UUID] = []
    for stored in _rows(ctx, list(dict.fromkeys(m.old_id for m in moves if m.old_id is not None))):
        old = stored.row
        supersedes = successor.get(old.id, old.id)
        if not stored.believed:
            insert_fact(ctx, copy_row(old), facts.period(old), "pending", supersedes)
            continue
        held = facts.believed(ctx.writer, old.subject_id, old.predicate, old.scope_entity_id)
        if not old.functional:
            held = [h for h in held if facts.value_key(h) == facts.value_key(old)]
        pieces = uncovered(facts.period(old), [facts.period(h) for h in held])
        if pieces != [facts.period(old)]:
            trimmed.append(old.id)
        for piece in pieces:
            insert_fact(ctx, copy_row(old), piece, "active", supersedes)
    return trimmed


def _unmove_aliases(ctx: OpContext, inserted: list[UUID]) -> None:
    """Close what the merge inserted, as believed now: a later merge and split may have copied it."""
    close_aliases(ctx, _ids(ctx, "gov_aliases_like", inserted))


def _restore_aliases(ctx: OpContext, closed: list[UUID]) -> None:
    for stored in stored_aliases(ctx.conn, "gov_aliases_by_ids", {"ids": closed}):
        alias = stored.said
        # only a holding that overlaps the restored one's period clashes (an alias can be taken over)
        held = aliases.holders(ctx, alias.alias, alias.namespace, alias.valid_from)
        if any(h != stored.entity_id for h in held):
            raise Conflict(f"alias {alias.alias!r} ({alias.namespace}) now names another entity; "
                           "restore it by hand or rename that entity first", code="SPLIT_CONFLICT")
        if not held:
            insert_alias(ctx, stored.entity_id, alias)
