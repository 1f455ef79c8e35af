"""worldmem's own error hierarchy. Each carries a stable `code` that the GraphQL layer exposes."""

from __future__ import annotations


class WorldmemError(Exception):
    code = "INTERNAL"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        if code:
            self.code = code

    @property
    def message(self) -> str:
        return str(self)


class BadInput(WorldmemError):
    code = "BAD_INPUT"


class NotFound(WorldmemError):
    code = "NOT_FOUND"


class Unauthenticated(WorldmemError):
    code = "UNAUTHENTICATED"


class Forbidden(WorldmemError):
    code = "FORBIDDEN"


class Conflict(WorldmemError):
    code = "CONFLICT"


class Unavailable(WorldmemError):
    """The database could not be reached or timed out; safe to retry."""

    code = "UNAVAILABLE"


class Moving(Unavailable):
    """The owner is being moved to another cluster (graph/routing/move.py): its writes wait for the move."""

    code = "OWNER_MOVING"

    def __init__(self, message: str, retry_after_s: float) -> None:
        super().__init__(message)
        self.retry_after_s = retry_after_s


# Codes of the HTTP and request-limit boundary (resolvers/request_guard.py, request_body.py, input_rules.py,
# operation_guard.py, fairness.py) and of time bounds (graph/timebounds.py, graph/platform/safe_times.py).
# Listed here, where the error-code enum lives, so it can take them in: each name and when it is raised.
BOUNDARY_CODES: dict[str, str] = {
    "BAD_ENCODING": "400: the request body is not UTF-8",
    "BAD_JSON": "400: the request body is not JSON (or holds NaN/Infinity)",
    "BAD_REQUEST_SHAPE": "400: not a JSON object with a string `query` (and object variables/extensions)",
    "JSON_TOO_DEEP": "JSON (body, GET variables or a literal) nests deeper than 64",
    "NUMBER_TOO_LONG": "an integer of more than 100 digits (JSON or literal)",
    "REQUEST_TIMEOUT": "408: the body did not arrive within body_timeout_s",
    "BAD_REQUEST": "400: any other refusal of the HTTP layer (e.g. unsupported content type)",
    "METHOD_NOT_ALLOWED": "405",
    "UNSUPPORTED_MEDIA_TYPE": "415",
    "PAYLOAD_TOO_LARGE": "413: body over max_request_bytes",
    "QUERY_TOO_LARGE": "more than max_query_tokens tokens, or a selection wider than 100 fields",
    "TOO_MANY_ALIASES": "more than max_query_aliases aliases",
    "OPERATION_NAME_REQUIRED": "several operations and no operationName",
    "BUSY": "retryable: the request's database budget is spent, or the pool had no connection in time",
    "TIME_OUT_OF_RANGE": "a time whose UTC instant lies outside 0001-01-02..9999-12-30",
    "STORED_TIME_OUT_OF_RANGE": "a stored time outside that range was shown clamped (beside the data)",
}


class InvariantViolation(Exception):
    """Something that cannot happen did: a bug, never the caller's mistake.

    Deliberately not a WorldmemError, so no `except WorldmemError` turns it into a rejection and the
    GraphQL layer masks it ("Unexpected error.", code INTERNAL) and logs it.
    """
