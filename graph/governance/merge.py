"""Merging two entities that are one, and splitting them again (Appendix D).

A merge never overwrites or deletes: every believed fact row that names the duplicate (as subject,
object or scope) and every believed alias of it is closed at the merge's system time, and an equivalent
row naming the survivor is inserted (`supersedes_fact_id` keeps the provenance). The duplicate becomes
`merged` with `merged_into_id`, so reads of its ref follow to the survivor. Every moved row is listed in
entity_merge_moves: a split closes exactly the rows the merge inserted and restores the rows it closed.
Where the survivor already believes something over a period, it keeps its own belief for that period.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from curator import proposal as p
from graph.age import mirror
from graph.errors import BadInput, Conflict, NotFound
from graph.governance.decisions import audit, close_rows, copy_row, parse_id, require_owner
from graph.ledger import entities, facts
from graph.ledger.entities import Entity
from graph.ledger.ops import OpContext, OpOutcome
from graph.ledger.timeline import Interval, subtract
from graph.platform.db import Database
from graph.sql import load

Move = tuple[str, UUID | None, UUID | None]  # (item, old_id, new_id)


def uncovered(interval: Interval, held: Sequence[Interval]) -> list[Interval]:
    """The parts of `interval` that none of `held` covers, in order."""
    parts = [interval]
    for cut in held:
        parts = [piece for part in parts for piece in subtract(part, cut)]
    return parts


def swap(value: UUID | None, gone: UUID, into: UUID) -> UUID | None:
    return into if value == gone else value


def _interval(row: dict[str, Any]) -> Interval:
    return Interval(row["valid_from"], row["valid_to"])


def _insert(ctx: OpContext, row: dict[str, Any], interval: Interval, status: str, supersedes: UUID) -> UUID:
    return facts.insert(ctx.conn, ctx.owner, {
        **row, "valid_from": interval.start, "valid_to": interval.end, "recorded_at": ctx.at,
        "believed": status == "active", "status": status, "supersedes_fact_id": supersedes,
        "changed_by": ctx.run_id, "run_id": ctx.run_id, "op_index": ctx.op_index})


def _move_fact(ctx: OpContext, old: dict[str, Any], gone: UUID, into: Entity) -> list[Move]:
    """Insert the survivor's equivalent of a closed row, over the periods the survivor leaves open."""
    new = copy_row(old, subject_id=swap(old["subject_id"], gone, into.id),
                   object_entity_id=swap(old["object_entity_id"], gone, into.id),
                   scope_entity_id=swap(old["scope_entity_id"], gone, into.id))
    if old["scope_entity_id"] == gone:
        new["scope_kind"] = into.kind
    pieces = [_interval(old)]
    if old["status"] == "active":
        held = facts.believed(ctx.conn, new["subject_id"], new["predicate"], new["scope_entity_id"])
        if not old["functional"]:
            held = [h for h in held if facts.value_key(h) == facts.value_key(new)]
        pieces = uncovered(pieces[0], [_interval(h) for h in held])
    status = "active" if old["status"] == "active" else "pending"
    new_ids = [_insert(ctx, new, piece, status, old["id"]) for piece in pieces]
    return [("fact", old["id"], n) for n in new_ids] or [("fact", old["id"], None)]


def _insert_alias(ctx: OpContext, entity_id: UUID, alias: dict[str, Any]) -> UUID:
    row = ctx.conn.execute(load("gov_alias_insert"), {
        "entity_id": entity_id, "namespace": alias["namespace"], "alias": alias["alias"],
        "valid_from": alias["valid_from"], "valid_to": alias.get("valid_to"), "at": ctx.at,
        "source": alias["source"], "run_id": ctx.run_id, "op_index": ctx.op_index}).fetchone()
    assert row is not None
    new_id: UUID = row["id"]
    return new_id


def _close_aliases(ctx: OpContext, ids: list[UUID]) -> None:
    if ids:
        ctx.conn.execute(load("gov_alias_close"), {"ids": ids, "at": ctx.at})


def _move_aliases(ctx: OpContext, gone: Entity, into: Entity, source: str) -> list[Move]:
    """The duplicate's aliases move to the survivor; its name becomes one more alias of the survivor."""
    aliases = [dict(a) for a in ctx.conn.execute(load("gov_aliases_of"), {"entity_id": gone.id}).fetchall()]
    _close_aliases(ctx, [a["id"] for a in aliases])
    moves: list[Move] = [("alias", a["id"], _insert_alias(ctx, into.id, a)) for a in aliases]
    name = gone.canonical_name
    taken = ctx.conn.execute(load("alias_believed"), {"namespace": "core", "alias": name}).fetchone()
    if taken is None and name.lower() != into.canonical_name.lower():
        named = {"namespace": "core", "alias": name, "valid_from": gone.created_at, "source": source}
        moves.append(("alias", None, _insert_alias(ctx, into.id, named)))
    return moves


