"""The platform (provisioning, migrations, roles, AGE, pgvector, CLI errors).

Every test runs against the real server brought up by `worldmem db up`; throwaway databases are
created per test and dropped afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

import psycopg
import pytest
from psycopg import errors as pg_errors
from psycopg import sql

from graph.platform.connect import admin_url
from graph.platform.errors import MigrationError
from graph.platform.migrate import CLUSTER_LOCK_KEY, applied, discover, migrate
from graph.settings import GRAPH_NAME, Settings
from graph.sql import load
from tests.conftest import drop_database as drop_or_abort

WORLDMEM = Path(sys.executable).with_name("worldmem")
EXPECTED_TABLES = (
    "entities", "facts", "entity_aliases", "world_events", "relation_types",
    "entity_kinds", "event_types", "proposals", "owner_clock",
)


def run_cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(WORLDMEM), *args], capture_output=True, text=True, timeout=300,
        env={**os.environ, **(env or {})}, check=False,
    )


def drop_database(settings: Settings, name: str) -> None:
    # Cleanup retries a failed connect so that one flaky backend start leaves no database behind;
    # the tests themselves never retry (test_server_accepts_many_consecutive_connections).
    for attempt in range(3):
        try:
            with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as conn:
                conn.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))
            return
        except psycopg.OperationalError:
            if attempt == 2:
                raise


@pytest.fixture
def scratch_url(settings: Settings) -> Iterator[str]:
    """Admin URL of an empty throwaway database, dropped after the test."""
    name = f"worldmem_scratch_{uuid.uuid4().hex[:10]}"
    drop_or_abort(settings, name)  # drops any leftover of that name; migrate() creates it
    yield admin_url(settings, name)
    drop_database(settings, name)


def file_versions(directory: Path) -> list[str]:
    return sorted(p.name[:4] for p in directory.glob("*.sql"))


def table_exists(url: str, name: str) -> bool:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT to_regclass(%s) IS NOT NULL", (f"public.{name}",)).fetchone()
        return bool(row and row[0])


# 1. Provisioning is idempotent -------------------------------------------------------------------

@pytest.fixture
def own_db(settings: Settings) -> Iterator[dict[str, str]]:
    """A database name of this test's own for the CLI, so a shared cluster's default database (migrated by
    whichever checkout ran `db up` last) plays no part."""
    name = f"worldmem_up_{uuid.uuid4().hex[:10]}"
    drop_or_abort(settings, name)
    yield {"WORLDMEM_DB_NAME": name}
    drop_database(settings, name)


def test_db_up_twice_is_quick_and_applies_nothing(settings: Settings, own_db: dict[str, str]) -> None:
    first = run_cli("db", "up", env=own_db)  # brings the machine to ready (a no-op if it already is)
    assert first.returncode == 0, first.stderr
    assert "function files applied: ['wm_" in first.stderr
    started = time.monotonic()
    up = run_cli("db", "up", env=own_db)
    elapsed = time.monotonic() - started
    assert up.returncode == 0, up.stderr
    assert elapsed < 60, f"a second `db up` took {elapsed:.1f} s"
    assert "none (up to date)" in up.stderr and "function files applied: none" in up.stderr
    assert "Traceback" not in up.stderr

    status = run_cli("db", "status", env=own_db)
    assert status.returncode == 0, status.stderr
    info = json.loads(status.stdout)
    if info["mode"] == "embedded":
        assert info["running"] is True
        assert info["app_socket"] is None or Path(str(info["app_socket"])).is_socket()  # the app role's way in
        assert info["root_ready"] is True and info["packages_installed"] is True
    # Every migration of this checkout is applied, and only those (the database is this test's own).
    assert file_versions(settings.migrations_dir) == info["migrations"]


def test_db_url_prints_a_working_app_url() -> None:
    out = run_cli("db", "url", "--role", "app")
    assert out.returncode == 0, out.stderr
    url = out.stdout.strip()
    assert urlsplit(url).scheme.startswith("postgresql")
    assert urlsplit(url).username == "worldmem_app"
    with psycopg.connect(url, connect_timeout=10) as conn:
        row = conn.execute("SELECT current_user::text").fetchone()
    assert row == ("worldmem_app",)


def test_server_accepts_many_consecutive_connections(app_db_url: str) -> None:
    """Catches a server whose shared lock table is damaged (seen after a failed AGE create_graph).

    That state made about 1 in 100 new backends fail at startup with "FATAL: failed to re-find
    shared lock object"; only a server restart clears it.
    """
    failures: list[str] = []
    for _ in range(300):
        try:
            with psycopg.connect(app_db_url, connect_timeout=10) as conn:
                conn.execute("SELECT 1")
        except psycopg.OperationalError as exc:
            failures.append(str(exc).strip().splitlines()[-1])
    assert failures == [], f"{len(failures)} of 300 connections failed, e.g. {failures[0]}"


# 2. Migrations apply from empty ------------------------------------------------------------------

def test_migrations_apply_from_empty_and_reapply_is_noop(settings: Settings, scratch_url: str) -> None:
    expected = file_versions(settings.migrations_dir)
    assert migrate(settings, scratch_url) == expected
    assert applied(scratch_url) == expected
    for table in EXPECTED_TABLES:
        assert table_exists(scratch_url, table), table
    with psycopg.connect(scratch_url) as conn:
        graphs = conn.execute("SELECT name::text FROM ag_catalog.ag_graph").fetchall()
        assert (GRAPH_NAME,) in graphs
        before = conn.execute("SELECT version, checksum, applied_at FROM schema_migrations"
                              " ORDER BY version").fetchall()
        objects_before = conn.execute("SELECT count(*) FROM pg_class").fetchone()

    assert migrate(settings, scratch_url) == []

    with psycopg.connect(scratch_url) as conn:
        after = conn.execute("SELECT version, checksum, applied_at FROM schema_migrations"
                             " ORDER BY version").fetchall()
        objects_after = conn.execute("SELECT count(*) FROM pg_class").fetchone()
    assert after == before
    assert objects_after == objects_before


# 3. A broken migration rolls back; an edited applied migration is refused ------------------------

def test_broken_migration_rolls_back(settings: Settings, scratch_url: str, tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    shutil.copytree(settings.migrations_dir, directory)
    (directory / "9999_broken.sql").write_text(
        "CREATE TABLE broken_probe (id int);\nSELECT 1 / 0;\n")

    # The second statement fails, so the first one (CREATE TABLE) did run before the rollback.
    with pytest.raises(MigrationError, match=r"9999_broken.*division by zero"):
        migrate(settings, scratch_url, directory)

    assert not table_exists(scratch_url, "broken_probe")
    assert applied(scratch_url) == file_versions(settings.migrations_dir)  # all but 9999


def test_edited_applied_migration_is_refused(settings: Settings, scratch_url: str, tmp_path: Path) -> None:
    directory = tmp_path / "migrations"
    shutil.copytree(settings.migrations_dir, directory)
    migrate(settings, scratch_url, directory)
    first = discover(directory)[0].path
    first.write_text(first.read_text() + "\n-- edited after it was applied\n")

    with pytest.raises(MigrationError, match="edited"):
        migrate(settings, scratch_url, directory)


def test_one_migrator_per_cluster(settings: Settings, scratch_url: str) -> None:
    """Migrating any database waits while another migrator holds the cluster's lock. Roles are shared by
    all databases: two migrated at once failed with "tuple concurrently updated", and AGE's ROLLBACK of
    that left the server's shared lock table corrupt (see test_server_accepts_many_consecutive_connections)."""
    outcome: list[object] = []

    def run() -> None:
        try:
            outcome.append(migrate(settings, scratch_url))
        except Exception as exc:  # reported by the assertion below
            outcome.append(exc)

    worker = threading.Thread(target=run)
    with psycopg.connect(admin_url(settings, "postgres"), autocommit=True) as holder:
        holder.execute(load("platform_cluster_lock"), (CLUSTER_LOCK_KEY,))
        worker.start()
        worker.join(2.0)
        assert worker.is_alive() and outcome == [], "migrate() ran while another migrator held the lock"
    worker.join(120)
    assert outcome == [file_versions(settings.migrations_dir)]


