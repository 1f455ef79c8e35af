"""Query documents answered by their compiled plan (resolvers.compiled): the bytes schema.execute answers.

Every request goes three times through the app (the first validates the document on the full path, the
next ones are answered by the plan) and once through the framework alone (FastAPI, Strawberry's view, no
plan); the four answers must be the same bytes, and the plan must have answered where it can.
"""

from __future__ import annotations

import ast
from pathlib import Path as Path_
from typing import Any

import pytest
from fastapi.testclient import TestClient
from graphql import GraphQLError, GraphQLInt, GraphQLSchema, GraphQLString, parse
from graphql.pyutils import Path

from graph.demo import load_demo
from graph.platform.db import Database
from resolvers import compiled, document_cache, plans
from resolvers.document_cache import for_schema
from resolvers.schema import schema
from tests.gql import MakeToken, make_token  # noqa: F401
from tests.test_direct_path import AGENT_READS as DIRECT_READS
from tests.test_direct_path import FACT_FIELDS, NOW, app, both  # noqa: F401

WIDE_STATE = ("query($r: String!, $t: DateTime) { __typename s: stateAt(ref: $r, validTime: $t) { __typename ref "
              f"kind name facts {{ {FACT_FIELDS} }} retention {{ reason edge message summaries }} }} }}")
AGENT_READS: list[tuple[str, str, dict[str, Any]]] = [  # (what, document, variables): each compiles
    *(read for read in DIRECT_READS if read[0] != "a fragment"),  # the direct path's reads, but a fragment
    ("stateAt before the facts", WIDE_STATE, {"r": "pet:luna", "t": "2001-01-01T00:00:00Z"}),
    ("stateAsKnownAt", "query($r: String!, $s: DateTime!) { stateAsKnownAt(ref: $r, systemTime: $s) "
                       f"{{ ref facts {{ {FACT_FIELDS} }} }} }}", {"r": "person:basti", "s": NOW.isoformat()}),
    ("getEntity, typed", "query($r: String!) { getEntity(ref: $r) { facts { subject fact { predicate objectRef } } "
                         "aliases text } }", {"r": "Luni"}),
    ("neighbors", "query($r: String!) { neighbors(ref: $r, depth: 1) { hops { target { ref } } } }",
     {"r": "person:basti"}),
    ("searchWorldMemory, typed", "query($q: String!, $m: SearchMode!) { searchWorldMemory(query: $q, limit: 10, "
                                 "mode: $m) { mode hits { entity { ref } fact { subject } } } }",
     {"q": "Luna", "m": "TEXT"}),
    ("worldContext, parts", "query($m: String!) { worldContext(message: $m) { markdown tokens } }",
     {"m": "What do we know about Basti?"}),
    ("a named operation", "query Luna { a: getEntity(ref: \"pet:luna\") { text } b: __typename }", {}),
]
NOT_COMPILABLE = [
    "query($r: String!) { stateAt(ref: $r) { ...F } } fragment F on EntityState { ref }",
    "query($r: String!) { stateAt(ref: $r) { ... on EntityState { ref } } }",
    "query($r: String!, $y: Boolean!) { stateAt(ref: $r) { ref @include(if: $y) } }",
    "query($r: String!) { stateAt(ref: $r) { ref ref } }",
    "query($r: String!) { __schema { queryType { name } } a: stateAt(ref: $r) { ref } }",
    "query($r: String!) @skip(if: true) { stateAt(ref: $r) { ref } }",
    "mutation($r: String!) { __typename }",
    "query A($r: String!) { __typename } query B { __typename }",
]


