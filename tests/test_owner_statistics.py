"""Plans do not depend on how many rows the statistics credit an owner with (migration 0036).

An owner whose rows arrived after the last ANALYZE used to be estimated at one row, and the reads then
joined through a scan of all of that owner's rows. Without statistics on owner_sub every owner, known or
new, gets the same estimate, so the plans of a new owner are those of a known one.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, LiteralString

import psycopg

from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.sql import load

SINCE = datetime(2024, 1, 1, tzinfo=UTC)
LEDGER_TABLES = ["entities", "entity_aliases", "facts", "world_events", "proposals"]


def _import(db: Database, owner: str, n: int) -> None:
    ops: list[Any] = []
    for i in range(n):
        ops += [UpsertEntity(ref=f"person:p{i}", kind="person", canonical_name=f"Person {i}"),
                AssertFact(subject=f"person:p{i}", predicate="description", value=f"gardener {i} in Leipzig",
                           valid_from=SINCE)]
    proposal = MemoryMutationProposal(run_id=f"stats-{owner}", operations=ops)
    assert not commit_proposal(db, owner_principal(owner), proposal).rejected


def _plan(db: Database, owner: str, query: LiteralString, params: dict[str, Any] | None = None) -> dict[str, Any]:
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute(b"EXPLAIN (FORMAT JSON) " + query.encode(), params).fetchone()
    assert row is not None
    plan = row["QUERY PLAN"]
    return (json.loads(plan) if isinstance(plan, str) else plan)[0]["Plan"]  # type: ignore[no-any-return]


def _nodes(plan: dict[str, Any]) -> list[dict[str, Any]]:
    return [plan] + [n for child in plan.get("Plans", []) for n in _nodes(child)]


def _shape(plan: dict[str, Any]) -> list[tuple[str, str | None]]:
    return [(n["Node Type"], n.get("Index Name")) for n in _nodes(plan)]


def test_owner_sub_has_no_statistics_even_after_analyze(admin_conn: psycopg.Connection) -> None:
    """Every owner table, also one a later migration adds: it needs `ALTER COLUMN owner_sub SET STATISTICS 0`."""
    admin_conn.execute("ANALYZE")
    targets: dict[str, int | None] = dict(admin_conn.execute(
        "SELECT c.relname, a.attstattarget FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND a.attname = 'owner_sub'").fetchall())
    assert set(LEDGER_TABLES) <= set(targets)
    assert targets == dict.fromkeys(targets, 0)
    gathered = admin_conn.execute(
        "SELECT tablename FROM pg_stats WHERE schemaname = 'public' AND attname = 'owner_sub'").fetchall()
    assert gathered == []


def test_a_new_owner_is_planned_like_an_analyzed_one(db: Database, owner: str,
                                                     admin_conn: psycopg.Connection) -> None:
    known, new = f"{owner}-known", f"{owner}-new"
    _import(db, known, 250)
    admin_conn.execute("ANALYZE entities, facts")
    _import(db, new, 250)
    rows = {o: _plan(db, o, "SELECT id FROM entities")["Plan Rows"] for o in (known, new)}
    assert rows[known] == rows[new] > 1
    params: dict[str, Any] = {"query": "gardener Leipzig", "at": "2030-01-01T00:00:00Z", "limit": 10, "pool": 200,
                              "k": 20, "kind": None, "from": None, "to": None}
    names = {**params, "query": "Person 7", "forms": ["person 7", "person", "7"]}
    for name, args in [("agent_search_facts", params), ("agent_search_entities", names),
                       ("agent_find_entity", {**params, "query": "Person 7", "kind": None, "system_time": None,
                                              "follow": True}),
                       ("entity_by_ref", {"ref": "person:p7"})]:
        assert _shape(_plan(db, new, load(name), args)) == _shape(_plan(db, known, load(name), args)), name
    by_ref = _plan(db, new, load("entity_by_ref"), {"ref": "person:p7"})
    assert by_ref.get("Index Name") == "entities_owner_ref"  # was a scan of all the owner's names