# 4. The app and console roles own nothing and are not privileged ---------------------------------

OWNED = """
SELECT (SELECT count(*) FROM pg_class WHERE relowner = me.oid),
       (SELECT count(*) FROM pg_namespace WHERE nspowner = me.oid),
       (SELECT count(*) FROM pg_proc WHERE proowner = me.oid),
       (SELECT count(*) FROM pg_type WHERE typowner = me.oid)
FROM pg_roles AS me WHERE me.rolname = current_user
"""


@pytest.mark.parametrize("role", ["app", "console"])
def test_role_is_unprivileged_and_owns_nothing(role: Literal["app", "console"], app_db_url: str) -> None:
    # the console role cannot log in (0019): it is reached the way the console reaches it, by SET ROLE
    with psycopg.connect(app_db_url, autocommit=True) as conn:
        if role == "console":
            conn.execute("SET ROLE worldmem_console")
        row = conn.execute("SELECT current_user::text, rolsuper, rolbypassrls FROM pg_roles"
                           " WHERE rolname = current_user").fetchone()
        assert row == (f"worldmem_{role}", False, False)
        # (tables/views/sequences, schemas, functions, types) owned by the role
        assert conn.execute(OWNED).fetchone() == (0, 0, 0, 0)
        with pytest.raises(pg_errors.InsufficientPrivilege):
            conn.execute("CREATE TABLE public.should_not_exist (id int)")
        if role == "console":
            with pytest.raises(pg_errors.InsufficientPrivilege):
                conn.execute("INSERT INTO entities (ref, kind) VALUES ('x', 'person')")


