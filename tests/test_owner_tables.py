"""Every owner table fails closed: row-level security enabled and forced, with a policy (the
rule holds for every table with an owner_sub column, present and future)."""

from __future__ import annotations

import psycopg
import pytest

from graph.platform.db import Database

OWNER_TABLES = """
SELECT c.relname AS table, c.relrowsecurity AND c.relforcerowsecurity AS forced,
       (SELECT count(*) FROM pg_policies p WHERE p.schemaname = 'public' AND p.tablename = c.relname) AS policies
FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'owner_sub' AND NOT a.attisdropped
WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
ORDER BY 1
"""
# Global on purpose, never owner-filtered: a token is looked up before its owner is known (0005, the app
# can only read it), and a registry namespace is claimed once for the whole installation (0013).
GLOBAL = {"api_tokens", "registry_namespaces"}


def test_every_owner_table_forces_row_level_security(admin_conn: psycopg.Connection) -> None:
    rows = admin_conn.execute(OWNER_TABLES).fetchall()
    assert len(rows) >= 20
    assert "memory_projections" in [r[0] for r in rows]
    assert [r[0] for r in rows if r[0] not in GLOBAL and (not r[1] or r[2] < 1)] == []


def test_projections_are_private_and_fail_closed(db: Database, owner: str) -> None:
    with db.owner_tx(owner) as conn:
        conn.execute("INSERT INTO memory_projections (source_kind, source_key, text) "
                     "VALUES ('summary', 'cat', 'Luna, the cat, sleeps on the sofa')")
        assert conn.execute("SELECT count(*) AS n FROM memory_projections").fetchone() == {"n": 1}
    with db.owner_tx(f"{owner}-other", read_only=True) as conn:
        assert conn.execute("SELECT count(*) AS n FROM memory_projections").fetchone() == {"n": 0}
    with db.connection() as conn, conn.transaction():  # no owner at all
        assert conn.execute("SELECT count(*) AS n FROM memory_projections").fetchone() == {"n": 0}
    with db.owner_tx(f"{owner}-other") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("INSERT INTO memory_projections (owner_sub, source_kind, source_key, text) "
                     "VALUES (%s, 'summary', 'x', 'planted')", [owner])
