"""Entities: resolving refs and aliases to ids, creating and renaming entities (mirrored as vertices)."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import psycopg

from graph.errors import BadInput, InvariantViolation, NotFound
from graph.ledger.entity import REF, Entity, NewEntity, parse_ref
from graph.sql import load

if TYPE_CHECKING:
    from graph.ledger.writer import Writer


def _row(row: dict[str, Any] | None) -> Entity | None:
    return Entity.model_validate(row) if row else None


def from_row(row: dict[str, Any] | None) -> Entity:
    """The entity a write returned (entity_insert, entity_update: RETURNING the entity's columns)."""
    if row is None:
        raise InvariantViolation("an entity write returned no row")
    return Entity.model_validate(row)


def by_id(conn: psycopg.Connection[Any], entity_id: UUID) -> Entity | None:
    return _row(conn.execute(load("entity_by_id"), {"id": entity_id}).fetchone())


def survivor(conn: psycopg.Connection[Any], entity: Entity, system_time: datetime | None = None) -> Entity:
    """The entity `entity` stood for at `system_time` (now when None): merges carry their own system
    time, so a ref merged later still names itself as known before the merge."""
    if system_time is None and entity.merged_into_id is None:
        return entity  # not merged now: no merge to follow (the common case costs no query)
    found = _row(conn.execute(load("entity_survivor"), {"id": entity.id, "system_time": system_time}).fetchone())
    return found or entity


def resolve(conn: psycopg.Connection[Any], ref_or_alias: str, *, follow: bool = True,
            system_time: datetime | None = None) -> Entity | None:
    """An entity by exact ref, else by an alias believed at `system_time` (now when None) that names
    exactly one entity; with `follow`, the survivor it was merged into as of that system time.

    The rule is one database function (wm_resolve), which the reads of graph.reads.temporal also call inside
    their own statement; a proposal resolves through its writer (Writer.resolve), which sees what it wrote."""
    params = {"name": ref_or_alias, "system_time": system_time, "follow": follow}
    return resolved(conn.execute(load("entity_resolve"), params).fetchone(), ref_or_alias)


def ambiguous(ref_or_alias: str) -> BadInput:
    return BadInput(f"{ref_or_alias!r} is ambiguous: it is an alias of several entities", code="AMBIGUOUS_REF")


def found(row: dict[str, Any], ref_or_alias: str) -> bool:
    """Whether a wm_resolve row's `outcome` names an entity (the reads carry it on their first row); an
    ambiguous alias is AMBIGUOUS_REF."""
    if row["outcome"] == "ambiguous":
        raise ambiguous(ref_or_alias)
    return bool(row["outcome"] == "found")


def resolved(row: dict[str, Any] | None, ref_or_alias: str) -> Entity | None:
    """The entity of a wm_resolve row (`outcome` and the entity's columns): None when not found; an
    ambiguous alias is AMBIGUOUS_REF."""
    if row is None or not found(row, ref_or_alias):
        return None
    return Entity.model_validate(row)


def require(conn: psycopg.Connection[Any], ref_or_alias: str) -> Entity:
    entity = resolve(conn, ref_or_alias)
    if entity is None:
        raise unknown(ref_or_alias)
    return entity


def required(writer: Writer, ref_or_alias: str) -> Entity:
    """As `require`, inside a proposal: it sees the entities the proposal created."""
    entity = writer.resolve(ref_or_alias)
    if entity is None:
        raise unknown(ref_or_alias)
    return entity


def unknown(ref_or_alias: str) -> NotFound:
    return NotFound(f"no entity {ref_or_alias!r}", code="UNKNOWN_ENTITY")


def create(writer: Writer, values: NewEntity) -> Entity:
    """Insert an entity and its vertex."""
    return writer.create_entity(values)


def rename(writer: Writer, entity: Entity, values: NewEntity) -> Entity:
    """Give `entity` the name, description and external id of `values`."""
    return writer.renamed(values, entity)


def ref_rules(ref: str) -> str:
    """What a ref may contain, with a corrected ref to use when the slug has umlauts, accents or spaces."""
    from graph.agent.german import ascii_slug

    kind, _, slug = ref.partition(":")
    rules = ("a ref is kind:slug: the kind in lowercase a-z, 0-9 and _, the slug in ASCII letters, digits "
             "and _.-#/@+ (no spaces, no umlauts)")
    if slug and REF.match(f"{kind}:a"):
        return f'{rules}; use {kind}:{ascii_slug(slug)} and keep "{slug}" as the canonical name or an alias'
    return rules


def check_ref(ref: str, kind: str) -> None:
    parsed = parse_ref(ref)
    if parsed is None:
        raise BadInput(f"ref {ref!r} is not valid: {ref_rules(ref)}", code="BAD_REF")
    if parsed[0] != kind:
        raise BadInput(f"ref {ref!r} does not start with its kind {kind!r}", code="KIND_MISMATCH")