# 5. cypher() works for the app role, under row-level security -----------------------------------

CREATE_ENTITY = ("SELECT * FROM cypher('worldgraph', $$ CREATE (n:Entity {id: $id, owner: $owner})"
                 " RETURN n.id $$, %s) AS (id agtype)")
MATCH_LABELED = ("SELECT * FROM cypher('worldgraph', $$ MATCH (n:Entity) WHERE n.id = $id"
                 " RETURN n.owner $$, %s) AS (owner agtype)")
MATCH_ANY = ("SELECT * FROM cypher('worldgraph', $$ MATCH (n) WHERE n.id = $id"
             " RETURN n.owner $$, %s) AS (owner agtype)")


def test_cypher_as_app_respects_owner(app_db_url: str, owner: str) -> None:
    vid = f"v-{uuid.uuid4().hex}"
    params = json.dumps({"id": vid, "owner": owner})
    with psycopg.connect(app_db_url) as conn:
        try:
            conn.execute("SELECT set_config('app.current_owner', %s, true)", (owner,))
            assert conn.execute(CREATE_ENTITY, (params,)).fetchall() == [(json.dumps(vid),)]
            assert conn.execute(MATCH_LABELED, (params,)).fetchall() == [(json.dumps(owner),)]
            assert conn.execute(MATCH_ANY, (params,)).fetchall() == [(json.dumps(owner),)]

            # Another owner's vertex is refused by the WITH CHECK of the policy.
            other = json.dumps({"id": f"{vid}-x", "owner": f"{owner}-other"})
            refused = pytest.raises(pg_errors.InsufficientPrivilege, match="row-level security")
            with refused, conn.transaction():
                conn.execute(CREATE_ENTITY, (other,))

            # Owner unset: the same vertex is invisible (fail-closed), labeled or not.
            conn.execute("RESET app.current_owner")
            assert conn.execute(MATCH_LABELED, (params,)).fetchall() == []
            assert conn.execute(MATCH_ANY, (params,)).fetchall() == []
        finally:
            conn.rollback()


# 6. pgvector works for the app role -------------------------------------------------------------

def test_pgvector_for_app(app_db_url: str, admin_conn: psycopg.Connection) -> None:
    with psycopg.connect(app_db_url, autocommit=True) as conn:
        row = conn.execute("SELECT '[1,2,3]'::vector <-> '[1,2,4]'::vector").fetchone()
        assert row == (1.0,)
        can_temp = conn.execute(
            "SELECT has_database_privilege(current_user, current_database(), 'TEMP')").fetchone()
        target: psycopg.Connection = conn if can_temp == (True,) else admin_conn
        with target.transaction():
            target.execute("CREATE TEMP TABLE vec_probe (id int, e vector(3)) ON COMMIT DROP")
            target.execute("INSERT INTO vec_probe SELECT i, ARRAY[i, i, i]::real[]::vector"
                           " FROM generate_series(1, 50) AS i")
            target.execute("CREATE INDEX vec_probe_hnsw ON vec_probe USING hnsw (e vector_l2_ops)")
            target.execute("SET LOCAL enable_seqscan = off")
            plan = "\n".join(r[0] for r in target.execute(
                "EXPLAIN SELECT id FROM vec_probe ORDER BY e <-> '[7,7,7.2]' LIMIT 1").fetchall())
            assert "vec_probe_hnsw" in plan
            nearest = target.execute("SELECT id FROM vec_probe ORDER BY e <-> '[7,7,7.2]' LIMIT 1").fetchone()
            assert nearest == (7,)


# 7. A clear error, not a traceback ----------------------------------------------------------------

def test_db_up_unreachable_server_is_a_clear_error() -> None:
    out = run_cli("db", "up", env={"WORLDMEM_DATABASE_URL": "postgresql://x:y@127.0.0.1:1/nope"})
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert out.stderr.startswith("worldmem:"), out.stderr
    assert "Traceback" not in out.stderr
    assert "cannot connect" in out.stderr
