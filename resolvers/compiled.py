"""A query document the schema already validated, compiled once into a plan and answered without the executor.

Why a second path beside `schema.execute`: an agent sends the same few documents again and again (its tools,
the explorer's pages), only the variables change, and for those graphql-core's executor and Strawberry's
`execute` around it cost more CPU than the rest of the request: per request they collect the fields again,
build the executor's state (which holds a reference cycle, left to the garbage collector), a resolve-info
for every field, dispatch every value by its type and enter the extension's four phases. Measured
alternating in one run (docs/benchmarks.md, "The GraphQL request path"; `python -m bench.one_path`): the
floor, `{ __typename }` over HTTP, and the server's CPU per point read are where it earns more than 20 %.
A plan does the collecting and the dispatching once per document; a request then runs the same resolvers
(the schema's own, Strawberry's wrappers included) with graphql-core's public resolve-info (none for a
basic field: StrawberryField.is_basic_field, whose resolver reads none), and the same
output coercion of every leaf, in the same order, and awaits what resolvers return to be awaited round by
round all at once, as graphql-core does, so loaders batch. Only public names of graphql-core are used; the
graphql-core schema is the one our own validation rule saw (resolvers.document_cache), never Strawberry's
private attribute.

What a plan answers, and what it leaves to `schema.execute` (which then answers as it always does):
- only a document that passed validation in this process under the request's limits (resolvers.
  document_cache), a single query operation, with a valid token (no principal: the full path refuses it),
  and without request `extensions` (Strawberry's `Info.input_extensions` reads them from its own
  resolve-info, which a plan does not build);
- only fields, aliases and `__typename` on object types: a fragment, a directive, a union or interface,
  introspection or a field asked twice under one name make the document not compilable (resolvers.plans;
  remembered in the document cache);
- errors only where graphql-core's report is simple: when the operation's only root field raises in its
  resolver (an unknown ref, the request's time budget spent), the error is located at that field and the
  field (or, for a non-null one, all data) is null, as graphql-core does, and formatted by the same
  resolvers.errors.format_errors, so the read does not run a second time. Anything else ends the attempt
  before anything is sent and the request goes the full way, where it runs again and is answered with its
  error: an error beside other root fields or below the root, a null for a non-null field, a value a leaf
  cannot coerce, a variable that does not coerce, a soft error or a clamped time. A query reads; running it
  again changes nothing but the time it takes, and these are rare.
The answer is the bytes the full path sends for the same result: Strawberry's `process_result` encoded as
resolvers.direct encodes it. The same checks the schema's extension makes before a remembered document runs
are made here with the same functions: the input rules on the variables, the owner's database share and
budget, the clamped times and the soft errors.
"""

from __future__ import annotations

import asyncio
import inspect
import json
from collections.abc import Iterable, Mapping
from typing import Any

from graphql import (
    GraphQLError,
    GraphQLResolveInfo,
    GraphQLResolveInfoHelpers,
    Undefined,
    VariableValues,
    get_argument_values,
    get_variable_values,
    located_error,
)
from graphql.pyutils import Path, is_awaitable, is_iterable
from strawberry.http import process_result
from strawberry.types import ExecutionResult

from graph.platform import safe_times
from resolvers.context import Context
from resolvers.document_cache import few_values, for_schema
from resolvers.errors import format_errors
from resolvers.input_rules import check_variables
from resolvers.plans import Plan, Shape, Step, compile_document
from resolvers.read_after import reads


class Fallback(Exception):
    """This request is not answered by the plan: the full path answers it."""


