"""Every error code the service can answer with: one enum, exported in the SDL as `ErrorCode`.

Each code has a category that tells a caller (and the agent client) what to do about it:
- INPUT: the request itself is wrong (fix the input, do not retry it as is);
- STATE: the request conflicts with what memory holds now (re-read, then decide);
- AUTH: the token is missing, unknown or not allowed to do this;
- RETRY: memory could not answer now (a timeout, a busy console, the database unreachable);
- INTERNAL: a bug on our side; the message is masked.

tests/test_error_codes.py proves that every code raised anywhere in the code is listed here.
"""

from __future__ import annotations

from enum import Enum, StrEnum


class Category(Enum):
    INPUT = "input"
    STATE = "state"
    AUTH = "auth"
    RETRY = "retry"
    INTERNAL = "internal"


class ErrorCode(StrEnum):
    # generic classes (graph/errors.py)
    BAD_INPUT = "BAD_INPUT"
    NOT_FOUND = "NOT_FOUND"
    CONFLICT = "CONFLICT"
    FORBIDDEN = "FORBIDDEN"
    UNAUTHENTICATED = "UNAUTHENTICATED"
    UNAVAILABLE = "UNAVAILABLE"
    INTERNAL = "INTERNAL"
    # GraphQL and HTTP layer
    GRAPHQL_PARSE_FAILED = "GRAPHQL_PARSE_FAILED"
    GRAPHQL_VALIDATION_FAILED = "GRAPHQL_VALIDATION_FAILED"
    QUERY_TOO_DEEP = "QUERY_TOO_DEEP"
    QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX"
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE"
    BAD_REQUEST = "BAD_REQUEST"
    BAD_ENCODING = "BAD_ENCODING"
    BAD_JSON = "BAD_JSON"
    BAD_REQUEST_SHAPE = "BAD_REQUEST_SHAPE"
    JSON_TOO_DEEP = "JSON_TOO_DEEP"
    NUMBER_TOO_LONG = "NUMBER_TOO_LONG"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    QUERY_TOO_LARGE = "QUERY_TOO_LARGE"
    TOO_MANY_ALIASES = "TOO_MANY_ALIASES"
    OPERATION_NAME_REQUIRED = "OPERATION_NAME_REQUIRED"
    SUBSCRIPTION_NEEDS_WEBSOCKET = "SUBSCRIPTION_NEEDS_WEBSOCKET"
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
    BUSY = "BUSY"
    # proposal and operation validation
    INVALID_OPERATION = "INVALID_OPERATION"
    INVALID_PROPOSAL = "INVALID_PROPOSAL"
    BAD_ID = "BAD_ID"
    BAD_REF = "BAD_REF"
    BAD_TIME = "BAD_TIME"
    BAD_INTERVAL = "BAD_INTERVAL"
    BAD_LIMIT = "BAD_LIMIT"
    BAD_SOURCE = "BAD_SOURCE"
    BAD_CAUSATION = "BAD_CAUSATION"
    BAD_EXPECTED_EFFECT = "BAD_EXPECTED_EFFECT"
    INTENT_REQUIRED = "INTENT_REQUIRED"
    VALUE_TOO_LARGE = "VALUE_TOO_LARGE"
    KIND_MISMATCH = "KIND_MISMATCH"
    SAME_ENTITY = "SAME_ENTITY"
    AMBIGUOUS_REF = "AMBIGUOUS_REF"
    UNKNOWN_ENTITY = "UNKNOWN_ENTITY"
    UNKNOWN_KIND = "UNKNOWN_KIND"
    UNKNOWN_PREDICATE = "UNKNOWN_PREDICATE"
    UNKNOWN_REF = "UNKNOWN_REF"
    UNKNOWN_RUN = "UNKNOWN_RUN"
    UNKNOWN_EVENT = "UNKNOWN_EVENT"
    UNKNOWN_EVENT_TYPE = "UNKNOWN_EVENT_TYPE"
    UNKNOWN_FACT = "UNKNOWN_FACT"
    RECORDED_AT_IN_FUTURE = "RECORDED_AT_IN_FUTURE"
    TIME_OUT_OF_RANGE = "TIME_OUT_OF_RANGE"
    STORED_TIME_OUT_OF_RANGE = "STORED_TIME_OUT_OF_RANGE"
    BAD_IDENTITY = "BAD_IDENTITY"
    # the curator's chat intake
    INVALID_TURN = "INVALID_TURN"
    BAD_LANGUAGE = "BAD_LANGUAGE"
    BAD_WATERMARK = "BAD_WATERMARK"
    # conflicts with the stored state
    RECORDED_AT_NOT_MONOTONIC = "RECORDED_AT_NOT_MONOTONIC"
    RUN_ID_REUSED = "RUN_ID_REUSED"
    ALIAS_TAKEN = "ALIAS_TAKEN"
    UNKNOWN_ALIAS = "UNKNOWN_ALIAS"
    CONFLICTING_DEFINITION = "CONFLICTING_DEFINITION"
    SUPPRESSED = "SUPPRESSED"
    NOT_PENDING = "NOT_PENDING"
    NOT_BELIEVED = "NOT_BELIEVED"
    NOT_MERGED = "NOT_MERGED"
    ALREADY_MERGED = "ALREADY_MERGED"
    SPLIT_ORDER = "SPLIT_ORDER"
    SPLIT_CONFLICT = "SPLIT_CONFLICT"
    OVERLAPPING_BELIEF = "OVERLAPPING_BELIEF"
    CONSTRAINT_VIOLATION = "CONSTRAINT_VIOLATION"
    # trust
    PRIVILEGED = "PRIVILEGED"
    OWNER_ONLY = "OWNER_ONLY"
    EXPORT_FORMAT = "EXPORT_FORMAT"
    OWNER_NOT_EMPTY = "OWNER_NOT_EMPTY"
    SOURCE_NOT_ALLOWED = "SOURCE_NOT_ALLOWED"
    BAD_TOKEN_KIND = "BAD_TOKEN_KIND"
    NAMESPACE = "NAMESPACE"
    NAMESPACE_TAKEN = "NAMESPACE_TAKEN"
    REGISTERED_BY_OTHER = "REGISTERED_BY_OTHER"
    # the sync API (graph/sync)
    DUPLICATE_ENTRY = "DUPLICATE_ENTRY"
    OUT_OF_ORDER = "OUT_OF_ORDER"
    # retention (graph/retention): observations
    NOT_WINDOWED = "NOT_WINDOWED"
    BEHIND_RETENTION_EDGE = "BEHIND_RETENTION_EDGE"
    # erasure (graph/erasure)
    ERASED = "ERASED"
    ALREADY_ERASED = "ALREADY_ERASED"
    ERASED_REF = "ERASED_REF"
    NOTHING_TO_ERASE = "NOTHING_TO_ERASE"
    # the Cypher console
    CONSOLE_ERROR = "CONSOLE_ERROR"
    CONSOLE_SYNTAX = "CONSOLE_SYNTAX"
    CONSOLE_FORBIDDEN = "CONSOLE_FORBIDDEN"
    CONSOLE_WRITE_REFUSED = "CONSOLE_WRITE_REFUSED"
    CONSOLE_TOO_LARGE = "CONSOLE_TOO_LARGE"
    CONSOLE_QUERY_FAILED = "CONSOLE_QUERY_FAILED"
    CONSOLE_TIMEOUT = "CONSOLE_TIMEOUT"
    CONSOLE_BUSY = "CONSOLE_BUSY"


