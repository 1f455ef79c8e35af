"""Which query documents have a plan (resolvers.compiled), and what a plan is.

A plan is made once per document text from the parsed, validated document (graphql-core's public types
only): for each field of the single query operation its response key, its definition and how its value
completes (non-null, list, leaf, object; `__typename` a constant). A document has no plan when a plan
could not answer it exactly as graphql-core would: fragments, directives, unions and interfaces (their
concrete type is picked per value), introspection, a field asked twice under one response key (graphql-core
merges them), a mutation or subscription, several operations.
"""

from __future__ import annotations

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
    is_leaf_type,
)
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.field import StrawberryField


@dataclass(frozen=True, slots=True)
class Step:
    """One field of a selection: where its value goes, how to get it, how to complete it."""

    key: str  # the response key (alias or name)
    name: str
    definition: GraphQLField | None  # None for __typename
    node: FieldNode
    parent: GraphQLObjectType
    shape: Shape
    # Strawberry's basic field (an attribute, no resolver of ours, no field extension): its resolver reads no
    # info and takes no arguments (StrawberryField.is_basic_field), so none is built for it
    basic: bool = False


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
            steps.append(Step(key, name, None, node, parent, Shape("typename", leaf=parent.name)))
            continue
        definition = parent.fields.get(name)
        if definition is None or definition.resolve is None or name.startswith("__"):
            raise _NotCompilable
        steps.append(Step(key, name, definition, node, parent, _shape(definition.type, node.selection_set),
                          _basic(definition) and not node.arguments))
    return tuple(steps)


def _basic(definition: GraphQLField) -> bool:
    field = (definition.extensions or {}).get(GraphQLCoreConverter.DEFINITION_BACKREF)
    return isinstance(field, StrawberryField) and field.is_basic_field


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