class _Run:
    """One request's execution of a plan: its context and variables, and resolvers still to be awaited."""

    __slots__ = ("context", "helpers", "pending", "plan", "tracked", "variables")

    def __init__(self, plan: Plan, context: Context, variables: VariableValues) -> None:
        self.plan = plan
        self.context = context
        self.variables = variables
        self.pending: list[tuple[dict[str, Any], Step, Any, Path]] = []
        self.tracked: list[Any] = []  # work a resolver handed over with `info.async_helpers.track`
        self.helpers = GraphQLResolveInfoHelpers(gather=_gather, track=self.tracked.extend)

    def info(self, step: Step, path: Path) -> GraphQLResolveInfo[Context]:
        assert step.definition is not None
        # Strawberry hands resolvers the coerced values as a plain dict, as its executor does
        coerced: Any = self.variables.coerced
        return GraphQLResolveInfo(step.name, [step.node], step.definition.type, step.parent, path,
                                  self.plan.schema, {}, None, self.plan.operation, coerced, self.context,
                                  is_awaitable, None, self.helpers)

    def resolve(self, step: Step, source: Any, path: Path) -> Any:
        assert step.definition is not None and step.definition.resolve is not None
        if step.basic:  # its resolver reads no info; were it ever to, its error ends the attempt (Fallback)
            return step.definition.resolve(source, None)
        args = get_argument_values(step.definition, step.node, self.variables) \
            if step.definition.args or step.node.arguments else {}
        return step.definition.resolve(source, self.info(step, path), **args)

    def fields(self, steps: tuple[Step, ...], source: Any, path: Path | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for step in steps:
            if step.definition is None:
                out[step.key] = step.shape.leaf
                continue
            here = Path(path, step.key, step.parent.name)
            value = self.resolve(step, source, here)
            if inspect.isawaitable(value):
                out[step.key] = None
                self.pending.append((out, step, value, here))
            else:
                out[step.key] = self.complete(step.shape, value, here)
        return out

    def complete(self, shape: Shape, value: Any, path: Path) -> Any:
        if isinstance(value, Exception):
            raise Fallback
        if shape.kind == "nonnull":
            assert shape.inner is not None
            done = self.complete(shape.inner, value, path)
            if done is None:
                raise Fallback
            return done
        if value is None or value is Undefined:
            return None
        if shape.kind == "leaf":
            coerced = shape.leaf.coerce_output_value(value)
            if coerced is None or coerced is Undefined:
                raise Fallback
            return coerced
        if shape.kind == "list":
            if not is_iterable(value):
                raise Fallback
            assert shape.inner is not None
            return [self.complete(shape.inner, item, path.add_key(i, None)) for i, item in enumerate(value)]
        return self.fields(shape.steps, value, path)

    async def settle(self) -> None:
        """Awaits what resolvers returned to be awaited, each round all at once, as graphql-core does: loaders
        (Strawberry's DataLoader) batch what is asked in one round."""
        while self.pending:
            waiting, self.pending = self.pending, []
            values = await _together([awaitable for _, _, awaitable, _ in waiting])
            for (out, step, _, path), value in zip(waiting, values, strict=True):
                out[step.key] = self.complete(step.shape, value, path)

    async def root(self) -> tuple[dict[str, Any] | None, list[GraphQLError]]:
        """The operation's data and errors. A root field's resolver that raises is reported as graphql-core
        reports it (located at the field, the field null, all data null for a non-null field) when it is the
        operation's only field, so a read that failed, e.g. on its time budget, does not run again."""
        data: dict[str, Any] = {}
        waiting: list[tuple[Step, Any, Path]] = []
        for step in self.plan.steps:
            if step.definition is None:
                data[step.key] = step.shape.leaf
                continue
            path = Path(None, step.key, step.parent.name)
            try:
                value = self.resolve(step, None, path)
            except Exception as exc:
                _close(awaitable for _, awaitable, _ in waiting)
                return self._failed(step, path, exc)
            if inspect.isawaitable(value):
                data[step.key] = None
                waiting.append((step, value, path))
            else:
                data[step.key] = self.complete(step.shape, value, path)
        values = await _together([awaitable for _, awaitable, _ in waiting])
        for (step, _, path), value in zip(waiting, values, strict=True):
            if isinstance(value, Exception):
                return self._failed(step, path, value)
            data[step.key] = self.complete(step.shape, value, path)
        await self.settle()
        tracked = await _together([value for value in self.tracked if inspect.isawaitable(value)])
        if any(isinstance(value, Exception) for value in tracked):
            raise Fallback  # graphql-core reports the error of tracked work: the full path does
        return data, []

    def _failed(self, step: Step, path: Path, exc: Exception) -> tuple[dict[str, Any] | None, list[GraphQLError]]:
        if len(self.plan.steps) > 1:  # beside other root fields graphql-core's report depends on their timing
            raise Fallback from exc
        error = located_error(exc, [step.node], path.as_list())
        return (None if step.shape.kind == "nonnull" else {step.key: None}), [error]


async def _gather(awaitables: Any) -> list[Any]:
    """`info.async_helpers.gather` (no resolver of ours uses it): all at once, the first error raised."""
    return list(await asyncio.gather(*awaitables))


async def _together(awaitables: list[Any]) -> list[Any]:
    """The awaitables' results, awaited at once; an exception is returned in its result's place."""
    if len(awaitables) == 1:
        try:
            return [await awaitables[0]]
        except Exception as exc:
            return [exc]
    if not awaitables:
        return []
    results = await asyncio.gather(*awaitables, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, Exception):
            raise result  # a cancellation is not a resolver's error
    return list(results)


def _close(awaitables: Iterable[Any]) -> None:
    """Closes coroutines that will never be awaited (an attempt that ended half-way)."""
    for awaitable in awaitables:
        if inspect.iscoroutine(awaitable):
            awaitable.close()


async def execute(plan: Plan, context: Context,
                  variables: Mapping[str, Any] | None) -> tuple[dict[str, Any] | None, list[GraphQLError]]:
    """The data and errors of the plan's operation for this request; Fallback when the full path must answer."""
    definitions = plan.operation.variable_definitions
    # without definitions graphql-core coerces nothing (values sent anyway are ignored): most documents an
    # agent sends, the floor's among them, so the request skips the coercion's set-up
    coerced = get_variable_values(plan.schema, definitions, dict(variables or {})) if definitions else \
        VariableValues({}, {})
    if not isinstance(coerced, VariableValues):  # refused: the full path reports it
        raise Fallback
    run = _Run(plan, context, coerced)
    try:
        return await run.root()
    finally:
        _close(awaitable for _, _, awaitable, _ in run.pending)  # a Fallback half-way


def plan_for(schema: Any, payload: Mapping[str, Any], context: Context) -> Plan | None:
    """The plan for this request, or None: not a checked query document, not compilable, or no principal."""
    query = payload.get("query")
    settings = context.settings
    if context.principal is None or not isinstance(query, str) or payload.get("extensions") is not None:
        return None
    documents = for_schema(schema)
    graphql_schema = documents.graphql_schema
    if graphql_schema is None or not documents.valid(query, settings.max_query_tokens, settings.max_query_aliases):
        return None
    plan = documents.plan(query, lambda document: compile_document(graphql_schema, document),
                          settings.max_query_tokens)
    if not isinstance(plan, Plan):
        return None
    name = payload.get("operationName")
    if name is not None and (plan.operation.name is None or plan.operation.name.value != name):
        return None
    return plan


async def answer(plan: Plan, context: Context, payload: Mapping[str, Any]) -> bytes | None:
    """The JSON answer of the plan for this request, or None (nothing sent) for the full path to give."""
    variables = payload.get("variables")
    if variables is not None and not isinstance(variables, dict):
        return None
    if not few_values(variables) or check_variables(variables) is not None:
        return None
    try:
        with safe_times.collecting() as clamped, context.budget(), reads(context, query=True):
            data, errors = await execute(plan, context, variables)
    except Exception:  # Fallback, or an error a plan does not report: the full path runs it again
        return None
    if clamped or context.soft_errors:
        return None
    return encoded(data, errors)


def encoded(data: dict[str, Any] | None, errors: list[GraphQLError]) -> bytes:
    """The answer's bytes, as resolvers.direct sends the full path's result."""
    format_errors(errors)  # what the schema's process_errors does with every list of errors
    return json.dumps(process_result(ExecutionResult(data=data, errors=errors or None)), separators=(",", ":")).encode()
