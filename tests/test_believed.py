"""The "believed now" condition has one definition, wm_believed (graph/sql/functions/wm_believed.sql), and
using it costs no index: PostgreSQL inlines it before planning, so the partial indexes whose predicate is the
literal `superseded_at IS NULL` still match. If it stopped being inlinable (plpgsql, a volatility it cannot keep, a
SET clause), these plans would lose their indexes and this fails."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, LiteralString

import psycopg
import pytest

from graph.platform.db import Database
from graph.platform.repeatables import DIRECTORY as FUNCTIONS

REPO = Path(__file__).resolve().parents[1]

STATEMENTS: list[LiteralString] = [
    "SELECT id FROM facts WHERE owner_sub = wm_owner() AND subject_id = '00000000-0000-0000-0000-000000000001' "
    "AND predicate = 'x' AND wm_believed(superseded_at)",
    "SELECT id FROM facts WHERE owner_sub = wm_owner() AND object_entity_id = '00000000-0000-0000-0000-000000000001' "
    "AND predicate = 'x' AND wm_believed(superseded_at) AND status = 'active'",
    "SELECT entity_id FROM entity_aliases WHERE owner_sub = wm_owner() AND namespace = 'core' "
    "AND alias_norm = 'luna' AND wm_believed(superseded_at)",
    "SELECT id FROM facts WHERE owner_sub = wm_owner() AND value_tsv @@ 'luna'::tsquery "
    "AND wm_believed(superseded_at) AND status = 'active'",
]
# As the admin role (no row-level security, so no owner index applies) nothing but a partial index can serve
# this: if the planner did not see the indexes' predicate in the call, it would be a sequential scan.
ONLY_PARTIAL: LiteralString = ("EXPLAIN (COSTS OFF) SELECT id FROM facts WHERE value_tsv @@ 'luna'::tsquery "
                               "AND wm_believed(superseded_at) AND status = 'active'")


def _plan(db: Database, statement: LiteralString) -> str:
    with db.owner_tx("nobody", read_only=True) as conn:
        conn.execute("SET LOCAL enable_seqscan = off")
        return "\n".join(r["QUERY PLAN"] for r in conn.execute("EXPLAIN (COSTS OFF) " + statement).fetchall())


@pytest.mark.parametrize("statement", STATEMENTS)
def test_the_plan_is_the_literals(db: Database, statement: LiteralString) -> None:
    """Inlined: the planner sees the expression, never a call, and plans exactly as for the literal."""
    literal: LiteralString = statement.replace("wm_believed(superseded_at)", "superseded_at IS NULL")
    plan = _plan(db, statement)
    assert plan == _plan(db, literal) and "wm_believed" not in plan


def test_a_partial_index_matches_the_function(admin_conn: psycopg.Connection[Any]) -> None:
    with admin_conn.transaction(force_rollback=True):
        admin_conn.execute("SET LOCAL enable_seqscan = off")
        plan = "\n".join(str(r[0]) for r in admin_conn.execute(ONLY_PARTIAL).fetchall())
        partial = {str(r[0]) for r in admin_conn.execute(
            "SELECT indexname FROM pg_indexes WHERE tablename = 'facts' AND indexdef LIKE '%superseded_at IS NULL%'")}
    assert "facts_current" in partial and "facts_subject_history" not in partial
    assert "Seq Scan" not in plan and any(f" {name}" in plan for name in partial), plan


def test_no_statement_writes_the_condition_out() -> None:
    """Named statements and function files say wm_believed(...) (comments aside); the literal stays only in
    index predicates (migrations), the function itself and the facts' append-only guard (about NEW/OLD rows)."""
    places = [*(REPO / "graph" / "sql").glob("*.sql"), *FUNCTIONS.glob("*.sql")]
    written = [p.name for p in places if p.stem not in ("wm_believed", "wm_facts_guard")
               for line in p.read_text().splitlines()
               if not line.lstrip().startswith("--") and re.search(r"superseded_at IS NULL", line.split(" -- ")[0])]
    assert written == []
