"""POST /graphql answered by resolvers.direct: the same answers as the framework's router, which answers the rest.

Every request is sent twice, to the app and to the framework alone (FastAPI's middleware, Strawberry's
router and view, which answer GET, WebSockets and streaming requests), and the two answers must be equal.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from client import queries as client_queries
from graph.demo import load_demo
from graph.platform.db import Database
from graph.settings import Settings
from resolvers.app import WorldmemApp, create_app
from resolvers.direct import takes
from tests.gql import MakeToken, make_token  # noqa: F401


class FullOnly:
    """The app with every request sent to the framework (lifespan included)."""

    def __init__(self, app: WorldmemApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await FastAPI.__call__(self.app, scope, receive, send)
        else:
            await self.app(scope, receive, send)


@pytest.fixture(scope="module")
def app(settings: Settings, app_db_url: str) -> WorldmemApp:
    built = create_app(settings, database_url=app_db_url)
    assert isinstance(built, WorldmemApp)
    return built


@pytest.fixture(scope="module")
def both(app: WorldmemApp) -> Iterator[tuple[TestClient, TestClient]]:
    with TestClient(app, raise_server_exceptions=False) as direct, \
            TestClient(FullOnly(app), raise_server_exceptions=False) as full:
        yield direct, full


def _post(client: TestClient, body: Any, token: str | None, **headers: str) -> tuple[int, Any]:
    sent = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.post("/graphql", json=body, headers={**sent, **headers})
    return response.status_code, response.json()


COMMIT = """mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed rejected { code } } }"""
REQUESTS: list[tuple[str, Any, bool]] = [  # (what, body, with a token)
    ("typename", {"query": "{ __typename }"}, True),
    ("typename without a token", {"query": "{ __typename }"}, False),
    ("data without a token", {"query": "{ stateAt(ref: \"x\") { facts { predicate } } }"}, False),
    ("a read with variables", {"query": "query($r: String!) { stateAt(ref: $r) { facts { predicate } } }",
                               "variables": {"r": "nobody"}}, True),
    ("a variable of the wrong type", {"query": "query($r: String!) { stateAt(ref: $r) { ref } }",
                                      "variables": {"r": 5}}, True),
    ("an unknown field", {"query": "{ noSuchField }"}, True),
    ("a syntax error", {"query": "{ stateAt(ref: "}, True),
    ("a bad DateTime", {"query": "{ stateAt(ref: \"x\", validTime: \"yesterday\") { ref } }"}, True),
    ("two operations, one named", {"query": "query A { __typename } query B { __schema { queryType { name } } }",
                                   "operationName": "B"}, True),
    ("two operations, none named", {"query": "query A { __typename } query B { __typename }"}, True),
    ("an unknown operation name", {"query": "query A { __typename }", "operationName": "Z"}, True),
    ("a variable of the wrong input type", {"query": "mutation($p: JSON!) { commitProposal(proposal: $p) "
                                                     "{ committed } }", "variables": {"p": {}}}, True),
    ("a mutation with a refusal", {"query": COMMIT, "variables": {"p": {"runId": "r", "operations": [
        {"assertFact": {"subject": "nobody", "predicate": "age", "value": 1,
                        "validFrom": "2026-01-01T00:00:00Z", "validTo": "2025-01-01T00:00:00Z",
                        "source": "user", "confidence": 1.0, "evidence": {"kind": "chat", "text": "t"}}}]}}}, True),
    ("too many aliases", {"query": "{ " + " ".join(f"a{i}: __typename" for i in range(500)) + " }"}, True),
    ("a subscription", {"query": "subscription { memoryCommitted { committed } }"}, True),
]


@pytest.mark.parametrize(("what", "body", "with_token"), REQUESTS, ids=[r[0] for r in REQUESTS])
def test_direct_answers_as_the_full_stack(both: tuple[TestClient, TestClient], make_token: MakeToken,  # noqa: F811
                                          what: str, body: Any, with_token: bool) -> None:
    direct, full = both
    token = make_token() if with_token else None
    assert _post(direct, body, token) == _post(full, body, token), what


def test_bad_bodies_are_refused_the_same(both: tuple[TestClient, TestClient]) -> None:
    direct, full = both
    for raw in (b"{", b"[]", b'{"query": 5}', b'{"query": "{ a }", "variables": [1]}', b"\xff"):
        first, second = (c.post("/graphql", content=raw, headers={"content-type": "application/json"})
                         for c in (direct, full))
        assert (first.status_code, first.json()) == (second.status_code, second.json())
        assert first.status_code == 400 and first.json()["errors"][0]["extensions"]["code"]


def test_only_plain_json_posts_take_the_direct_path(app: WorldmemApp) -> None:
    def scope(method: str = "POST", path: str = "/graphql", **headers: str) -> Scope:
        return {"type": "http", "method": method, "path": path,
                "headers": [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]}

    assert takes(scope(content_type="application/json"))
    assert takes(scope(content_type="application/json; charset=utf-8", accept="application/json"))
    assert not takes(scope(content_type="application/json", accept="multipart/mixed;deferSpec=20220824"))
    assert not takes(scope(content_type="application/json", accept="text/event-stream"))
    assert not takes(scope(content_type="multipart/form-data"))
    assert not takes(scope(method="GET", content_type="application/json"))
    assert not takes(scope(path="/graphql/x", content_type="application/json"))


def test_the_framework_is_not_asked_for_a_json_post(
        settings: Settings, app_db_url: str, make_token: MakeToken,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the framework broken for HTTP, JSON POSTs still answer, each as the router answers it."""
    app = create_app(settings, database_url=app_db_url)
    asked: list[str] = []
    framework = FastAPI.__call__

    async def broken(self: FastAPI, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # the lifespan still starts the app
            await framework(self, scope, receive, send)
            return
        asked.append(scope["path"])
        raise RuntimeError("the framework was asked")

    monkeypatch.setattr(FastAPI, "__call__", broken)
    token = make_token()
    with TestClient(app, raise_server_exceptions=False) as client:
        assert _post(client, {"query": "{ __typename }"}, token) == (200, {"data": {"__typename": "Query"}})
        status, body = _post(client, {"query": "subscription { memoryCommitted { committed } }"}, token)
        assert status == 400 and body["errors"][0]["extensions"]["code"] == "SUBSCRIPTION_NEEDS_WEBSOCKET"
        status, body = _post(client, {"query": "query A { __typename }", "operationName": "Z"}, token)
        assert status == 400 and body["errors"][0]["extensions"]["code"] == "BAD_REQUEST"
        assert asked == []
        assert client.get("/graphql", params={"query": "{ __typename }"}).status_code == 500  # GET: the framework's
        assert asked == ["/graphql"]


NOW = datetime.now(UTC).replace(second=0, microsecond=0)
FACT_FIELDS = ("id predicate value objectRef validFrom validTo recordedAt supersededAt observedAt status source "
               "confidence scope priority memoryType reason evidence supersedesFactId runId")
AGENT_READS: list[tuple[str, str, dict[str, Any]]] = [  # (what, document, variables)
    ("findEntity", client_queries.FIND_ENTITY, {"query": "Luni", "kind": None}),
    ("getEntity", client_queries.GET_ENTITY, {"ref": "pet:luna"}),
    ("recallFactsAbout", client_queries.RECALL_FACTS_ABOUT, {"entityOrQuery": "Luna", "predicate": "feeding*"}),
    ("getFactHistory", client_queries.GET_FACT_HISTORY, {"ref": "pet:luna", "predicate": "feeding_time"}),
    ("getStateAt", client_queries.STATE_AT, {"ref": "pet:luna", "validTime": (NOW - timedelta(days=30)).isoformat()}),
    ("getStateAsKnownAt", client_queries.STATE_AS_KNOWN_AT, {"ref": "pet:luna", "systemTime": NOW.isoformat()}),
    ("searchWorldMemory", client_queries.SEARCH_WORLD_MEMORY, {"query": "feeding", "limit": 5}),
    ("worldContext", client_queries.WORLD_CONTEXT, {"message": "Wann bekommt Luna ihr Futter?"}),
    ("getNeighbors", client_queries.GET_NEIGHBORS, {"ref": "person:basti", "depth": 2}),
    ("getEffectsOf", client_queries.EFFECTS_OF, {"eventOrRun": "demo:msg-1"}),
    ("getChangeExplanation", client_queries.EXPLAIN_CHANGE, {"ref": "pet:luna", "predicate": "feeding_time"}),
    ("stateAt, every field", "query($r: String!, $t: DateTime) { __typename s: stateAt(ref: $r, validTime: $t) "
     f"{{ __typename ref kind name facts {{ {FACT_FIELDS} }} retention {{ reason edge message summaries }} }} }}",
     {"r": "pet:luna", "t": None}),
    ("factHistory", f"{{ factHistory(ref: \"pet:luna\", predicate: \"feeding_time\") {{ {FACT_FIELDS} }} }}", {}),
    ("a fragment", "query($r: String!) { stateAt(ref: $r) { ...F } } fragment F on EntityState { ref }",
     {"r": "pet:luna"}),
]
FAILING_READS: list[tuple[str, str, dict[str, Any], str]] = [  # (what, document, variables, code)
    ("an unknown ref", "query($r: String!) { stateAt(ref: $r) { ref facts { predicate } } }", {"r": "pet:lunaa"},
     "UNKNOWN_REF"),
    ("a non-null root field fails", "query($q: String!, $n: Int!) { findEntity(query: $q, limit: $n) { text } }",
     {"q": "Luna", "n": 99}, "BAD_LIMIT"),
    ("beside another root field", "query($r: String!) { a: stateAt(ref: $r) { ref } b: __typename }",
     {"r": "pet:lunaa"}, "UNKNOWN_REF"),
    ("a variable that does not coerce", "query($r: String!, $t: DateTime) { stateAt(ref: $r, validTime: $t) "
     "{ ref } }", {"r": "pet:luna", "t": "yesterday"}, "BAD_INPUT"),
]


def _bytes(client: TestClient, token: str, query: str, variables: dict[str, Any]) -> tuple[int, bytes]:
    response = client.post("/graphql", json={"query": query, "variables": variables},
                           headers={"Authorization": f"Bearer {token}"})
    return response.status_code, response.content


def test_reads_answer_as_through_the_router(both: tuple[TestClient, TestClient], db: Database, owner: str,
                                            make_token: MakeToken) -> None:  # noqa: F811
    """The agent's documents and failing reads: the same JSON both ways, the first and the cached time."""
    load_demo(db, owner, now=NOW)
    token = make_token()
    direct, full = both
    for what, query, variables in AGENT_READS:
        status, body = _bytes(direct, token, query, variables)
        assert status == 200 and b'"errors"' not in body and b'"data":{' in body, (what, body[:300])
        for _ in range(2):
            again, from_full = _bytes(direct, token, query, variables), _bytes(full, token, query, variables)
            assert (again[0], json.loads(again[1])) == (from_full[0], json.loads(from_full[1])) == \
                (status, json.loads(body)), what
    for what, query, variables, code in FAILING_READS:
        for _ in range(2):
            status, body = _bytes(direct, token, query, variables)
            assert (status, json.loads(body)) == (lambda r: (r[0], json.loads(r[1])))(
                _bytes(full, token, query, variables)), what
            assert code in [e["extensions"]["code"] for e in json.loads(body)["errors"]], (what, body[:300])
