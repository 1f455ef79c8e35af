"""The Strawberry schema, assembled from per-concept Query and Mutation mixins.

To add a concept (e.g. the ledger), in its own module write async resolvers and mixin types:
    async def state_at(info: Info[Any, Any], ref: str, valid_time: datetime) -> EntityState | None: ...

    @strawberry.type
    class LedgerQuery:
        state_at: EntityState | None = strawberry.field(resolver=state_at, description="...")

    @strawberry.type
    class LedgerMutation: ...
then import them below and append them to QUERY_MIXINS / MUTATION_MIXINS. (`resolver=` keeps the fields
typed under mypy strict; `@strawberry.field` used as a bare decorator is untyped.) Field names must be
unique across mixins (a duplicate is a warning, which the test suite turns into a failure). Use
`datetime` for DateTime (mapped to our offset-checking scalar) and `strawberry.scalars.JSON` for JSON;
get the principal and database with resolvers.context.principal/require/database and run blocking
database code through resolvers.context.blocking. Afterwards run
`worldmem schema export --out schema.graphql` and commit the new schema.graphql.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import strawberry
from graphql import GraphQLError
from strawberry.extensions import SchemaExtension
from strawberry.printer import print_schema
from strawberry.schema.config import StrawberryConfig
from strawberry.tools import merge_types
from strawberry.types import ExecutionContext, ExecutionResult
from strawberry.types.graphql import OperationType

from resolvers.agent import AgentQuery
from resolvers.codemode import CodemodeMutation
from resolvers.console import ConsoleQuery
from resolvers.curator import CuratorMutation, CuratorQuery
from resolvers.curator_records import CuratorRecordQuery
from resolvers.domains import DomainsMutation, DomainsQuery
from resolvers.episodes import EpisodeMutation
from resolvers.erasure import ErasureMutation, ErasureQuery
from resolvers.error_types import ErrorCode
from resolvers.errors import format_errors
from resolvers.explorer import ExplorerQuery
from resolvers.governance import GovernanceMutation, GovernanceQuery
from resolvers.graph_queries import GraphQueryQuery
from resolvers.ledger import LedgerMutation, LedgerQuery
from resolvers.limits import MAX_DEPTH
from resolvers.live import LiveSubscription
from resolvers.operation_guard import OperationGuard, OperationGuardSync, provided_operation_name
from resolvers.registry_types import RegistryMutation, RegistryQuery
from resolvers.retention import RetentionMutation
from resolvers.scalars import SCALAR_MAP
from resolvers.sync import SyncMutation
from resolvers.transfer import TransferQuery

QUERY_MIXINS: tuple[type, ...] = (LedgerQuery, RegistryQuery, GovernanceQuery, ConsoleQuery, AgentQuery,
                                  GraphQueryQuery, CuratorQuery, CuratorRecordQuery, ExplorerQuery, DomainsQuery,
                                  ErasureQuery, TransferQuery)
MUTATION_MIXINS: tuple[type, ...] = (LedgerMutation, RegistryMutation, GovernanceMutation, CuratorMutation,
                                     SyncMutation, CodemodeMutation, DomainsMutation, RetentionMutation,
                                     ErasureMutation, EpisodeMutation)


# `execute` answers with one result, which a subscription never is: refused there
# (SUBSCRIPTION_NEEDS_WEBSOCKET, resolvers.operation_guard) instead of run as a query.
ONE_RESULT = frozenset({OperationType.QUERY, OperationType.MUTATION})


class WorldmemSchema(strawberry.Schema):
    """Strawberry's schema, recording the operationName the client sent for the guard
    (resolvers.operation_guard.provided_operation_name) and never running a subscription in `execute`."""

    async def execute(self, query: str | None, variable_values: dict[str, Any] | None = None,
                      context_value: Any | None = None, root_value: Any | None = None,
                      operation_name: str | None = None,
                      allowed_operation_types: Iterable[OperationType] | None = None,
                      operation_extensions: dict[str, Any] | None = None) -> ExecutionResult:
        token = provided_operation_name.set(operation_name)
        try:
            return await super().execute(query, variable_values, context_value, root_value, operation_name,
                                         _one_result(allowed_operation_types), operation_extensions)
        finally:
            provided_operation_name.reset(token)

    def execute_sync(self, query: str | None, variable_values: dict[str, Any] | None = None,
                     context_value: Any | None = None, root_value: Any | None = None,
                     operation_name: str | None = None,
                     allowed_operation_types: Iterable[OperationType] | None = None,
                     operation_extensions: dict[str, Any] | None = None) -> ExecutionResult:
        token = provided_operation_name.set(operation_name)
        try:
            return super().execute_sync(query, variable_values, context_value, root_value, operation_name,
                                        _one_result(allowed_operation_types), operation_extensions)
        finally:
            provided_operation_name.reset(token)

    async def stream(self, query: str | None, variable_values: dict[str, Any] | None = None,
                     context_value: Any | None = None, root_value: Any | None = None,
                     operation_name: str | None = None, operation_extensions: dict[str, Any] | None = None,
                     allowed_operation_types: Iterable[OperationType] | None = None) -> Any:
        # not reset: a stream's operation runs later, in the task that reads the stream (its own per operation)
        provided_operation_name.set(operation_name)
        return await super().stream(query, variable_values, context_value, root_value, operation_name,
                                    operation_extensions, allowed_operation_types)

    def process_errors(
        self, errors: list[GraphQLError], execution_context: ExecutionContext | None = None
    ) -> None:
        # Replaces Strawberry's default (log every error); unexpected ones are logged by format_errors.
        format_errors(errors)

    def get_extensions(self, sync: bool = False) -> list[SchemaExtension]:
        # execute_sync cannot run the guard's asynchronous (off-loop) hooks: use its synchronous twin
        found = super().get_extensions(sync)
        return [OperationGuardSync(e.max_depth) if sync and isinstance(e, OperationGuard) else e for e in found]


def build_schema(max_depth: int = MAX_DEPTH) -> WorldmemSchema:
    query: Any = merge_types("Query", QUERY_MIXINS)
    mutation: Any = merge_types("Mutation", MUTATION_MIXINS)
    return WorldmemSchema(
        query=query,
        mutation=mutation,
        subscription=LiveSubscription,
        # one extension per request does the token, the guard, the depth and complexity limits and the soft
        # errors: each extension Strawberry builds and hooks per request cost ~0.03 ms of a point read
        extensions=[lambda: OperationGuard(max_depth)],
        config=StrawberryConfig(scalar_map=SCALAR_MAP),
        # The codes of `extensions.code` and `Rejected.code` (a String in the contract), documented.
        types=[ErrorCode],
    )


def _one_result(allowed: Iterable[OperationType] | None) -> frozenset[OperationType]:
    return ONE_RESULT if allowed is None else frozenset(allowed) & ONE_RESULT


schema = build_schema()


def export_sdl() -> str:
    """The schema as SDL, exactly as `worldmem schema export` writes schema.graphql."""
    return print_schema(schema).rstrip("\n") + "\n"
