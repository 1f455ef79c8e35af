"""The application role talks to the embedded cluster over its Unix socket; the admin role, a URL of
one's own and WORLDMEM_DB_SOCKET=0 stay on TCP. `inet_server_addr()` is NULL on a Unix socket and the server's
address over TCP, so each test asks the server which way it was reached."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from graph.platform.connect import SOCKET_PATH_MAX, admin_url, app_socket_dir, role_url, socket_file
from graph.platform.db import Database
from graph.platform.errors import PlatformError
from graph.platform.live import CommitHub
from graph.platform.reachable import require_reachable, where
from graph.settings import Settings
from tests.conftest import TEST_DB

SERVER_ADDR = "SELECT inet_server_addr()::text AS addr"


@pytest.fixture
def embedded(settings: Settings) -> Settings:
    if settings.database_url:
        pytest.skip("WORLDMEM_DATABASE_URL is set: every role uses that URL as given (tests/test_byo.py)")
    return settings


def test_the_app_pool_is_on_the_socket(embedded: Settings, db: Database, owner: str) -> None:
    assert urlsplit(role_url(embedded, "app", TEST_DB)).hostname is None
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute(SERVER_ADDR).fetchone()
    assert row == {"addr": None}


def test_with_the_setting_off_the_app_is_on_tcp(embedded: Settings, test_db_url: str, owner: str) -> None:
    tcp = Database(role_url(embedded.model_copy(update={"db_socket": False}), "app", TEST_DB), max_size=1)
    try:
        with tcp.owner_tx(owner, read_only=True) as conn:
            row = conn.execute("SELECT inet_server_addr()::text AS addr, current_user::text AS role").fetchone()
    finally:
        tcp.close()
    assert row == {"addr": "127.0.0.1/32", "role": "worldmem_app"}


def test_the_admin_role_stays_on_tcp(embedded: Settings, test_db_url: str) -> None:
    assert test_db_url == admin_url(embedded, TEST_DB)
    with psycopg.connect(test_db_url) as conn:
        assert conn.execute(SERVER_ADDR).fetchone() == ("127.0.0.1/32",)


def test_where_names_the_socket(embedded: Settings) -> None:
    url = role_url(embedded, "app", TEST_DB)
    named = where(url)
    assert named == f"socket {socket_file(embedded.socket_dir, embedded.db_port)} (database {TEST_DB})"
    password = urlsplit(url).password
    assert password and password not in named


def test_the_live_listener_is_on_the_socket(embedded: Settings, app_db_url: str,
                                            admin_conn: psycopg.Connection) -> None:
    """The server's LISTEN connection (graph/platform/live.py) uses the app URL, so the socket too."""
    listening = ("SELECT client_port FROM pg_stat_activity WHERE datname = current_database() "
                 "AND usename = 'worldmem_app' AND query LIKE 'LISTEN worldmem_commit%'")

    async def ports() -> list[int]:
        hub = CommitHub(app_db_url)
        stream = hub.subscribe(f"owner-{uuid.uuid4().hex[:12]}")
        waiting = asyncio.ensure_future(anext(stream))  # the first subscriber starts the listener
        try:
            deadline = time.monotonic() + 10
            while not (found := [r[0] for r in admin_conn.execute(listening)]) and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            return found
        finally:
            waiting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await waiting
            await hub.close()

    found = asyncio.run(ports())
    assert found and all(port == -1 for port in found), found  # client_port -1: a Unix-socket client


def test_a_url_of_ones_own_is_used_as_given(tmp_path: Path) -> None:
    own = Settings(data_dir=tmp_path, database_url="postgresql://admin:pw@db.example:5433/mine")
    assert app_socket_dir(own) is None
    parts = urlsplit(role_url(own, "app"))
    assert (parts.hostname, parts.port, parts.path, parts.query) == ("db.example", 5433, "/mine", "")
    assert parts.username == "worldmem_app"


def test_a_socket_path_too_long_for_sun_path_means_tcp(tmp_path: Path) -> None:
    short = Settings(data_dir=tmp_path / "d", db_port=54318)
    assert app_socket_dir(short) == tmp_path / "d" / "root" / "run" / "postgresql"
    room = SOCKET_PATH_MAX - len(str(socket_file(short.socket_dir, 54318)))
    fits = Settings(data_dir=tmp_path / ("d" * (1 + room)), db_port=54318)
    assert len(str(socket_file(fits.socket_dir, 54318))) == SOCKET_PATH_MAX and app_socket_dir(fits) is not None
    deep = Settings(data_dir=tmp_path / ("d" * (2 + room)), db_port=54318)
    assert app_socket_dir(deep) is None
    assert urlsplit(role_url(deep, "app")).hostname == "127.0.0.1"


def test_a_cluster_without_the_socket_line_says_what_to_do(embedded: Settings) -> None:
    """Any other role on the socket meets Debian's `local all all peer` (as worldmem_app did before `db up`
    added its line): the message says to run `db up` again or turn the socket off."""
    parts = urlsplit(role_url(embedded, "app", TEST_DB))
    other = urlunsplit((parts.scheme, "worldmem_nobody:x@", parts.path, parts.query, ""))
    with pytest.raises(PlatformError) as caught:
        require_reachable(other)
    text = str(caught.value)
    assert "Peer authentication failed" in text and "worldmem db up" in text and "WORLDMEM_DB_SOCKET=0" in text
