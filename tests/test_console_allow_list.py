"""The console's AGE functions are an allow-list (0019), recorded in graph/age/console_snapshot.json.

Before 0019 the console role could execute 349 of AGE 1.8's 370 ag_catalog functions (everything PUBLIC
had, minus a deny-list); now exactly the recorded 334 that Cypher reads run, PUBLIC none, and a function
created later is executable by nobody until granted.
"""

from __future__ import annotations

from typing import Any

import psycopg
import pytest

from graph.age import console_snapshot
from graph.age.doctor import check
from graph.platform.secrets import load_or_create_secrets
from graph.settings import Settings
from graph.sql import load

EXECUTABLE = """
SELECT replace(p.oid::regprocedure::text, 'ag_catalog.', '') FROM pg_proc p
WHERE p.pronamespace = 'ag_catalog'::regnamespace AND has_function_privilege(%s, p.oid, 'EXECUTE')
"""


def executable(conn: psycopg.Connection[Any], role: str) -> set[str]:
    return {r[0] for r in conn.execute(EXECUTABLE, (role,)).fetchall()}


def test_the_console_surface_is_the_recorded_snapshot(admin_conn: psycopg.Connection) -> None:
    now, then = console_snapshot.live(admin_conn), console_snapshot.recorded()
    assert console_snapshot.drift(now, then) == []
    assert len(now["console_functions"]) == 334
    assert executable(admin_conn, "worldmem_console") == set(then["console_functions"])


def test_public_executes_nothing_in_ag_catalog(admin_conn: psycopg.Connection) -> None:
    public = admin_conn.execute(
        "SELECT count(*) FROM pg_proc p WHERE p.pronamespace = 'ag_catalog'::regnamespace"
        " AND (p.proacl IS NULL OR EXISTS (SELECT 1 FROM aclexplode(p.proacl) a"
        " WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE'))").fetchone()
    assert public == (0,)


@pytest.mark.parametrize("function", [
    "create_graph(name)", "drop_graph(name,boolean)", "create_vlabel(cstring,cstring)",
    "load_labels_from_file(name,name,text,boolean,boolean)", "age_vertex_stats(agtype,agtype)",
    "age_graph_stats(agtype)", "age_invalidate_graph_cache()", "age_prepare_cypher(cstring,cstring)",
    "age_shortest_path(agtype,agtype,agtype,agtype,agtype,agtype,agtype)", "age_prepare_pg_upgrade()",
    "_cypher_create_clause(internal)", "_cypher_set_clause(internal)", "_cypher_delete_clause(internal)",
    "age_degrees(\"any\")", "_agehash_self_test()",
])
def test_the_console_cannot_execute(admin_conn: psycopg.Connection, function: str) -> None:
    oid = admin_conn.execute("SELECT to_regprocedure(%s)::oid", (f"ag_catalog.{function}",)).fetchone()
    assert oid is not None and oid[0] is not None, f"{function} does not exist in this AGE"
    allowed = admin_conn.execute("SELECT has_function_privilege('worldmem_console', %s, 'EXECUTE')",
                                 (oid[0],)).fetchone()
    assert allowed == (False,)


def test_the_app_keeps_what_it_needs(admin_conn: psycopg.Connection) -> None:
    app, console = executable(admin_conn, "worldmem_app"), executable(admin_conn, "worldmem_console")
    assert console < app
    needed = {"_cypher_create_clause(internal)", "_cypher_set_clause(internal)", "age_invalidate_graph_cache()",
              "cypher(name,cstring,agtype)"}
    assert needed <= app
    assert not {f for f in app if f.startswith(("create_graph(", "drop_graph("))}


def test_a_function_added_later_is_executable_by_nobody(admin_conn: psycopg.Connection) -> None:
    admin_conn.execute("CREATE FUNCTION ag_catalog.wm_added_later() RETURNS int LANGUAGE sql RETURN 1")
    try:
        for role in ("worldmem_console", "worldmem_app"):
            row = admin_conn.execute("SELECT has_function_privilege(%s, 'ag_catalog.wm_added_later()', 'EXECUTE')",
                                     (role,)).fetchone()
            assert row == (False,), role
    finally:
        admin_conn.execute("DROP FUNCTION ag_catalog.wm_added_later()")


def test_doctor_reports_drift_of_the_console_surface(test_db_url: str, admin_conn: psycopg.Connection) -> None:
    assert not [p for p in check(test_db_url).problems if p.startswith("console:")]
    admin_conn.execute("GRANT EXECUTE ON FUNCTION ag_catalog.age_graph_stats(ag_catalog.agtype) TO worldmem_console")
    admin_conn.execute("ALTER FUNCTION ag_catalog.agtype_access_operator(VARIADIC ag_catalog.agtype[]) COST 1")
    try:
        problems = [p for p in check(test_db_url).problems if p.startswith("console:")]
    finally:
        admin_conn.execute("REVOKE EXECUTE ON FUNCTION ag_catalog.age_graph_stats(ag_catalog.agtype)"
                           " FROM worldmem_console")
        admin_conn.execute("ALTER FUNCTION ag_catalog.agtype_access_operator(VARIADIC ag_catalog.agtype[]) COST 10")
    assert any("age_graph_stats" in p and "is new" in p for p in problems), problems
    assert any("agtype_access_operator" in p and "recorded" in p for p in problems), problems
    report = check(test_db_url)
    assert report.age_version == "1.8.0" and report.counts["console_functions"] == 334


def test_the_console_role_cannot_log_in(settings: Settings, test_db_url: str,
                                        admin_conn: psycopg.Connection) -> None:
    # roles are cluster-wide and every migrate takes the login away again (platform_console_nologin)
    admin_conn.execute(load("platform_console_nologin"))
    assert admin_conn.execute("SELECT rolcanlogin FROM pg_roles WHERE rolname = 'worldmem_console'"
                              ).fetchone() == (False,)
    old_password = load_or_create_secrets(settings).console_password
    url = test_db_url.replace(test_db_url.split("//", 1)[1].split("@", 1)[0],
                              f"worldmem_console:{old_password}", 1)
    with pytest.raises(psycopg.OperationalError):
        psycopg.connect(url, connect_timeout=10).close()
