"""Databases in the cluster beside the main one (scratch databases), and the extensions' versions."""

from __future__ import annotations

from psycopg import sql

from graph.platform.connect import admin_url
from graph.platform.errors import PlatformError
from graph.platform.migrate import _connect
from graph.settings import IDENTIFIER, Settings
from graph.sql import load

PROTECTED = frozenset({"postgres", "template0", "template1"})


def drop_database(settings: Settings, name: str, *, force: bool = False) -> bool:
    """Drop database `name` (its connections are ended); False if it did not exist.

    The configured database (WORLDMEM_DB_NAME) is only dropped with `force`; the system ones never."""
    if not IDENTIFIER.match(name) or name in PROTECTED:
        raise PlatformError(f"refusing to drop {name!r}", "name a scratch database (lowercase letters, digits, _)")
    if name == settings.db_name and not force:
        raise PlatformError(f"{name!r} is the configured database (WORLDMEM_DB_NAME)",
                            "add --force to drop it anyway; `worldmem db up` creates it again, empty")
    with _connect(admin_url(settings, "postgres"), autocommit=True) as conn:
        existed = conn.execute(load("platform_database_exists"), (name,)).fetchone() is not None
        conn.execute(sql.SQL(load("platform_database_drop")).format(name=sql.Identifier(name)))
    return existed


def extension_versions(url: str) -> dict[str, str]:
    """{"age": "1.8.0", "vector": "0.8.7"} as the server runs them."""
    with _connect(url, autocommit=True) as conn:
        return {str(r[0]): str(r[1]) for r in conn.execute(load("platform_extension_versions")).fetchall()}
