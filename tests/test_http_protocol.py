"""resolvers.http_protocol: a response's head and body reach the socket in one write; everything else as before.

The unit tests drive HeadWithBody with a transport that records its calls; the served tests run the app on
uvicorn with the protocol `worldmem serve` uses (real sockets, real database) and count the writes that
reach each connection's transport.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest
import uvicorn
import websockets
from websockets.typing import Subprotocol

from graph.settings import Settings
from resolvers.app import create_app
from resolvers.http_protocol import PROTOCOL, HeadWithBody, HttpProtocol
from resolvers.serving import uvicorn_options
from tests.gql import MakeToken, make_token  # noqa: F401
from tests.hostile_http import free_port

PROTOCOL_WS = Subprotocol("graphql-transport-ws")
HEAD = b"HTTP/1.1 200 OK\r\ndate: x\r\nserver: uvicorn\r\ncontent-length: 2\r\ncontent-type: application/json\r\n\r\n"


class Recorder:
    """A transport that records what it is asked."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def write(self, data: bytes) -> None:
        self.calls.append(("write", bytes(data)))

    def close(self) -> None:
        self.calls.append(("close", None))

    def set_protocol(self, protocol: Any) -> None:
        self.calls.append(("set_protocol", protocol))

    def is_closing(self) -> bool:
        return False


def _wrapped() -> tuple[HeadWithBody, Recorder]:
    inner = Recorder()
    return HeadWithBody(inner), inner  # type: ignore[arg-type]


def test_a_head_with_a_length_waits_for_its_body() -> None:
    transport, inner = _wrapped()
    transport.write(HEAD)
    assert inner.calls == []
    transport.write(b"{}")
    transport.write(HEAD)
    transport.write(b"[]")
    assert inner.calls == [("write", HEAD + b"{}"), ("write", HEAD + b"[]")]
    assert transport.is_closing() is False  # the rest is the transport's own


def test_other_writes_go_out_at_once_and_nothing_held_is_lost() -> None:
    chunked = b"HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n"
    transport, inner = _wrapped()
    sent = [chunked, b"2\r\n{}\r\n", b"HTTP/1.1 100 Continue\r\n\r\n", b"HTTP/1.1 200 OK\r\ncontent-length: 2\r\n"]
    for data in sent:
        transport.write(data)  # a head without a length, a chunk, 100 Continue, an incomplete head
    assert [data for _, data in inner.calls] == sent
    transport, inner = _wrapped()
    transport.write(HEAD)
    transport.close()  # e.g. the app failed after the head
    assert inner.calls == [("write", HEAD), ("close", None)]
    transport, inner = _wrapped()
    transport.write(HEAD)
    transport.set_protocol("other")  # type: ignore[arg-type]
    assert inner.calls == [("write", HEAD), ("set_protocol", "other")]


def test_worldmem_serve_uses_the_protocol() -> None:
    assert uvicorn_options(Settings())["http"] == PROTOCOL == "resolvers.http_protocol:HttpProtocol"


class _Counted(HttpProtocol):
    """The served protocol, with the writes that reach each connection's socket counted."""

    writes: ClassVar[list[bytes]] = []

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(_Counting(transport))  # type: ignore[arg-type]


class _Counting:
    """The socket's transport, its writes noted in _Counted.writes."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self._transport = transport

    def write(self, data: bytes | bytearray | memoryview) -> None:
        _Counted.writes.append(bytes(data))
        self._transport.write(data)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


@pytest.fixture(scope="module")
def served(settings: Settings, app_db_url: str) -> Iterator[int]:
    port = free_port()
    config = uvicorn.Config(create_app(settings, database_url=app_db_url), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on", http=_Counted)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    yield port
    server.should_exit = True
    thread.join(timeout=10)


def _read_answer(sock: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(65536)
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(next(line.split(b":")[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length")))
    while len(body) < length:
        body += sock.recv(65536)
    return head, body


def test_served_answers_are_one_write_each_on_a_kept_connection(served: int, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()
    body = json.dumps({"query": "{ __typename }"}).encode()
    request = (b"POST /graphql HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nauthorization: Bearer "
               + token.encode() + b"\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    _Counted.writes.clear()
    with socket.create_connection(("127.0.0.1", served), timeout=10) as sock:
        for _ in range(3):
            sock.sendall(request)
            head, answer = _read_answer(sock)
            assert head.startswith(b"HTTP/1.1 200") and json.loads(answer) == {"data": {"__typename": "Query"}}
        sock.settimeout(2)  # a head held until uvicorn's keep-alive closes the connection (5 s) would time out
        sock.sendall(b"HEAD / HTTP/1.1\r\nhost: x\r\n\r\n")  # the explorer's page: a head with a length, no body
        data = sock.recv(65536)
        assert data.startswith(b"HTTP/1.1 ") and data.endswith(b"\r\n\r\n")
    assert len(_Counted.writes) == 4 and all(w.startswith(b"HTTP/1.1 ") for w in _Counted.writes)
    assert all(w.endswith(b'{"data":{"__typename":"Query"}}') for w in _Counted.writes[:3])


def test_a_websocket_still_upgrades_and_answers(served: int, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()

    async def talk() -> dict[str, Any]:
        async with websockets.connect(f"ws://127.0.0.1:{served}/graphql", subprotocols=[PROTOCOL_WS]) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
            return json.loads(await asyncio.wait_for(ws.recv(), 10))  # type: ignore[no-any-return]

    assert asyncio.run(talk())["type"] == "connection_ack"
