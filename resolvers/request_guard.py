"""HTTP hardening in front of GraphQL: bounded body reads, typed 4xx for bodies that are not a request.

- The body is read within `body_timeout_s` (all of it, not per chunk): a body shorter than its
  Content-Length, or one dribbled in byte by byte, is answered 408 REQUEST_TIMEOUT and the connection is
  closed (its framing is lost), instead of holding the connection and a task forever.
- A POSTed JSON body (and a GET's `variables`/`extensions`) is checked by resolvers.request_body before
  Strawberry sees it; a refusal is a 400 with a GraphQL-shaped error and `extensions.code`.
- Whatever error still comes back in another shape (Strawberry's plain-text 4xx, FastAPI's `{"detail"}`,
  an unhandled exception) is rewritten into the same JSON shape, so every error has a code and the
  keep-alive connection survives.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import Any, Protocol
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from resolvers.request_body import Refusal, check_body, check_query_params, read_request
from resolvers.responses import respond

log = logging.getLogger("worldmem.http")

REQUEST_TIMEOUT = "REQUEST_TIMEOUT"
STATUS_CODES = {400: "BAD_REQUEST", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED", 413: "PAYLOAD_TOO_LARGE",
                415: "UNSUPPORTED_MEDIA_TYPE"}


class _Disconnected(Exception):
    pass


async def read_body(receive: Receive, timeout_s: float) -> bytes:
    """The whole request body, or TimeoutError when it has not all arrived within `timeout_s`."""
    deadline = time.monotonic() + timeout_s
    chunks: list[bytes] = []
    while True:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        async with asyncio.timeout(remaining):  # not wait_for: on 3.11 that makes a task for every message
            message = await receive()
        if message["type"] == "http.disconnect":
            raise _Disconnected
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return b"".join(chunks)


def _refusal(scope: Scope, body: bytes) -> Refusal | None:
    headers = dict(scope.get("headers") or [])
    if scope["method"] == "POST" and b"application/json" in headers.get(b"content-type", b"").lower():
        return check_body(body)
    if scope["method"] == "GET":
        params = dict(parse_qsl(scope.get("query_string", b"").decode("latin-1")))
        if params.get("query") is not None:
            return check_query_params(params)
    return None


class Answers(Protocol):
    async def answer(self, scope: Scope, payload: dict[str, Any], send: Send) -> None: ...


class PostGuard:
    """The same checks for a POSTed JSON body (resolvers.direct.takes), whose request it hands to `direct`."""

    def __init__(self, direct: Answers, body_timeout_s: float) -> None:
        self.direct = direct
        self.body_timeout_s = body_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        body = await _body_or_answer(receive, self.body_timeout_s, send)
        if body is None:
            return
        read = read_request(body)
        if isinstance(read, Refusal):
            await respond(send, 400, read.message, read.code)
            return
        typed = _TypedErrors(send)
        try:
            await self.direct.answer(scope, read, typed)
        except Exception:
            log.exception("unhandled error in %s %s", scope.get("method"), scope.get("path"))
            if typed.started:
                raise
            await respond(send, 500, "Unexpected error.", "INTERNAL")


async def _body_or_answer(receive: Receive, timeout_s: float, send: Send) -> bytes | None:
    """The request body; None when it did not arrive in time (answered 408) or the client left."""
    try:
        return await read_body(receive, timeout_s)
    except TimeoutError:
        await respond(send, 408, f"the request body did not arrive within {timeout_s:g} s", REQUEST_TIMEOUT,
                      close=True)
    except _Disconnected:
        pass
    return None


class RequestGuard:
    """The checks above, then the request on to `app`."""

    def __init__(self, app: ASGIApp, body_timeout_s: float) -> None:
        self.app = app
        self.body_timeout_s = body_timeout_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        body = await _body_or_answer(receive, self.body_timeout_s, send)
        if body is None:
            return
        refusal = _refusal(scope, body)
        if refusal is not None:
            await respond(send, 400, refusal.message, refusal.code)
            return
        await self._forward(scope, body, receive, send)

    async def _forward(self, scope: Scope, body: bytes, receive: Receive, send: Send) -> None:
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if delivered:  # the body was read already; what follows can only be the client leaving
                return await receive()
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}

        typed = _TypedErrors(send)
        try:
            await self.app(scope, replay, typed)
        except Exception:
            log.exception("unhandled error in %s %s", scope.get("method"), scope.get("path"))
            if typed.started:
                raise
            await respond(send, 500, "Unexpected error.", "INTERNAL")


def _json_or_none(body: bytes) -> object:
    try:
        return json.loads(body)
    except ValueError:
        return None


class _TypedErrors:
    """Passes responses through, except a non-JSON error response, which is rewritten as a typed one."""

    def __init__(self, send: Send) -> None:
        self.send = send
        self.started = False
        self.held: Message | None = None
        self.body = b""

    async def __call__(self, message: Message) -> None:
        if message["type"] == "http.response.start":
            self.started = True
            if message["status"] >= 400:  # small bodies: held, checked, passed on or rewritten
                self.held = message
                return
        elif message["type"] == "http.response.body" and self.held is not None:
            self.body += message.get("body", b"")
            if not message.get("more_body", False):
                await self._rewrite()
            return
        await self.send(message)

    async def _rewrite(self) -> None:
        assert self.held is not None
        status = self.held["status"]
        parsed = _json_or_none(self.body)
        if isinstance(parsed, dict) and isinstance(parsed.get("errors"), list):  # GraphQL-shaped already
            await self.send(self.held)
            await self.send({"type": "http.response.body", "body": self.body})
            return
        detail = parsed.get("detail") if isinstance(parsed, dict) else None
        text = (detail if isinstance(detail, str) else self.body.decode("utf-8", "replace")).strip()[:300]
        if status >= 500:
            await respond(self.send, status, "Unexpected error.", "INTERNAL")
        else:
            await respond(self.send, status, text or "bad request", STATUS_CODES.get(status, "BAD_REQUEST"))