def _set_status(ctx: OpContext, entity: Entity, status: str, into: UUID | None) -> Entity:
    updated = Entity.model_validate(ctx.conn.execute(load("gov_entity_set_merged"), {
        "id": entity.id, "status": status, "into_id": into, "at": ctx.at}).fetchone())
    mirror.update_entity(ctx.conn, updated)
    return updated


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
    rows = [dict(r) for r in ctx.conn.execute(load("gov_facts_referencing"), {"id": gone.id}).fetchall()]
    close_rows(ctx, [r["id"] for r in rows], "superseded")
    moves = [m for r in rows for m in _move_fact(ctx, r, gone.id, into)]
    moves += _move_aliases(ctx, gone, into, ctx.principal.source)
    _set_status(ctx, gone, "merged", into.id)
    event = audit(ctx, "merge", into.ref, {"merged": gone.ref, "into": into.ref, "facts": len(rows),
                                           "reason": op.reason}, f"merged {gone.ref} into {into.ref}")
    merge = ctx.conn.execute(load("gov_merge_insert"), {
        "merged_id": gone.id, "into_id": into.id, "previous_status": gone.status, "reason": op.reason,
        "at": ctx.at, "run_id": ctx.run_id, "event_id": event}).fetchone()
    assert merge is not None
    ctx.conn.execute(load("gov_merge_moves_insert"), {
        "merge_id": merge["id"], "items": [m[0] for m in moves], "old_ids": [m[1] for m in moves],
        "new_ids": [m[2] for m in moves]})
    return "committed"


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
    """The exact inverse of a merge: close what it inserted, restore what it closed."""
    require_owner(ctx, op, "split an entity")
    merge = _find_merge(ctx, op)
    gone, into = entities.by_id(ctx.conn, merge["merged_id"]), entities.by_id(ctx.conn, merge["into_id"])
    assert gone is not None and into is not None
    if into.status == "merged":
        raise Conflict(f"{into.ref} was merged again since; split that merge first", code="SPLIT_ORDER")
    moves = ctx.conn.execute(load("gov_merge_moves"), {"merge_id": merge["id"]}).fetchall()
    by_item: dict[str, list[dict[str, Any]]] = {"fact": [], "alias": []}
    for move in moves:
        by_item[move["item"]].append(dict(move))
    _close_current(ctx, "fact", [m["new_id"] for m in by_item["fact"] if m["new_id"]])
    _close_current(ctx, "alias", [m["new_id"] for m in by_item["alias"] if m["new_id"]])
    _restore_facts(ctx, by_item["fact"])
    olds = [m["old_id"] for m in by_item["alias"] if m["old_id"]]
    for alias in ctx.conn.execute(load("gov_aliases_by_ids"), {"ids": olds}).fetchall():
        _insert_alias(ctx, alias["entity_id"], dict(alias))
    _set_status(ctx, gone, merge["previous_status"], None)
    event = audit(ctx, "split", gone.ref, {"merge_id": merge["id"], "merged": gone.ref, "into": into.ref,
                                           "reason": op.reason}, f"split {gone.ref} from {into.ref}")
    ctx.conn.execute(load("gov_merge_mark_split"), {"id": merge["id"], "at": ctx.at, "run_id": ctx.run_id,
                                                    "event_id": event})
    return "committed"


def _close_current(ctx: OpContext, item: str, inserted: list[UUID]) -> None:
    """Close what the merge inserted, as believed now: a later merge and split may have copied it."""
    query = load("gov_facts_like") if item == "fact" else load("gov_aliases_like")
    ids = [r["id"] for r in ctx.conn.execute(query, {"ids": inserted}).fetchall()]
    if item == "fact":
        close_rows(ctx, ids, "superseded")
    else:
        _close_aliases(ctx, ids)


def _restore_facts(ctx: OpContext, moves: list[dict[str, Any]]) -> None:
    """Re-insert each row the merge closed, as it was (pending rows stay pending)."""
    successor: dict[UUID, UUID] = {}
    for move in moves:
        if move["new_id"] is not None:
            successor.setdefault(move["old_id"], move["new_id"])
    olds = list(dict.fromkeys(m["old_id"] for m in moves))
    for old in ctx.conn.execute(load("gov_facts_by_ids"), {"ids": olds}).fetchall():
        status = "active" if old["believed"] else "pending"
        _insert(ctx, copy_row(dict(old)), _interval(old), status, successor.get(old["id"], old["id"]))


HANDLERS: dict[str, Callable[[OpContext, Any], OpOutcome]] = {
    "merge_entities": merge_entities,
    "split_entity": split_entity,
}


def merges_for_run(db: Database, owner: str, run_id: str) -> list[dict[str, Any]]:
    """The merges a run made or split (for the API's answer to mergeEntities / splitEntity)."""
    with db.owner_tx(owner, read_only=True) as conn:
        return [dict(r) for r in conn.execute(load("gov_merges_for_run"), {"run_id": run_id}).fetchall()]
