"""POST /graphql answered by resolvers.direct: the same answers as the full stack, and the full stack for the rest.

Every request is sent twice, to the app and to `app.full` (the framework's middleware, router and
Strawberry's view, as before the direct path existed), and the two answers must be equal.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.types import Receive, Scope, Send

from graph.settings import Settings
from resolvers.app import WorldmemApp, create_app
from resolvers.direct import takes
from tests.gql import MakeToken, make_token  # noqa: F401


class FullOnly:
    """The app with every request sent the full way (lifespan included)."""

    def __init__(self, app: WorldmemApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self.app.full(scope, receive, send)
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


def test_the_full_stack_is_only_asked_for_what_the_direct_path_declines(
        settings: Settings, app_db_url: str, make_token: MakeToken,  # noqa: F811
        monkeypatch: pytest.MonkeyPatch) -> None:
    """With the framework broken for HTTP, direct requests still answer and a declined one reaches the break."""
    app = create_app(settings, database_url=app_db_url)
    asked: list[str] = []
    framework = FastAPI.__call__

    async def broken(self: FastAPI, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # the lifespan still starts the app
            await framework(self, scope, receive, send)
            return
        asked.append(scope["path"])
        raise RuntimeError("the full stack was asked")

    monkeypatch.setattr(FastAPI, "__call__", broken)
    token = make_token()
    with TestClient(app, raise_server_exceptions=False) as client:
        assert _post(client, {"query": "{ __typename }"}, token) == (200, {"data": {"__typename": "Query"}})
        status, body = _post(client, {"query": "subscription { memoryCommitted { committed } }"}, token)
        assert status == 400 and body["errors"][0]["extensions"]["code"] == "SUBSCRIPTION_NEEDS_WEBSOCKET"
        assert asked == []
        status, body = _post(client, {"query": "query A { __typename }", "operationName": "Z"}, token)
        assert asked == ["/graphql"]
        assert status == 500 and body["errors"][0]["extensions"]["code"] == "INTERNAL"
