"""Helpers of the hostile-HTTP suite: a real uvicorn in its own process, a raw keep-alive HTTP client.

The server runs in a separate process so that the suite measures what a client of a real deployment sees
(the attacking and measuring clients do not share the server's interpreter). The raw client speaks
HTTP/1.1 over one socket, so a test can send bytes no HTTP library would (a body shorter than its
Content-Length, invalid UTF-8) and can check that the same keep-alive connection answers afterwards.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

SERVER_CODE = """
import os, uvicorn
from graph.settings import Settings
from resolvers.app import create_app
uvicorn.run(create_app(Settings(), database_url=os.environ["HOSTILE_APP_URL"]), host="127.0.0.1",
            port=int(os.environ["HOSTILE_PORT"]), log_level="critical")
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def in_thread(app: Any) -> Iterator[str]:
    """`app` served by uvicorn in a thread of this process on a free port: its host:port while in use."""
    import uvicorn

    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        thread.join(timeout=10)


def start_server(app_url: str, settings_env: dict[str, str]) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {**os.environ, **settings_env, "HOSTILE_APP_URL": app_url, "HOSTILE_PORT": str(port)}
    proc = subprocess.Popen([sys.executable, "-c", SERVER_CODE], env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc, port
        except OSError:
            assert proc.poll() is None, "the server process exited"
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("uvicorn did not start")


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def codes(self) -> list[str | None]:
        try:
            parsed = self.json()
        except ValueError:
            return []
        errors = parsed.get("errors") if isinstance(parsed, dict) else None
        return [(e.get("extensions") or {}).get("code") for e in errors or []]


class ConnectionClosed(Exception):
    pass


class RawConnection:
    """One keep-alive HTTP/1.1 connection over a plain socket."""

    def __init__(self, port: int, timeout: float = 30.0) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""

    def close(self) -> None:
        self.sock.close()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def request(self, body: bytes, *, token: str | None, content_type: str = "application/json",
                content_length: int | None = None) -> Response:
        self.send(http_request(body, token=token, content_type=content_type, content_length=content_length))
        return self.read_response()

    def _fill(self) -> None:
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionClosed("the server closed the connection")
        self.buffer += chunk

    def read_response(self) -> Response:
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in lines[1:])}
        if headers.get("transfer-encoding") == "chunked":
            return Response(status, headers, self._chunked())
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return Response(status, headers, body)

    def _chunked(self) -> bytes:
        body = b""
        while True:
            while b"\r\n" not in self.buffer:
                self._fill()
            size_line, _, self.buffer = self.buffer.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            while len(self.buffer) < size + 2:
                self._fill()
            body += self.buffer[:size]
            self.buffer = self.buffer[size + 2:]
            if size == 0:
                return body


def http_request(body: bytes, *, token: str | None, content_type: str = "application/json",
                 content_length: int | None = None) -> bytes:
    length = len(body) if content_length is None else content_length
    lines = ["POST /graphql HTTP/1.1", "Host: 127.0.0.1", f"Content-Type: {content_type}",
             f"Content-Length: {length}", "Accept: application/json"]
    if token:
        lines.append(f"Authorization: Bearer {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def graphql_body(query: str, variables: dict[str, Any] | None = None, operation_name: str | None = None) -> bytes:
    payload: dict[str, Any] = {"query": query}
    if variables is not None:
        payload["variables"] = variables
    if operation_name is not None:
        payload["operationName"] = operation_name
    return json.dumps(payload).encode()


def nested(depth: int, leaf: Any = 1) -> Any:
    value: Any = leaf
    for _ in range(depth):
        value = {"a": value}
    return value


def nested_json(depth: int) -> str:
    """JSON text nested `depth` objects deep, written out (json.dumps would recurse)."""
    return '{"a":' * depth + "1" + "}" * depth
