"""The console helps a newcomer: AGE's own parse error, a warning for unset $parameters and for an owner
without data, and times in the table as ISO instead of epoch microseconds."""

# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cli.console import iso, owner_has_data, readable_times, render
from graph.console.runner import ConsoleError, ConsoleResult, run_console
from graph.platform.db import Database
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401 (fixtures)
from tests.test_console import seed_graph

CYPHER = "query($q: String!, $p: JSON) { cypher(query: $q, params: $p) { rows warnings } }"


def syntax_message(db: Database, owner: str, query: str) -> str:
    with pytest.raises(ConsoleError) as caught:
        run_console(db, owner, query, None, row_limit=10, timeout_ms=2000)
    assert caught.value.code == "CONSOLE_SYNTAX"
    return caught.value.message


def test_age_parse_errors_pass_through(db: Database, owner: str) -> None:
    assert syntax_message(db, owner, "MATCH (e:Entity RETURN e") == \
        'Cypher syntax error (AGE): syntax error at or near "RETURN"'
    assert "must end with RETURN" in syntax_message(db, owner, "MATCH (e:Entity)")
    # what AGE would run fine but the console cannot name columns for keeps our message
    assert syntax_message(db, owner, "MATCH (n) RETURN *") == "RETURN * is not supported: name the columns"


def test_unset_parameters_are_warned(client: TestClient, make_token: MakeToken) -> None:
    token = make_token()
    query = "MATCH (e:Entity) WHERE e.ref = $ref OR e.name = $name RETURN e.ref // $comment"
    body = gql(client, token, CYPHER, {"q": query, "p": {"name": "x"}})
    assert body["data"]["cypher"] == {"rows": [], "warnings": [
        "$ref is not set in params (read as null, so comparisons with it match nothing)"]}
    body = gql(client, token, CYPHER, {"q": "MATCH (e:Entity) WHERE e.ref = $a AND e.kind = $b RETURN e.ref",
                                       "p": None})
    assert body["data"]["cypher"]["warnings"] == [
        "$a, $b are not set in params (read as null, so comparisons with it match nothing)"]
    body = gql(client, token, CYPHER, {"q": "MATCH (e:Entity) WHERE e.name = '$x' RETURN e.ref", "p": {}})
    assert body["data"]["cypher"]["warnings"] == []


def test_owner_without_data_is_told(db: Database, owner: str) -> None:
    assert not owner_has_data(db, owner)
    seed_graph(db, owner, "hlp")
    assert owner_has_data(db, owner)


def test_times_are_iso_in_the_table(db: Database, owner: str) -> None:
    assert iso(0) == "1970-01-01T00:00:00Z" and iso(1_577_836_800_000_000) == "2020-01-01T00:00:00Z"
    edge = {"label": "REL", "properties": {"valid_from": 1_577_836_800_000_000, "valid_to": None, "id": 7}}
    assert readable_times(edge) == {"label": "REL", "properties": {
        "valid_from": "2020-01-01T00:00:00Z", "valid_to": None, "id": 7}}
    assert readable_times(5, "r.recorded_at") == iso(5) and readable_times(5, "r.weight") == 5
    assert readable_times(5, "changed_at") == iso(5) and readable_times("x", "valid_from") == "x"
    seed_graph(db, owner, "iso")
    result = run_console(db, owner, "MATCH ()-[r:REL]->() RETURN r.valid_from, r ORDER BY r.predicate LIMIT 1",
                         None, row_limit=10, timeout_ms=2000)
    table = render(result)
    assert "2020-01-01T00:00:00Z" in table and "1577836800000000" not in table
    raw = render(ConsoleResult(result.columns, result.rows), as_json=True)
    assert "1577836800000000" in raw  # JSON output keeps the graph's encoding for scripts
