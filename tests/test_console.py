"""The Cypher console: normal queries, columns, decoding, parameters, limits, typed errors, GraphQL."""

from __future__ import annotations

import io
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from cli.console import Session, render, repl
from graph.console.runner import ConsoleError, ConsoleResult, Statement, execute, run_console
from graph.console.text import mask, prepare, return_columns
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertRelationship, MemoryMutationProposal, RecordEvent, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

T0 = datetime(2020, 1, 1, tzinfo=UTC)
WORLDMEM = str(Path(sys.executable).parent / "worldmem")
CYPHER = "query($q: String!, $p: JSON) { cypher(query: $q, params: $p) { columns rows truncated } }"


def seed_graph(db: Database, owner: str, marker: str) -> dict[str, str]:
    """Two people, a place, knows + lives_in edges, and a user message that caused a tool call."""
    names = {"p1": f"Ann {marker}", "p2": f"Bo {marker}", "home": f"Home {marker}"}
    ops: list[Any] = [
        UpsertEntity(ref=f"person:{marker}-p1", kind="person", canonical_name=names["p1"]),
        UpsertEntity(ref=f"person:{marker}-p2", kind="person", canonical_name=names["p2"]),
        UpsertEntity(ref=f"place:{marker}-home", kind="place", canonical_name=names["home"]),
        AssertRelationship(subject=f"person:{marker}-p1", predicate="knows", object=f"person:{marker}-p2",
                           valid_from=T0),
        AssertRelationship(subject=f"person:{marker}-p1", predicate="lives_in", object=f"place:{marker}-home",
                           valid_from=T0),
        RecordEvent(event_type="user_message", occurred_at=T0, summary=f"said {marker}",
                    external_ref=f"{marker}-e1"),
        RecordEvent(event_type="agent_tool_call", occurred_at=T0, summary=f"tool {marker}",
                    caused_by=f"{marker}-e1", causation_kind="direct", external_ref=f"{marker}-e2"),
    ]
    proposal = MemoryMutationProposal(run_id=f"seed-{marker}", operations=ops)
    result = commit_proposal(db, owner_principal(owner), proposal)
    assert result.rejected == [] and result.committed == len(ops)
    return names


@pytest.fixture
def names(db: Database, owner: str) -> dict[str, str]:
    return seed_graph(db, owner, "zqa")


def run(db: Database, owner: str, query: str, params: dict[str, Any] | None = None, *,
        row_limit: int = 100, timeout_ms: int = 2000) -> Any:
    return run_console(db, owner, query, params, row_limit=row_limit, timeout_ms=timeout_ms)


# Column names ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("query", "columns"), [
    ("MATCH (n) RETURN n", ["n"]),
    ("MATCH (n) RETURN n.name AS name, n", ["name", "n"]),
    ("MATCH (n) RETURN DISTINCT n.kind AS kind ORDER BY kind", ["kind"]),
    ("MATCH (n) return n.name as Name skip 1 limit 2", ["Name"]),
    ("RETURN 'a, b' AS s, [1, 2] AS l, {x: 1, y: 2} AS m, f(1, 2)", ["s", "l", "m", "f(1, 2)"]),
    ("RETURN 1 AS `odd name`, 2 AS `with``tick`", ["odd name", "with`tick"]),
    ("MATCH (n) WITH n.name AS x RETURN x, count(*)", ["x", "count(*)"]),
    ("RETURN 1 AS x UNION RETURN 2 AS x", ["x"]),
    ("MATCH (n) RETURN n // RETURN a, b, c", ["n"]),
    ("MATCH (n) /* RETURN a, b */ RETURN n.return AS r", ["r"]),
    ("RETURN CASE WHEN true THEN 1 ELSE 2 END AS c,\n  size([x IN range(1, 3) | x])",
     ["c", "size([x IN range(1, 3) | x])"]),
    ("RETURN 'x AS y' AS z;", ["z"]),
])
def test_return_columns(query: str, columns: list[str]) -> None:
    assert return_columns(mask(prepare(query))) == columns


