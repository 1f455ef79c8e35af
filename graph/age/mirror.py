"""The AGE mirror: entities as vertices, relationship facts as edges, written in the ledger's transaction.

Times travel as integer microseconds since the epoch (UTC), so Cypher compares them as numbers.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import psycopg

import cypher
from graph.errors import InvariantViolation

if TYPE_CHECKING:
    from graph.ledger.entity import Entity

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def micros(t: datetime | None) -> int | None:
    if t is None:
        return None
    delta = t - EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def _one(conn: psycopg.Connection[Any], name: str, params: dict[str, Any]) -> None:
    if not cypher.run(conn, name, params):
        raise InvariantViolation(f"graph mirror out of step with the ledger ({name}: no row)")


def create_entity(conn: psycopg.Connection[Any], owner: str, entity: Entity) -> None:
    _one(conn, "mirror_create_entity", {
        "id": str(entity.id), "owner": owner, "ref": entity.ref, "kind": entity.kind,
        "name": entity.canonical_name, "status": entity.status})


def update_entity(conn: psycopg.Connection[Any], entity: Entity) -> None:
    _one(conn, "mirror_update_entity", {
        "id": str(entity.id), "name": entity.canonical_name, "status": entity.status,
        "merged_into": str(entity.merged_into_id) if entity.merged_into_id else None})


def rel_props(row: Mapping[str, Any]) -> dict[str, Any]:
    """The edge properties of one relationship fact row (as inserted), but for its id and owner."""
    return {"predicate": row["predicate"], "status": row["status"],
            "subject": str(row["subject_id"]), "object": str(row["object_entity_id"]),
            "scope": str(row["scope_entity_id"]) if row.get("scope_entity_id") else None,
            "valid_from": micros(row["valid_from"]), "valid_to": micros(row["valid_to"]),
            "recorded_at": micros(row["recorded_at"]), "superseded_at": micros(row.get("superseded_at"))}


def create_rel(conn: psycopg.Connection[Any], owner: str, row: Mapping[str, Any]) -> None:
    """Mirror one relationship fact row (as inserted) as a REL edge."""
    _one(conn, "mirror_create_rel", {"id": str(row["id"]), "owner": owner, **rel_props(row)})


def close_rel(conn: psycopg.Connection[Any], fact_id: str, superseded_at: datetime, status: str) -> None:
    _one(conn, "mirror_close_rel", {"id": fact_id, "superseded_at": micros(superseded_at), "status": status})


def create_event(conn: psycopg.Connection[Any], owner: str, props: dict[str, Any]) -> None:
    _one(conn, "mirror_create_event", {**props, "owner": owner})


def create_caused(conn: psycopg.Connection[Any], owner: str, cause_id: str, effect_id: str, kind: str) -> None:
    _one(conn, "mirror_create_caused", {"cause": cause_id, "effect": effect_id, "owner": owner, "kind": kind,
                                        "id": f"{cause_id}>{effect_id}"})
