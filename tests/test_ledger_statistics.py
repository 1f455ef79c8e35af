"""Bulk imports plan with statistics that keep up with the tables (migrations 0071, 0072).

Until a table has been analysed once the planner has no statistics at all; the batched committer's prefetch
(batch_believed_by_refs) then nested-looped over every entity of the owner per current fact: the first
owner's import of 3,000 people ran at 27 facts/s against 2,060 for the next one. Statistics of the first few
hundred rows only were as bad for the imports after it. The committer analyses a ledger table after a
batched proposal, in its transaction, when it was never analysed or has more than doubled since.
Each test gets a database of its own, migrated and never analysed (autovacuum off on its
tables, so nothing else analyses them during the test).
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from psycopg import sql

from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.connect import admin_url, role_url
from graph.platform.db import Database
from graph.platform.migrate import migrate
from graph.settings import Settings
from graph.sql import load
from tests.conftest import drop_database

TABLES = ("entities", "facts", "entity_aliases")
SINCE = datetime(2024, 1, 1, tzinfo=UTC)


@pytest.fixture
def fresh(settings: Settings) -> Iterator[tuple[str, Database]]:
    """(admin URL, app Database) of a migrated database whose ledger tables were never analysed."""
    name = f"worldmem_firststats_{uuid.uuid4().hex[:10]}"
    drop_database(settings, name)
    url = admin_url(settings, name)
    migrate(settings, url)
    with psycopg.connect(url, autocommit=True) as conn:
        for table in TABLES:
            conn.execute(sql.SQL("ALTER TABLE {} SET (autovacuum_enabled = off)").format(sql.Identifier(table)))
    database = Database(role_url(settings, "app", name), max_size=2, statement_timeout_ms=60_000)
    try:
        yield url, database
    finally:
        database.close()
        drop_database(settings, name)


def _reltuples(url: str) -> dict[str, float]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute("SELECT relname, reltuples FROM pg_class WHERE relname = ANY(%s) "
                                 "AND relnamespace = 'public'::regnamespace", (list(TABLES),)).fetchall())


def _people(first: int, n: int) -> list[Any]:
    ops: list[Any] = []
    for i in range(first, first + n):
        ops += [UpsertEntity(ref=f"person:p{i}", kind="person", canonical_name=f"Person {i}"),
                AssertFact(subject=f"person:p{i}", predicate="description", value=f"gardener {i} in Leipzig",
                           valid_from=SINCE)]
    return ops


def _commit(db: Database, owner: str, run_id: str, ops: list[Any]) -> None:
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run_id, operations=ops))
    assert not result.rejected, result.rejected


def _rows_touched(db: Database, owner: str, refs: list[str]) -> int:
    """Rows the prefetch's plan produced or threw away, over all nodes and loops (EXPLAIN ANALYZE)."""
    with db.owner_tx(owner) as conn:
        row = conn.execute(b"EXPLAIN (ANALYZE, FORMAT JSON) " + load("batch_believed_by_refs").encode(),
                           {"refs": refs}).fetchone()
    assert row is not None
    plan = row["QUERY PLAN"]
    nodes = [(json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]]
    touched = 0.0
    while nodes:
        node = nodes.pop()
        seen = node["Actual Rows"] + node.get("Rows Removed by Filter", 0) + node.get("Rows Removed by Join Filter", 0)
        touched += seen * node["Actual Loops"]
        nodes += node.get("Plans", [])
    return int(touched)


def test_a_batched_proposal_analyses_tables_when_new_or_doubled(fresh: tuple[str, Database]) -> None:
    url, db = fresh
    assert all(n < 0 for n in _reltuples(url).values()), "a fresh database starts without statistics"
    _commit(db, "stats-a", "one-op", _people(0, 1)[:1])  # one operation: the plain path analyses nothing
    assert all(n < 0 for n in _reltuples(url).values())
    _commit(db, "stats-a", "bulk-1", _people(1, 200))
    counted = _reltuples(url)
    assert counted["entities"] >= 200 and counted["facts"] >= 200, counted  # the proposal's own rows counted
    with db.owner_tx("stats-a") as conn:  # nothing has grown since: nothing to analyse
        row = conn.execute(load("ledger_statistics")).fetchone()
    assert row is not None and row["analysed"] == 0
    for k in range(2, 6):  # 200 -> 1,000 people: more than twice the pages of the last analysis
        _commit(db, "stats-a", f"bulk-{k}", _people(200 * k, 200))
    grown = _reltuples(url)  # analysed again on the way, never off by more than a factor of two
    assert grown["facts"] > counted["facts"] and 2 * grown["facts"] >= 1_001, grown
    assert grown["entities"] > counted["entities"] and 2 * grown["entities"] >= 1_001, grown


def test_a_first_import_keeps_looking_refs_up_by_ref(fresh: tuple[str, Database]) -> None:
    """After 1,000 people in four proposals the prefetch for 250 refs touches a few rows per ref. Without
    statistics it put the owner's facts outside a nested loop over the owner's entities: 250 x 1,000."""
    _url, db = fresh
    for k in range(4):
        _commit(db, "stats-b", f"bulk-{k}", _people(250 * k, 250))
    assert _rows_touched(db, "stats-b", [f"person:p{i}" for i in range(250)]) <= 20 * 250


def test_the_app_role_cannot_analyse_other_tables(fresh: tuple[str, Database]) -> None:
    """The function is the only door: the app role's own ANALYZE is refused (a warning, nothing analysed)."""
    url, db = fresh
    with db.owner_tx("stats-c") as conn:
        conn.execute("ANALYZE facts")
    assert _reltuples(url)["facts"] < 0
