"""Aliases (identities): adding one, and ending one's world time with its history kept.

An alias names at most one entity at any instant of valid time (migrations/0131). Ending an alias (a phone
number given up, an address moved from) closes its believed row and believes it again with an end, so what
it named before stays answerable as of any earlier instant (graph.reads' as-of conditions), and another
entity may take it over from that end on (graph.ledger.alias_holding).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from psycopg.rows import class_row

from graph.errors import BadInput, Conflict, NotFound
from graph.ledger.alias_holding import AliasRow, NewAlias
from graph.ledger.entity import Entity
from graph.ledger.op_context import OpContext
from graph.sql import load


def holders(ctx: OpContext, alias: str, namespace: str, start: datetime | None = None) -> list[UUID]:
    """The entities holding `alias` as believed now; with `start`, only those whose holding overlaps
    [start, open end) (at most one: who a holding from `start` would clash with)."""
    return ctx.writer.alias_holders(alias, namespace, start)


def add(ctx: OpContext, entity: Entity, alias: str, namespace: str, valid_from: datetime, source: str) -> None:
    holders_ = holders(ctx, alias, namespace, valid_from)
    if any(h != entity.id for h in holders_):
        raise Conflict(f"alias {alias!r} already names another entity", code="ALIAS_TAKEN")
    if not holders_:
        ctx.writer.insert_alias(NewAlias(entity.id, namespace, alias, valid_from, ctx.at, source, ctx.run_id,
                                         ctx.op_index))


def end(ctx: OpContext, entity: Entity, alias: str, namespace: str, valid_to: datetime, source: str) -> bool:
    """End `alias` of `entity` at `valid_to`; False when it already ended at or before then (nothing written)."""
    cursor = ctx.conn.cursor(row_factory=class_row(AliasRow))
    rows = cursor.execute(load("alias_believed_row"), {"namespace": namespace, "alias": alias}).fetchall()
    row = next((r for r in rows if r.entity_id == entity.id), None)
    if row is None:
        raise NotFound(f"{entity.ref} holds no alias {alias!r} in {namespace!r}", code="UNKNOWN_ALIAS")
    if row.valid_to is not None and row.valid_to <= valid_to:
        return False
    if valid_to <= row.valid_from:
        raise BadInput(f"the alias holds from {row.valid_from.isoformat()}: validTo must be after that",
                       code="BAD_INTERVAL")
    ctx.conn.execute(load("alias_end"), {"id": row.id, "at": ctx.at, "valid_to": valid_to, "source": source,
                                         "run_id": ctx.run_id, "op_index": ctx.op_index})
    return True
