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


_I, _S, _A, _R, _X = Category.INPUT, Category.STATE, Category.AUTH, Category.RETRY, Category.INTERNAL


class ErrorCode(StrEnum):
    """Each code once, with its category and the description the SDL carries: NAME = "NAME", category, text."""

    category: Category
    about: str

    def __new__(cls, code: str, category: Category, about: str) -> ErrorCode:
        member = str.__new__(cls, code)
        member._value_ = code
        member.category, member.about = category, about
        return member

    # generic classes (graph/errors.py)
    BAD_INPUT = "BAD_INPUT", _I, "The input is malformed; the message says which part."
    NOT_FOUND = "NOT_FOUND", _I, "Nothing is stored under the name or id given."
    CONFLICT = "CONFLICT", _S, "The request conflicts with what is stored."
    FORBIDDEN = "FORBIDDEN", _A, "The token may not do this."
    UNAUTHENTICATED = "UNAUTHENTICATED", _A, "No valid bearer token."
    UNAVAILABLE = "UNAVAILABLE", _R, "The database could not be reached or timed out; safe to retry."
    INTERNAL = "INTERNAL", _X, "An unexpected error on the server (masked); nothing was written."
    # GraphQL and HTTP layer
    GRAPHQL_PARSE_FAILED = "GRAPHQL_PARSE_FAILED", _I, "The GraphQL document does not parse."
    GRAPHQL_VALIDATION_FAILED = "GRAPHQL_VALIDATION_FAILED", _I, ("The GraphQL document or its variables do not fit "
                                                                  "the schema.")
    QUERY_TOO_DEEP = "QUERY_TOO_DEEP", _I, "The query nests deeper than the server allows."
    QUERY_TOO_COMPLEX = "QUERY_TOO_COMPLEX", _I, "The query asks for more fields than the server allows."
    PAYLOAD_TOO_LARGE = "PAYLOAD_TOO_LARGE", _I, "The request body is larger than the server accepts."
    BAD_REQUEST = "BAD_REQUEST", _I, "The HTTP request was refused (e.g. an unsupported content type)."
    BAD_ENCODING = "BAD_ENCODING", _I, "The request body is not UTF-8."
    BAD_JSON = "BAD_JSON", _I, "The request body is not JSON (or holds NaN or Infinity)."
    BAD_REQUEST_SHAPE = "BAD_REQUEST_SHAPE", _I, ("The body is not a JSON object with a string query (and object "
                                                  "variables).")
    JSON_TOO_DEEP = "JSON_TOO_DEEP", _I, "JSON (body, variables or a literal) nests deeper than allowed."
    NUMBER_TOO_LONG = "NUMBER_TOO_LONG", _I, "An integer has more digits than allowed."
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED", _I, "The HTTP method is not allowed here."
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE", _I, "The content type is not supported."
    QUERY_TOO_LARGE = "QUERY_TOO_LARGE", _I, "The query has too many tokens or too wide a selection."
    TOO_MANY_ALIASES = "TOO_MANY_ALIASES", _I, "The query uses more aliases than allowed."
    OPERATION_NAME_REQUIRED = "OPERATION_NAME_REQUIRED", _I, "The document has several operations and no operationName."
    SUBSCRIPTION_NEEDS_WEBSOCKET = "SUBSCRIPTION_NEEDS_WEBSOCKET", _I, ("A subscription was POSTed; subscriptions run "
                                                                        "over the WebSocket.")
    REQUEST_TIMEOUT = "REQUEST_TIMEOUT", _R, "The request body did not arrive in time."
    BUSY = "BUSY", _R, "The request's database budget is spent or no connection was free; retry later."
    # proposal and operation validation
    INVALID_OPERATION = "INVALID_OPERATION", _I, "A proposal operation failed validation."
    INVALID_PROPOSAL = "INVALID_PROPOSAL", _I, "The proposal as a whole failed validation."
    BAD_ID = "BAD_ID", _I, "An id is not a UUID."
    BAD_REF = "BAD_REF", _I, "A ref is not of the form kind:slug."
    BAD_TIME = "BAD_TIME", _I, "A time lacks a UTC offset or is out of range."
    BAD_INTERVAL = "BAD_INTERVAL", _I, "validTo is not after validFrom."
    BAD_LIMIT = "BAD_LIMIT", _I, "A limit or depth is out of its range."
    BAD_SOURCE = "BAD_SOURCE", _I, "A source is not of the form name or integration:domain."
    BAD_CAUSATION = "BAD_CAUSATION", _I, "An event's causation fields do not fit together."
    BAD_EXPECTED_EFFECT = "BAD_EXPECTED_EFFECT", _I, "An expectedEffect is not {target, predicate, expected_value}."
    INTENT_REQUIRED = "INTENT_REQUIRED", _I, "A consequential action needs an intent."
    VALUE_TOO_LARGE = "VALUE_TOO_LARGE", _I, "A fact value is larger than the server accepts."
    KIND_MISMATCH = "KIND_MISMATCH", _I, "An entity's kind does not fit the ref, predicate or other entity."
    SAME_ENTITY = "SAME_ENTITY", _I, "An entity cannot be merged with or distinguished from itself."
    AMBIGUOUS_REF = "AMBIGUOUS_REF", _I, "An alias names several entities; use a kind:slug ref."
    UNKNOWN_ENTITY = "UNKNOWN_ENTITY", _I, "No entity has this ref or alias."
    UNKNOWN_KIND = "UNKNOWN_KIND", _I, "The entity kind is not registered."
    UNKNOWN_PREDICATE = "UNKNOWN_PREDICATE", _I, "The predicate is not registered (or not active)."
    UNKNOWN_REF = "UNKNOWN_REF", _I, "No entity has this ref or alias; the message suggests close ones."
    UNKNOWN_RUN = "UNKNOWN_RUN", _I, "No proposal or event has this run id; the message suggests close ones."
    UNKNOWN_EVENT = "UNKNOWN_EVENT", _I, "No event has this id or external ref."
    UNKNOWN_EVENT_TYPE = "UNKNOWN_EVENT_TYPE", _I, "The event type is not registered."
    UNKNOWN_FACT = "UNKNOWN_FACT", _I, "No fact has this id."
    RECORDED_AT_IN_FUTURE = "RECORDED_AT_IN_FUTURE", _I, "recordedAt lies in the future."
    TIME_OUT_OF_RANGE = "TIME_OUT_OF_RANGE", _I, "A time lies outside 0001-01-02..9999-12-30 UTC."
    STORED_TIME_OUT_OF_RANGE = "STORED_TIME_OUT_OF_RANGE", _S, ("A stored time outside the range was shown clamped "
                                                                "(beside the data).")
    BAD_IDENTITY = "BAD_IDENTITY", _I, "A contact identity is not namespace:value of its kind (e-mail, phone, handle)."
    # the curator's chat intake
    INVALID_TURN = "INVALID_TURN", _I, "A chat turn (or its tool calls) failed validation."
    BAD_LANGUAGE = "BAD_LANGUAGE", _I, "The language must be en or de."
    BAD_WATERMARK = "BAD_WATERMARK", _I, "The curator's watermark names no turn of the chat."
    TOO_MANY_TURNS = "TOO_MANY_TURNS", _I, "An import holds more turns than one call takes (10,000)."
    # conflicts with the stored state
    RECORDED_AT_NOT_MONOTONIC = "RECORDED_AT_NOT_MONOTONIC", _S, ("recordedAt is earlier than the owner's latest "
                                                                  "system time.")
    RUN_ID_REUSED = "RUN_ID_REUSED", _S, "The runId was already committed with other operations."
    EXTERNAL_ID_REUSED = "EXTERNAL_ID_REUSED", _S, ("The chat already holds a turn with this externalId and other "
                                                    "text.")
    ALIAS_TAKEN = "ALIAS_TAKEN", _S, "The alias already names another entity."
    UNKNOWN_ALIAS = "UNKNOWN_ALIAS", _S, "The entity holds no such alias now (nothing to end)."
    CONFLICTING_DEFINITION = "CONFLICTING_DEFINITION", _S, "A registry entry exists with another definition."
    SUPPRESSED = "SUPPRESSED", _S, "The owner rejected this belief before; only the owner can lift that."
    NOT_PENDING = "NOT_PENDING", _S, "The fact is not pending review."
    NOT_BELIEVED = "NOT_BELIEVED", _S, "The fact is no longer believed."
    NOT_MERGED = "NOT_MERGED", _S, "There is no open merge to split."
    ALREADY_MERGED = "ALREADY_MERGED", _S, "The entity is already merged."
    SPLIT_ORDER = "SPLIT_ORDER", _S, "A later merge must be split first."
    SPLIT_CONFLICT = "SPLIT_CONFLICT", _S, ("The split cannot restore what moved (e.g. an alias another entity took "
                                            "since).")
    OVERLAPPING_BELIEF = "OVERLAPPING_BELIEF", _S, "Two believed values would overlap in valid time."
    CONSTRAINT_VIOLATION = "CONSTRAINT_VIOLATION", _S, "A database constraint refused the write."
    # trust
    PRIVILEGED = "PRIVILEGED", _A, "The kind or predicate is privileged: this token's source cannot write it."
    OWNER_ONLY = "OWNER_ONLY", _A, "Only the owner governs memory."
    SOURCE_NOT_ALLOWED = "SOURCE_NOT_ALLOWED", _A, ("The token may not claim this source (a source can only lower "
                                                    "trust).")
    BAD_TOKEN_KIND = "BAD_TOKEN_KIND", _I, "A token's kind, name or rights do not fit together."
    NAMESPACE = "NAMESPACE", _A, "An integration registers keys only under its own namespace (name:)."
    NAMESPACE_TAKEN = "NAMESPACE_TAKEN", _A, "The namespace belongs to another integration; register under your own."
    REGISTERED_BY_OTHER = "REGISTERED_BY_OTHER", _A, "The key was registered by someone else: use it as it is."
    # the sync API (graph/sync)
    DUPLICATE_ENTRY = "DUPLICATE_ENTRY", _I, ("A synced entry repeats an earlier one of the call (or backs the same "
                                              "entity).")
    OUT_OF_ORDER = "OUT_OF_ORDER", _S, "A synced entry was observed before the state already stored for it."
    # retention (graph/retention): observations
    NOT_WINDOWED = "NOT_WINDOWED", _I, "The event type is not windowed: record it with recordEvent (permanent)."
    BEHIND_RETENTION_EDGE = "BEHIND_RETENTION_EDGE", _S, ("The time lies before the owner's retention edge, where only "
                                                          "rollups are kept.")
    # erasure (graph/erasure)
    ERASED = "ERASED", _S, "The ref was erased at the owner's request; the message says when (de/en)."
    ALREADY_ERASED = "ALREADY_ERASED", _S, "This was erased before; the message names the receipt."
    ERASED_REF = "ERASED_REF", _S, ("A write names a ref that was erased at the owner's request: it is not created "
                                    "again.")
    NOTHING_TO_ERASE = "NOTHING_TO_ERASE", _I, "The entity has no rows of this predicate to erase."
    # export and import (graph/transfer)
    EXPORT_FORMAT = "EXPORT_FORMAT", _I, "Not a whole worldmem-export file of a version this server reads."
    OWNER_NOT_EMPTY = "OWNER_NOT_EMPTY", _S, "An export is imported only into an owner that holds no memory yet."
    # owners over clusters (graph/routing)
    OWNER_MOVING = "OWNER_MOVING", _R, ("The owner is being moved to another cluster: reads work, writes are refused "
                                        "until the move ends (retry after retryAfter seconds).")
    BAD_CLUSTERS = "BAD_CLUSTERS", _I, "WORLDMEM_CLUSTERS is not a list of name=postgresql://... pairs."
    UNKNOWN_CLUSTER = "UNKNOWN_CLUSTER", _I, "No cluster of that name is configured (WORLDMEM_CLUSTERS)."
    MOVE_CHECK_FAILED = "MOVE_CHECK_FAILED", _S, ("The owner's copy differed from its source; the move was undone "
                                                  "and can be run again.")
    # the Cypher console
    CONSOLE_ERROR = "CONSOLE_ERROR", _I, "The console refused the query."
    CONSOLE_SYNTAX = "CONSOLE_SYNTAX", _I, "The console query is malformed."
    CONSOLE_FORBIDDEN = "CONSOLE_FORBIDDEN", _I, "The console query uses something not allowed."
    CONSOLE_WRITE_REFUSED = "CONSOLE_WRITE_REFUSED", _I, "The console is read-only."
    CONSOLE_TOO_LARGE = "CONSOLE_TOO_LARGE", _I, "The console result is larger than allowed."
    CONSOLE_QUERY_FAILED = "CONSOLE_QUERY_FAILED", _I, "The console query failed in the database."
    CONSOLE_TIMEOUT = "CONSOLE_TIMEOUT", _R, "The console query ran longer than its timeout."
    CONSOLE_BUSY = "CONSOLE_BUSY", _R, "The console is busy with other queries; try again."


def category(code: str) -> Category:
    """The category of a code; an unknown code counts as internal."""
    try:
        return ErrorCode[code].category  # by name: each code's name is its value (ErrorCode.__new__)
    except KeyError:
        return Category.INTERNAL


def caller_must_fix(code: str) -> bool:
    """True when the caller has to change its request (input, state, permission or its token), False when
    memory itself could not answer (retry later, or a bug)."""
    return category(code) in (Category.INPUT, Category.STATE, Category.AUTH)