@pytest.mark.parametrize(("query", "code"), [
    ("", "CONSOLE_SYNTAX"), (" ; ", "CONSOLE_SYNTAX"), ("MATCH (n)", "CONSOLE_SYNTAX"),
    ("MATCH (n) RETURN *", "CONSOLE_SYNTAX"), ("MATCH (n) RETURN n,", "CONSOLE_SYNTAX"),
    ("RETURN 1 AS x\x00", "CONSOLE_SYNTAX"), ("RETURN '" + "x" * 20_001 + "'", "CONSOLE_SYNTAX"),
    ("CREATE (n) RETURN n", "CONSOLE_WRITE_REFUSED"), ("MATCH (n) set n.x = 1 RETURN n", "CONSOLE_WRITE_REFUSED"),
    ("RETURN pg_catalog.now()", "CONSOLE_FORBIDDEN"), ("RETURN foo.bar(1)", "CONSOLE_FORBIDDEN"),
])
def test_refused_before_running(db: Database, owner: str, query: str, code: str) -> None:
    with pytest.raises(ConsoleError) as err:
        run(db, owner, query)
    assert err.value.code == code


@pytest.mark.parametrize("query", [
    "MATCH (n) WHERE n.name = 'CREATE (x)' RETURN n.name AS set_name",
    "MATCH (n:Entity) RETURN n.created_at, n.`set`, {delete: 1} AS m",
    "MATCH (n) WHERE n.kind = $set RETURN n // SET n.x = 1",
])
def test_keywords_in_strings_names_and_comments_are_fine(db: Database, owner: str, query: str) -> None:
    run(db, owner, query, {"set": "x"})


# Results --------------------------------------------------------------------------------------------

def test_vertices_edges_and_paths_are_decoded(db: Database, owner: str, names: dict[str, str]) -> None:
    result = run(db, owner, "MATCH p = (a:Entity)-[r:REL]->(b:Entity) WHERE r.predicate = 'knows' "
                            "RETURN a, r, b.name AS friend, p")
    assert result.columns == ["a", "r", "friend", "p"] and not result.truncated
    [[a, r, friend, path]] = result.rows
    assert a["label"] == "Entity" and a["properties"]["name"] == names["p1"] and a["properties"]["owner"] == owner
    assert r["label"] == "REL" and r["start_id"] == a["id"] and r["properties"]["predicate"] == "knows"
    assert friend == names["p2"]
    assert [e["label"] for e in path] == ["Entity", "REL", "Entity"] and path[0] == a


def test_causal_edges_and_events(db: Database, owner: str, names: dict[str, str]) -> None:
    result = run(db, owner, "MATCH (c:Event)-[k:CAUSED]->(e:Event) RETURN c.summary, k.kind, e.summary")
    assert result.rows == [["said zqa", "direct", "tool zqa"]]


def test_parameters_travel_in_the_map(db: Database, owner: str, names: dict[str, str]) -> None:
    query = "MATCH (n:Entity) WHERE n.name = $name RETURN n.name AS name, $tricky AS echo"
    tricky = "'; DROP TABLE facts; -- $$ $wm$ %s %(x)s \\"
    result = run(db, owner, query, {"name": names["home"], "tricky": tricky})
    assert result.rows == [[names["home"], tricky]]


def test_percent_and_dollar_text_reaches_cypher_unchanged(db: Database, owner: str) -> None:
    result = run(db, owner, "RETURN 7 % 3 AS m, '%s %% $$ $wm_0$ $1' AS s, '$wm_' AS t")
    assert result.rows == [[1, "%s %% $$ $wm_0$ $1", "$wm_"]]


