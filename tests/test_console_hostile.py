"""Hostile queries against the Cypher console: owner A attacks owner B's data, and the database.

Every case runs twice as A: through `run_console` (static check first) and through `execute` (no check
of the text at all), so the database alone is shown to hold. Each outcome must contain nothing of B
(owner, names, ids, graph ids), and at the end of the module no row anywhere has changed.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import psycopg
import pytest
from psycopg import sql

from graph.console.runner import ConsoleError, ConsoleResult, Statement, _dollar_quoted, execute, run_console
from graph.console.text import mask, prepare, return_columns
from graph.finder.nudger import Nudger
from graph.platform.db import Database
from tests.test_console import seed_graph

WRITE = {"CONSOLE_WRITE_REFUSED"}
DENIED = {"CONSOLE_FORBIDDEN"}
OK, ANY = "ok", "any"
LIMIT, TIMEOUT_MS = 100, 1500


@dataclass
class World:
    a: str
    b: str
    b_marker: str
    b_strings: list[str]  # B's owner, marker, entity/fact/event ids: none may ever reach A
    b_graph_ids: set[int]
    values: dict[str, str]  # <PLACEHOLDER> -> text for the query templates
    a_graph_rows: int  # A's vertices and edges, counted as superuser


def _graph_ids(conn: psycopg.Connection[Any], owner: str) -> set[int]:
    rows = conn.execute(
        "SELECT id::text FROM worldgraph._ag_label_vertex WHERE properties::text LIKE %(p)s "
        "UNION ALL SELECT id::text FROM worldgraph._ag_label_edge WHERE properties::text LIKE %(p)s",
        {"p": f'%"owner": "{owner}"%'}).fetchall()
    return {int(r[0]) for r in rows}


def _snapshot(conn: psycopg.Connection[Any]) -> dict[str, tuple[int, str]]:
    """Row count and digest of every table of the ledger and the graph, plus graphs, labels, blobs."""
    tables = [f'{s}."{t}"' for s, t in conn.execute(
        "SELECT schemaname, tablename FROM pg_tables WHERE schemaname IN ('public', 'worldgraph')").fetchall()]
    tables += ["ag_catalog.ag_graph", "ag_catalog.ag_label", "pg_catalog.pg_largeobject_metadata"]
    snap = {}
    for table in tables:
        # Table names come from the catalog, not from input.
        row = conn.execute(f"SELECT count(*), md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), ''))"  # noqa: S608
                           f" FROM {table} AS t").fetchone()
        assert row is not None
        snap[table] = (row[0], row[1])
    return snap


@pytest.fixture(scope="module")
def admin(test_db_url: str) -> Iterator[psycopg.Connection[Any]]:
    with psycopg.connect(test_db_url, autocommit=True, options="-c search_path=public,ag_catalog") as conn:
        yield conn


@pytest.fixture(scope="module")
def world(db: Database, admin: psycopg.Connection[Any]) -> Iterator[World]:
    tag = uuid.uuid4().hex[:10]
    a, b, b_marker = f"hostile-a-{tag}", f"hostile-b-{tag}", f"zqb{tag}"
    seed_graph(db, a, f"zqa{tag}")
    b_names = seed_graph(db, b, b_marker)
    b_ids = [str(r[0]) for r in admin.execute(
        "SELECT id FROM entities WHERE owner_sub = %(b)s UNION ALL SELECT id FROM facts WHERE owner_sub = %(b)s "
        "UNION ALL SELECT id FROM world_events WHERE owner_sub = %(b)s", {"b": b}).fetchall()]
    vid = admin.execute("SELECT id::text FROM worldgraph.\"Entity\" WHERE properties::text LIKE %s",
                        (f'%{b_names["p1"]}%',)).fetchone()
    eid = admin.execute("SELECT id::text FROM worldgraph.\"REL\" WHERE properties::text LIKE %s",
                        (f'%"owner": "{b}"%',)).fetchone()
    b_uuid = admin.execute("SELECT id::text FROM entities WHERE owner_sub = %s AND ref LIKE 'person:%%-p1'",
                           (b,)).fetchone()
    b_fact = admin.execute("SELECT id::text FROM facts WHERE owner_sub = %s AND predicate = 'knows'",
                           (b,)).fetchone()
    assert vid and eid and b_uuid and b_fact
    values = {"<A_OWNER>": a, "<B_OWNER>": b, "<B_NAME>": b_names["p1"], "<B_REF>": f"person:{b_marker}-p1",
              "<B_VID>": vid[0], "<B_EID>": eid[0], "<B_UUID>": b_uuid[0], "<B_FACT>": b_fact[0],
              "<NOBODY>": f"nobody {tag}"}
    # apps of earlier test modules reconcile their API commits in background threads (graph.finder.nudger):
    # their projections must land before the snapshot, not during this module
    assert Nudger.drain_all(30)
    before = _snapshot(admin)
    yield World(a, b, b_marker, [b, b_marker, *b_ids], _graph_ids(admin, b), values, len(_graph_ids(admin, a)))
    assert _snapshot(admin) == before, "a hostile console query changed the database"


def _fill(world: World, template: str) -> str:
    for key, value in world.values.items():
        template = template.replace(key, value)
    return template


def _leaks(world: World, query: str, outcome: ConsoleResult | ConsoleError) -> list[str]:
    """What of B's shows up in the outcome. Error messages may echo the query text itself, so a value the
    query already contains does not count there; in rows everything of B counts."""
    if isinstance(outcome, ConsoleError):
        return [s for s in world.b_strings if s in outcome.message and s not in query]
    text = json.dumps(outcome.rows)
    found = [s for s in world.b_strings if s in text]
    ids: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            ids.extend(value.get(k) for k in ("id", "start_id", "end_id"))
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(outcome.rows)
    return found + [f"graph id {i}" for i in ids if i in world.b_graph_ids]


def _outcome(fn: Any, *args: Any, **kwargs: Any) -> ConsoleResult | ConsoleError:
    try:
        result: ConsoleResult = fn(*args, **kwargs)
        return result
    except ConsoleError as exc:
        return exc


def _expect(outcome: ConsoleResult | ConsoleError, expected: str | set[str], label: str) -> None:
    if expected == ANY:
        return
    if expected == OK:
        assert isinstance(outcome, ConsoleResult), f"{label}: expected rows, got {outcome!r}"
    else:
        assert isinstance(outcome, ConsoleError), f"{label}: expected an error, got {outcome!r}"
        assert outcome.code in expected, f"{label}: {outcome.code} {outcome.message}"


def _columns(text: str) -> list[str]:
    try:
        return return_columns(mask(prepare(text)))
    except ConsoleError:
        return ["x"]


def _void(call: str) -> str:
    """Wrap a SQL function returning void so that AGE can hand its result back as agtype."""
    return f"pg_catalog.length(pg_catalog.textin(pg_catalog.void_out({call})))"


def _text(call: str) -> str:
    return f"ag_catalog.text_to_agtype(pg_catalog.text({call}))"


def _xml(query: str) -> str:
    """Any SQL, run by query_to_xml as the console role: RLS, grants and READ ONLY still apply."""
    return "RETURN " + _text("pg_catalog.query_to_xml('" + query + "'::pg_text, true, true, ''::pg_text)")


SET_OWNER = "pg_catalog.set_config('app.current_owner'::pg_text, '<B_OWNER>'::pg_text, true)"
FAKE_EDGE = "{id: 1, label: 'REL', start_id: <B_VID>, end_id: <B_VID>, properties: {}}::edge"
FAKE_VERTEX = "{id: <B_VID>, label: 'Entity', properties: {}}::vertex"
# In SQL, age_vle takes any start vertex, also another owner's: only reachable through SQL-running functions.
SQL_VLE = ("SELECT <OUT> FROM ag_catalog.age_vle($$\"worldgraph\"$$, "
           "$${\"id\": <B_VID>, \"label\": \"Entity\", \"properties\": {}}::vertex$$, NULL, "
           "$${\"id\": 1, \"label\": \"REL\", \"start_id\": 1, \"end_id\": 1, \"properties\": {}}::edge$$, "
           "$$1$$, $$3$$, $$1$$)")

# (id, query template, expected from run_console, expected from the database alone via execute)
CASES: list[tuple[str, str, str | set[str], str | set[str]]] = [
    # Writes
    ("create-own", "CREATE (n:Entity {owner: '<A_OWNER>', name: 'x'}) RETURN n", WRITE, WRITE),
    ("create-for-b", "CREATE (n:Entity {owner: '<B_OWNER>', name: 'x'}) RETURN n", WRITE, WRITE),
    ("create-no-return", "CREATE (n:Entity {owner: '<B_OWNER>'})", WRITE, ANY),
    ("merge", "MERGE (n:Entity {name: '<B_NAME>'}) RETURN n", WRITE, WRITE),
    ("set", "MATCH (n:Entity) SET n.name = 'pwned' RETURN n", WRITE, WRITE),
    ("set-steal-b", "MATCH (n {name: '<B_NAME>'}) SET n.owner = '<A_OWNER>' RETURN n", WRITE, WRITE),
    ("delete", "MATCH (n) DELETE n RETURN 1 AS x", WRITE, WRITE),
    ("detach-delete", "MATCH (n) DETACH DELETE n RETURN 1 AS x", WRITE, WRITE),
    ("remove", "MATCH (n:Entity) REMOVE n.name RETURN n", WRITE, WRITE),
    ("create-edge-to-b", "MATCH (a:Entity), (b:Entity) CREATE (a)-[:REL {owner: '<B_OWNER>'}]->(b) RETURN a",
     WRITE, WRITE),
    ("lowercase-create", "create (n:Entity {owner: '<A_OWNER>'}) return n", WRITE, WRITE),
    ("load", "LOAD 'age'", WRITE, ANY),
    # Scans, traversals, ids
    ("unlabeled-scan", "MATCH (n) RETURN n", OK, OK),
    ("unlabeled-edges", "MATCH ()-[e]->() RETURN e", OK, OK),
    ("vle-unbound", "MATCH p=()-[*]->() RETURN p", OK, OK),
    ("vle-1-5-undirected", "MATCH (a)-[*1..5]-(b) RETURN a, b", OK, OK),
    ("vle-0-3-nodes", "MATCH p=(a)-[*0..3]-(b) RETURN nodes(p), relationships(p)", OK, OK),
    ("start-end-node", "MATCH ()-[e]->() RETURN startNode(e), endNode(e)", OK, OK),
    ("optional-match", "MATCH (a:Entity) OPTIONAL MATCH (a)-[r]-(b) RETURN a, r, b", OK, OK),
    ("where-b-owner", "MATCH (n) WHERE n.owner = '<B_OWNER>' RETURN n", OK, OK),
    ("b-name-pattern", "MATCH (n:Entity {name: '<B_NAME>'}) RETURN n", OK, OK),
    ("b-uuid", "MATCH (n:Entity) WHERE n.id = '<B_UUID>' RETURN n", OK, OK),
    ("b-fact-edge", "MATCH ()-[r:REL]->() WHERE r.id = '<B_FACT>' RETURN r", OK, OK),
    ("id-b-vertex", "MATCH (n) WHERE id(n) = <B_VID> RETURN n", OK, OK),
    ("id-b-edge", "MATCH ()-[e]->() WHERE id(e) = <B_EID> RETURN e", OK, OK),
    ("id-guess-range", "MATCH (n) WHERE id(n) >= <B_VID> - 5 AND id(n) <= <B_VID> + 5 RETURN n", OK, OK),
    ("fake-edge-start", f"WITH {FAKE_EDGE} AS e RETURN startNode(e)", DENIED, DENIED),
    ("fake-edge-end", f"WITH {FAKE_EDGE} AS e RETURN endNode(e)", DENIED, DENIED),
    ("events-caused", "MATCH (c:Event)-[k:CAUSED]->(e:Event) RETURN c, k, e", OK, OK),
    ("b-owner-param", "MATCH (n) WHERE n.owner = $owner RETURN n", OK, OK),
    # Injection
    ("dollar-dollar", "RETURN '$$' AS x", OK, OK),
    ("dollar-wm", "RETURN '$wm$ $wm_0123456789abcdef$' AS x", OK, OK),
    ("quote-drop", "RETURN ''; DROP TABLE facts; --' AS x", ANY, ANY),
    ("close-call-drop", "RETURN 1 AS x $$, '{}') AS (a agtype); DROP TABLE facts; --", ANY, ANY),
    ("close-wm-drop", "RETURN 1 AS x $wm$, '{}') AS (a agtype); DROP TABLE facts; --", ANY, ANY),
    ("comment-dollar", "MATCH (n) RETURN n /* $$ */ // $wm$", OK, OK),
    ("fullwidth-create", "ＣＲＥＡＴＥ (n:Entity {owner: '<B_OWNER>'}) RETURN n", ANY, ANY),
    ("zero-width-create", "CRE\u200bATE (n:Entity {owner: '<B_OWNER>'}) RETURN n", ANY, ANY),
    ("percent-s", "RETURN '%s %(x)s %%' AS x", OK, OK),
    # SQL functions: the owner, the role, files, admin functions, side effects
    ("set-config-return", f"RETURN {SET_OWNER}", DENIED, DENIED),
    ("set-config-then-match", f"WITH pg_catalog.length({SET_OWNER}) AS x MATCH (n) RETURN n", DENIED, DENIED),
    ("set-config-backticks", "RETURN `pg_catalog`.`set_config`('app.current_owner'::pg_text, '<B_OWNER>'::pg_text, "
                             "true)", DENIED, DENIED),
    ("set-role-app", "WITH pg_catalog.length(pg_catalog.set_config('role'::pg_text, 'worldmem_app'::pg_text, "
                     "true)) AS x MATCH (n) RETURN n", DENIED, DENIED),
    ("read-only-off", "RETURN pg_catalog.set_config('transaction_read_only'::pg_text, 'off'::pg_text, true)",
     DENIED, DENIED),
    ("current-setting", "RETURN " + _text("pg_catalog.current_setting('app.current_owner'::pg_text)"), DENIED, OK),
    ("pg-read-file", "RETURN pg_catalog.pg_read_file('/etc/passwd'::pg_text)", DENIED, DENIED),
    ("pg-read-binary-file", "RETURN pg_catalog.length(pg_catalog.pg_read_binary_file('/etc/passwd'::pg_text))",
     DENIED, DENIED),
    ("pg-ls-dir", "RETURN pg_catalog.pg_ls_dir('.'::pg_text)", DENIED, DENIED),
    ("lo-import", "RETURN pg_catalog.int8(pg_catalog.lo_import('/etc/passwd'::pg_text))", DENIED, DENIED),
    ("lo-export", "RETURN pg_catalog.lo_export(1::pg_bigint, '/tmp/x'::pg_text)", DENIED, ANY),
    ("pg-sleep", f"RETURN {_void('pg_catalog.pg_sleep(10::pg_float8)')} AS s", DENIED, {"CONSOLE_TIMEOUT"}),
    ("create-graph", "RETURN " + _void("ag_catalog.create_graph('evil'::pg_text)"), DENIED, DENIED),
    ("drop-graph", "RETURN " + _void("ag_catalog.drop_graph('worldgraph'::pg_text, true)"), DENIED, DENIED),
    ("load-labels", "RETURN " + _void("ag_catalog.load_labels_from_file('worldgraph'::pg_text, 'Entity'::pg_text, "
                                      "'/etc/passwd'::pg_text, true, true)"), DENIED, DENIED),
    ("shortest-path-b", "RETURN ag_catalog.age_shortest_path('worldgraph', <B_VID>, <B_VID> + 1) AS p", DENIED, DENIED),
    ("all-shortest-paths-b", "RETURN ag_catalog.age_all_shortest_paths('worldgraph', <B_VID>, <B_VID> + 1) AS p",
     DENIED, DENIED),
    ("vle-function-b", f"RETURN ag_catalog.age_vle('worldgraph', {FAKE_VERTEX}, null, {FAKE_EDGE}, 1, 3, 1) AS p",
     DENIED, ANY),
    ("prepare-cypher", "RETURN ag_catalog.age_prepare_cypher(pg_catalog.textout('worldgraph'::pg_text), "
                       "pg_catalog.textout('MATCH (n) RETURN n'::pg_text)) AS prepared", DENIED, DENIED),
    ("vertex-stats-b", f"RETURN ag_catalog.age_vertex_stats('worldgraph', {FAKE_VERTEX})", DENIED, DENIED),
    ("graph-stats", "RETURN ag_catalog.age_graph_stats('worldgraph')", DENIED, DENIED),
    ("drop-graph-cache", "RETURN ag_catalog.age_delete_global_graphs('worldgraph')", DENIED, DENIED),
    # outside the console's allow-list (0019), executable by it before: the database refuses them now
    ("graph-exists", "RETURN ag_catalog.graph_exists(pg_catalog.namein(pg_catalog.textout('worldgraph'::pg_text)))"
                     " AS x", DENIED, DENIED),
    ("valid-label-name", "RETURN ag_catalog.age_is_valid_label_name('Entity') AS x", DENIED, DENIED),
    ("notify", "RETURN " + _void("pg_catalog.pg_notify('c'::pg_text, 'x'::pg_text)"), DENIED, DENIED),
    ("nested-cypher", "RETURN ag_catalog.cypher('worldgraph'::pg_text, 'MATCH (n) RETURN n'::pg_text)", DENIED, ANY),
    ("sql-via-xml-facts", _xml("SELECT * FROM facts"), DENIED, DENIED),
    ("sql-via-xml-vle-b", _xml(SQL_VLE.replace("<OUT>", "ag_catalog.age_materialize_vle_path(edges)")), DENIED, DENIED),
    ("ts-stat-vle-b", "RETURN ag_catalog.text_to_agtype(pg_catalog.textin(pg_catalog.record_out(pg_catalog.ts_stat('"
     + SQL_VLE.replace("<OUT>", "pg_catalog.to_tsvector(pg_catalog.textin(ag_catalog.agtype_out("
                                "ag_catalog.age_materialize_vle_path(edges))))") + "'::pg_text)))) AS words",
     DENIED, DENIED),
    ("sql-via-xml-set-config", _xml("SELECT set_config($$app.current_owner$$, $$<B_OWNER>$$, true)"),
     DENIED, DENIED),
    ("sql-via-xml-set-role", _xml("SET ROLE worldmem_app"), DENIED, DENIED),
    ("sql-via-xml-reset-role", _xml("RESET ROLE"), DENIED, DENIED),
    ("sql-via-xml-tokens", _xml("SELECT * FROM api_tokens"), DENIED, DENIED),
    ("sql-via-xml-insert", _xml("INSERT INTO entity_kinds (key, name) VALUES ($$x$$, $$x$$) RETURNING key"),
     DENIED, ANY),
    # Size and time
    ("huge-unwind", "UNWIND range(1, 10000000) AS i RETURN i", ANY, ANY),
    ("huge-list", "RETURN range(1, 10000000) AS r", ANY, ANY),
    ("slow-cross-product", "UNWIND range(1, 100000) AS i UNWIND range(1, 100000) AS j RETURN count(*)",
     {"CONSOLE_TIMEOUT"}, {"CONSOLE_TIMEOUT"}),
]


@pytest.mark.parametrize(("template", "static", "database"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_hostile_query(db: Database, world: World, template: str, static: str | set[str],
                       database: str | set[str]) -> None:
    query = _fill(world, template)
    params = {"owner": world.b}
    checked = _outcome(run_console, db, world.a, query, params, row_limit=LIMIT, timeout_ms=TIMEOUT_MS)
    unchecked = _outcome(execute, db, world.a, Statement(query, _columns(query)), params,
                         row_limit=LIMIT, timeout_ms=TIMEOUT_MS)
    assert _leaks(world, query, checked) == [] and _leaks(world, query, unchecked) == []
    _expect(checked, static, "static check")
    _expect(unchecked, database, "database")


# Error-based probing: a query whose failure would depend on B's rows must behave the same whether the
# guessed value is B's or nobody's (LEAKPROOF functions are evaluated before the owner policy when cheap).
PROBES = [
    ("access-into-string", "MATCH (n:Entity) WHERE n.name = '<GUESS>' AND n.name.x = 1 RETURN n"),
    ("index-into-string", "MATCH (n:Entity) WHERE n.name = '<GUESS>' AND n.name[0] = 1 RETURN n"),
    ("unlabeled-access", "MATCH (n) WHERE n.name = '<GUESS>' AND n.name.x = 1 RETURN n"),
    ("pattern-access", "MATCH (n:Entity {name: '<GUESS>'}) WHERE n.name.x = 1 RETURN n"),
    ("division-by-zero", "MATCH (n:Entity) WHERE n.name = '<GUESS>' AND 1 / (size(n.name) - size('<GUESS>')) = 1 "
                         "RETURN n"),
    ("to-integer", "MATCH (n:Entity) WHERE n.name = '<GUESS>' AND toInteger(n.name) > 0 RETURN n"),
    ("bad-regex", "MATCH (n:Entity) WHERE n.name = '<GUESS>' AND n.name =~ '(' RETURN n"),
    ("edge-access", "MATCH ()-[r:REL]->() WHERE r.id = '<GUESS_FACT>' AND r.predicate.x = 1 RETURN r"),
    ("uuid-access", "MATCH (n:Entity) WHERE n.id = '<GUESS_UUID>' AND n.kind.x = 1 RETURN n"),
]


def _shape(outcome: ConsoleResult | ConsoleError) -> tuple[str, str]:
    if isinstance(outcome, ConsoleError):
        return outcome.code, outcome.message
    return "ok", json.dumps(outcome.rows)


@pytest.mark.parametrize("template", [p[1] for p in PROBES], ids=[p[0] for p in PROBES])
def test_error_probes_cannot_tell_b_exists(db: Database, world: World, template: str) -> None:
    nobody = world.values["<NOBODY>"]
    guesses = {"b": (world.values["<B_NAME>"], world.values["<B_FACT>"], world.values["<B_UUID>"]),
               "nobody": (nobody, str(uuid.uuid4()), str(uuid.uuid4()))}
    shapes = {}
    for who, (name, fact, entity) in guesses.items():
        query = template.replace("<GUESS>", name).replace("<GUESS_FACT>", fact).replace("<GUESS_UUID>", entity)
        outcome = _outcome(execute, db, world.a, Statement(query, _columns(query)),
                           row_limit=LIMIT, timeout_ms=TIMEOUT_MS)
        assert _leaks(world, query, outcome) == []
        shapes[who] = _shape(outcome)
    assert shapes["b"] == shapes["nobody"] == ("ok", "[]")


# The owner is pinned by the database ----------------------------------------------------------------

SET_OWNER_AND_READ = (f"WITH pg_catalog.length({SET_OWNER}) AS x MATCH (n:Entity) "
                      "RETURN n.name AS name, n.owner AS owner")


def test_control_the_attack_works_without_the_role_switch(db: Database, world: World) -> None:
    """As worldmem_app (which may call set_config) the same text does switch owner: the console's
    protection is the role switch and the revoked EXECUTE, not the shape of the text."""
    query = _fill(world, SET_OWNER_AND_READ)
    statement = sql.SQL("SELECT * FROM ag_catalog.cypher('worldgraph', {}) AS (name agtype, owner agtype)")
    with db.owner_tx(world.a, read_only=True) as conn:
        rows = conn.execute(statement.format(_dollar_quoted(query))).fetchall()
    assert {json.loads(r["owner"]) for r in rows} == {world.b}


def test_owner_switch_is_refused_by_the_database(db: Database, world: World) -> None:
    query = _fill(world, SET_OWNER_AND_READ)
    with pytest.raises(ConsoleError) as err:
        execute(db, world.a, Statement(query, ["name", "owner"]), row_limit=LIMIT, timeout_ms=TIMEOUT_MS)
    assert err.value.code == "CONSOLE_FORBIDDEN" and "set_config" in err.value.message


def test_unset_owner_is_refused_before_running_and_sees_nothing_in_the_database(db: Database) -> None:
    with pytest.raises(ConsoleError) as err:
        run_console(db, "", "MATCH (n) RETURN n", row_limit=LIMIT, timeout_ms=TIMEOUT_MS)
    assert err.value.code == "CONSOLE_FORBIDDEN"
    for query in ("MATCH (n) RETURN n", "MATCH ()-[e]->() RETURN e", "MATCH p=()-[*]->() RETURN p"):
        assert execute(db, "", Statement(query, ["x"]), row_limit=LIMIT, timeout_ms=TIMEOUT_MS).rows == []


def test_a_sees_exactly_its_own_graph(db: Database, world: World) -> None:
    vertices = run_console(db, world.a, "MATCH (n) RETURN count(n) AS c, collect(DISTINCT n.owner) AS owners",
                           row_limit=LIMIT, timeout_ms=TIMEOUT_MS)
    edges = run_console(db, world.a, "MATCH ()-[e]->() RETURN count(e) AS c, collect(DISTINCT e.owner) AS owners",
                        row_limit=LIMIT, timeout_ms=TIMEOUT_MS)
    # 3 entities + 2 events; 2 REL + 1 CAUSED
    assert vertices.rows == [[5, [world.a]]] and edges.rows == [[3, [world.a]]] and world.a_graph_rows == 8


def test_other_console_sessions_can_be_neither_read_nor_cancelled(db: Database, world: World) -> None:
    """B's console query is running; A scans every backend's query text and tries to cancel them all."""
    secret = f"{world.b_marker}-in-flight"
    b_query = Statement(f"RETURN '{secret}' AS s, " + _void("pg_catalog.pg_sleep(1.5::pg_float8)") + " AS z",
                        ["s", "z"])
    outcome: list[ConsoleResult | ConsoleError] = []
    runner = threading.Thread(target=lambda: outcome.append(_outcome(
        execute, db, world.b, b_query, row_limit=LIMIT, timeout_ms=5000)))
    runner.start()
    try:
        threading.Event().wait(0.4)
        activity = ("UNWIND range(1, 200) AS i "
                    "WITH pg_catalog.pg_stat_get_backend_activity(pg_catalog.int4(i::pg_bigint)) AS a "
                    "WHERE a IS NOT NULL RETURN " + _text("a") + " AS a")
        seen = execute(db, world.a, Statement(activity, ["a"]), row_limit=500, timeout_ms=TIMEOUT_MS)
        assert seen.rows and not any(secret in json.dumps(r) for r in seen.rows)
        cancel = ("UNWIND range(1, 200) AS i WITH pg_catalog.pg_stat_get_backend_pid(pg_catalog.int4(i::pg_bigint))"
                  " AS p WHERE p IS NOT NULL AND p <> pg_catalog.pg_backend_pid() "
                  "RETURN pg_catalog.pg_cancel_backend(p) AS c")
        refused = _outcome(execute, db, world.a, Statement(cancel, ["c"]), row_limit=500, timeout_ms=TIMEOUT_MS)
        assert isinstance(refused, ConsoleError) and refused.code == "CONSOLE_FORBIDDEN", refused
    finally:
        runner.join()
    [b_result] = outcome
    assert isinstance(b_result, ConsoleResult) and b_result.rows == [[secret, 0]]
