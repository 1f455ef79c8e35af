"""The per-request context: who is asking (from the bearer token) and the database to ask.

The token is checked once per request, in the context getter: from a short cache of verified tokens
(graph.ledger.token_cache) on the event loop, else by the database in a worker thread.
A missing or invalid token is not an HTTP failure: `require_token` turns it into one GraphQL error with
code UNAUTHENTICATED before the query is even parsed, so nothing else reaches the client.

Resolvers use `principal(info)`, `require(info, ...)` and `database(info)`, and call blocking database
code through `blocking(...)` so one slow query never stalls the event loop.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from graphql import (
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationDefinitionNode,
    OperationType,
    SelectionNode,
    parse,
)
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection
from strawberry.fastapi import BaseContext
from strawberry.types import ExecutionContext, Info

from curator.turns import NO_LISTENER, TurnListener
from graph.errors import Forbidden, Moving, Unauthenticated, Unavailable, WorldmemError
from graph.ledger.op_context import WriteRules
from graph.ledger.token_cache import TokenCache
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.routing.router import Router
from graph.routing.routes import DEFAULT
from graph.settings import Settings
from resolvers.fairness import OwnerGates, offload, request_budget

if TYPE_CHECKING:
    from curator.health import ModelHealth

log = logging.getLogger("worldmem.graphql")
P = ParamSpec("P")
T = TypeVar("T")
INTROSPECTION_FIELDS = frozenset({"__schema", "__type", "__typename"})
DEGRADED_FIELDS = frozenset({"worldContext"})  # answer (without data) even when the token cannot be checked
MAX_INTROSPECTION_CHARS = 20_000  # GraphiQL's introspection query is ~2 kB; parse no more without a token
# The scope key under which the request's admission (resolvers.admission) leaves the token it found in the token
# cache and its principal, so the context getter does not parse the header and hash the token a second time.
VERIFIED = "worldmem.verified"
MOVE_RETRY_S = 5.0  # what a write refused during an owner's move is told to wait (moves take seconds to minutes)


class Context(BaseContext):
    def __init__(self, database: Database, settings: Settings, principal: Principal | None,
                 auth_error: WorldmemError | None = None, turn_listener: TurnListener = NO_LISTENER,
                 gates: OwnerGates | None = None, tokens: TokenCache | None = None,
                 curator_health: ModelHealth | None = None) -> None:
        super().__init__()
        self.database = database
        self.settings = settings
        self.principal = principal
        self.auth_error = auth_error
        # Told after each stored chat turn (the curator's debounce runtime); app.state.turn_listener.
        self.turn_listener = turn_listener
        self.curator_health = curator_health  # the last check of the curator model (app.state.curator_health)
        self.gates = gates  # each owner's share of the database (resolvers.fairness)
        # The owner is being moved to another cluster (graph/routing): reads are served, writes refused.
        self.moving = False
        # Where tokens are checked (the directory: the default cluster), and the cluster of `database`.
        self.directory = database
        self.cluster = DEFAULT
        self.router: Router | None = None  # with other clusters: finds the owner's (a WebSocket's owner comes later)
        # The bearer token and the cache that verified it: a long-lived WebSocket checks the token again
        # while it lives (resolvers.live), so a revocation ends it.
        self.token: str | None = None
        self.tokens = tokens
        # Errors to report beside a field's data (e.g. a rejected proposal); see add_soft_errors.
        self.soft_errors: list[GraphQLError] = []

    def budget(self) -> AbstractContextManager[object]:
        """What the request runs in: its owner's share of the database (resolvers.fairness.request_budget) when
        the app has gates, nothing to enter otherwise (a context made outside the app)."""
        if self.gates is None or self.principal is None:
            return nullcontext()
        return request_budget(self.gates, self.principal.owner, self.settings.request_db_budget_s)

    def reject(self, field: str, message: str, code: str, **extensions: Any) -> None:
        """Reports a refusal of `field` beside its data (all or nothing: the data says what was written)."""
        self.soft_errors.append(GraphQLError(message, path=[field], extensions={"code": code, **extensions}))


def bearer_token(header: str | None) -> str | None:
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    return (token.strip() or None) if scheme.lower() == "bearer" else None


def context_getter(database: Database, settings: Settings, tokens: TokenCache | None = None,
                   router: Router | None = None) -> Callable[[HTTPConnection], Awaitable[Context]]:
    """The FastAPI dependency that builds each request's Context (HTTP request or WebSocket).

    A token verified within `token_cache_s` is answered on the event loop from the cache
    (graph.ledger.token_cache); any other is looked up in a worker thread. Tokens live in `database` (the
    directory); with a `router` (other clusters configured) the request then gets its owner's cluster."""
    gates = OwnerGates(settings.owner_db_share)
    tokens = tokens if tokens is not None else TokenCache(settings.token_cache_s)  # an empty cache is falsy (len)

    async def get_context(request: HTTPConnection) -> Context:
        verified = request.scope.get(VERIFIED)  # the admission read this request's header and found its token
        token, found = verified if verified is not None else (bearer_token(request.headers.get("authorization")), None)
        listener: TurnListener = getattr(request.app.state, "turn_listener", NO_LISTENER)
        try:
            found = found or tokens.cached(token) or await run_in_threadpool(tokens.authenticate, database, token)
            ctx = Context(database, settings, found, turn_listener=listener, gates=gates, tokens=tokens,
                          curator_health=getattr(request.app.state, "curator_health", None))
            ctx.token, ctx.router = token, router
            await place(ctx)
            return ctx
        except WorldmemError as exc:  # Unauthenticated, or Unavailable when the database is down
            failed = Context(database, settings, None, exc, tokens=tokens)
            failed.router = router
            return failed
        except Exception:  # a bug or a broken schema: masked for the client, logged for us
            log.exception("token lookup failed")
            return Context(database, settings, None, WorldmemError("Unexpected error."))

    return get_context


