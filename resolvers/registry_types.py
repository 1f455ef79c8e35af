"""GraphQL side of the registries: entity kinds and relation types, and the fields that read and
register them (`RegistryQuery`, `RegistryMutation`, assembled into the schema by resolvers/schema.py).

Registering needs a token created with `--integration`; reading needs any valid token.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

import strawberry
from strawberry.types import Info

from graph.ledger import registries as reg
from resolvers.context import blocking, database, require


@strawberry.enum(description="How many values of a predicate can be believed at once for one subject")
class Cardinality(Enum):
    FUNCTIONAL = "functional"
    SET = "set"


@strawberry.input(description="A relation type (predicate) to register; an unchanged one is a no-op")
class RelationTypeInput:
    key: str = strawberry.field(description="`key` or `domain:key`: lowercase letters, digits, underscore")
    name: str
    cardinality: Cardinality
    subject_kinds: list[str] | None = strawberry.field(
        default=None, description="Allowed subject kinds; null = any")
    object_kinds: list[str] | None = strawberry.field(
        default=None, description="Allowed object kinds (relationships); null = any")
    inverse: str | None = strawberry.field(default=None, description="Name of the reverse direction")
    description: str | None = None
    is_symmetric: bool = False
    is_transitive: bool = False
    is_hierarchical: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key, "name": self.name, "cardinality": self.cardinality.value,
            "subject_kinds": self.subject_kinds, "object_kinds": self.object_kinds,
            "inverse": self.inverse, "description": self.description, "is_symmetric": self.is_symmetric,
            "is_transitive": self.is_transitive, "is_hierarchical": self.is_hierarchical,
        }


@strawberry.input(description="An entity kind to register; an unchanged one is a no-op")
class EntityKindInput:
    key: str = strawberry.field(description="`key` or `domain:key`: lowercase letters, digits, underscore")
    name: str
    description: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "name": self.name, "description": self.description}


@strawberry.type(description="A registered relation type or attribute predicate")
class RelationType:
    key: str
    name: str
    description: str | None
    inverse: str | None
    cardinality: Cardinality
    subject_kinds: list[str] | None = strawberry.field(description="Allowed subject kinds; null = any")
    object_kinds: list[str] | None = strawberry.field(description="Allowed object kinds; null = any")
    is_symmetric: bool
    is_transitive: bool
    is_hierarchical: bool
    inference_enabled: bool
    privileged: bool = strawberry.field(description="Only core sources may assert it")
    source: str = strawberry.field(description="core | integration")
    trust_tier: int
    state: str = strawberry.field(description="active | deprecated")

    @classmethod
    def from_model(cls, m: reg.RelationType) -> RelationType:
        return cls(
            key=m.key, name=m.name, description=m.description, inverse=m.inverse,
            cardinality=Cardinality(m.cardinality),
            subject_kinds=m.subject_kinds, object_kinds=m.object_kinds,
            is_symmetric=m.is_symmetric, is_transitive=m.is_transitive, is_hierarchical=m.is_hierarchical,
            inference_enabled=m.inference_enabled, privileged=m.privileged, source=m.source,
            trust_tier=m.trust_tier, state=m.state,
        )


@strawberry.type(description="A registered kind of entity")
class EntityKind:
    key: str
    name: str
    description: str | None
    privileged: bool = strawberry.field(description="Only core sources may create entities of it")
    source: str = strawberry.field(description="core | integration")
    trust_tier: int
    state: str = strawberry.field(description="active | deprecated")

    @classmethod
    def from_model(cls, m: reg.EntityKind) -> EntityKind:
        return cls(key=m.key, name=m.name, description=m.description, privileged=m.privileged,
                   source=m.source, trust_tier=m.trust_tier, state=m.state)


async def relation_types(info: Info[Any, Any]) -> list[RelationType]:
    found = await blocking(reg.all_relation_types, database(info))
    return [RelationType.from_model(m) for m in found]


async def entity_kinds(info: Info[Any, Any]) -> list[EntityKind]:
    found = await blocking(reg.all_entity_kinds, database(info))
    return [EntityKind.from_model(m) for m in found]


async def register_relation_types(info: Info[Any, Any], types: list[RelationTypeInput]) -> list[RelationType]:
    who = require(info, integrate=True)
    stored = await blocking(reg.register_relation_types, database(info), [t.as_dict() for t in types],
                            principal=who)
    return [RelationType.from_model(m) for m in stored]


async def register_entity_kinds(info: Info[Any, Any], kinds: list[EntityKindInput]) -> list[EntityKind]:
    who = require(info, integrate=True)
    stored = await blocking(reg.register_entity_kinds, database(info), [k.as_dict() for k in kinds],
                            principal=who)
    return [EntityKind.from_model(m) for m in stored]


# Resolvers are passed as `resolver=` (not used as decorators) so the fields stay typed for mypy.
@strawberry.type
class RegistryQuery:
    relation_types: list[RelationType] = strawberry.field(
        resolver=relation_types, description="Every registered relation type, by key")
    entity_kinds: list[EntityKind] = strawberry.field(
        resolver=entity_kinds, description="Every registered entity kind, by key")


@strawberry.type
class RegistryMutation:
    register_relation_types: list[RelationType] = strawberry.mutation(
        resolver=register_relation_types,
        description="Register relation types (all or nothing). Needs an integration token (keys under its "
                    "namespace `name:`) or an owner token made with --integration; a key registered by "
                    "someone else can be used, not changed.")
    register_entity_kinds: list[EntityKind] = strawberry.mutation(
        resolver=register_entity_kinds,
        description="Register entity kinds (all or nothing). Needs an integration token (keys under its "
                    "namespace `name:`) or an owner token made with --integration; a key registered by "
                    "someone else can be used, not changed.")
