"""The global vocabulary: entity kinds and relation types (predicates).

Registration is an idempotent upsert in one transaction (all or nothing): an identical definition is a
no-op, a new one is inserted, and a definition that changes the meaning of an existing key (cardinality,
kinds, inverse, flags) is refused with `CONFLICTING_DEFINITION`. Integration keys may update their name
and description; keys seeded by the migrations (`source = 'core'`) never change through registration.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Annotated, Any, Literal, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.rows import dict_row
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from graph.errors import BadInput, Conflict, Unavailable
from graph.ledger import registrants
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.sql import load

KEY_PATTERN = r"^([a-z][a-z0-9_]*:)?[a-z][a-z0-9_]*$"
KEY_RE = re.compile(KEY_PATTERN)
MAX_BATCH = 200

Key = Annotated[str, Field(min_length=1, max_length=100, pattern=KEY_PATTERN,
                           description="`key` (core) or `domain:key` (integration)")]
Cardinality = Literal["functional", "set"]
RegistrySource = Literal["core", "integration"]
State = Literal["active", "deprecated"]


class EntityKind(BaseModel):
    """A registered entity kind (row of `entity_kinds`)."""

    key: str
    name: str
    description: str | None = None
    privileged: bool = Field(default=False, description="Only core sources may create entities of it")
    source: RegistrySource = "core"
    trust_tier: int = 0
    state: State = "active"


class RelationType(BaseModel):
    """A registered relation type or attribute predicate (row of `relation_types`)."""

    key: str
    name: str
    description: str | None = None
    inverse: str | None = Field(default=None, description="Name of the reverse direction, if any")
    cardinality: Cardinality = Field(description="functional: one believed value at a time; set: many")
    subject_kinds: list[str] | None = Field(default=None, description="Allowed subject kinds; None = any")
    object_kinds: list[str] | None = Field(default=None, description="Allowed object kinds; None = any")
    is_symmetric: bool = False
    is_transitive: bool = False
    is_hierarchical: bool = False
    inference_enabled: bool = False
    privileged: bool = False
    source: RegistrySource = "core"
    trust_tier: int = 0
    state: State = "active"


class EntityKindDefinition(BaseModel):
    """What a caller may register as an entity kind."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    key: Key
    name: str = Field(min_length=1, max_length=200)
    description: str | None = Field(default=None, max_length=2000, description="None keeps the stored one")


class RelationTypeDefinition(BaseModel):
    """What a caller may register as a relation type; kinds are compared as sets."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    key: Key
    name: str = Field(min_length=1, max_length=200)
    cardinality: Cardinality
    subject_kinds: list[Key] | None = Field(default=None, max_length=50)
    object_kinds: list[Key] | None = Field(default=None, max_length=50)
    inverse: Key | None = None
    description: str | None = Field(default=None, max_length=2000, description="None keeps the stored one")
    is_symmetric: bool = False
    is_transitive: bool = False
    is_hierarchical: bool = False

    @field_validator("subject_kinds", "object_kinds")
    @classmethod
    def _as_set(cls, kinds: list[str] | None) -> list[str] | None:
        # An empty list would allow no kind at all; it can only mean "any", like None.
        return sorted(set(kinds)) if kinds else None


_SEMANTIC_FIELDS = ("cardinality", "subject_kinds", "object_kinds", "inverse",
                    "is_symmetric", "is_transitive", "is_hierarchical")
M = TypeVar("M", bound=BaseModel)


def get_relation_type(conn: psycopg.Connection[Any], key: str) -> RelationType | None:
    row = _one(conn, "registries_relation_type_get", {"key": key})
    return None if row is None else RelationType.model_validate(row)


def get_entity_kind(conn: psycopg.Connection[Any], key: str) -> EntityKind | None:
    row = _one(conn, "registries_entity_kind_get", {"key": key})
    return None if row is None else EntityKind.model_validate(row)


def list_relation_types(conn: psycopg.Connection[Any]) -> list[RelationType]:
    with conn.cursor(row_factory=dict_row) as cur:
        return [RelationType.model_validate(r) for r in cur.execute(load("registries_relation_types_list"))]


def list_entity_kinds(conn: psycopg.Connection[Any]) -> list[EntityKind]:
    with conn.cursor(row_factory=dict_row) as cur:
        return [EntityKind.model_validate(r) for r in cur.execute(load("registries_entity_kinds_list"))]


def all_relation_types(db: Database) -> list[RelationType]:
    with _transaction(db) as conn:
        return list_relation_types(conn)


def all_entity_kinds(db: Database) -> list[EntityKind]:
    with _transaction(db) as conn:
        return list_entity_kinds(conn)


def register_entity_kinds(
    db: Database,
    kinds: Sequence[EntityKindDefinition | Mapping[str, Any]],
    source: RegistrySource = "integration",
    principal: Principal | None = None,
) -> list[EntityKind]:
    """Upsert entity kinds, all or nothing; returns the stored kinds in input order.

    `principal` is the token registering them (graph.ledger.registrants); None is the admin's tooling."""
    definitions = _parse(EntityKindDefinition, kinds, "kinds")
    with _transaction(db) as conn:
        return [_register_kind(conn, d, source, principal) for d in definitions]


