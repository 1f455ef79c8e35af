"""Numbered plain-SQL migrations, applied in order, then the repeatable function files; each in its own transaction.

`migrations/NNNN_name.sql` files are applied once and recorded in `schema_migrations` with a checksum;
re-running is a no-op, a failed migration rolls back completely, and an edited applied file is refused.
They hold tables, indexes, policies, grants, extensions, roles and the graph. The SQL functions live in
`graph/sql/functions/<name>.sql` (graph.platform.repeatables): applied after the numbered migrations whenever
a file's checksum changed, recorded in `schema_repeatables`.

The numbered files below 0100 are the baseline. A database migrated before the functions moved out of them
has numbered migrations recorded but no `schema_repeatables`: it is refused with a MigrationError that says to
recreate it (its recorded checksums are those of files that no longer exist; nothing was deployed with them).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import sql

from graph.platform import repeatables
from graph.platform.connect import ROLE_NAMES, admin_url, dbname_of
from graph.platform.errors import MigrationError, PlatformError
from graph.platform.repeatables import Repeatable
from graph.platform.secrets import load_or_create_secrets
from graph.settings import Settings
from graph.sql import load, trusted

FILE_PATTERN = re.compile(r"^(\d{4})_([a-z0-9_]+)\.sql$")
LOCK_KEY = 727_001  # pg_advisory_xact_lock key that serialises concurrent migrators
CLUSTER_LOCK_KEY = 727_002  # pg_advisory_lock key in the `postgres` database: one migrator per cluster


@dataclass(frozen=True)
class Migration:
    version: str
    name: str
    path: Path

    @property
    def text(self) -> str:
        return self.path.read_text()

    @property
    def checksum(self) -> str:
        return hashlib.sha256(self.path.read_bytes()).hexdigest()


def discover(directory: Path) -> list[Migration]:
    found = []
    for path in sorted(directory.glob("*.sql")):
        match = FILE_PATTERN.match(path.name)
        if not match:
            raise MigrationError(f"migration file name {path.name!r} is not NNNN_name.sql")
        found.append(Migration(match.group(1), match.group(2), path))
    versions = [m.version for m in found]
    if len(versions) != len(set(versions)):
        raise MigrationError("two migrations share a version number")
    return found


def ensure_database(settings: Settings, dbname: str) -> None:
    with _connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        exists = conn.execute(load("platform_database_exists"), (dbname,)).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))


@dataclass(frozen=True)
class Migrated:
    """What one run did: numbered versions applied, function files (re-)applied, function files removed
    whose function is still in the database (reported until a numbered migration drops it)."""

    versions: list[str]
    functions: list[str]
    removed: list[str]


def migrate(settings: Settings, url: str | None = None, directory: Path | None = None,
            functions: Path | None = None) -> list[str]:
    """Apply pending migrations and changed function files to the database at `url` (admin); return the
    numbered versions applied (migrate_report tells the function files too)."""
    return migrate_report(settings, url, directory, functions).versions


def migrate_report(settings: Settings, url: str | None = None, directory: Path | None = None,
                   functions: Path | None = None) -> Migrated:
    url = url or admin_url(settings)
    applied_now: list[str] = []
    # One migrator per cluster, whatever database it migrates. Roles, their settings and grants to them are
    # shared by every database: two databases migrated at once (parallel test runs, benches) made one
    # migration fail with "tuple concurrently updated", and AGE 1.8's ROLLBACK of that transaction
    # ("ResourceOwnerEnlarge called after release started") left the server's shared lock table corrupt
    # until a restart (README, known upstream bug). The lock goes with this connection.
    with _connect(admin_url(settings, "postgres"), autocommit=True) as gate:
        gate.execute(load("platform_cluster_lock"), (CLUSTER_LOCK_KEY,))
        ensure_database(settings, dbname_of(url))
        with _connect(url, autocommit=True, options="-c search_path=public,ag_catalog") as conn:
            _refuse_layout_before_repeatables(conn)
            conn.execute(load("platform_schema_migrations"))
            conn.execute(load("platform_schema_repeatables"))
            for migration in discover(directory or settings.migrations_dir):
                if _apply_one(conn, migration):
                    applied_now.append(migration.version)
            files = repeatables.discover(functions or repeatables.DIRECTORY)
            functions_now = [r.name for r in files if _apply_repeatable(conn, r)]
            removed = _removed(conn, {r.name for r in files})
            _ensure_role_logins(conn, settings)
    return Migrated(applied_now, functions_now, removed)


def _refuse_layout_before_repeatables(conn: psycopg.Connection) -> None:
    row = conn.execute(load("platform_layout_before_repeatables")).fetchone()
    if row is not None and row[0] and conn.execute(load("platform_migrations_applied")).fetchone() is not None:
        raise MigrationError(
            "this database was migrated before the SQL functions moved to graph/sql/functions/, and its "
            "recorded migrations are not the baseline's",
            "recreate it: `worldmem db drop NAME` for a scratch database (or drop the database), then "
            "`worldmem migrate`",
        )


def _apply_one(conn: psycopg.Connection, migration: Migration) -> bool:
    with conn.transaction():
        conn.execute(load("platform_migration_lock"), (LOCK_KEY,))
        row = conn.execute(load("platform_migration_get"), (migration.version,)).fetchone()
        if row is not None:
            if row[0] != migration.checksum:
                raise MigrationError(
                    f"migration {migration.version}_{migration.name} was edited after it was applied",
                    "add a new migration instead of editing an applied one",
                )
            return False
        try:
            # Migration files are our own trusted, versioned SQL: the literal text of a named file.
            conn.execute(trusted(migration.text))
            conn.execute(load("platform_reset_role"))  # a migration may SET LOCAL ROLE
        except psycopg.Error as exc:
            raise MigrationError(
                f"migration {migration.version}_{migration.name} failed and was rolled back: "
                f"{str(exc).strip().splitlines()[0]}"
            ) from exc
        conn.execute(load("platform_migration_record"),
                     (migration.version, migration.name, migration.checksum))
        return True


def _apply_repeatable(conn: psycopg.Connection, repeatable: Repeatable) -> bool:
    with conn.transaction():
        conn.execute(load("platform_migration_lock"), (LOCK_KEY,))
        row = conn.execute(load("platform_repeatable_get"), (repeatable.name,)).fetchone()
        if row is not None and row[0] == repeatable.checksum:
            return False
        try:
            conn.execute(load("platform_function_bodies_unchecked"))
            # Function files are our own trusted, versioned SQL: the literal text of a named file.
            conn.execute(trusted(repeatable.text))
            conn.execute(load("platform_reset_role"))  # a file may SET LOCAL ROLE
        except psycopg.Error as exc:
            raise MigrationError(
                f"function file {repeatable.name}.sql failed and was rolled back: "
                f"{str(exc).strip().splitlines()[0]}"
            ) from exc
        conn.execute(load("platform_repeatable_record"), (repeatable.name, repeatable.checksum))
        return True


def _removed(conn: psycopg.Connection, names: set[str]) -> list[str]:
    """Recorded function files that are gone: reported while their function exists, forgotten once dropped."""
    removed = []
    for name, present in conn.execute(load("platform_repeatables_recorded")).fetchall():
        if name in names:
            continue
        if present:
            removed.append(name)
        else:
            conn.execute(load("platform_repeatable_forget"), (name,))
    return removed


def _ensure_role_logins(conn: psycopg.Connection, settings: Settings) -> None:
    """Give the app role its password (kept outside the migration files); the console role never logs in.

    Roles are cluster-wide and a migration runs once per database, so this runs on every migrate: a
    cluster set up before 0019 gave the console role a login, and this takes it away again.
    """
    secrets = load_or_create_secrets(settings)
    conn.execute(sql.SQL("ALTER ROLE {} LOGIN PASSWORD {}").format(
        sql.Identifier(ROLE_NAMES["app"]), sql.Literal(secrets.app_password)))
    conn.execute(load("platform_console_nologin"))


def applied(url: str) -> list[str]:
    with _connect(url, autocommit=True) as conn:
        return [r[0] for r in conn.execute(load("platform_migrations_applied")).fetchall()]


def _connect(url: str, *, autocommit: bool, options: str = "") -> psycopg.Connection:
    # AGE's create_graph names its operator classes unqualified: ag_catalog must be on the path.
    try:
        return psycopg.connect(url, autocommit=autocommit, connect_timeout=10, options=options)
    except psycopg.OperationalError as exc:
        raise PlatformError(
            f"cannot connect to the database: {str(exc).strip().splitlines()[-1]}",
            "run `worldmem db up` (or check WORLDMEM_DATABASE_URL)",
        ) from exc