_I, _S, _A, _R, _X = Category.INPUT, Category.STATE, Category.AUTH, Category.RETRY, Category.INTERNAL

# (category, description) of every code; the SDL carries the description.
ABOUT: dict[ErrorCode, tuple[Category, str]] = {
    ErrorCode.BAD_INPUT: (_I, "The input is malformed; the message says which part."),
    ErrorCode.NOT_FOUND: (_I, "Nothing is stored under the name or id given."),
    ErrorCode.CONFLICT: (_S, "The request conflicts with what is stored."),
    ErrorCode.FORBIDDEN: (_A, "The token may not do this."),
    ErrorCode.UNAUTHENTICATED: (_A, "No valid bearer token."),
    ErrorCode.UNAVAILABLE: (_R, "The database could not be reached or timed out; safe to retry."),
    ErrorCode.INTERNAL: (_X, "An unexpected error on the server (masked); nothing was written."),
    ErrorCode.GRAPHQL_PARSE_FAILED: (_I, "The GraphQL document does not parse."),
    ErrorCode.GRAPHQL_VALIDATION_FAILED: (_I, "The GraphQL document or its variables do not fit the schema."),
    ErrorCode.QUERY_TOO_DEEP: (_I, "The query nests deeper than the server allows."),
    ErrorCode.QUERY_TOO_COMPLEX: (_I, "The query asks for more fields than the server allows."),
    ErrorCode.PAYLOAD_TOO_LARGE: (_I, "The request body is larger than the server accepts."),
    ErrorCode.BAD_REQUEST: (_I, "The HTTP request was refused (e.g. an unsupported content type)."),
    ErrorCode.BAD_ENCODING: (_I, "The request body is not UTF-8."),
    ErrorCode.BAD_JSON: (_I, "The request body is not JSON (or holds NaN or Infinity)."),
    ErrorCode.BAD_REQUEST_SHAPE: (_I, "The body is not a JSON object with a string query (and object variables)."),
    ErrorCode.JSON_TOO_DEEP: (_I, "JSON (body, variables or a literal) nests deeper than allowed."),
    ErrorCode.NUMBER_TOO_LONG: (_I, "An integer has more digits than allowed."),
    ErrorCode.METHOD_NOT_ALLOWED: (_I, "The HTTP method is not allowed here."),
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: (_I, "The content type is not supported."),
    ErrorCode.QUERY_TOO_LARGE: (_I, "The query has too many tokens or too wide a selection."),
    ErrorCode.TOO_MANY_ALIASES: (_I, "The query uses more aliases than allowed."),
    ErrorCode.OPERATION_NAME_REQUIRED: (_I, "The document has several operations and no operationName."),
    ErrorCode.SUBSCRIPTION_NEEDS_WEBSOCKET: (_I, "A subscription was POSTed; subscriptions run over the WebSocket."),
    ErrorCode.REQUEST_TIMEOUT: (_R, "The request body did not arrive in time."),
    ErrorCode.BUSY: (_R, "The request's database budget is spent or no connection was free; retry later."),
    ErrorCode.TIME_OUT_OF_RANGE: (_I, "A time lies outside 0001-01-02..9999-12-30 UTC."),
    ErrorCode.STORED_TIME_OUT_OF_RANGE: (_S, "A stored time outside the range was shown clamped (beside the data)."),
    ErrorCode.BAD_IDENTITY: (_I, "A contact identity is not namespace:value of its kind (e-mail, phone, handle)."),
    ErrorCode.INVALID_TURN: (_I, "A chat turn (or its tool calls) failed validation."),
    ErrorCode.BAD_LANGUAGE: (_I, "The language must be en or de."),
    ErrorCode.BAD_WATERMARK: (_I, "The curator's watermark names no turn of the chat."),
    ErrorCode.INVALID_OPERATION: (_I, "A proposal operation failed validation."),
    ErrorCode.INVALID_PROPOSAL: (_I, "The proposal as a whole failed validation."),
    ErrorCode.BAD_ID: (_I, "An id is not a UUID."),
    ErrorCode.BAD_REF: (_I, "A ref is not of the form kind:slug."),
    ErrorCode.BAD_TIME: (_I, "A time lacks a UTC offset or is out of range."),
    ErrorCode.BAD_INTERVAL: (_I, "validTo is not after validFrom."),
    ErrorCode.BAD_LIMIT: (_I, "A limit or depth is out of its range."),
    ErrorCode.BAD_SOURCE: (_I, "A source is not of the form name or integration:domain."),
    ErrorCode.BAD_CAUSATION: (_I, "An event's causation fields do not fit together."),
    ErrorCode.BAD_EXPECTED_EFFECT: (_I, "An expectedEffect is not {target, predicate, expected_value}."),
    ErrorCode.INTENT_REQUIRED: (_I, "A consequential action needs an intent."),
    ErrorCode.VALUE_TOO_LARGE: (_I, "A fact value is larger than the server accepts."),
    ErrorCode.KIND_MISMATCH: (_I, "An entity's kind does not fit the ref, predicate or other entity."),
    ErrorCode.SAME_ENTITY: (_I, "An entity cannot be merged with or distinguished from itself."),
    ErrorCode.AMBIGUOUS_REF: (_I, "An alias names several entities; use a kind:slug ref."),
    ErrorCode.UNKNOWN_ENTITY: (_I, "No entity has this ref or alias."),
    ErrorCode.UNKNOWN_KIND: (_I, "The entity kind is not registered."),
    ErrorCode.UNKNOWN_PREDICATE: (_I, "The predicate is not registered (or not active)."),
    ErrorCode.UNKNOWN_REF: (_I, "No entity has this ref or alias; the message suggests close ones."),
    ErrorCode.UNKNOWN_RUN: (_I, "No proposal or event has this run id; the message suggests close ones."),
    ErrorCode.UNKNOWN_EVENT: (_I, "No event has this id or external ref."),
    ErrorCode.UNKNOWN_EVENT_TYPE: (_I, "The event type is not registered."),
    ErrorCode.UNKNOWN_FACT: (_I, "No fact has this id."),
    ErrorCode.RECORDED_AT_IN_FUTURE: (_I, "recordedAt lies in the future."),
    ErrorCode.RECORDED_AT_NOT_MONOTONIC: (_S, "recordedAt is earlier than the owner's latest system time."),
    ErrorCode.RUN_ID_REUSED: (_S, "The runId was already committed with other operations."),
    ErrorCode.ALIAS_TAKEN: (_S, "The alias already names another entity."),
    ErrorCode.UNKNOWN_ALIAS: (_S, "The entity holds no such alias now (nothing to end)."),
    ErrorCode.CONFLICTING_DEFINITION: (_S, "A registry entry exists with another definition."),
    ErrorCode.SUPPRESSED: (_S, "The owner rejected this belief before; only the owner can lift that."),
    ErrorCode.NOT_PENDING: (_S, "The fact is not pending review."),
    ErrorCode.NOT_BELIEVED: (_S, "The fact is no longer believed."),
    ErrorCode.NOT_MERGED: (_S, "There is no open merge to split."),
    ErrorCode.ALREADY_MERGED: (_S, "The entity is already merged."),
    ErrorCode.SPLIT_ORDER: (_S, "A later merge must be split first."),
    ErrorCode.SPLIT_CONFLICT: (_S, "The split cannot restore what moved (e.g. an alias another entity took since)."),
    ErrorCode.OVERLAPPING_BELIEF: (_S, "Two believed values would overlap in valid time."),
    ErrorCode.CONSTRAINT_VIOLATION: (_S, "A database constraint refused the write."),
    ErrorCode.PRIVILEGED: (_A, "The kind or predicate is privileged: this token's source cannot write it."),
    ErrorCode.OWNER_ONLY: (_A, "Only the owner governs memory."),
    ErrorCode.EXPORT_FORMAT: (_I, "Not a whole worldmem-export file of a version this server reads."),
    ErrorCode.OWNER_NOT_EMPTY: (_S, "An export is imported only into an owner that holds no memory yet."),
    ErrorCode.SOURCE_NOT_ALLOWED: (_A, "The token may not claim this source (a source can only lower trust)."),
    ErrorCode.BAD_TOKEN_KIND: (_I, "A token's kind, name or rights do not fit together."),
    ErrorCode.NAMESPACE: (_A, "An integration registers keys only under its own namespace (name:)."),
    ErrorCode.NAMESPACE_TAKEN: (_A, "The namespace belongs to another integration; register under your own."),
    ErrorCode.REGISTERED_BY_OTHER: (_A, "The key was registered by someone else: use it as it is."),
    ErrorCode.DUPLICATE_ENTRY: (_I, "A synced entry repeats an earlier one of the call (or backs the same entity)."),
    ErrorCode.OUT_OF_ORDER: (_S, "A synced entry was observed before the state already stored for it."),
    ErrorCode.NOT_WINDOWED: (_I, "The event type is not windowed: record it with recordEvent (permanent)."),
    ErrorCode.BEHIND_RETENTION_EDGE: (_S, "The time lies before the owner's retention edge, where only rollups "
                                          "are kept."),
    ErrorCode.ERASED: (_S, "The ref was erased at the owner's request; the message says when (de/en)."),
    ErrorCode.ALREADY_ERASED: (_S, "This was erased before; the message names the receipt."),
    ErrorCode.ERASED_REF: (_S, "A write names a ref that was erased at the owner's request: it is not created again."),
    ErrorCode.NOTHING_TO_ERASE: (_I, "The entity has no rows of this predicate to erase."),
    ErrorCode.CONSOLE_ERROR: (_I, "The console refused the query."),
    ErrorCode.CONSOLE_SYNTAX: (_I, "The console query is malformed."),
    ErrorCode.CONSOLE_FORBIDDEN: (_I, "The console query uses something not allowed."),
    ErrorCode.CONSOLE_WRITE_REFUSED: (_I, "The console is read-only."),
    ErrorCode.CONSOLE_TOO_LARGE: (_I, "The console result is larger than allowed."),
    ErrorCode.CONSOLE_QUERY_FAILED: (_I, "The console query failed in the database."),
    ErrorCode.CONSOLE_TIMEOUT: (_R, "The console query ran longer than its timeout."),
    ErrorCode.CONSOLE_BUSY: (_R, "The console is busy with other queries; try again."),
}


def category(code: str) -> Category:
    """The category of a code; an unknown code counts as internal."""
    try:
        return ABOUT[ErrorCode(code)][0]
    except ValueError:
        return Category.INTERNAL


def caller_must_fix(code: str) -> bool:
    """True when the caller has to change its request (input, state, permission or its token), False when
    memory itself could not answer (retry later, or a bug)."""
    return category(code) in (Category.INPUT, Category.STATE, Category.AUTH)