async def place(ctx: Context) -> None:
    """Points the context at its owner's cluster (graph/routing): its pool, whether it is moving. Nothing to
    do with one cluster (no router) or before the principal is known (a WebSocket's, until connection_init)."""
    if ctx.router is None or ctx.principal is None:
        return
    placed = ctx.router.cached(ctx.principal.owner)
    if placed is None:
        placed = await run_in_threadpool(ctx.router.place, ctx.principal.owner)
    ctx.database, ctx.moving, ctx.cluster = placed.database, placed.route.moving, placed.route.cluster


def require_token(ec: ExecutionContext) -> None:
    """Refuses the whole operation, before it runs, when the request has no valid principal, unless it
    only reads the schema (GraphiQL's docs and autocomplete work before the user pastes a token). Run first
    by the operation's extension (resolvers.operation_guard)."""
    ctx = ec.context
    if not isinstance(ctx, Context) or ctx.principal is None:
        # With the database down the token cannot be checked; worldContext then still answers (an
        # empty block with a warning, never data), as it promises the agent.
        allowed = INTROSPECTION_FIELDS | (DEGRADED_FIELDS if isinstance(getattr(ctx, "auth_error", None),
                                                                         Unavailable) else frozenset())
        if not selects_only(ec.query, allowed):
            raise getattr(ctx, "auth_error", None) or Unauthenticated(
                "a valid bearer token is required: send the header `Authorization: Bearer wm_...` "
                "(create one with `worldmem token create --owner NAME`)")


def require_writable(ec: ExecutionContext) -> None:
    """Refuses a mutation of an owner that is being moved to another cluster (OWNER_MOVING, retryable), before
    it runs; queries and subscriptions go on. Costs nothing unless the owner is moving."""
    ctx = ec.context
    if isinstance(ctx, Context) and ctx.moving and has_mutation(ec.query):
        raise Moving("this memory is being moved to another cluster: reading works, writing is refused until "
                     f"the move ends (retry in {MOVE_RETRY_S:g} s) / dieses Gedächtnis wird gerade auf einen "
                     f"anderen Cluster verschoben: Lesen geht, Schreiben erst nach dem Umzug (in {MOVE_RETRY_S:g} s "
                     "erneut versuchen)", MOVE_RETRY_S)


