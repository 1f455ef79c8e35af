"""The token, bounded off-the-loop parsing, validation with our limits, the per-request budget and the soft
errors, as one schema extension (each extension Strawberry builds and hooks per request costs CPU on every
request).

- An operation without a valid token is refused before it is parsed (resolvers.context.require_token).
- Parsing stops after `max_tokens` tokens (QUERY_TOO_LARGE): a 1 MB document of 40,000 fields used to
  spend ~6 s in parsing and validation on the event loop while every other owner's request waited.
  Parsing runs in a worker thread through resolvers.fairness.offload, so it is shared fairly; a document
  that parsed or validated before is taken from resolvers.document_cache instead (then only small
  variables are checked on the loop).
- A document with several operations needs `operationName` (OPERATION_NAME_REQUIRED): GraphQL would
  otherwise run whichever it took to be meant. The name the client sent is what resolvers.schema
  records for the operation (`provided_operation_name`).
- Before GraphQL's own rules, the checks that need no schema and keep those rules from choking or
  spending seconds: the variables, the widest selection, repeated fields and the literals
  (resolvers.input_rules). Then Strawberry validates, on the event loop, with its rules plus the depth and
  complexity limits of resolvers.limits (QUERY_TOO_DEEP, QUERY_TOO_COMPLEX) and the alias limit
  (TOO_MANY_ALIASES), given to it through `validation_rules`: Strawberry offers no public handle on the
  graphql-core schema to validate with in a worker thread. The most expensive documents found that pass
  the first checks validate in 20-65 ms.
- The operation runs within the owner's database share and time budget (resolvers.fairness), and stored
  times that readers had to clamp (graph.platform.safe_times) are reported as one typed error; the errors
  resolvers reported beside their data are added to the result (resolvers.context.add_soft_errors).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractContextManager, nullcontext
from contextvars import ContextVar
from typing import Any

from graphql import ASTValidationRule, DocumentNode, GraphQLError, OperationDefinitionNode, get_operation_ast, parse
from graphql import OperationType as NodeOperation
from strawberry.extensions import SchemaExtension
from strawberry.types.execution import PreExecutionError
from strawberry.types.graphql import OperationType

from graph.error_codes import ErrorCode
from graph.platform import safe_times
from graph.settings import Settings
from resolvers.context import Context, add_soft_errors, require_token, require_writable
from resolvers.document_cache import few_values, for_schema
from resolvers.fairness import offload
from resolvers.input_rules import QUERY_TOO_LARGE, alias_limit, check_variables, literal_errors, width_error
from resolvers.limits import MAX_DEPTH, QUERY_TOO_DEEP, limits_rule
from resolvers.read_after import operation_reads

OPERATION_NAME_REQUIRED = "OPERATION_NAME_REQUIRED"
SUBSCRIPTION_MESSAGE = ("a subscription runs over a WebSocket at /graphql (protocol graphql-transport-ws, "
                        "the token in connection_init), not over {method}")


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


def first_errors(document: DocumentNode, variables: dict[str, Any] | None) -> list[GraphQLError]:
    """The checks that run before GraphQL's own rules: those would convert a 5,000-digit literal and fail
    untyped, or compare 1,000 copies of a field pairwise for seconds."""
    first = check_variables(variables) or width_error(document)
    return [first] if first is not None else literal_errors(document)


# The operationName the client sent, for the operation running in this task (resolvers.schema sets it): the
# execution context's `operation_name` falls back to the first operation's name. UNKNOWN: not recorded.
UNKNOWN = object()
provided_operation_name: ContextVar[object] = ContextVar("provided_operation_name", default=UNKNOWN)


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

    def _check_name(self, document: DocumentNode) -> None:
        provided = provided_operation_name.get()
        if provided is UNKNOWN:
            return
        name = provided if isinstance(provided, str) else None
        error = operation_name_required(document, name)
        if error is not None:
            raise error
        operation = get_operation_ast(document, name)
        if (operation is not None and operation.operation == NodeOperation.SUBSCRIPTION
                and OperationType.SUBSCRIPTION not in self.execution_context.allowed_operations):
            raise self._needs_websocket()

    def _needs_websocket(self) -> GraphQLError:
        """A subscription asked for one answer (resolvers.schema's `execute`, i.e. over HTTP): a 400."""
        ctx = self.execution_context.context
        response = getattr(ctx, "response", None)
        if response is not None:
            response.status_code = 400
        method = getattr(getattr(ctx, "request", None), "method", None) or "HTTP"
        return GraphQLError(SUBSCRIPTION_MESSAGE.format(method=method),
                            extensions={"code": ErrorCode.SUBSCRIPTION_NEEDS_WEBSOCKET.value})

    def _rules(self) -> tuple[type[ASTValidationRule], ...]:
        ec = self.execution_context
        return (*ec.validation_rules, self.limits, alias_limit(self.max_aliases), for_schema(ec.schema).schema_rule)

    def _check(self, document: DocumentNode) -> bool:
        """The first checks (first_errors); True when GraphQL's own rules are to run after them."""
        ec = self.execution_context
        errors = first_errors(document, ec.variables)
        if errors:
            ec.pre_execution_errors = errors
            return False
        ec.validation_rules = self._rules()
        return True


class OperationGuard(_Guard):
    """Limits from the request's settings; the owner's gate from the app (see resolvers.context).

    Parsing and the checks before validation run in the operation's hook, before Strawberry's parsing and
    validation steps (which then find the document and, for a remembered one, no errors): each further hook
    of an extension costs every request CPU."""

    async def on_operation(self) -> AsyncIterator[None]:
        ec = self.execution_context
        require_token(ec)
        require_writable(ec)
        ctx = ec.context
        budget: AbstractContextManager[object] = nullcontext()
        if isinstance(ctx, Context):
            self._limits(ctx)
            budget = ctx.budget()
        with safe_times.collecting() as clamped, budget:
            validating = await self._prepare()
            with operation_reads(ec):  # a query's reads may go to a standby (resolvers.read_after)
                yield
        if validating and ec.query and not isinstance(ec.result, PreExecutionError):
            for_schema(ec.schema).remember_valid(ec.query, self.max_tokens, self.max_aliases)
        add_soft_errors(ec)
        self._report(clamped)

    async def _prepare(self) -> bool:
        """The document parsed (or remembered) and checked; True when Strawberry validates it next."""
        ec = self.execution_context
        if ec.graphql_document is not None or not ec.query:
            return False  # Strawberry refuses a missing query itself
        documents = for_schema(ec.schema)
        document = documents.parsed(ec.query, self.max_tokens)
        if document is None:
            document = await offload(parse_bounded, ec.query, self.max_tokens)
            documents.remember_parsed(ec.query, self.max_tokens, document)
        self._check_name(document)
        ec.graphql_document = document
        if documents.valid(ec.query, self.max_tokens, self.max_aliases):
            # the document passed before under these limits; only the variables are new
            error = (check_variables(ec.variables) if few_values(ec.variables)
                     else await offload(check_variables, ec.variables))
            ec.pre_execution_errors = [error] if error is not None else []
            return False
        return self._check(document)


class OperationGuardSync(_Guard):
    """The same checks for `execute_sync` (tests, tools): in the caller's thread, without a budget."""

    def on_operation(self) -> Iterator[None]:
        require_token(self.execution_context)
        require_writable(self.execution_context)
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
            document = parse_bounded(ec.query, self.max_tokens)
            self._check_name(document)
            ec.graphql_document = document
        yield

    def on_validate(self) -> Iterator[None]:
        ec = self.execution_context
        if ec.pre_execution_errors is None and ec.graphql_document is not None:
            self._check(ec.graphql_document)
        yield
