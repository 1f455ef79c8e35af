"""How errors leave the API: every GraphQL error carries `extensions.code`; internals never leak.

- our own `WorldmemError` (anywhere in the cause chain): its message and code;
- GraphQL syntax, validation and input-coercion errors: their message, code GRAPHQL_PARSE_FAILED or
  GRAPHQL_VALIDATION_FAILED;
- anything else: "Unexpected error." with code INTERNAL; the real error is logged here, server-side.

`format_errors` rewrites errors in place; the schema calls it from `process_errors`, which Strawberry
runs exactly once for every error list (parse, validation, execution and operation failures alike).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from graphql import GraphQLError, GraphQLSyntaxError

from graph.error_codes import caller_must_fix
from graph.errors import Moving, WorldmemError

log = logging.getLogger("worldmem.graphql")

UNEXPECTED = "Unexpected error."
INTERNAL = "INTERNAL"
VALIDATION_FAILED = "GRAPHQL_VALIDATION_FAILED"
PARSE_FAILED = "GRAPHQL_PARSE_FAILED"


def format_errors(errors: Iterable[GraphQLError]) -> None:
    for error in errors:
        format_error(error)
        code = (error.extensions or {}).get("code")
        if isinstance(code, str):
            error.extensions = {**(error.extensions or {}), **extensions_for(code)}


def extensions_for(code: str) -> dict[str, object]:
    """What every error's extensions carry: its code, and whether the caller has to change its request
    (input, state or permission) rather than retry later; clients (the agent client, MCP) read the flag, so
    the classification lives here once (graph/error_codes.py), not in each client."""
    return {"code": code, "callerMustFix": caller_must_fix(code)}


def format_error(error: GraphQLError) -> GraphQLError:
    """Give `error` a code and a safe message (in place); returns it for convenience."""
    if error.extensions and "code" in error.extensions:
        return error  # already typed by us (e.g. an authentication failure)
    ours = _worldmem_cause(error)
    if ours is not None:
        error.message = ours.message
        error.extensions = {"code": ours.code}
        if isinstance(ours, Moving):
            error.extensions["retryAfter"] = ours.retry_after_s
    elif isinstance(error, GraphQLSyntaxError):
        error.extensions = {"code": PARSE_FAILED}
    elif _composed_by_graphql(error):
        error.extensions = {"code": VALIDATION_FAILED}
    else:
        log.error("unexpected error at %s: %s", error.path, error.message, exc_info=_root(error))
        error.message = UNEXPECTED
        error.extensions = {"code": INTERNAL}
    return error


def _chain(error: BaseException) -> list[BaseException]:
    """The error, its `original_error`s (GraphQL wrapping) and their `__cause__`s, outermost first."""
    seen: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in seen and len(seen) < 20:
        seen.append(current)
        nxt = getattr(current, "original_error", None) if isinstance(current, GraphQLError) else None
        current = nxt if nxt is not None else current.__cause__
    return seen


def _worldmem_cause(error: GraphQLError) -> WorldmemError | None:
    return next((e for e in _chain(error) if isinstance(e, WorldmemError)), None)


def _composed_by_graphql(error: GraphQLError) -> bool:
    """The client's own mistake, described by GraphQL itself (validation, input coercion).

    A failing resolver's error wraps the raw exception directly; GraphQL's own errors have no cause or
    wrap another GraphQL error (whose message it wrote, even if a KeyError lies beneath it).
    """
    return error.original_error is None or isinstance(error.original_error, GraphQLError)


def _root(error: GraphQLError) -> BaseException:
    return _chain(error)[-1]
