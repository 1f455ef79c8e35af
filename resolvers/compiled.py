"""A query document the schema already validated, compiled once into a plan and answered without the executor.

An agent sends the same few documents again and again (its tools, the explorer's pages), only the variables
change. For a point read, graphql-core's executor and Strawberry's `execute` around it were a third of the
server's CPU (bench/README.md, "Issue 11, thirteenth pass"): per request they collect the fields again, build
a resolve-info for every field, dispatch every value by its type and run the extension's hooks. A plan does
the collecting and the dispatching once per document; a request then runs the same resolvers (the schema's
own, Strawberry's wrappers included) and the same output coercion of every leaf, in the same order.

What a plan answers, and what it leaves to `schema.execute` (which then answers as it always did):
- only a document that passed validation in this process under the request's limits (resolvers.
  document_cache), a single query operation, with a valid token (no principal: the full path refuses it);
- only fields, aliases and `__typename` on object types: a fragment, a directive, a union or interface,
  introspection or a field asked twice under one name make the document not compilable (remembered);
- only an answer without any error: a resolver that raises, a null for a non-null field, a value a leaf
  cannot coerce, a variable that does not coerce, a soft error or a clamped time ends the attempt (nothing
  has been sent) and the request goes the full way, where it runs again and is answered with its error. A
  query reads; running it again changes nothing but the time it takes.
The answer is the bytes the full path sends for the same data: `{"data": ...}` encoded as resolvers.direct
encodes it. The same checks the schema's extension makes before a cached document runs are made here with
the same functions: the input rules on the variables, the owner's database share and time budget.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    GraphQLField,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLSchema,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    Undefined,
    is_leaf_type,
)
from graphql.execution.values import VariableValues, coerce_variable_values, get_argument_values
from graphql.pyutils import Path, is_iterable
from strawberry.schema.schema import _OperationContextAwareGraphQLResolveInfo as ResolveInfo

from graph.platform import safe_times
from resolvers.context import Context
from resolvers.document_cache import few_values, for_schema
from resolvers.fairness import request_budget
from resolvers.input_rules import check_variables


class Fallback(Exception):
    """This request is not answered by the plan: the full path answers it."""


@dataclass(frozen=True, slots=True)
class Step:
    """One field of a selection: where its value goes, how to get it, how to complete it."""

    key: str  # the response key (alias or name)
    name: str
    definition: GraphQLField | None  # None for __typename
    node: FieldNode
    parent: GraphQLObjectType
    basic: bool  # Strawberry's plain attribute field: no resolver, no info, no arguments
    shape: Shape


@dataclass(frozen=True, slots=True)
class Shape:
    """How a value of one output type is completed: kind is nonnull, list, leaf or object."""

    kind: str
    inner: Shape | None = None
    leaf: Any = None  # the leaf type (its coerce_output_value)
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True, slots=True)
class Plan:
    schema: GraphQLSchema
    operation: OperationDefinitionNode
    steps: tuple[Step, ...]


class _NotCompilable(Exception):
    pass


def compile_document(schema: GraphQLSchema, document: DocumentNode) -> Plan | None:
    """The plan of a document's single query operation, or None when the document is not compilable."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if len(document.definitions) != 1 or len(operations) != 1:
        return None
    operation = operations[0]
    root = schema.query_type
    if operation.operation != OperationType.QUERY or operation.directives or root is None:
        return None
    try:
        return Plan(schema, operation, _steps(root, operation.selection_set))
    except _NotCompilable:
        return None


def _steps(parent: GraphQLObjectType, selection: SelectionSetNode | None) -> tuple[Step, ...]:
    if selection is None:
        raise _NotCompilable
    steps: list[Step] = []
    for node in selection.selections:
        if not isinstance(node, FieldNode) or node.directives:
            raise _NotCompilable
        name = node.name.value
        key = node.alias.value if node.alias else name
        if any(s.key == key for s in steps):
            raise _NotCompilable  # graphql-core merges such fields; a plan does not
        if name == "__typename":
            steps.append(Step(key, name, None, node, parent, True, Shape("typename", leaf=parent.name)))
            continue
        definition = parent.fields.get(name)
        if definition is None or definition.resolve is None or name.startswith("__"):
            raise _NotCompilable
        basic = bool(getattr(definition.resolve, "_is_default", False)) and not node.arguments
        steps.append(Step(key, name, definition, node, parent, basic, _shape(definition.type, node.selection_set)))
    return tuple(steps)


