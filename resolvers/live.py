"""`memoryCommitted`: a subscription (graphql-transport-ws) that announces each committed proposal.

Browsers cannot set headers on a WebSocket, so the token travels in the `connection_init` payload
(`{"Authorization": "Bearer wm_..."}`); `LiveRouter.on_ws_connect` checks it once per connection and
rejects the connection (close 4403) without one. The hub (graph/platform/live.py) routes by owner, and the
owner comes from the token, so a subscriber only ever hears about its own owner's commits.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Any

import strawberry
from starlette.concurrency import run_in_threadpool
from strawberry.exceptions import ConnectionRejectionError
from strawberry.fastapi import GraphQLRouter
from strawberry.types import Info
from strawberry.types.unset import UnsetType

from graph.errors import WorldmemError
from graph.ledger.tokens import authenticate
from graph.platform.live import CommitHub, summary
from resolvers.context import Context, bearer_token, principal


@strawberry.type(description="A proposal was committed: which entities it touched (ids and counts only)")
class MemoryCommitted:
    entity_ids: list[strawberry.ID] = strawberry.field(description="Entities whose facts or events changed")
    committed: int
    pending: int
    summary: str


def _hub(info: Info[Any, Any]) -> CommitHub:
    request = getattr(info.context, "request", None)
    hub = getattr(getattr(getattr(request, "app", None), "state", None), "live", None)
    if not isinstance(hub, CommitHub):
        raise WorldmemError("live updates are not available")
    return hub


async def memory_committed(info: Info[Any, Any]) -> AsyncGenerator[MemoryCommitted, None]:
    owner = principal(info).owner
    async for commit in _hub(info).subscribe(owner):
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
            context.principal = await run_in_threadpool(authenticate, context.database, token)
        except WorldmemError as exc:
            raise ConnectionRejectionError({"code": exc.code, "message": exc.message}) from None
        context.auth_error = None
        return await super().on_ws_connect(context)
