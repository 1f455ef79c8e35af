"""The token, bounded off-the-loop parsing and validation, the per-request budget and the soft errors, as one
schema extension (each extension Strawberry builds and hooks per request costs CPU on every request).

- An operation without a valid token is refused before it is parsed (resolvers.context.require_token).

- Parsing stops after `max_tokens` tokens (QUERY_TOO_LARGE): a 1 MB document of 40,000 fields used to
  spend ~6 s in parsing and validation on the event loop while every other owner's request waited.
- Parsing and validation run in a worker thread through resolvers.fairness.offload, so what remains of
  that work is shared fairly and never blocks the event loop; a document that parsed or validated before
  is taken from resolvers.document_cache instead (then only small variables are checked on the loop).
- A document with several operations needs `operationName` (OPERATION_NAME_REQUIRED): GraphQL would
  otherwise run whichever it took to be meant.
- Validation adds the depth and complexity limits of resolvers.limits (QUERY_TOO_DEEP, QUERY_TOO_COMPLEX), a limit
  on aliases (TOO_MANY_ALIASES) and the input checks of resolvers.input_rules.
- The operation runs within the owner's database share and time budget (resolvers.fairness), and stored
  times that readers had to clamp (graph.platform.safe_times) are reported as one typed error; the errors
  resolvers reported beside their data are added to the result (resolvers.context.add_soft_errors).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from graphql import ASTValidationRule, DocumentNode, GraphQLError, GraphQLSchema, OperationDefinitionNode, parse
from strawberry.extensions import SchemaExtension
from strawberry.schema.schema import validate_document

from graph.platform import safe_times
from graph.settings import Settings
from resolvers.context import Context, add_soft_errors, require_token
from resolvers.document_cache import few_values, for_schema
from resolvers.fairness import offload
from resolvers.input_rules import QUERY_TOO_LARGE, InputRule, alias_limit, check_variables, width_error
from resolvers.limits import MAX_DEPTH, QUERY_TOO_DEEP, limits_rule

OPERATION_NAME_REQUIRED = "OPERATION_NAME_REQUIRED"


def parse_bounded(query: str, max_tokens: int) -> DocumentNode:
    try:
        return parse(query, max_tokens=max_tokens)
    except GraphQLError as exc:
        if "tokens" in exc.message and "Parsing aborted" in exc.message:
            raise GraphQLError(f"the document has more than {max_tokens} tokens; send a smaller query",
                               extensions={"code": QUERY_TOO_LARGE}) from None
        if "nested too deeply" in exc.message:
            raise GraphQLError("the document nests too deeply", extensions={"code": QUERY_TOO_DEEP}) from None
        raise
    except RecursionError:
        raise GraphQLError("the document nests too deeply", extensions={"code": QUERY_TOO_DEEP}) from None


def operation_name_required(document: DocumentNode, operation_name: str | None) -> GraphQLError | None:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if operation_name is None and len(operations) > 1:
        return GraphQLError("the document has several operations; say which to run with operationName",
                            extensions={"code": OPERATION_NAME_REQUIRED})
    return None


def prepare(query: str, max_tokens: int, provided_name: str | None) -> DocumentNode:
    document = parse_bounded(query, max_tokens)
    error = operation_name_required(document, provided_name)
    if error is not None:
        raise error
    return document


def validate(schema: GraphQLSchema, document: DocumentNode, rules: tuple[type[ASTValidationRule], ...],
             variables: dict[str, Any] | None) -> list[GraphQLError]:
    # Input first and alone: GraphQL's own rules would convert a 5,000-digit literal and fail untyped.
    first = check_variables(variables) or width_error(document)
    if first is not None:
        return [first]
    return validate_document(schema, document, (InputRule,)) or validate_document(schema, document, rules)


class _Guard(SchemaExtension):
    max_tokens = Settings.model_fields["max_query_tokens"].default
    max_aliases = Settings.model_fields["max_query_aliases"].default

    def __init__(self, max_depth: int = MAX_DEPTH) -> None:
        super().__init__()
        self.max_depth = max_depth
        self.limits = limits_rule(max_depth)  # depth and complexity (resolvers.limits), one class per depth

    def _limits(self, ctx: Context) -> None:
        self.max_tokens = ctx.settings.max_query_tokens
        self.max_aliases = ctx.settings.max_query_aliases

    def _report(self, clamped: list[str]) -> None:
        result = self.execution_context.result
        if clamped and result is not None:
            result.errors = [*(result.errors or []), safe_times.report(clamped)]

    def _provided_name(self) -> str | None:
        # `operation_name` falls back to the first operation's name: ask what the client sent
        return getattr(self.execution_context, "_provided_operation_name", None)

    def _rules(self) -> tuple[type[ASTValidationRule], ...]:
        return (*self.execution_context.validation_rules, self.limits, alias_limit(self.max_aliases))


class OperationGuard(_Guard):
    """Limits from the request's settings; the owner's gate from the app (see resolvers.context)."""

    async def on_operation(self) -> AsyncIterator[None]:
        require_token(self.execution_context)
        ctx = self.execution_context.context
        budget: AbstractContextManager[object] = nullcontext()
        if isinstance(ctx, Context):
            self._limits(ctx)
            budget = ctx.budget()
        with safe_times.collecting() as clamped, budget:
            yield
        add_soft_errors(self.execution_context)
        self._report(clamped)

    async def on_parse(self) -> AsyncIterator[None]:
        ec = self.execution_context
        if ec.graphql_document is None and ec.query:
            documents = for_schema(ec.schema)
            document = documents.parsed(ec.query, self.max_tokens)
            if document is None:
                document = await offload(parse_bounded, ec.query, self.max_tokens)
                documents.remember_parsed(ec.query, self.max_tokens, document)
            error = operation_name_required(document, self._provided_name())
            if error is not None:
                raise error
            ec.graphql_document = document
        yield

    async def on_validate(self) -> AsyncIterator[None]:
        ec = self.execution_context
        if ec.pre_execution_errors is None and ec.graphql_document is not None:
            documents = for_schema(ec.schema)
            if ec.query and documents.valid(ec.query, self.max_tokens, self.max_aliases):
                # the document passed before under these limits; only the variables are new
                error = (check_variables(ec.variables) if few_values(ec.variables)
                         else await offload(check_variables, ec.variables))
                ec.pre_execution_errors = [error] if error is not None else []
            else:
                ec.pre_execution_errors = await offload(validate, ec.schema._schema, ec.graphql_document,
                                                        self._rules(), ec.variables)
                if not ec.pre_execution_errors and ec.query:
                    documents.remember_valid(ec.query, self.max_tokens, self.max_aliases)
        yield


class OperationGuardSync(_Guard):
    """The same checks for `execute_sync` (tests, tools): in the caller's thread, without a budget."""

    def on_operation(self) -> Iterator[None]:
        require_token(self.execution_context)
        ctx = self.execution_context.context
        if isinstance(ctx, Context):
            self._limits(ctx)
        with safe_times.collecting() as clamped:
            yield
        add_soft_errors(self.execution_context)
        self._report(clamped)

    def on_parse(self) -> Iterator[None]:
        ec = self.execution_context
        if ec.graphql_document is None and ec.query:
            ec.graphql_document = prepare(ec.query, self.max_tokens, self._provided_name())
        yield

    def on_validate(self) -> Iterator[None]:
        ec = self.execution_context
        if ec.pre_execution_errors is None and ec.graphql_document is not None:
            ec.pre_execution_errors = validate(ec.schema._schema, ec.graphql_document, self._rules(), ec.variables)
        yield