def has_mutation(query: str | None) -> bool:
    """True when the document holds a mutation (a document that does not parse holds none: GraphQL refuses it)."""
    try:
        document = parse(query or "", no_location=True)
    except GraphQLError:
        return False
    return any(isinstance(d, OperationDefinitionNode) and d.operation == OperationType.MUTATION
               for d in document.definitions)


def schema_only(query: str | None) -> bool:
    """True when every operation of the document selects only __schema, __type and __typename at its
    top level (directly or through fragments): introspection, which reads the schema and never data."""
    return selects_only(query, INTROSPECTION_FIELDS)


def selects_only(query: str | None, allowed: frozenset[str]) -> bool:
    """True when every operation of the document is a query selecting only `allowed` top-level fields."""
    if not query or len(query) > MAX_INTROSPECTION_CHARS:
        return False
    try:
        document = parse(query, no_location=True)
    except GraphQLError:
        return False
    fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]

    def top_level_ok(selections: Iterable[SelectionNode], seen: frozenset[str]) -> bool:
        for node in selections:
            if isinstance(node, FieldNode):
                if node.name.value not in allowed:
                    return False
            elif isinstance(node, InlineFragmentNode):
                if not top_level_ok(node.selection_set.selections, seen):
                    return False
            elif isinstance(node, FragmentSpreadNode):
                name = node.name.value
                if name in seen or name not in fragments:
                    return False
                if not top_level_ok(fragments[name].selection_set.selections, seen | {name}):
                    return False
        return True

    return bool(operations) and all(
        op.operation == OperationType.QUERY and top_level_ok(op.selection_set.selections, frozenset())
        for op in operations)


def add_soft_errors(ec: ExecutionContext) -> None:
    """Adds the errors resolvers put in `context.soft_errors` to a result that still carries data (after the
    operation, by resolvers.operation_guard's extension)."""
    ctx = ec.context
    if isinstance(ctx, Context) and ctx.soft_errors and ec.result is not None:
        ec.result.errors = [*(ec.result.errors or []), *ctx.soft_errors]


def principal(info: Info[Any, Any]) -> Principal:
    ctx = info.context
    if not isinstance(ctx, Context) or ctx.principal is None:
        raise Unauthenticated("a valid bearer token is required")
    return ctx.principal


def unavailable(info: Info[Any, Any]) -> bool:
    """The request has no principal because the database could not be asked (not a bad token)."""
    ctx = info.context
    return isinstance(ctx, Context) and ctx.principal is None and isinstance(ctx.auth_error, Unavailable)


def require(info: Info[Any, Any], *, integrate: bool = False, import_: bool = False) -> Principal:
    """The principal, if its token allows what the resolver is about to do; Forbidden otherwise."""
    who = principal(info)
    if integrate and not who.can_integrate:
        raise Forbidden("this token may not register kinds or relation types (use an integration token, or an "
                        "owner token made with --integration)")
    if import_ and not who.can_import:
        raise Forbidden("this token may not set recordedAt (use an owner token made with --import)")
    return who


def database(info: Info[Any, Any]) -> Database:
    ctx = info.context
    if not isinstance(ctx, Context):
        raise Unauthenticated("a valid bearer token is required")
    return ctx.database


def write_rules(info: Info[Any, Any]) -> WriteRules:
    """The committer's rules from the settings the app was created with (create_app), not the environment's."""
    ctx = info.context
    if not isinstance(ctx, Context):
        raise Unauthenticated("a valid bearer token is required")
    return WriteRules.of(ctx.settings)


async def blocking(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run blocking (database) code in a worker thread, within the owner's share and the request's budget."""
    return await offload(fn, *args, **kwargs)
