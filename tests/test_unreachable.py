"""A database that is down or elsewhere: fail at once with what to do, keep worldContext's promise, and
survive connections that died while idle (a restart), without restarting the shared cluster."""

from __future__ import annotations

import asyncio
import os
import socket
import tempfile
import time
from collections.abc import Iterator
from urllib.parse import parse_qs, urlsplit, urlunsplit

import psycopg
import pytest
from fastapi.testclient import TestClient

from cli.main import main
from graph.errors import Unavailable
from graph.platform.connect import app_socket_dir, role_url
from graph.platform.db import Database
from graph.platform.db_async import LoopReads
from graph.platform.errors import PlatformError
from graph.platform.reachable import probe, require_reachable, where
from graph.settings import Settings, get_settings
from resolvers.app import create_app
from tests.conftest import TEST_DB
from tests.gql import codes, gql
from tests.hostile_http import free_port

CONTEXT = '{ worldContext(message: "When is Luna fed?") { markdown warnings } }'


def on_socket(url: str, directory: str, port: int) -> str:
    """The same URL through the Unix socket `directory`/.s.PGSQL.`port`."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, parts.path, f"host={directory}&port={port}", ""))


def elsewhere(url: str) -> str:
    """The same URL on a port where nothing listens (for a socket URL: a socket file that is not there, as
    after `db down`: a stopped cluster removes its socket)."""
    parts = urlsplit(url)
    directory = parse_qs(parts.query).get("host")
    if directory:
        return on_socket(url, directory[0], free_port())
    netloc = parts.netloc.rsplit(":", 1)[0] + f":{free_port()}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


@pytest.fixture(params=["tcp", "socket", "stale socket"])
def dead_url(request: pytest.FixtureRequest, settings: Settings, app_db_url: str) -> Iterator[str]:
    """The app's URL where no server answers: over TCP, through a socket that is gone, and through a socket
    file nobody accepts on (what a cluster killed with SIGKILL leaves behind)."""
    if request.param == "tcp":
        yield elsewhere(role_url(settings.model_copy(update={"db_socket": False}), "app", TEST_DB))
        return
    if app_socket_dir(settings) is None:
        pytest.skip("the app role is on TCP here (WORLDMEM_DATABASE_URL or WORLDMEM_DB_SOCKET=0)")
    if request.param == "socket":
        yield elsewhere(app_db_url)
        return
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="wm-") as directory, socket.socket(socket.AF_UNIX) as stale:
        stale.bind(os.path.join(directory, f".s.PGSQL.{port}"))  # bound, never listening: connect is refused
        yield on_socket(app_db_url, directory, port)


def test_probe_tells_up_from_down(app_db_url: str, dead_url: str) -> None:
    assert probe(app_db_url) is None
    reason = probe(dead_url)
    assert reason is not None and ("refused" in reason.lower() or "no such file" in reason.lower()), reason
    with pytest.raises(PlatformError) as caught:
        require_reachable(dead_url)
    text = str(caught.value)
    assert where(dead_url) in text and "worldmem db up" in text and "WORLDMEM_DATABASE_URL" in text
    password = urlsplit(dead_url).password
    assert password and password not in text  # never the password


def test_a_dead_database_is_unavailable_not_a_hang(dead_url: str) -> None:
    database = Database(dead_url, max_size=1)
    try:
        with pytest.raises(Unavailable, match="not reachable"), database.owner_tx("someone"):
            pass
        with pytest.raises(Unavailable), database.connection():
            pass
        assert database.server_down()  # the direct probe decided, not the pool's whole timeout
    finally:
        database.close()


def test_a_loop_read_says_not_reachable_within_seconds(dead_url: str) -> None:
    """The point reads' asyncio pool (graph.platform.db_async) decides as the thread pool does."""
    database = Database(dead_url, max_size=1)

    async def scenario() -> float:
        async with LoopReads(database) as reads:
            started = time.monotonic()
            with pytest.raises(Unavailable, match="not reachable"):
                await reads.read_pinned("someone", "SELECT %(owner)s::text AS who", {})
            return time.monotonic() - started

    try:
        assert asyncio.run(scenario()) < 5  # the probe decided, not the pool's whole timeout (10 s)
    finally:
        database.close()


@pytest.fixture
def dead_app(settings: Settings, dead_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(settings, database_url=dead_url), raise_server_exceptions=False) as c:
        yield c


def test_world_context_is_an_empty_block_with_a_warning(dead_app: TestClient) -> None:
    body = gql(dead_app, "wm_" + "x" * 43, CONTEXT)
    assert "errors" not in body, body
    block = body["data"]["worldContext"]
    assert "pet:" not in block["markdown"] and "Policies" not in block["markdown"]
    assert any("unavailable" in w for w in block["warnings"])


def test_other_reads_say_unavailable_and_data_stays_closed(dead_app: TestClient) -> None:
    assert codes(gql(dead_app, "wm_" + "x" * 43, '{ stateAt(ref: "pet:luna") { ref } }')) == ["UNAVAILABLE"]
    # worldContext mixed with a data field is refused as a whole
    mixed = gql(dead_app, "wm_" + "x" * 43, '{ worldContext(message: "x") { markdown } entityKinds { key } }')
    assert codes(mixed) == ["UNAVAILABLE"] and mixed.get("data") is None


def test_connections_killed_while_idle_are_replaced(db: Database, test_db_url: str, owner: str) -> None:
    with db.owner_tx(owner) as conn:
        mine = conn.execute("SELECT pg_backend_pid() AS pid").fetchone()
    assert mine is not None
    with psycopg.connect(test_db_url, autocommit=True) as admin:
        killed = admin.execute(
            # waits until each is gone (5 s at most): killed while idle, before the next request
            "SELECT count(*) FROM (SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity "
            "WHERE datname = current_database() AND usename = 'worldmem_app' AND pid <> pg_backend_pid()) t"
        ).fetchone()
    assert killed is not None and killed[0] >= 1
    with db.owner_tx(owner) as conn:  # the first request after the "restart" succeeds
        row = conn.execute("SELECT pg_backend_pid() AS pid").fetchone()
    assert row is not None and row["pid"] != mine["pid"]


@pytest.mark.parametrize("argv", [["demo"], ["cypher", "--owner", "demo", "-c", "MATCH (n) RETURN n"],
                                  ["serve", "--port", "1"], ["token", "create", "--owner", "demo"]])
def test_commands_say_what_to_do(argv: list[str], monkeypatch: pytest.MonkeyPatch,
                                 capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("WORLDMEM_DB_PORT", str(free_port()))
    monkeypatch.delenv("WORLDMEM_DATABASE_URL", raising=False)
    get_settings.cache_clear()
    try:
        assert main(argv) == 2
    finally:
        get_settings.cache_clear()
    err = capsys.readouterr().err
    assert "not reachable" in err and "worldmem db up" in err and "WORLDMEM_DATABASE_URL" in err
