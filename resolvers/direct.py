"""`POST /graphql` with a JSON body: nearly every request an agent or the explorer sends, answered by
`schema.execute` without the web framework's router and Strawberry's HTTP view.

For these requests FastAPI's routing (dependency solving, a Request and a Response per request, its
middleware's wrappers around `send`) and Strawberry's view (content negotiation, parsing the body a second
time) cost more CPU than the GraphQL operation of a point read: `{ __typename }` over HTTP took p50 0.67 ms
and 0.62 ms of server CPU through them, 0.38 ms and 0.33 ms here (interleaved in one run, docs/benchmarks.md,
"The GraphQL request path"). What stays the same, because it is the same code: the body limit, the body
guard (resolvers.request_guard), the context with its token check (resolvers.context.context_getter, the
same instance and token cache as the router's), `schema.execute` with all the schema's extensions (token
required, operation guard, limits, soft errors, error formatting), and Strawberry's `process_result` for
the answer. A query document that passed validation before is answered by its compiled plan
(resolvers.compiled, which says why it earns its place) when the plan can answer it exactly; otherwise by
`schema.execute`. What the router answers instead: GET (GraphiQL, queries in the URL), WebSockets
(subscriptions), streaming and multipart requests.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.types import ASGIApp, Scope, Send
from strawberry.exceptions import MissingQueryError
from strawberry.http import process_result
from strawberry.schema.base import BaseSchema
from strawberry.schema.exceptions import CannotGetOperationTypeError
from strawberry.types import ExecutionResult

from resolvers import compiled
from resolvers.context import Context
from resolvers.responses import respond, send_json

PATH = "/graphql"
STREAMING = (b"multipart/", b"text/event-stream")
BAD_REQUEST = "BAD_REQUEST"
OWN_HEADERS = (b"content-type", b"content-length")


def takes(scope: Scope) -> bool:
    """True for a request this path answers: POST /graphql, a JSON body, a single JSON answer wanted."""
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

    async def answer(self, scope: Scope, payload: dict[str, Any], send: Send) -> None:
        scope["app"] = self.app
        request = Request(scope)
        context = await self.get_context(request)
        context.request = request
        plan = compiled.plan_for(self.schema, payload, context)
        if plan is not None:  # a query: nothing in it sets a status or header (only commits note their LSN)
            body = await compiled.answer(plan, context, payload)
            if body is not None:
                await send_json(send, 200, body)
                return
            context.soft_errors.clear()  # the full path runs the operation again, from the start
        context.response = Response()  # as the router's sub-response: an extension may set its status
        try:
            result = await self.schema.execute(
                payload["query"], variable_values=payload.get("variables"), context_value=context,
                operation_name=payload.get("operationName"), operation_extensions=payload.get("extensions"))
        except CannotGetOperationTypeError as exc:  # no operation of that name: the router's 400
            await respond(send, 400, exc.as_http_error_reason(), BAD_REQUEST)
            return
        except MissingQueryError:  # read_request refuses an empty query first; kept for the type's sake
            await respond(send, 400, "No GraphQL query found in the request", BAD_REQUEST)
            return
        if not isinstance(result, ExecutionResult):  # incremental delivery is not enabled; never a stream
            raise TypeError(f"unexpected execution result {type(result).__name__}")
        body = json.dumps(process_result(result), separators=(",", ":")).encode()
        # headers an extension set (Worldmem-Commit-LSN: resolvers.read_after), as the router merges them
        await send_json(send, context.response.status_code or 200, body, extra=[
            (name, value) for name, value in context.response.headers.raw if name not in OWN_HEADERS])
