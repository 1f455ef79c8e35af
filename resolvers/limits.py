"""Query depth and complexity limits, checked while validating, with typed error codes.

Depth counts nested fields (introspection fields are free, so GraphiQL and schema tools keep working).
Complexity estimates how many fields a query can resolve: each field costs 1 for every parent object it
is resolved on, and a list multiplies what is below it by its `limit`/`first` argument when written
literally, else by DEFAULT_LIST_SIZE. Fragments and aliases count as often as they are used, so a
query cannot multiply its cost by repeating itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any

from graphql import (
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    ValidationContext,
    ValidationRule,
    get_named_type,
)

QUERY_TOO_DEEP = "QUERY_TOO_DEEP"
QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX"
MAX_DEPTH = 12
MAX_COMPLEXITY = 50_000
DEFAULT_LIST_SIZE = 10
MAX_LIST_SIZE = 1_000
SIZE_ARGUMENTS = ("limit", "first", "last")


@dataclass
class Measure:
    depth: int = 0
    cost: int = 0


def list_factor(field_type: Any, node: FieldNode) -> int:
    """How many items a field may return: 1 for a single value, else its literal size or the default."""
    while isinstance(field_type, GraphQLNonNull):
        field_type = field_type.of_type
    if not isinstance(field_type, GraphQLList):
        return 1
    for argument in node.arguments or ():
        if argument.name.value in SIZE_ARGUMENTS and isinstance(argument.value, IntValueNode):
            digits = argument.value.value  # may be thousands of digits long (refused by input_rules)
            return MAX_LIST_SIZE if len(digits) > 9 else max(1, min(int(digits), MAX_LIST_SIZE))
    return DEFAULT_LIST_SIZE


class _Walk:
    def __init__(self, context: ValidationContext) -> None:
        self.context = context
        self.schema: GraphQLSchema = context.schema
        self.active: set[str] = set()  # fragments being expanded (cycles are reported by another rule)

    def fields(self, selections: SelectionSetNode, parent: Any) -> Iterator[tuple[FieldNode, Any]]:
        for node in selections.selections:
            if isinstance(node, FieldNode):
                yield node, parent
            elif isinstance(node, InlineFragmentNode):
                condition = node.type_condition
                target = self.schema.get_type(condition.name.value) if condition else parent
                yield from self.fields(node.selection_set, target)
            elif isinstance(node, FragmentSpreadNode):
                name = node.name.value
                fragment = self.context.get_fragment(name)
                if fragment is None or name in self.active:
                    continue
                self.active.add(name)
                try:
                    target = self.schema.get_type(fragment.type_condition.name.value)
                    yield from self.fields(fragment.selection_set, target)
                finally:
                    self.active.discard(name)

    def measure(self, selections: SelectionSetNode | None, parent: Any, times: int, cap: int) -> Measure:
        total = Measure()
        if selections is None:
            return total
        for node, owner in self.fields(selections, parent):
            name = node.name.value
            if name.startswith("__"):
                continue
            definition = owner.fields.get(name) if isinstance(owner, GraphQLObjectType) else None
            if definition is None:  # unknown fields are reported by the standard rules
                continue
            factor = list_factor(definition.type, node)
            inner = self.measure(node.selection_set, get_named_type(definition.type), times * factor, cap)
            total.cost += times + inner.cost
            total.depth = max(total.depth, 1 + inner.depth)
            if total.cost > cap:  # enough to refuse; stop walking a hostile query early
                break
        return total


def _root(schema: GraphQLSchema, operation: OperationType) -> Any:
    return {OperationType.QUERY: schema.query_type, OperationType.MUTATION: schema.mutation_type,
            OperationType.SUBSCRIPTION: schema.subscription_type}[operation]


def measure_operation(context: ValidationContext, node: OperationDefinitionNode, cap: int) -> Measure:
    return _Walk(context).measure(node.selection_set, _root(context.schema, node.operation), 1, cap)


@cache  # one class per pair of limits (a new class per request cost ~2 % of the floor)
def limits_rule(max_depth: int = MAX_DEPTH, max_complexity: int = MAX_COMPLEXITY) -> type[ValidationRule]:
    class QueryLimitsRule(ValidationRule):
        def enter_operation_definition(self, node: OperationDefinitionNode, *_: Any) -> None:
            found = measure_operation(self.context, node, max_complexity)
            depth = found.depth - 1  # as graphql-depth-limit counts: `{ a { b } }` is 1 deep
            if depth > max_depth:
                self.report_error(GraphQLError(
                    f"the query exceeds maximum operation depth of {max_depth} (it is {depth} deep)",
                    node, extensions={"code": QUERY_TOO_DEEP}))
            if found.cost > max_complexity:
                self.report_error(GraphQLError(
                    f"the query could resolve more than {max_complexity} fields; ask for less (smaller "
                    "limits, fewer aliases or nested lists)", node, extensions={"code": QUERY_TOO_COMPLEX}))

    return QueryLimitsRule
