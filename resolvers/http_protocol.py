"""uvicorn's HTTP protocol (httptools), with a response's head and body going to the socket in one write.

uvicorn writes the status line and headers when the app sends `http.response.start` and the body when it
sends `http.response.body`: two system calls and two TCP segments per answer, so a client that reads the
answer wakes up twice. On the 2-vCPU VMs of issue 11 a system call and a wake-up on the other vCPU are what
a point read mostly spends (bench/README.md, "Issue 11, thirteenth pass"). A head that declares its
`content-length` is therefore held until the next write, which is its body (every answer of resolvers.
direct and of the framework's JSON responses): both go out as one write. Anything else the transport is
asked (closing it, another protocol taking it over) writes what is held first, and so does the end of a
response (an answer to HEAD has no body to wait for); a head without a length (a chunked stream, a
WebSocket's handshake, `100 Continue`) is written at once, as before.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

PROTOCOL = "resolvers.http_protocol:HttpProtocol"  # uvicorn's `http` option (resolvers.serving)


def _head_with_length(data: bytes) -> bool:
    """A complete response head (status line and headers) that declares how long its body is."""
    return data.startswith(b"HTTP/1.1 ") and data.endswith(b"\r\n\r\n") and b"\r\ncontent-length: " in data


class HeadWithBody:
    """The connection's transport, holding back a response head with a length until its body comes."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport
        self._head: bytes | None = None

    def write(self, data: bytes | bytearray | memoryview) -> None:
        if self._head is not None:
            data, self._head = self._head + bytes(data), None
        elif isinstance(data, bytes) and _head_with_length(data):
            self._head = data
            return
        self._transport.write(data)

    def flush(self) -> None:
        if self._head is not None:
            head, self._head = self._head, None
            self._transport.write(head)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.flush()
        self._transport.set_protocol(protocol)

    def __getattr__(self, name: str) -> Any:  # everything else is the transport's own
        return getattr(self._transport, name)


class HttpProtocol(HttpToolsProtocol):
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self.held = HeadWithBody(transport)
        super().connection_made(self.held)  # type: ignore[arg-type]

    def on_response_complete(self) -> None:
        self.held.flush()  # a head whose body is never written (an answer to HEAD) goes out now
        super().on_response_complete()
