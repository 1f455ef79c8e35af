"""What the move checks: the owner's rows per table on a cluster, and a digest of an export that does not
depend on row ids (an import gives every id a new value, graph/transfer/load.py)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import psycopg
from psycopg import sql

from graph.sql import load

UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")


def export_digest(lines: list[str]) -> str:
    """SHA-256 of the export's records (not its header and trailer, which carry the time of export), each
    with its ids blanked, in sorted order: equal for an owner and its faithful copy."""
    body = sorted(UUID.sub("-", line) for line in lines[1:-1])
    return hashlib.sha256("\n".join(body).encode()).hexdigest()


def table_counts(conn: psycopg.Connection[Any], owner: str) -> dict[str, int]:
    """The owner's rows in every table with an owner_sub column but the tokens (`conn`: the superuser's)."""
    tables = [str(r[0]) for r in conn.execute(load("route_counts")).fetchall()]
    counts: dict[str, int] = {}
    for table in tables:
        query = sql.SQL(load("route_table_count")).format(table=sql.Identifier(table))
        row = conn.execute(query, {"owner": owner}).fetchone()
        counts[table] = int(row[0]) if row else 0
    return {t: n for t, n in counts.items() if n}
