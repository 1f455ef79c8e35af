"""Input checks GraphQL itself does not make, as validation rules over the document and its variables.

- Integer literals of more than MAX_DIGITS digits (NUMBER_TOO_LONG): converting one of 5,000 digits
  raised inside validation and came back as an internal error.
- Object and list literals nested deeper than MAX_JSON_DEPTH (JSON_TOO_DEEP), as for JSON variables.
- Strings with a lone surrogate, in literals or variables (BAD_INPUT): no UTF-8 text can hold one, so it
  failed wherever it reached the database, as an internal error.
- More than `max_aliases` aliases (TOO_MANY_ALIASES), counted through fragments as Strawberry's
  MaxAliasesLimiter counts them.
- A selection set wider than MAX_WIDTH fields once its fragments are expanded (QUERY_TOO_LARGE): GraphQL's
  check that same-named fields can be merged compares them pairwise; 1,000 copies of one field (within the
  token limit) took 3.4 s of CPU, 10 fragments of 50 copies 2.2 s (measured); 100 in one set take ~35 ms.
  For the same reason, one response name asked more than MAX_REPEATS times in one selection set.
These run before GraphQL's own rules (resolvers.operation_guard.first_errors), over the document alone, so
what GraphQL's validation then costs on the event loop stays bounded.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FloatValueNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    IntValueNode,
    ListValueNode,
    ObjectValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    StringValueNode,
    ValidationContext,
    ValidationRule,
    Visitor,
    visit,
)
from graphql.language import BREAK
from strawberry.extensions.max_aliases import count_fields_with_alias

from resolvers.request_body import JSON_TOO_DEEP, MAX_DIGITS, MAX_JSON_DEPTH, NUMBER_TOO_LONG

TOO_MANY_ALIASES = "TOO_MANY_ALIASES"
QUERY_TOO_LARGE = "QUERY_TOO_LARGE"
BAD_INPUT = "BAD_INPUT"
MAX_WIDTH = 100
# GraphQL's check that same-named fields can be merged compares them pairwise, their subfields too: 40 copies
# of one field with 95 subfields each (within the width and token limits) took 0.38 s of validation.
MAX_REPEATS = 3
MAX_LITERAL_ERRORS = 100


def has_lone_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _value_depth(node: Any) -> int:
    deepest = 0
    stack: list[tuple[Any, int]] = [(node, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, ObjectValueNode):
            stack.extend((f.value, depth + 1) for f in item.fields)
        elif isinstance(item, ListValueNode):
            stack.extend((v, depth + 1) for v in item.values)
        deepest = max(deepest, depth)
    return deepest


class _Literals(Visitor):
    """The literal checks above, over the document alone (no schema): they run before GraphQL's own rules."""

    def __init__(self) -> None:
        super().__init__()
        self.errors: list[GraphQLError] = []

    def leave(self, *_: Any) -> Any:
        return BREAK if len(self.errors) >= MAX_LITERAL_ERRORS else None  # as GraphQL's validation stops

    def enter_int_value(self, node: IntValueNode, *_: Any) -> None:
        if len(node.value.lstrip("-")) > MAX_DIGITS:
            self.errors.append(GraphQLError(f"an integer has more than {MAX_DIGITS} digits", node,
                                            extensions={"code": NUMBER_TOO_LONG}))

    def enter_float_value(self, node: FloatValueNode, *_: Any) -> None:
        if len(node.value) > MAX_DIGITS * 4:
            self.errors.append(GraphQLError("a number is too long", node, extensions={"code": NUMBER_TOO_LONG}))

    def enter_string_value(self, node: StringValueNode, *_: Any) -> None:
        if has_lone_surrogate(node.value):
            self.errors.append(GraphQLError("a string holds a lone surrogate (not valid Unicode text)", node,
                                            extensions={"code": BAD_INPUT}))

    def enter_object_value(self, node: ObjectValueNode, _key: Any, parent: Any, *_: Any) -> Any:
        if isinstance(parent, ObjectValueNode | ListValueNode):
            return None  # only measure from the outermost literal
        if _value_depth(node) > MAX_JSON_DEPTH:
            self.errors.append(GraphQLError(f"a literal nests deeper than {MAX_JSON_DEPTH}", node,
                                            extensions={"code": JSON_TOO_DEEP}))
            return False  # do not walk into it
        return None


def literal_errors(document: DocumentNode) -> list[GraphQLError]:
    """Typed errors for the document's literals that GraphQL's own rules would choke on, in document order."""
    literals = _Literals()
    visit(document, literals)
    return literals.errors


