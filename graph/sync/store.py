"""Set-based reads and writes of a sync: each runs one statement per chunk, never one per entry."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from datetime import datetime, timedelta
from typing import Any, LiteralString

import psycopg

import cypher
from graph.errors import InvariantViolation
from graph.sql import load

TICK = timedelta(microseconds=1)  # as graph.ledger.committer: system time strictly increases per owner
CHUNK = 1000  # rows per statement: keeps each well inside the statement timeout, also under load


def chunks(rows: Sequence[Any], size: int = CHUNK) -> Iterator[Sequence[Any]]:
    for start in range(0, len(rows), size):
        yield rows[start:start + size]


def as_json(rows: Sequence[dict[str, Any]]) -> str:
    return json.dumps(list(rows), default=str, separators=(",", ":"))


def fetch(conn: psycopg.Connection[Any], name: LiteralString | str, params: dict[str, Any]) -> list[dict[str, Any]]:
    return list(batch(conn, name, params).fetchall())


def batch(conn: psycopg.Connection[Any], name: str, params: dict[str, Any]) -> psycopg.Cursor[Any]:
    """Run a batch statement unprepared. psycopg prepares a statement after its 5th run on a connection and
    PostgreSQL may then plan it generically, guessing 10 elements for `unnest($1)` whatever the array
    holds: measured, a join of 10,000 keys with sync_entries went from 0.09 s (planned for the real size)
    to a nested loop rescanning the owner's entries per key, 35 s and a statement timeout."""
    return conn.execute(load(name), params, prepare=False)


def write_rows(conn: psycopg.Connection[Any], name: str, rows: Sequence[dict[str, Any]],
               params: dict[str, Any]) -> list[dict[str, Any]]:
    """Run `graph/sql/<name>.sql` over `rows` (its %(rows)s, a JSON array) chunk by chunk; what it returns."""
    out: list[dict[str, Any]] = []
    for part in chunks(rows):
        cur = batch(conn, name, {**params, "rows": as_json(part)})
        if cur.description is not None:
            out.extend(cur.fetchall())
    return out


def mirror_rows(conn: psycopg.Connection[Any], name: str, owner: str, rows: Sequence[dict[str, Any]]) -> None:
    """Create a chunk of vertices at once (cypher/<name>.cypher, UNWIND $rows)."""
    for part in chunks(rows):
        found = cypher.run(conn, name, {"owner": owner, "rows": list(part)})
        if not found or int(found[0]["n"]) != len(part):
            raise InvariantViolation(f"graph mirror out of step with the ledger ({name})")


def system_time(conn: psycopg.Connection[Any]) -> datetime:
    """Lock the owner's clock (one writer per owner at a time, like a commit) and return this write's system
    time: now, or one tick after the owner's latest. The caller advances the clock (clock_advance.sql)."""
    conn.execute(load("clock_init"))
    clock = conn.execute(load("clock_lock")).fetchone()
    assert clock is not None
    last, now = clock["last_recorded_at"], clock["now"]
    at: datetime = now if last is None else max(now, last + TICK)
    return at
