"""Tests take the real database (PostgreSQL 18 + AGE + pgvector) brought up by `worldmem db up`.

The session creates a fresh database `worldmem_test`, migrates it, and aborts the whole run if the
server cannot be reached. Each test uses a fresh owner, so tests never see each other's data.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import psycopg
import pytest
from psycopg import sql

from graph.finder import query_vectors
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import Settings, get_settings

# One database per pytest process, so parallel runs never drop each other's database.
TEST_DB = f"worldmem_test_{os.getpid()}"


@pytest.fixture(scope="session")
def settings() -> Settings:
    """The environment's settings, except that the servers the tests start never sweep every owner in the
    background (finder_sweep_s 0: the finder thread follows only the API's commits). A sweep every 300 s
    would re-project the owners of whatever tests run at that moment: on a slow run it changed search
    answers between two calls of one test and added statements to counted requests. The sweep has its own
    tests (tests/test_finder_durable.py)."""
    return get_settings().model_copy(update={"finder_sweep_s": 0.0})


@pytest.fixture(autouse=True)
def _no_remembered_query_vectors() -> None:
    """Each test starts without remembered query embeddings (graph.finder.query_vectors, per process): the
    tests' toy models share names ("toy") across dimensions and failure modes."""
    query_vectors.forget()


def _drop(conn: psycopg.Connection, name: str) -> None:
    conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def drop_database(settings: Settings, name: str) -> None:
    """Drop a database if it exists (migrate() creates it again); abort the run if the server is down."""
    try:
        with psycopg.connect(admin_url(settings, "postgres"), autocommit=True, connect_timeout=10) as conn:
            _drop(conn, name)
    except psycopg.OperationalError as exc:
        pytest.exit(f"cannot reach the database ({exc}); run `worldmem db up` first", returncode=3)


def drop_stale_test_databases(settings: Settings) -> None:
    """Test databases of pytest processes that no longer run."""
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True, connect_timeout=10) as conn:
        names = [r[0] for r in conn.execute("SELECT datname FROM pg_database WHERE datname LIKE 'worldmem_test_%'")]
        for name in names:
            pid = name.rsplit("_", 1)[-1]
            if pid.isdigit() and not os.path.exists(f"/proc/{pid}"):
                _drop(conn, name)


@pytest.fixture(scope="session")
def test_db_url(settings: Settings) -> Iterator[str]:
    """Admin URL of a freshly migrated test database, dropped at the end of the run."""
    drop_database(settings, TEST_DB)
    drop_stale_test_databases(settings)
    url = admin_url(settings, TEST_DB)
    migrate(settings, url)
    yield url
    drop_database(settings, TEST_DB)


@pytest.fixture(scope="session")
def app_db_url(settings: Settings, test_db_url: str) -> str:
    return role_url(settings, "app", TEST_DB)


@pytest.fixture(scope="session")
def db(app_db_url: str) -> Iterator[Database]:
    database = Database(app_db_url, max_size=4)
    yield database
    database.close()


@pytest.fixture
def owner() -> str:
    return f"owner-{uuid.uuid4().hex[:12]}"


@pytest.fixture
def admin_conn(test_db_url: str) -> Iterator[psycopg.Connection]:
    """A superuser connection to the test database (bypasses RLS: for checks, never for the app)."""
    with psycopg.connect(test_db_url, autocommit=True, options="-c search_path=public,ag_catalog") as conn:
        yield conn