def register_relation_types(
    db: Database,
    types: Sequence[RelationTypeDefinition | Mapping[str, Any]],
    source: RegistrySource = "integration",
    principal: Principal | None = None,
) -> list[RelationType]:
    """Upsert relation types, all or nothing; returns the stored types in input order.

    `principal` is the token registering them (graph.ledger.registrants); None is the admin's tooling."""
    definitions = _parse(RelationTypeDefinition, types, "types")
    with _transaction(db) as conn:
        _require_kinds(conn, definitions)
        return [_register_type(conn, d, source, principal) for d in definitions]


def _register_kind(conn: psycopg.Connection[Any], new: EntityKindDefinition, source: str,
                   principal: Principal | None) -> EntityKind:
    registrants.check_key(conn, principal, new.key)
    params = {**new.model_dump(), "source": source, **registrants.registrant(principal)}
    row = _insert_or_lock(conn, "registries_entity_kind", params)
    old = EntityKind.model_validate(row)
    changed = _text_changes(old.name, old.description, new.name, new.description)
    if not changed:
        return old
    if old.source == "core":
        raise _conflict("entity kind", old.key, changed, core=True)
    registrants.check_change(principal, row, "entity kind")
    return EntityKind.model_validate(_one(conn, "registries_entity_kind_rename", params))


def _register_type(conn: psycopg.Connection[Any], new: RelationTypeDefinition, source: str,
                   principal: Principal | None) -> RelationType:
    registrants.check_key(conn, principal, new.key)
    registrants.check_inverse(principal, new.key, new.inverse)
    params = {**new.model_dump(), "source": source, **registrants.registrant(principal)}
    row = _insert_or_lock(conn, "registries_relation_type", params)
    old = RelationType.model_validate(row)
    changed = [f for f in _SEMANTIC_FIELDS if _differs(getattr(old, f), getattr(new, f))]
    if changed:
        raise _conflict("relation type", old.key, changed, core=old.source == "core")
    changed = _text_changes(old.name, old.description, new.name, new.description)
    if not changed:
        return old
    if old.source == "core":
        raise _conflict("relation type", old.key, changed, core=True)
    registrants.check_change(principal, row, "relation type")
    return RelationType.model_validate(_one(conn, "registries_relation_type_rename", params))


def _require_kinds(conn: psycopg.Connection[Any], definitions: Sequence[RelationTypeDefinition]) -> None:
    wanted = {k for d in definitions for k in (d.subject_kinds or []) + (d.object_kinds or [])}
    if not wanted:
        return
    with conn.cursor(row_factory=dict_row) as cur:
        rows = cur.execute(load("registries_entity_kinds_existing"), {"keys": sorted(wanted)}).fetchall()
    missing = sorted(wanted - {r["key"] for r in rows})
    if missing:
        raise BadInput(f"unknown entity kind(s): {', '.join(missing)}; register them first",
                       code="UNKNOWN_KIND")


def _differs(old: object, new: object) -> bool:
    def norm(value: object) -> object:
        return frozenset(value) if isinstance(value, list) else value
    return norm(old) != norm(new)


def _text_changes(old_name: str, old_desc: str | None, name: str, desc: str | None) -> list[str]:
    changed = ["name"] if old_name != name else []
    return changed + (["description"] if desc is not None and desc != old_desc else [])


def _conflict(what: str, key: str, fields: Sequence[str], *, core: bool) -> Conflict:
    why = "core vocabulary cannot be redefined" if core else "a registered meaning cannot change"
    names = ", ".join(f.removeprefix("is_").replace("_", " ") for f in fields)
    return Conflict(f"{what} {key!r} is already registered with a different {names}; {why}",
                    code="CONFLICTING_DEFINITION")


def _parse(model: type[M], items: Sequence[M | Mapping[str, Any]], what: str) -> list[M]:
    if len(items) > MAX_BATCH:
        raise BadInput(f"at most {MAX_BATCH} {what} per call")
    parsed = []
    for i, item in enumerate(items):
        try:
            parsed.append(item if isinstance(item, model) else model.model_validate(item))
        except ValidationError as exc:
            raise BadInput(f"{what}[{i}]: {describe(exc)}") from None
    return parsed


def describe(exc: ValidationError) -> str:
    """A short, input-free summary of a pydantic error (no URLs, no echo of large values)."""
    parts = []
    for err in exc.errors(include_url=False, include_input=False)[:5]:
        where = ".".join(str(p) for p in err["loc"])
        parts.append(f"{where}: {err['msg']}" if where else err["msg"])
    return "; ".join(parts)


def _insert_or_lock(conn: psycopg.Connection[Any], prefix: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """The new row, or else the existing row locked until commit (so a racing writer waits)."""
    row = _one(conn, f"{prefix}_insert", params) or _one(conn, f"{prefix}_lock", params)
    if row is None:  # inserted and deleted in between: registries never delete, so this is a bug
        raise RuntimeError(f"{prefix}: row vanished during registration")
    return row


def _one(conn: psycopg.Connection[Any], name: str, params: Mapping[str, Any]) -> dict[str, Any] | None:
    with conn.cursor(row_factory=dict_row) as cur:
        return cur.execute(load(name), params).fetchone()


@contextmanager
def _transaction(db: Database) -> Iterator[psycopg.Connection[Any]]:
    """One transaction on a pooled connection, with database failures translated to our errors."""
    try:
        with db.connection() as conn, conn.transaction():
            yield conn
    except pg_errors.QueryCanceled as exc:
        raise Unavailable("the database took too long to answer") from exc
    except psycopg.OperationalError as exc:
        raise Unavailable("the database is not reachable") from exc