def _shape(of: GraphQLOutputType, selection: SelectionSetNode | None) -> Shape:
    if isinstance(of, GraphQLNonNull):
        return Shape("nonnull", _shape(of.of_type, selection))
    if isinstance(of, GraphQLList):
        return Shape("list", _shape(of.of_type, selection))
    if is_leaf_type(of):
        if selection is not None:
            raise _NotCompilable
        return Shape("leaf", leaf=of)
    if isinstance(of, GraphQLObjectType) and of.is_type_of is None:
        return Shape("object", steps=_steps(of, selection))
    raise _NotCompilable  # unions and interfaces: their concrete type is picked per value


class _Run:
    """One request's execution of a plan: its context and variables, and resolvers still to be awaited."""

    __slots__ = ("context", "extensions", "pending", "plan", "variables")

    def __init__(self, plan: Plan, context: Context, variables: VariableValues, extensions: Any) -> None:
        self.plan = plan
        self.context = context
        self.variables = variables
        self.extensions = extensions  # the request's `extensions` (Strawberry's operation_extensions)
        self.pending: list[tuple[dict[str, Any], Step, Any, Path]] = []

    def info(self, step: Step, path: Path) -> Any:
        assert step.definition is not None
        return ResolveInfo(step.name, [step.node], step.definition.type, step.parent, path, self.plan.schema, {},
                           None, self.plan.operation, self.variables.coerced, self.context, inspect.isawaitable,
                           None, None, self.extensions)

    def resolve(self, step: Step, source: Any, path: Path) -> Any:
        assert step.definition is not None
        if step.basic:
            return step.definition.resolve(source, None)  # type: ignore[misc]
        args = get_argument_values(step.definition, step.node, self.variables) \
            if step.definition.args or step.node.arguments else {}
        return step.definition.resolve(source, self.info(step, path), **args)  # type: ignore[misc]

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
        while self.pending:
            out, step, awaitable, path = self.pending.pop(0)
            out[step.key] = self.complete(step.shape, await awaitable, path)


async def execute(plan: Plan, context: Context, variables: Mapping[str, Any] | None,
                  extensions: Any = None) -> dict[str, Any]:
    """The data of the plan's operation for this request; Fallback when the full path must answer."""
    errors: list[Any] = []
    coerced = coerce_variable_values(plan.schema, plan.operation.variable_definitions or (), dict(variables or {}),
                                     errors.append)
    if errors:
        raise Fallback
    run = _Run(plan, context, coerced, extensions)
    try:
        data = run.fields(plan.steps, None, None)
        await run.settle()
    finally:
        for _, _, awaitable, _ in run.pending:  # a Fallback half-way: close what will never be awaited
            if inspect.iscoroutine(awaitable):
                awaitable.close()
    return data


def plan_for(schema: Any, payload: Mapping[str, Any], context: Context) -> Plan | None:
    """The plan for this request, or None: not a checked query document, not compilable, or no principal."""
    query = payload.get("query")
    settings = context.settings
    if context.principal is None or not isinstance(query, str):
        return None
    documents = for_schema(schema)
    if not documents.valid(query, settings.max_query_tokens, settings.max_query_aliases):
        return None
    plan = documents.plan(query, lambda document: compile_document(schema._schema, document),
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
    who = context.principal
    assert who is not None
    budget = request_budget(context.gates, who.owner, context.settings.request_db_budget_s) \
        if context.gates is not None else nullcontext()
    try:
        with safe_times.collecting() as clamped, budget:
            data = await execute(plan, context, variables, payload.get("extensions"))
    except Exception:  # Fallback, or a resolver's error: the full path runs it again and reports it
        return None
    if clamped or context.soft_errors:
        return None
    return json.dumps({"data": data}, separators=(",", ":")).encode()
