"""Merging two entities that are one, and splitting them again (Appendix D).

A merge never overwrites or deletes: every believed fact row that names the duplicate (as subject,
object or scope) and every believed alias of it is closed at the merge's system time, and an equivalent
row naming the survivor is inserted (`supersedes_fact_id` keeps the provenance). The duplicate becomes
`merged` with `merged_into_id`, so reads of its ref follow to the survivor. Every moved row is listed in
entity_merge_moves, so a split (graph/governance/split.py) can undo exactly what the merge did.
Where the survivor already believes something over a period, it keeps its own belief for that period.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from psycopg.rows import class_row

from graph.errors import BadInput, Conflict, NotFound
from graph.governance import split
from graph.governance.decisions import StoredFact, audit, close_rows, copy_row, require_owner, stored_facts
from graph.governance.moves import (
    AliasClaim,
    close_aliases,
    insert_alias,
    insert_fact,
    set_status,
    stored_aliases,
    swap,
    uncovered,
)
from graph.ledger import entities, facts
from graph.ledger import proposal as p
from graph.ledger.entity import Entity
from graph.ledger.op_context import OpContext, OpOutcome
from graph.platform.db import Database
from graph.sql import IdRow, load

Move = tuple[str, UUID | None, UUID | None]  # (item, old_id, new_id)


@dataclass(frozen=True, slots=True)
class MergeRecord:
    """A merge a run made or split (gov_merges_for_run.sql), with the refs of both entities."""

    id: UUID
    merged_ref: str
    into_ref: str
    reason: str | None
    recorded_at: datetime
    split_at: datetime | None


def _move_fact(ctx: OpContext, old: StoredFact, gone: UUID, into: Entity) -> list[Move]:
    """Insert the survivor's equivalent of a closed row, over the periods the survivor leaves open."""
    row = old.row
    new = copy_row(row, subject_id=swap(row.subject_id, gone, into.id),
                   object_entity_id=swap(row.object_entity_id, gone, into.id),
                   scope_entity_id=swap(row.scope_entity_id, gone, into.id),
                   scope_kind=into.kind if row.scope_entity_id == gone else row.scope_kind)
    pieces = [facts.period(row)]
    if old.status == "active":
        held = facts.believed(ctx.writer, new.subject_id, new.predicate, new.scope_entity_id)
        if not row.functional:
            held = [h for h in held if facts.value_key(h) == facts.value_key(new)]
        pieces = uncovered(pieces[0], [facts.period(h) for h in held])
    status = "active" if old.status == "active" else "pending"
    new_ids = [insert_fact(ctx, new, piece, status, row.id) for piece in pieces]
    return [("fact", row.id, n) for n in new_ids] or [("fact", row.id, None)]


def _move_aliases(ctx: OpContext, gone: Entity, into: Entity, source: str) -> list[Move]:
    """The duplicate's aliases move to the survivor; its name becomes one more alias of the survivor."""
    aliases = stored_aliases(ctx.conn, "gov_aliases_of", {"entity_id": gone.id})
    close_aliases(ctx, [a.id for a in aliases])
    moves: list[Move] = [("alias", a.id, insert_alias(ctx, into.id, a.said)) for a in aliases]
    name = gone.canonical_name
    taken = ctx.conn.execute(load("alias_believed"), {"namespace": "core", "alias": name}).fetchone()
    if taken is None and name.lower() != into.canonical_name.lower():
        named = AliasClaim(namespace="core", alias=name, valid_from=gone.created_at, valid_to=None, source=source)
        moves.append(("alias", None, insert_alias(ctx, into.id, named)))
    return moves


def merge_entities(ctx: OpContext, op: p.MergeEntities) -> OpOutcome:
    require_owner(ctx, op, "merge entities")
    gone = entities.resolve(ctx.conn, op.entity, follow=False)
    if gone is None:
        raise NotFound(f"no entity {op.entity!r}", code="UNKNOWN_ENTITY")
    if gone.status == "merged":
        raise Conflict(f"{gone.ref} is already merged", code="ALREADY_MERGED")
    into = entities.require(ctx.conn, op.into)
    if into.id == gone.id:
        raise BadInput("an entity cannot be merged into itself", code="SAME_ENTITY")
    if into.kind != gone.kind:
        raise BadInput(f"{gone.ref} and {into.ref} are of different kinds", code="KIND_MISMATCH")
    rows = stored_facts(ctx.conn, "gov_facts_referencing", {"id": gone.id})
    close_rows(ctx, [r.id for r in rows], "superseded")
    moves = [m for r in rows for m in _move_fact(ctx, r, gone.id, into)]
    moves += _move_aliases(ctx, gone, into, ctx.principal.source)
    set_status(ctx, gone, "merged", into.id)
    event = audit(ctx, "merge", into.ref, {"merged": gone.ref, "into": into.ref, "facts": len(rows),
                                           "reason": op.reason}, f"merged {gone.ref} into {into.ref}")
    merge = ctx.conn.cursor(row_factory=class_row(IdRow)).execute(load("gov_merge_insert"), {
        "merged_id": gone.id, "into_id": into.id, "previous_status": gone.status, "reason": op.reason,
        "at": ctx.at, "run_id": ctx.run_id, "event_id": event}).fetchone()
    assert merge is not None
    ctx.conn.execute(load("gov_merge_moves_insert"), {
        "merge_id": merge.id, "items": [m[0] for m in moves], "old_ids": [m[1] for m in moves],
        "new_ids": [m[2] for m in moves]})
    return "committed"


HANDLERS: dict[str, Callable[[OpContext, Any], OpOutcome]] = {
    "merge_entities": merge_entities,
    "split_entity": split.split_entity,
}


def merges_for_run(db: Database, owner: str, run_id: str) -> list[MergeRecord]:
    """The merges a run made or split (for the API's answer to mergeEntities / splitEntity)."""
    with db.owner_tx(owner, read_only=True) as conn:
        cursor = conn.cursor(row_factory=class_row(MergeRecord))
        return cursor.execute(load("gov_merges_for_run"), {"run_id": run_id}).fetchall()
