"""World events: append-only, with causation (caused_by, correlation, kind) mirrored as CAUSED edges."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import psycopg
from psycopg.rows import class_row
from psycopg.types.json import Jsonb

from graph.age import mirror
from graph.errors import BadInput, NotFound
from graph.ledger import entities
from graph.ledger import proposal as p
from graph.ledger.op_context import OpContext
from graph.reads import causality, intent
from graph.reads.causality import EventRef
from graph.sql import IdRow, load


def lookup(conn: psycopg.Connection[Any], key: str) -> EventRef | None:
    """The event named by its id or its external ref.

    Parse first, then one indexed lookup each: `id::text = key OR external_ref = key` defeated both
    indexes (a sequential scan per causedBy, under the owner lock). An external ref that happens to be
    a UUID is still found when no event has that id.
    """
    try:
        event_id = UUID(key)
    except ValueError:
        event_id = None
    cursor = conn.cursor(row_factory=class_row(EventRef))
    if event_id is not None:
        found = cursor.execute(load("event_by_id"), {"id": event_id}).fetchone()
        if found is not None:
            return found
    return cursor.execute(load("event_by_external_ref"), {"key": key}).fetchone()


def record(ctx: OpContext, op: p.RecordEvent) -> UUID | None:
    """Insert one event; an event with an external_ref already recorded is a no-op (returns None).

    An event made by the ledger itself (a governance audit) has no source yet: it is the principal's."""
    if op.source is None:
        op = op.model_copy(update={"source": ctx.principal.source})
    if ctx.conn.execute(load("event_type_exists"), {"key": op.event_type}).fetchone() is None:
        raise BadInput(f"unknown event type {op.event_type!r}", code="UNKNOWN_EVENT_TYPE")
    actor = entities.required(ctx.writer, op.actor) if op.actor else None
    target = entities.required(ctx.writer, op.target) if op.target else None
    cause = None
    if op.caused_by is not None:
        cause = lookup(ctx.conn, op.caused_by)
        if cause is None:
            raise NotFound(f"no event {op.caused_by!r}", code="UNKNOWN_EVENT")
    stamp = causality.stamp(ctx.conn, op, cause, target.id if target else None, ctx.run_id)
    inserted = ctx.conn.cursor(row_factory=class_row(IdRow)).execute(load("event_insert"), {
        "event_type": op.event_type, "occurred_at": op.occurred_at, "observed_at": op.observed_at,
        "recorded_at": ctx.at, "actor_entity_id": actor.id if actor else None,
        "target_entity_id": target.id if target else None, "caused_by_event_id": stamp.cause_id,
        "correlation_id": stamp.correlation_id, "causation_kind": stamp.kind,
        "intent": op.intent, "expected_effect": Jsonb(op.expected_effect) if op.expected_effect else None,
        "goal_ref": op.goal_ref, "run_id": ctx.run_id, "chat_id": ctx.chat_id, "tool_call_id": op.tool_call_id,
        "automation_id": op.automation_id, "payload": Jsonb(op.payload), "summary": op.summary,
        "external_ref": op.external_ref, "op_index": ctx.op_index,
    }).fetchone()
    if inserted is None:
        return None
    mirror.create_event(ctx.conn, ctx.owner, {
        "id": str(inserted.id), "event_type": op.event_type, "occurred_at": mirror.micros(op.occurred_at),
        "correlation_id": stamp.correlation_id, "summary": op.summary})
    if stamp.cause_id is not None:
        mirror.create_caused(ctx.conn, ctx.owner, str(stamp.cause_id), str(inserted.id), stamp.kind or "direct")
        observed = intent.observation(op.event_type, op.payload)
        if observed is not None and stamp.kind != "inferred":
            # an event that observes an effect (graph/reads/intent.py's payload convention) may fulfil an action
            intent.on_effect(ctx.conn, inserted.id, observed, ctx.at)
    return inserted.id