def check_variables(variables: dict[str, Any] | None) -> GraphQLError | None:
    """A typed error for variables holding a lone surrogate or nesting too deep, else None."""
    stack: list[tuple[Any, int]] = [(variables or {}, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH + 1:
            return GraphQLError(f"variables nest deeper than {MAX_JSON_DEPTH}", extensions={"code": JSON_TOO_DEEP})
        if isinstance(item, str) and has_lone_surrogate(item):
            return GraphQLError("a variable holds a lone surrogate (not valid Unicode text)",
                                extensions={"code": BAD_INPUT})
        if isinstance(item, dict):
            stack.extend((k, depth) for k in item)
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, depth + 1) for v in item)
    return None


@cache  # one class per limit, not one per validation
def alias_limit(max_aliases: int) -> type[ValidationRule]:
    class AliasLimit(ValidationRule):
        def __init__(self, context: ValidationContext) -> None:
            super().__init__(context)
            definitions = context.document.definitions
            fragments = {d.name.value: d for d in definitions if isinstance(d, FragmentDefinitionNode)}
            total = sum(count_fields_with_alias(d, fragments) for d in definitions
                        if isinstance(d, OperationDefinitionNode))
            if total > max_aliases:
                context.report_error(GraphQLError(
                    f"the document has {total} aliases; at most {max_aliases} are allowed",
                    extensions={"code": TOO_MANY_ALIASES}))

    return AliasLimit


def widest_selection(document: DocumentNode, cap: int = MAX_WIDTH) -> int:
    """The most fields any selection set holds with its fragments expanded (stops counting past `cap`)."""
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    memo: dict[str, int] = {}

    def width(selections: SelectionSetNode, seen: frozenset[str]) -> int:
        total = 0
        for node in selections.selections:
            if isinstance(node, FieldNode):
                total += 1
            elif isinstance(node, InlineFragmentNode):
                total += width(node.selection_set, seen)
            elif isinstance(node, FragmentSpreadNode):
                total += spread(node.name.value, seen)
            if total > cap:
                break
        return total

    def spread(name: str, seen: frozenset[str]) -> int:
        if name in seen or name not in fragments:
            return 0  # a cycle or an unknown fragment: reported by GraphQL's own rules
        if name not in memo:
            memo[name] = width(fragments[name].selection_set, seen | {name})
        return memo[name]

    widest = 0
    stack: list[SelectionSetNode] = [d.selection_set for d in document.definitions
                                     if isinstance(d, OperationDefinitionNode | FragmentDefinitionNode)]
    while stack and widest <= cap:
        selections = stack.pop()
        widest = max(widest, width(selections, frozenset()))
        stack.extend(n.selection_set for n in selections.selections
                     if isinstance(n, FieldNode | InlineFragmentNode) and n.selection_set is not None)
    return widest


def most_repeated(document: DocumentNode) -> int:
    """The most fields under one response name in any selection set, fragments expanded."""
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    memo: dict[str, Counter[str]] = {}

    def names(selections: SelectionSetNode, seen: frozenset[str]) -> Counter[str]:
        counted: Counter[str] = Counter()
        for node in selections.selections:
            if isinstance(node, FieldNode):
                counted[(node.alias or node.name).value] += 1
            elif isinstance(node, InlineFragmentNode):
                counted.update(names(node.selection_set, seen))
            elif isinstance(node, FragmentSpreadNode) and node.name.value not in seen \
                    and node.name.value in fragments:
                name = node.name.value
                if name not in memo:
                    memo[name] = names(fragments[name].selection_set, seen | {name})
                counted.update(memo[name])
        return counted

    most = 0
    stack: list[SelectionSetNode] = [d.selection_set for d in document.definitions
                                     if isinstance(d, OperationDefinitionNode | FragmentDefinitionNode)]
    while stack:
        selections = stack.pop()
        most = max(most, max(names(selections, frozenset()).values(), default=0))
        stack.extend(n.selection_set for n in selections.selections
                     if isinstance(n, FieldNode | InlineFragmentNode) and n.selection_set is not None)
    return most


def width_error(document: DocumentNode) -> GraphQLError | None:
    if widest_selection(document) > MAX_WIDTH:
        return GraphQLError(f"a selection holds more than {MAX_WIDTH} fields (fragments expanded); ask for less",
                            extensions={"code": QUERY_TOO_LARGE})
    if most_repeated(document) > MAX_REPEATS:
        return GraphQLError(f"a selection asks for one field more than {MAX_REPEATS} times (fragments expanded); "
                            "ask for it once", extensions={"code": QUERY_TOO_LARGE})
    return None
