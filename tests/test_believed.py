"""The "believed now" condition has one definition, wm_believed (graph/sql/functions/wm_believed.sql), and
using it costs no index: PostgreSQL inlines it before planning, so the partial indexes whose predicate is the
literal `superseded_at IS NULL` still match. If it stopped being inlinable (plpgsql, a volatility it cannot keep, a
SET clause), these plans would lose their indexes and this fails."""

from __future__ import annotations

import re
from pathlib import Path
from typing import LiteralString

import pytest

from graph.platform.db import Database
from graph.platform.repeatables import DIRECTORY as FUNCTIONS

REPO = Path(__file__).resolve().parents[1]

# (statement, the partial index it must use): each index's predicate holds `superseded_at IS NULL`
USES = [
    ("SELECT id FROM facts WHERE owner_sub = wm_owner() AND subject_id = gen_random_uuid() "
     "AND wm_believed(superseded_at)", "facts_current"),
    ("SELECT id FROM facts WHERE owner_sub = wm_owner() AND object_entity_id = gen_random_uuid() "
     "AND predicate = 'x' AND wm_believed(superseded_at) AND status = 'active'", "facts_incoming_current"),
    ("SELECT entity_id FROM entity_aliases WHERE owner_sub = wm_owner() AND namespace = 'core' "
     "AND alias_norm = 'luna' AND wm_believed(superseded_at)", "entity_aliases_believed"),
]


@pytest.mark.parametrize(("statement", "index"), USES)
def test_the_partial_index_matches_the_function(db: Database, statement: LiteralString, index: str) -> None:
    with db.owner_tx("nobody", read_only=True) as conn:
        conn.execute("SET LOCAL enable_seqscan = off")
        plan = "\n".join(r["QUERY PLAN"] for r in conn.execute("EXPLAIN (COSTS OFF) " + statement).fetchall())
    assert f"using {index}" in plan.lower(), plan
    assert "wm_believed" not in plan, plan  # inlined: the plan holds the expression, not a call


def test_no_statement_writes_the_condition_out() -> None:
    """Named statements and function files say wm_believed(...) (comments aside); the literal stays only in
    index predicates (migrations), the function itself and the facts' append-only guard (about NEW/OLD rows)."""
    places = [*(REPO / "graph" / "sql").glob("*.sql"), *FUNCTIONS.glob("*.sql")]
    written = [p.name for p in places if p.stem not in ("wm_believed", "wm_facts_guard")
               for line in p.read_text().splitlines()
               if not line.lstrip().startswith("--") and re.search(r"superseded_at IS NULL", line.split(" -- ")[0])]
    assert written == []
