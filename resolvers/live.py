"""`memoryCommitted`: a subscription (graphql-transport-ws) that announces each committed proposal.

Browsers cannot set headers on a WebSocket, so the token travels in the `connection_init` payload
(`{"Authorization": "Bearer wm_..."}`); `LiveRouter.on_ws_connect` checks it once per connection and
rejects the connection (close 4403) without one. The token is checked again whenever the cache's answer for it
runs out (Settings.token_cache_s; every RECHECK_S when the cache is off): once it is revoked, the socket is
closed (4401) and every subscription on it ends, so no commit reaches it later than that. The hub
(graph/platform/live.py) routes by owner, and the owner comes from the token, so a subscriber only ever hears
about its own owner's commits.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, TypeVar

import strawberry
from starlette.concurrency import run_in_threadpool
from starlette.websockets import WebSocket
from strawberry.exceptions import ConnectionRejectionError
from strawberry.fastapi import GraphQLRouter
from strawberry.types import Info
from strawberry.types.unset import UnsetType

from graph.errors import Unauthenticated, WorldmemError
from graph.ledger.tokens import authenticate
from graph.platform.live import CommitHub, summary
from graph.routing.routes import DEFAULT
from resolvers.context import Context, bearer_token, place, principal

T = TypeVar("T")
RECHECK_S = 1.0  # how often a socket asks the database about its token when the token cache is off
CLOSE_WAIT_S = 30.0
UNAUTHORIZED = 4401  # graphql-transport-ws: the connection's authorization is no longer valid


@strawberry.type(description="A proposal was committed: which entities it touched (ids and counts only)")
class MemoryCommitted:
    entity_ids: list[strawberry.ID] = strawberry.field(description="Entities whose facts or events changed")
    committed: int
    pending: int
    summary: str


def _hub(info: Info[Any, Any]) -> CommitHub:
    request = getattr(info.context, "request", None)
    state = getattr(getattr(request, "app", None), "state", None)
    hub = getattr(state, "live", None)
    cluster = getattr(info.context, "cluster", DEFAULT)
    if cluster != DEFAULT:  # an owner on another cluster: its commits are announced there (graph/routing)
        hub = getattr(state, "cluster_hubs", {}).get(cluster)
    if not isinstance(hub, CommitHub):
        raise WorldmemError("live updates are not available")
    return hub


async def token_good_for(ctx: Context) -> float:
    """Seconds until the connection's token must be checked again; Unauthenticated once it is no longer live,
    after closing the socket (4401) and forgetting its principal, so nothing else runs on it."""
    tokens, token = ctx.tokens, ctx.token
    try:
        if tokens is None or token is None:
            raise Unauthenticated("this connection's token cannot be checked again")
        if tokens.cached(token) is None:
            await run_in_threadpool(tokens.authenticate, ctx.directory, token)
    except Unauthenticated as exc:
        ctx.principal, ctx.auth_error = None, exc
        socket = getattr(ctx, "request", None)
        if isinstance(socket, WebSocket):
            with contextlib.suppress(RuntimeError):  # already closed by the client
                await socket.close(code=UNAUTHORIZED, reason=exc.message[:120])
            # The protocol handler sees the close and cancels every operation of the socket, this one included;
            # an error sent before that would meet a closed socket. The wait is bounded in case it never does.
            await asyncio.sleep(CLOSE_WAIT_S)
        raise
    left = tokens.remaining(token)
    return left + 0.01 if left > 0 else RECHECK_S


async def while_token_lives(ctx: Context, stream: AsyncIterator[T]) -> AsyncIterator[T]:
    """The items of `stream`, each delivered only while the connection's token is known to be live."""
    loop = asyncio.get_running_loop()
    check_at = loop.time() + await token_good_for(ctx)
    pending = asyncio.ensure_future(anext(stream))
    try:
        while True:
            await asyncio.wait({pending}, timeout=max(0.0, check_at - loop.time()))
            if loop.time() >= check_at:
                check_at = loop.time() + await token_good_for(ctx)
            if pending.done():
                item = pending.result()
                pending = asyncio.ensure_future(anext(stream))
                yield item
    finally:
        pending.cancel()
        with contextlib.suppress(asyncio.CancelledError, StopAsyncIteration):
            await pending


async def memory_committed(info: Info[Any, Any]) -> AsyncGenerator[MemoryCommitted, None]:
    owner = principal(info).owner
    async for commit in while_token_lives(info.context, _hub(info).subscribe(owner)):
        yield MemoryCommitted(entity_ids=[strawberry.ID(str(i)) for i in commit.entity_ids],
                              committed=commit.committed, pending=commit.pending, summary=summary(commit))


@strawberry.type
class LiveSubscription:
    memory_committed: AsyncGenerator[MemoryCommitted, None] = strawberry.subscription(
        resolver=memory_committed,
        description="Each proposal committed for your owner from now on: entity ids and counts, never content")


class LiveRouter(GraphQLRouter[Context, None]):
    """The GraphQL router, with the WebSocket's token taken from the connection_init payload."""

    async def on_ws_connect(self, context: Context) -> UnsetType | dict[str, object] | None:
        params = context.connection_params if isinstance(context.connection_params, dict) else {}
        header = params.get("Authorization") or params.get("authorization")
        token = bearer_token(header) if isinstance(header, str) else None
        if token is None and context.principal is not None:
            return await super().on_ws_connect(context)  # a non-browser client sent the header
        try:
            if context.tokens is None:
                context.principal = await run_in_threadpool(authenticate, context.directory, token)
            else:
                context.principal = await run_in_threadpool(context.tokens.authenticate, context.directory, token)
            await place(context)  # the owner's cluster, now that the owner is known
        except WorldmemError as exc:
            raise ConnectionRejectionError({"code": exc.code, "message": exc.message}) from None
        context.auth_error, context.token = None, token
        return await super().on_ws_connect(context)
