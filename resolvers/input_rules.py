"""Input checks GraphQL itself does not make, as validation rules over the document and its variables.

- Integer literals of more than MAX_DIGITS digits (NUMBER_TOO_LONG): converting one of 5,000 digits
  raised inside validation and came back as an internal error.
- Object and list literals nested deeper than MAX_JSON_DEPTH (JSON_TOO_DEEP), as for JSON variables.
- Strings with a lone surrogate, in literals or variables (BAD_INPUT): no UTF-8 text can hold one, so it
  failed wherever it reached the database, as an internal error.
- More than `max_aliases` aliases (TOO_MANY_ALIASES), counted through fragments as Strawberry's
  MaxAliasesLimiter counts them.
"""

from __future__ import annotations

from typing import Any

from graphql import (
    FloatValueNode,
    FragmentDefinitionNode,
    GraphQLError,
    IntValueNode,
    ListValueNode,
    ObjectValueNode,
    OperationDefinitionNode,
    StringValueNode,
    ValidationContext,
    ValidationRule,
)
from strawberry.extensions.max_aliases import count_fields_with_alias

from resolvers.request_body import JSON_TOO_DEEP, MAX_DIGITS, MAX_JSON_DEPTH, NUMBER_TOO_LONG

TOO_MANY_ALIASES = "TOO_MANY_ALIASES"
BAD_INPUT = "BAD_INPUT"


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


class InputRule(ValidationRule):
    def enter_int_value(self, node: IntValueNode, *_: Any) -> None:
        if len(node.value.lstrip("-")) > MAX_DIGITS:
            self.report_error(GraphQLError(f"an integer has more than {MAX_DIGITS} digits", node,
                                           extensions={"code": NUMBER_TOO_LONG}))

    def enter_float_value(self, node: FloatValueNode, *_: Any) -> None:
        if len(node.value) > MAX_DIGITS * 4:
            self.report_error(GraphQLError("a number is too long", node, extensions={"code": NUMBER_TOO_LONG}))

    def enter_string_value(self, node: StringValueNode, *_: Any) -> None:
        if has_lone_surrogate(node.value):
            self.report_error(GraphQLError("a string holds a lone surrogate (not valid Unicode text)", node,
                                           extensions={"code": BAD_INPUT}))

    def enter_object_value(self, node: ObjectValueNode, _key: Any, parent: Any, *_: Any) -> Any:
        if isinstance(parent, ObjectValueNode | ListValueNode):
            return None  # only measure from the outermost literal
        if _value_depth(node) > MAX_JSON_DEPTH:
            self.report_error(GraphQLError(f"a literal nests deeper than {MAX_JSON_DEPTH}", node,
                                           extensions={"code": JSON_TOO_DEEP}))
            return False  # do not walk into it
        return None


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