@pytest.fixture
def answered(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The operations the plan answered (resolvers.compiled.answer returned bytes), in order."""
    seen: list[str] = []
    answer = compiled.answer

    async def counted(plan: plans.Plan, context: Any, payload: Any) -> bytes | None:
        body = await answer(plan, context, payload)
        if body is not None:
            seen.append(plan.steps[0].key)
        return body

    monkeypatch.setattr(compiled, "answer", counted)
    return seen


def _post(client: TestClient, token: str | None, query: str, variables: dict[str, Any],
          name: str | None = None) -> tuple[int, bytes]:
    body: dict[str, Any] = {"query": query, "variables": variables}
    if name:
        body["operationName"] = name
    response = client.post("/graphql", json=body, headers={"Authorization": f"Bearer {token}"} if token else {})
    return response.status_code, response.content


def _same(both: tuple[TestClient, TestClient], token: str | None, query: str,  # noqa: F811
          variables: dict[str, Any], name: str | None = None) -> bytes:
    direct, full = both
    expected = _post(full, token, query, variables, name)
    for _ in range(3):
        assert _post(direct, token, query, variables, name) == expected
    return expected[1]


def test_agent_reads_are_answered_by_their_plans_as_by_the_executor(
        both: tuple[TestClient, TestClient], db: Database, owner: str, make_token: MakeToken,  # noqa: F811
        answered: list[str]) -> None:
    load_demo(db, owner, now=NOW)
    token = make_token()
    for what, query, variables in AGENT_READS:
        before = len(answered)
        body = _same(both, token, query, variables)
        assert b'"errors"' not in body and b'"data":{' in body, (what, body[:300])
        assert len(answered) - before >= 2, f"{what}: the plan answered {len(answered) - before} of 3"


def _graphql_schema(clients: tuple[TestClient, TestClient], token: str) -> GraphQLSchema:
    """The graphql-core schema, as the validation of a new document records it for the plans."""
    _post(clients[0], token, "query Recorded { __typename }", {})
    recorded = for_schema(schema).graphql_schema
    assert recorded is not None
    return recorded


def test_documents_a_plan_cannot_answer_exactly_are_not_compiled(
        both: tuple[TestClient, TestClient], make_token: MakeToken) -> None:  # noqa: F811
    graphql_schema = _graphql_schema(both, make_token())
    for query in NOT_COMPILABLE:
        assert plans.compile_document(graphql_schema, parse(query)) is None, query
    plan = plans.compile_document(graphql_schema, parse(WIDE_STATE))
    assert plan is not None and [s.key for s in plan.steps] == ["__typename", "s"]
    # a resolver of ours gets its info; an attribute of the answer (Strawberry's basic field) needs none
    state, shape = plan.steps[1], plan.steps[1].shape
    while shape.inner is not None:  # through non-null and list to the object
        shape = shape.inner
    basic = {s.key: s.basic for s in shape.steps}
    assert not state.basic and basic["ref"] and basic["kind"], basic


def test_what_the_plan_declines_is_answered_the_full_way(
        both: tuple[TestClient, TestClient], db: Database, owner: str, make_token: MakeToken,  # noqa: F811
        answered: list[str]) -> None:
    load_demo(db, owner, now=NOW)
    token = make_token()
    state = "query($r: String!, $t: DateTime) { stateAt(ref: $r, validTime: $t) { ref facts { predicate } } }"
    _same(both, token, state, {"r": "pet:luna", "t": None})  # validated now, and answered by the plan
    before = len(answered)
    unknown = _same(both, token, state, {"r": "pet:lunaa", "t": None})  # the resolver raises: UNKNOWN_REF
    assert len(answered) == before + 3  # reported by the plan as graphql-core reports it, not run again
    find = "query($q: String!, $n: Int!) { findEntity(query: $q, limit: $n) { text } }"
    _same(both, token, find, {"q": "Luna", "n": 3})
    before = len(answered)
    too_many = _same(both, token, find, {"q": "Luna", "n": 99})  # a non-null root field fails: data null
    assert len(answered) == before + 3 and b'"data":null' in too_many and b'"BAD_LIMIT"' in too_many
    listed = _same(both, token, "query($r: String!) { getEntity(ref: $r) { text } __typename }", {"r": "x"})
    assert b'"errors"' not in listed
    compiled_before = len(answered)
    two_fields = _same(both, token, "query($r: String!) { a: stateAt(ref: $r) { ref } b: __typename }",
                       {"r": "pet:lunaa"})  # two root fields: graphql-core runs them at once, the full path
    bad_time = _same(both, token, state, {"r": "pet:luna", "t": "yesterday"})  # the variable does not coerce
    wrong_name = _same(both, token, state, {"r": "pet:luna"}, name="Other")  # no operation of that name
    assert b'"UNKNOWN_REF"' in unknown and b'"UNKNOWN_REF"' in two_fields
    assert b'"errors"' in bad_time and b'"errors"' in wrong_name
    assert len(answered) == compiled_before  # none of them was answered by the plan
    for query in NOT_COMPILABLE[:5]:
        _same(both, token, query, {"r": "pet:luna", "y": True})
    assert len(answered) == compiled_before
    refused = _same(both, None, state, {"r": "pet:luna", "t": None})  # no principal: refused the full way
    assert b'"UNAUTHENTICATED"' in refused
    assert len(answered) == compiled_before


def test_values_graphql_core_would_report_end_the_plan_attempt() -> None:
    run = compiled._Run.__new__(compiled._Run)  # completion only: no resolver runs
    text = plans.Shape("leaf", leaf=GraphQLString)
    number = plans.Shape("leaf", leaf=GraphQLInt)
    path = Path(None, "x", "Query")
    assert run.complete(plans.Shape("list", text), ("a", "b"), path) == ["a", "b"]
    assert run.complete(text, None, path) is None and run.complete(number, 7, path) == 7
    for shape, value in ((plans.Shape("nonnull", text), None),  # null for a non-null field
                         (plans.Shape("list", text), "ab"),  # a string where a list belongs
                         (plans.Shape("list", plans.Shape("nonnull", text)), ["a", None]),
                         (text, ValueError("a resolver's error as a value"))):
        with pytest.raises(compiled.Fallback):
            run.complete(shape, value, path)
    with pytest.raises(GraphQLError):  # answer() takes any exception as a fallback
        run.complete(number, "seven", path)


def test_the_plans_use_public_names_only() -> None:
    """No underscore name of Strawberry or graphql-core is imported or read by the plans' modules."""
    for module in (compiled, plans, document_cache):
        tree = ast.parse(Path_(module.__file__ or "").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                assert not any(part.startswith("_") for part in (node.module or "").split(".")), node.module
                assert not any(alias.name.startswith("_") for alias in node.names), ast.dump(node)
            if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
                assert isinstance(node.value, ast.Name) and node.value.id == "self", (module.__name__, node.attr)
