"""The Strawberry schema, assembled from per-concept Query and Mutation mixins.

To add a concept (e.g. the ledger): in its own module define
    @strawberry.type
    class LedgerQuery:
        @strawberry.field
        async def state_at(self, info: Info, ref: str, valid_time: datetime) -> EntityState | None: ...
    @strawberry.type
    class LedgerMutation: ...
then import them below and append them to QUERY_MIXINS / MUTATION_MIXINS. Field names must be unique
across mixins (a duplicate is a warning, which the test suite turns into a failure). Use `datetime`
for DateTime (mapped to our offset-checking scalar) and `strawberry.scalars.JSON` for JSON; get the
principal and database with resolvers.context.principal/require/database. Afterwards run
`worldmem schema export --out schema.graphql` and commit the new schema.graphql.
"""

from __future__ import annotations

from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.extensions import QueryDepthLimiter
from strawberry.printer import print_schema
from strawberry.schema.config import StrawberryConfig
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext

from resolvers.context import RequireToken
from resolvers.errors import format_errors
from resolvers.registry_types import RegistryMutation, RegistryQuery
from resolvers.scalars import SCALAR_MAP

QUERY_MIXINS: tuple[type, ...] = (RegistryQuery,)
MUTATION_MIXINS: tuple[type, ...] = (RegistryMutation,)
MAX_DEPTH = 12


class WorldmemSchema(strawberry.Schema):
    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        # Replaces Strawberry's default (log every error); unexpected ones are logged by format_errors.
        format_errors(errors)


def build_schema(max_depth: int = MAX_DEPTH) -> WorldmemSchema:
    query: Any = merge_types("Query", QUERY_MIXINS)
    mutation: Any = merge_types("Mutation", MUTATION_MIXINS)
    return WorldmemSchema(
        query=query,
        mutation=mutation,
        extensions=[RequireToken, lambda: QueryDepthLimiter(max_depth=max_depth)],
        config=StrawberryConfig(scalar_map=SCALAR_MAP),
    )


schema = build_schema()


def export_sdl() -> str:
    """The schema as SDL, exactly as `worldmem schema export` writes schema.graphql."""
    return print_schema(schema).rstrip("\n") + "\n"
