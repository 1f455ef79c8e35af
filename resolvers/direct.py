"""`POST /graphql` with a JSON body, answered without the web framework's router and Strawberry's HTTP view.

That is nearly every request an agent or the explorer sends. For it, FastAPI's middleware and routing
(dependency solving, a Request and a Response per request, four wrappers around `send`) and Strawberry's
view (content negotiation, body parsing a second time) were about a fifth of the server's CPU for a point
read (bench/README.md, "The request path without the framework"). What stays the same, because it is the
same code: the body limit, the body guard (resolvers.request_guard), the context with its token check
(resolvers.context.context_getter, the same instance and token cache as the router's), and
`schema.execute` with all the schema's extensions (token required, operation guard, limits, soft errors,
error formatting). The answer is Strawberry's `process_result` encoded as the router encodes it. A query
document that passed validation before is answered by its compiled plan (resolvers.compiled) when the plan
can answer it exactly; otherwise, and for everything else, by `schema.execute`.

Anything else goes the full way, unchanged: GET (GraphiQL, queries in the URL), WebSockets, streaming and
multipart requests, and a document whose operation `schema.execute` cannot pick (none, or an unknown
operationName): refused before anything runs, the request then goes the full way and is answered as it
always was. A subscription over POST is answered here with SUBSCRIPTION_NEEDS_WEBSOCKET (the full stack ran
it as a query and answered INTERNAL).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.types import ASGIApp, Scope, Send
from strawberry.exceptions import MissingQueryError
from strawberry.http import process_result
from strawberry.schema.base import BaseSchema
from strawberry.schema.exceptions import CannotGetOperationTypeError, InvalidOperationTypeError
from strawberry.types import ExecutionResult
from strawberry.types.graphql import OperationType

from graph.error_codes import ErrorCode
from resolvers import compiled
from resolvers.context import Context
from resolvers.responses import respond, send_json

SUBSCRIPTION_MESSAGE = ("a subscription runs over a WebSocket at /graphql (protocol graphql-transport-ws, "
                        "the token in connection_init), not over POST")
PATH = "/graphql"
ALLOWED = frozenset({OperationType.QUERY, OperationType.MUTATION})
STREAMING = (b"multipart/", b"text/event-stream")


def takes(scope: Scope) -> bool:
    """True for a request this path may answer: POST /graphql, a JSON body, a single JSON answer wanted."""
    if scope["type"] != "http" or scope["method"] != "POST" or scope["path"] != PATH:
        return False
    headers = dict(scope.get("headers") or [])
    accept = headers.get(b"accept", b"").lower()
    return b"application/json" in headers.get(b"content-type", b"").lower() and \
        not any(kind in accept for kind in STREAMING)


class DirectGraphQL:
    """Executes a checked request body (resolvers.request_body.read_request) and sends the JSON answer."""

    def __init__(self, app: ASGIApp, schema: BaseSchema,
                 get_context: Callable[[HTTPConnection], Awaitable[Context]]) -> None:
        self.app = app  # what Starlette puts in scope["app"]: resolvers read request.app.state
        self.schema = schema
        self.get_context = get_context

    async def answer(self, scope: Scope, payload: dict[str, Any], send: Send) -> bool:
        """Answers and returns True; False (nothing run, nothing sent) hands the request to the full stack."""
        scope["app"] = self.app
        request = Request(scope)
        context = await self.get_context(request)
        context.request = request
        plan = compiled.plan_for(self.schema, payload, context)
        if plan is not None:
            body = await compiled.answer(plan, context, payload)
            if body is not None:
                await send_json(send, 200, body)
                return True
            context.soft_errors.clear()  # the full path runs the operation again, from the start
        try:
            result = await self.schema.execute(
                payload["query"], variable_values=payload.get("variables"), context_value=context,
                operation_name=payload.get("operationName"), allowed_operation_types=ALLOWED,
                operation_extensions=payload.get("extensions"))
        except InvalidOperationTypeError:  # POST allows queries and mutations here: a subscription
            await respond(send, 400, SUBSCRIPTION_MESSAGE, ErrorCode.SUBSCRIPTION_NEEDS_WEBSOCKET)
            return True
        except (CannotGetOperationTypeError, MissingQueryError):
            return False
        if not isinstance(result, ExecutionResult):  # incremental delivery is not enabled; never a stream
            raise TypeError(f"unexpected execution result {type(result).__name__}")
        await send_json(send, 200, json.dumps(process_result(result), separators=(",", ":")).encode())
        return True
