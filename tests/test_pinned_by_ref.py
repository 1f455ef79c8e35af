"""stateAt and getEntity answer an exact ref of an unmerged entity without wm_resolve's plan (migrations/0084):
both paths answer exactly what 0080's single statement answered, in one snapshot, owner pinned."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from tests.test_one_statement import V0, world  # noqa: F401 (the world fixture: a merge, aliases, an ambiguity)

ORACLES = Path(__file__).parent / "sql"
# fast path: pet:b, pet:c, person:o (exact refs, unmerged); 0080's path: pet:a (merged), Ace (an alias),
# Twin (ambiguous), pet:zz (no entity)
NAMES = ["pet:b", "pet:c", "person:o", "pet:a", "Ace", "Twin", "pet:zz", "PET:B"]
CALLS = {
    "wm_read_state_at": ("SELECT * FROM {}(%(owner)s, %(name)s, %(at)s) WITH ORDINALITY AS r ORDER BY r.ordinality",
                         "CREATE FUNCTION wm_read_state_at("),
    "wm_read_entity": ("SELECT * FROM {}(%(owner)s, %(name)s, %(at)s, 10) WITH ORDINALITY AS r ORDER BY r.ordinality",
                       "CREATE FUNCTION wm_read_entity("),
}


def _as_of_0080(function: str) -> str:
    """The resolve-only definition of `function` (tests/sql/), renamed into pg_temp."""
    text = (ORACLES / f"{function}_by_resolve.sql").read_text()
    start = text.index(CALLS[function][1])
    body = text[start:text.index("$fn$;", start) + len("$fn$;")]
    return re.sub(r"^CREATE FUNCTION \w+\(", f"CREATE FUNCTION pg_temp.old_{function}(", body)


def _rows(conn: psycopg.Connection[Any], function: str, called: str, owner: str, name: str, at: datetime
          ) -> list[dict[str, Any]]:
    query = sql.SQL(CALLS[function][0]).format(sql.SQL(called))
    return conn.execute(query, {"owner": owner, "name": name, "at": at}).fetchall()


@pytest.mark.parametrize("function", sorted(CALLS))
@pytest.mark.parametrize("at", [V0, datetime.now(UTC)])
def test_both_paths_answer_as_0080(admin_conn: psycopg.Connection[Any], world: str,  # noqa: F811
                                   function: str, at: datetime) -> None:
    admin_conn.row_factory = dict_row
    with admin_conn.transaction(force_rollback=True):
        admin_conn.execute(_as_of_0080(function))
        admin_conn.execute("SET LOCAL ROLE worldmem_app")  # row-level security as for the app
        seen = set()
        for owner in (world, "someone-else"):
            for name in NAMES:
                new = _rows(admin_conn, function, function, owner, name, at)
                old = _rows(admin_conn, function, f"pg_temp.old_{function}", owner, name, at)
                assert new == old, (owner, name)
                seen.add((owner == world, new[0]["outcome"], new[0]["via"]))
    # the cases the fixture promises were met: found by ref and by alias, ambiguous, not found, other owner
    assert {(True, "found", "ref"), (True, "found", "alias"), (True, "ambiguous", None),
            (True, "not_found", None), (False, "not_found", None)} <= seen


def test_the_reads_are_stable_plpgsql(admin_conn: psycopg.Connection[Any]) -> None:
    """STABLE: the lookup and the read inside see the calling statement's snapshot (a VOLATILE function takes
    one per statement, and a merge committed between the two would be half seen)."""
    rows = admin_conn.execute(
        "SELECT p.proname, p.provolatile, l.lanname FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang "
        "WHERE p.proname IN ('wm_read_state_at', 'wm_read_entity') AND p.pronamespace = 'public'::regnamespace "
        "ORDER BY p.proname").fetchall()
    assert rows == [("wm_read_entity", "s", "plpgsql"), ("wm_read_state_at", "s", "plpgsql")]
