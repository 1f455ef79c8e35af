"""Moving ledger rows between entities, shared by merge and split (graph/governance/merge.py, split.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row, kwargs_row

from graph.age import mirror
from graph.ledger import facts
from graph.ledger.entity import Entity
from graph.ledger.fact_rows import Claim
from graph.ledger.op_context import OpContext
from graph.ledger.timeline import Interval, subtract
from graph.sql import IdRow, load


@dataclass(frozen=True, slots=True)
class AliasClaim:
    """What an alias row says: a name in a namespace, over a period, on whose word."""

    namespace: str
    alias: str
    valid_from: datetime
    valid_to: datetime | None
    source: str


@dataclass(frozen=True, slots=True)
class StoredAlias:
    """An alias row as a merge or split reads it (gov_aliases_of.sql, gov_aliases_by_ids.sql)."""

    id: UUID
    entity_id: UUID
    said: AliasClaim


def _stored_alias(*, id: UUID, entity_id: UUID, **said: Any) -> StoredAlias:
    return StoredAlias(id, entity_id, AliasClaim(**said))


def stored_aliases(conn: psycopg.Connection[Any], query: str, params: dict[str, Any]) -> list[StoredAlias]:
    """The rows of one of the alias statements above."""
    return conn.cursor(row_factory=kwargs_row(_stored_alias)).execute(load(query), params).fetchall()


def uncovered(interval: Interval, held: Sequence[Interval]) -> list[Interval]:
    """The parts of `interval` that none of `held` covers, in order."""
    parts = [interval]
    for cut in held:
        parts = [piece for part in parts for piece in subtract(part, cut)]
    return parts


def swap(value: UUID | None, gone: UUID, into: UUID) -> UUID | None:
    return into if value == gone else value


def insert_fact(ctx: OpContext, claim: Claim, period: Interval, status: str, supersedes: UUID) -> UUID:
    """Insert a row that replaces `supersedes`; a closed `supersedes` names it as its successor (its first
    piece, when a move or a restore writes several)."""
    new_id = facts.insert(ctx.writer, claim.placed(period, status, supersedes, ctx.stamp))
    ctx.writer.set_successor(supersedes, new_id)
    return new_id


def insert_alias(ctx: OpContext, entity_id: UUID, alias: AliasClaim) -> UUID:
    cursor = ctx.conn.cursor(row_factory=class_row(IdRow))
    row = cursor.execute(load("gov_alias_insert"), {
        "entity_id": entity_id, "namespace": alias.namespace, "alias": alias.alias,
        "valid_from": alias.valid_from, "valid_to": alias.valid_to, "at": ctx.at,
        "source": alias.source, "run_id": ctx.run_id, "op_index": ctx.op_index}).fetchone()
    assert row is not None
    return row.id


def close_aliases(ctx: OpContext, ids: list[UUID]) -> None:
    if ids:
        ctx.conn.execute(load("gov_alias_close"), {"ids": ids, "at": ctx.at})


def set_status(ctx: OpContext, entity: Entity, status: str, into: UUID | None) -> Entity:
    updated = Entity.model_validate(ctx.conn.execute(load("gov_entity_set_merged"), {
        "id": entity.id, "status": status, "into_id": into, "at": ctx.at}).fetchone())
    mirror.update_entity(ctx.conn, updated)
    return updated
