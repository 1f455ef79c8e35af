"""Aliases (identities): adding one, and ending one's world time with its history kept.

An alias names at most one entity at a time (the believed-alias index of migrations/0003). Ending an alias
(a phone number given up, an address moved from) closes its believed row and believes it again with an end,
so what it named before stays answerable as of any earlier instant (graph.reads' as-of conditions).
"""

from __future__ import annotations

from datetime import datetime
from uuid import UUID

from graph.errors import BadInput, Conflict, NotFound
from graph.ledger import committer_batch
from graph.ledger.entity import Entity
from graph.ledger.op_context import OpContext
from graph.sql import load


def holders(ctx: OpContext, alias: str, namespace: str) -> list[UUID]:
    """The entities holding `alias` believed now (at most one)."""
    batch = committer_batch.active(ctx.conn)
    held = batch.alias_holders(namespace, alias) if batch is not None else None
    if held is None:
        rows = ctx.conn.execute(load("alias_believed"), {"namespace": namespace, "alias": alias}).fetchall()
        held = [h["entity_id"] for h in rows]
    return held


def add(ctx: OpContext, entity: Entity, alias: str, namespace: str, valid_from: datetime, source: str) -> None:
    batch = committer_batch.active(ctx.conn)
    holders_ = holders(ctx, alias, namespace)
    if any(h != entity.id for h in holders_):
        raise Conflict(f"alias {alias!r} already names another entity", code="ALIAS_TAKEN")
    if not holders_:
        values = {"entity_id": entity.id, "namespace": namespace, "alias": alias, "valid_from": valid_from,
                  "at": ctx.at, "source": source, "run_id": ctx.run_id, "op_index": ctx.op_index}
        if batch is not None:
            batch.insert_alias(values)
        else:
            ctx.conn.execute(load("alias_insert"), values)


def end(ctx: OpContext, entity: Entity, alias: str, namespace: str, valid_to: datetime, source: str) -> bool:
    """End `alias` of `entity` at `valid_to`; False when it already ended at or before then (nothing written)."""
    row = ctx.conn.execute(load("alias_believed_row"), {"namespace": namespace, "alias": alias}).fetchone()
    if row is None or row["entity_id"] != entity.id:
        raise NotFound(f"{entity.ref} holds no alias {alias!r} in {namespace!r}", code="UNKNOWN_ALIAS")
    if row["valid_to"] is not None and row["valid_to"] <= valid_to:
        return False
    if valid_to <= row["valid_from"]:
        raise BadInput(f"the alias holds from {row['valid_from'].isoformat()}: validTo must be after that",
                       code="BAD_INTERVAL")
    ctx.conn.execute(load("alias_end"), {"id": row["id"], "at": ctx.at, "valid_to": valid_to, "source": source,
                                         "run_id": ctx.run_id, "op_index": ctx.op_index})
    return True
