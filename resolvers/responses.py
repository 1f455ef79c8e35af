"""Answers sent straight to the ASGI `send`: a JSON body, and a GraphQL-shaped error with its code."""

from __future__ import annotations

import json

from starlette.types import Send


def error_body(message: str, code: str) -> bytes:
    return json.dumps({"data": None, "errors": [{"message": message, "extensions": {"code": code}}]}).encode()


async def send_json(send: Send, status: int, body: bytes, *, close: bool = False,
                    extra: list[tuple[bytes, bytes]] | None = None) -> None:
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), *(extra or [])]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


async def respond(send: Send, status: int, message: str, code: str, *, close: bool = False) -> None:
    await send_json(send, status, error_body(message, code), close=close)