def test_non_finite_floats_become_strings(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    query = "RETURN toFloat('NaN') AS a, toFloat('Infinity') AS b, [-toFloat('Infinity')] AS c, 1.5::numeric AS d"
    body = gql(client, make_token(), CYPHER, {"q": query})
    assert body["data"]["cypher"]["rows"] == [["NaN", "Infinity", ["-Infinity"], 1.5]], body


def test_row_limit_sets_truncated(db: Database, owner: str) -> None:
    result = run(db, owner, "UNWIND range(1, 50) AS i RETURN i", row_limit=10)
    assert result.rows == [[i] for i in range(1, 11)] and result.truncated
    exact = run(db, owner, "UNWIND range(1, 10) AS i RETURN i", row_limit=10)
    assert len(exact.rows) == 10 and not exact.truncated


def test_timeout_is_a_typed_error(db: Database, owner: str) -> None:
    with pytest.raises(ConsoleError) as err:
        run(db, owner, "UNWIND range(1, 100000) AS i UNWIND range(1, 100000) AS j RETURN count(*)",
            timeout_ms=300)
    assert err.value.code == "CONSOLE_TIMEOUT"


@pytest.mark.parametrize(("query", "code"), [
    ("MATCH (n RETURN n", "CONSOLE_SYNTAX"),
    ("RETURN nosuchfunction(1) AS x", "CONSOLE_SYNTAX"),
    ("MATCH (n:Entity) RETURN n.name.x", "CONSOLE_QUERY_FAILED"),
    ("RETURN 1 AS a, 2 AS b UNION RETURN 1 AS a", "CONSOLE_SYNTAX"),
])
def test_database_errors_are_typed_without_internals(db: Database, owner: str, names: dict[str, str],
                                                     query: str, code: str) -> None:
    with pytest.raises(ConsoleError) as err:
        run(db, owner, query)
    assert err.value.code == code
    assert "Traceback" not in err.value.message and "\n" not in err.value.message


def test_no_owner_is_refused_before_running(db: Database) -> None:
    for owner in ("", " ", "bad owner!"):
        with pytest.raises(ConsoleError) as err:
            run(db, owner, "MATCH (n) RETURN n")
        assert err.value.code == "CONSOLE_FORBIDDEN"


# How it runs ----------------------------------------------------------------------------------------

def test_query_runs_as_console_role_read_only_and_pinned(db: Database, owner: str) -> None:
    probe = ("RETURN ag_catalog.text_to_agtype(pg_catalog.text(pg_catalog.current_user())) AS role, "
             "ag_catalog.text_to_agtype(pg_catalog.current_setting('transaction_read_only'::pg_text)) AS ro, "
             "ag_catalog.text_to_agtype(pg_catalog.current_setting('app.current_owner'::pg_text)) AS owner, "
             "ag_catalog.text_to_agtype(pg_catalog.current_setting('statement_timeout'::pg_text)) AS timeout")
    # Schema-qualified calls are refused by the static check, so run the statement directly.
    result = execute(db, owner, Statement(probe, ["role", "ro", "owner", "timeout"]), row_limit=5, timeout_ms=1500)
    assert result.rows == [["worldmem_console", "on", owner, "1500ms"]]


def test_pooled_connection_comes_back_clean(db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    lock = ("RETURN pg_catalog.length(pg_catalog.textin(pg_catalog.void_out("
            "pg_catalog.pg_advisory_lock(727999::pg_bigint)))) AS locked")
    assert execute(db, owner, Statement(lock, ["locked"]), row_limit=5, timeout_ms=1000).rows == [[0]]
    held = admin_conn.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 727999")
    assert held.fetchone() == (0,)
    with db.owner_tx(owner) as conn:  # the app's own use of the pool is unaffected
        row = conn.execute("SELECT current_user::text AS who, current_setting('transaction_read_only') AS ro")
        assert row.fetchone() == {"who": "worldmem_app", "ro": "off"}


# GraphQL --------------------------------------------------------------------------------------------

def test_graphql_cypher_end_to_end(client: TestClient, make_token: MakeToken,  # noqa: F811
                                   names: dict[str, str]) -> None:
    body = gql(client, make_token(), CYPHER, {
        "q": "MATCH (n:Entity) WHERE n.kind = $kind RETURN n.name AS name, n ORDER BY name",
        "p": {"kind": "person"}})
    assert "errors" not in body, body
    result = body["data"]["cypher"]
    assert result["columns"] == ["name", "n"] and result["truncated"] is False
    assert [row[0] for row in result["rows"]] == [names["p1"], names["p2"]]
    assert result["rows"][0][1]["properties"]["ref"] == "person:zqa-p1"


@pytest.mark.parametrize(("query", "params", "code"), [
    ("CREATE (n:Entity) RETURN n", None, "CONSOLE_WRITE_REFUSED"),
    ("RETURN pg_catalog.set_config('a', 'b', true)", None, "CONSOLE_FORBIDDEN"),
    ("MATCH (n) RETURN n", [1, 2], "CONSOLE_SYNTAX"),
    ("MATCH (n RETURN n", None, "CONSOLE_SYNTAX"),
])
def test_graphql_errors_are_typed(client: TestClient, make_token: MakeToken,  # noqa: F811
                                  query: str, params: Any, code: str) -> None:
    body = gql(client, make_token(), CYPHER, {"q": query, "p": params})
    assert body["data"] is None and codes(body) == [code], body


def test_graphql_cypher_needs_a_token(client: TestClient) -> None:  # noqa: F811
    assert codes(gql(client, None, CYPHER, {"q": "MATCH (n) RETURN n"})) == ["UNAUTHENTICATED"]


# worldmem cypher ------------------------------------------------------------------------------------

def test_cli_renders_a_table_and_json_lines() -> None:
    result = ConsoleResult(["name", "n"], [["Ann", {"id": 1, "label": "Entity"}], ["x" * 80, None]], truncated=True)
    table = render(result).splitlines()
    assert table[0] == "name" + " " * 56 + " | n" and table[1].startswith("-" * 60 + "-+-")
    assert table[2].startswith("Ann ") and table[2].endswith('{"id": 1, "label": "Entity"}')
    assert table[3].startswith("x" * 59 + "…") and table[-1].startswith("(2 rows) (truncated")
    assert render(result, as_json=True).splitlines()[0] == '{"name": "Ann", "n": {"id": 1, "label": "Entity"}}'


def test_cli_repl_reads_multi_line_queries_and_commands(db: Database, owner: str, names: dict[str, str]) -> None:
    lines = iter(["", "MATCH (n:Entity)", "WHERE n.name = $name", "RETURN n.kind AS kind;", ":params [1]",
                  ':params {"name": "' + names["home"] + '"}', "MATCH (n:Entity) WHERE n.name = $name",
                  "RETURN n.kind AS kind;", "CREATE (n) RETURN n;", ":limit 1", "UNWIND [1, 2] AS i RETURN i;",
                  ":quit", "RETURN 'never read' AS x;"])

    def read(prompt: str) -> str:
        return next(lines)

    out = io.StringIO()
    repl(Session(db, owner, row_limit=10, timeout_ms=2000), read, out)
    text = out.getvalue()
    assert text.startswith("kind\n----\n(0 rows)\n")  # $name is null before :params
    assert "error CONSOLE_SYNTAX: params must be a JSON object" in text
    assert "kind\n-----\nplace\n(1 row)" in text
    assert "error CONSOLE_WRITE_REFUSED" in text
    assert "i\n-\n1\n(1 row) (truncated" in text and "never read" not in text


def test_cli_one_shot_against_the_configured_database() -> None:
    ok = subprocess.run([WORLDMEM, "cypher", "--owner", "nobody-cli", "-c", "RETURN 1 AS one;"],
                        capture_output=True, text=True, timeout=60, check=False)
    assert ok.returncode == 0 and ok.stdout.splitlines() == ["one", "---", "1", "(1 row)"], ok.stderr
    refused = subprocess.run([WORLDMEM, "cypher", "--owner", "nobody-cli", "-c", "MATCH (n) DELETE n RETURN 1"],
                             capture_output=True, text=True, timeout=60, check=False)
    assert refused.returncode == 2 and "CONSOLE_WRITE_REFUSED" in refused.stderr
    assert "Traceback" not in refused.stderr
