"""`worldmem serve`'s uvicorn options and access log come from Settings (workers, access log), and the access
log's lines are uvicorn's, written by its background thread, none lost at exit."""

from __future__ import annotations

import asyncio
import collections
import io
import logging
import os
import subprocess
import sys
import time
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter

from graph.settings import Settings
from resolvers.access_log import AccessLog
from resolvers.serving import APP_FACTORY, access_log_for, uvicorn_options
from tests.hostile_http import free_port

REPO_ROOT = Path(__file__).resolve().parents[1]


def test_workers_and_access_log_come_from_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORLDMEM_WORKERS", "2")
    monkeypatch.setenv("WORLDMEM_ACCESS_LOG", "false")
    options = uvicorn_options(Settings(), None, 9123)
    assert (options["workers"], options["port"], options["factory"]) == (2, 9123, True)
    assert APP_FACTORY == "resolvers.serving:served_app"
    assert access_log_for(Settings()) is None


def test_defaults_are_one_worker_with_the_apps_access_log() -> None:
    options = uvicorn_options(Settings(host="127.0.0.2", port=8001))
    assert (options["workers"], options["host"], options["port"]) == (1, "127.0.0.2", 8001)
    assert options["access_log"] is False  # uvicorn's own: a log record on every request's path
    access = access_log_for(Settings())
    assert isinstance(access, AccessLog)
    access.close()


def test_workers_are_bounded() -> None:
    with pytest.raises(ValueError):
        Settings(workers=0)


def _scope(path: str, query: bytes = b"") -> dict[str, Any]:
    return {"type": "http", "method": "POST", "path": path, "query_string": query, "http_version": "1.1",
            "client": ("127.0.0.1", 5000), "root_path": ""}


def _uvicorns_line(scope: dict[str, Any], status: int) -> str:
    """What uvicorn's own access log writes for this request (its logger's call, its formatter, no colours)."""
    from uvicorn.protocols.utils import get_client_addr, get_path_with_query_string
    record = logging.LogRecord("uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
                               (get_client_addr(scope), scope["method"],  # type: ignore[arg-type]
                                get_path_with_query_string(scope), scope["http_version"], status),  # type: ignore[arg-type]
                               None)
    return AccessFormatter(LOGGING_CONFIG["formatters"]["access"]["fmt"], use_colors=False).format(record)


def test_every_response_is_one_line_in_uvicorns_format_written_later() -> None:
    out = io.StringIO()
    access = AccessLog(interval_s=3600, stream=out)  # no periodic flush during the test: close() must write
    sent: list[dict[str, Any]] = []

    async def send(message: MutableMapping[str, Any]) -> None:
        sent.append(dict(message))

    async def respond(scope: dict[str, Any], status: int) -> None:
        logged = access.wrap(scope, send)
        await logged({"type": "http.response.start", "status": status, "headers": []})
        await logged({"type": "http.response.body", "body": b"{}"})

    cases = [(_scope("/graphql"), 200), (_scope("/graphql", b"query=%7B%7D"), 400), (_scope("/ä b"), 404),
             (_scope("/x"), 599)]
    for scope, status in cases:
        asyncio.run(respond(scope, status))
    assert len(sent) == 8 and out.getvalue() == ""  # passed on, and nothing formatted on the request's path
    access.close()
    assert out.getvalue().splitlines() == [_uvicorns_line(scope, status) for scope, status in cases]
    assert out.getvalue().splitlines()[1] == \
        'INFO:     127.0.0.1:5000 - "POST /graphql?query=%7B%7D HTTP/1.1" 400 Bad Request'


def test_the_access_log_drops_beyond_its_bound() -> None:
    access = AccessLog(interval_s=3600, max_pending=2, stream=io.StringIO())

    async def send(message: MutableMapping[str, Any]) -> None:
        pass

    async def respond() -> None:
        await access.wrap(_scope("/"), send)({"type": "http.response.start", "status": 200})

    for _ in range(5):
        asyncio.run(respond())
    assert (len(access.pending), access.dropped) == (2, 3)
    access.close()
    assert access.pending == collections.deque()


def test_a_served_app_writes_one_line_per_request(test_db_url: str) -> None:
    """`worldmem serve` as users start it: each request is one line on stdout, never two (uvicorn's own access
    log stays off). What is pending at shutdown: tests/test_app_lifespan.py."""
    port = free_port()
    env = {**os.environ, "WORLDMEM_DATABASE_URL": test_db_url, "WORLDMEM_FINDER_BACKGROUND": "false"}
    proc = subprocess.Popen([sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1", "--port", str(port)],
                            cwd=REPO_ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(150):
            try:
                httpx.get(f"{base}/metrics", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            pytest.fail("worldmem serve did not come up")
        asked = [httpx.post(f"{base}/graphql", json={"query": "{ __typename }"}).status_code,
                 httpx.get(f"{base}/metrics?probe=1").status_code]
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=20)
    lines = [ln.split(" - ", 1) for ln in out.splitlines() if ' - "' in ln]  # [prefix and client, request]
    assert asked == [200, 200], asked
    assert [request for _, request in lines] == ['"GET /metrics HTTP/1.1" 200 OK',  # the wait for the server
                                                 '"POST /graphql HTTP/1.1" 200 OK',
                                                 '"GET /metrics?probe=1 HTTP/1.1" 200 OK'], lines
    assert all(prefix.startswith("INFO:     127.0.0.1:") for prefix, _ in lines), lines
