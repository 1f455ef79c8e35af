"""What a GraphQL request body must be before anything parses it further. Pure functions.

A body is UTF-8 JSON whose top level is an object with a string `query`, and optional object `variables`
and `extensions` and string `operationName`. JSON is nested at most MAX_JSON_DEPTH deep and integers have
at most MAX_DIGITS digits: deeper JSON made the GraphQL layer recurse until it crashed, and Python refuses
to convert integers of more than 4,300 digits at all, both as a plain-text 500 that broke the connection.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

MAX_JSON_DEPTH = 64
MAX_DIGITS = 100
BAD_ENCODING = "BAD_ENCODING"
BAD_JSON = "BAD_JSON"
BAD_REQUEST_SHAPE = "BAD_REQUEST_SHAPE"
JSON_TOO_DEEP = "JSON_TOO_DEEP"
NUMBER_TOO_LONG = "NUMBER_TOO_LONG"


@dataclass(frozen=True)
class Refusal:
    code: str
    message: str


class _Refused(Exception):
    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


def _integer(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(Refusal(NUMBER_TOO_LONG, f"a JSON integer has more than {MAX_DIGITS} digits"))
    return int(text)


def _constant(text: str) -> float:
    raise _Refused(Refusal(BAD_JSON, f"{text} is not JSON"))


def json_depth(value: Any, limit: int = MAX_JSON_DEPTH) -> int:
    """How deep `value` nests (a scalar is 0), counted without recursion; stops once past `limit`."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            depth += 1
            deepest = max(deepest, depth)
            if deepest > limit:
                return deepest
            stack.extend((child, depth) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def load_json(text: str | bytes, what: str = "the request body") -> Any:
    """JSON within the limits; raises _Refused otherwise."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise _Refused(Refusal(BAD_ENCODING, f"{what} is not valid UTF-8")) from None
    try:
        value = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except RecursionError:
        raise _Refused(Refusal(JSON_TOO_DEEP, f"{what} nests deeper than {MAX_JSON_DEPTH}")) from None
    except ValueError as exc:
        raise _Refused(Refusal(BAD_JSON, f"{what} is not JSON: {str(exc)[:120]}")) from None
    if json_depth(value) > MAX_JSON_DEPTH:
        raise _Refused(Refusal(JSON_TOO_DEEP, f"{what} nests deeper than {MAX_JSON_DEPTH}"))
    return value


def check_request(payload: Any) -> None:
    """The shape of a GraphQL-over-HTTP request; raises _Refused otherwise."""
    if not isinstance(payload, dict):
        kind = "an array (batching is not supported)" if isinstance(payload, list) else type(payload).__name__
        raise _Refused(Refusal(BAD_REQUEST_SHAPE, f"the body must be a JSON object with a query, not {kind}"))
    if not isinstance(payload.get("query"), str) or not payload["query"].strip():
        raise _Refused(Refusal(BAD_REQUEST_SHAPE, "the body needs `query`, a non-empty string"))
    for name, kinds in (("variables", (dict,)), ("extensions", (dict,)), ("operationName", (str,))):
        value = payload.get(name)
        if value is not None and not isinstance(value, kinds):
            wanted = "an object" if kinds == (dict,) else "a string"
            raise _Refused(Refusal(BAD_REQUEST_SHAPE, f"`{name}` must be {wanted} or null"))


def read_request(body: bytes) -> dict[str, Any] | Refusal:
    """A POSTed JSON body as a GraphQL request (query, variables, ...), or why it cannot be one."""
    try:
        payload = load_json(body)
        check_request(payload)
    except _Refused as refused:
        return refused.refusal
    return payload  # type: ignore[no-any-return]


def check_body(body: bytes) -> Refusal | None:
    """Why a POSTed JSON body cannot be a GraphQL request, or None when it can."""
    read = read_request(body)
    return read if isinstance(read, Refusal) else None


def check_query_params(params: dict[str, str]) -> Refusal | None:
    """The same for a GET request's `query`, `variables` and `extensions` parameters."""
    try:
        payload: dict[str, Any] = {"query": params.get("query")}
        for name in ("variables", "extensions"):
            if params.get(name):
                payload[name] = load_json(params[name], f"`{name}`")
        if params.get("operationName"):
            payload["operationName"] = params["operationName"]
        check_request(payload)
    except _Refused as refused:
        return refused.refusal
    return None
