"""Moving ledger rows between entities, shared by merge and split (graph/governance/merge.py, split.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import UUID

from graph.age import mirror
from graph.ledger import facts
from graph.ledger.entity import Entity
from graph.ledger.op_context import OpContext
from graph.ledger.timeline import Interval, subtract
from graph.sql import load


def uncovered(interval: Interval, held: Sequence[Interval]) -> list[Interval]:
    """The parts of `interval` that none of `held` covers, in order."""
    parts = [interval]
    for cut in held:
        parts = [piece for part in parts for piece in subtract(part, cut)]
    return parts


def swap(value: UUID | None, gone: UUID, into: UUID) -> UUID | None:
    return into if value == gone else value


def interval(row: dict[str, Any]) -> Interval:
    return Interval(row["valid_from"], row["valid_to"])


def insert_fact(ctx: OpContext, row: dict[str, Any], period: Interval, status: str, supersedes: UUID) -> UUID:
    """Insert a row that replaces `supersedes`; a closed `supersedes` names it as its successor (its first
    piece, when a move or a restore writes several)."""
    new_id = facts.insert(ctx.writer, {
        **row, "valid_from": period.start, "valid_to": period.end, "recorded_at": ctx.at,
        "believed": status == "active", "status": status, "supersedes_fact_id": supersedes,
        "changed_by": ctx.run_id, "run_id": ctx.run_id, "op_index": ctx.op_index})
    ctx.writer.set_successor(supersedes, new_id)
    return new_id


def insert_alias(ctx: OpContext, entity_id: UUID, alias: dict[str, Any]) -> UUID:
    row = ctx.conn.execute(load("gov_alias_insert"), {
        "entity_id": entity_id, "namespace": alias["namespace"], "alias": alias["alias"],
        "valid_from": alias["valid_from"], "valid_to": alias.get("valid_to"), "at": ctx.at,
        "source": alias["source"], "run_id": ctx.run_id, "op_index": ctx.op_index}).fetchone()
    assert row is not None
    new_id: UUID = row["id"]
    return new_id


def close_aliases(ctx: OpContext, ids: list[UUID]) -> None:
    if ids:
        ctx.conn.execute(load("gov_alias_close"), {"ids": ids, "at": ctx.at})


def set_status(ctx: OpContext, entity: Entity, status: str, into: UUID | None) -> Entity:
    updated = Entity.model_validate(ctx.conn.execute(load("gov_entity_set_merged"), {
        "id": entity.id, "status": status, "into_id": into, "at": ctx.at}).fetchone())
    mirror.update_entity(ctx.conn, updated)
    return updated
