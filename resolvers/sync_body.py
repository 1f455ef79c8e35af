"""How large a request body a token may send: syncEntities takes up to 10,000 entries (~3 MB) from an
integration token, importConversation up to 10,000 turns from an owner or agent token.

Every other request stays within `max_request_bytes` (1 MB). Only when a body is larger than that does
BodyLimit ask here, once: the bearer token is looked up (in a worker thread); an integration token may
send up to `max_sync_request_bytes`, an owner or agent token up to `max_import_request_bytes`; a request
without a token, and any token that cannot be checked, gets the ordinary limit. The allowance is explicit
and bounded, and normal requests never pay for the lookup.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.types import Scope

from graph.errors import WorldmemError
from graph.ledger.tokens import authenticate
from graph.platform.db import Database
from graph.settings import Settings
from resolvers.context import bearer_token


def integration_allowance(database: Database, settings: Settings) -> Callable[[Scope], Awaitable[int]]:
    """The body limit for one request's token (BodyLimit calls it only for bodies over the ordinary limit)."""

    async def allowance(scope: Scope) -> int:
        if scope.get("path") != "/graphql":
            return settings.max_request_bytes
        header = dict(scope.get("headers") or []).get(b"authorization", b"").decode("latin-1")
        try:
            who = await run_in_threadpool(authenticate, database, bearer_token(header))
        except WorldmemError:
            return settings.max_request_bytes
        return settings.max_sync_request_bytes if who.kind == "integration" else settings.max_import_request_bytes

    return allowance
