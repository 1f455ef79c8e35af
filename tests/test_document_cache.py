"""Parsed and validated documents are remembered (resolvers.document_cache), and nothing is weakened by it:
refused documents are refused every time, variables are checked on every request, operationName too."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any
from uuid import uuid4

import pytest
from fastapi.testclient import TestClient
from graphql import parse

from graph.ledger.tokens import create_token
from graph.settings import Settings
from resolvers import operation_guard
from resolvers.app import create_app
from resolvers.document_cache import MAX_CHARS, DocumentCache, few_values
from tests.gql import codes, gql

STATE = "query($r: String!) { stateAt(ref: $r) { ref } }"


@pytest.fixture(scope="module")
def fresh(settings: Settings, app_db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(settings, database_url=app_db_url), raise_server_exceptions=False) as c:
        yield c


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """How often the guard parsed (in a worker thread) and validated (its first checks, then Strawberry's rules)."""
    counted = {"parse": 0, "validate": 0}

    def counting(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapped(*args: Any) -> Any:
            counted[name] += 1
            return fn(*args)
        return wrapped

    monkeypatch.setattr(operation_guard, "parse_bounded", counting("parse", operation_guard.parse_bounded))
    monkeypatch.setattr(operation_guard, "first_errors", counting("validate", operation_guard.first_errors))
    return counted


def test_a_document_is_parsed_and_validated_once(fresh: TestClient, calls: dict[str, int], test_db_url: str,
                                                 owner: str) -> None:
    token = create_token(test_db_url, owner)
    query = "{ entityKinds { key } __typename } # " + uuid4().hex  # a text no other test sent
    first = gql(fresh, token, query)
    assert calls == {"parse": 1, "validate": 1}
    for _ in range(3):
        assert gql(fresh, token, query) == first
    assert calls == {"parse": 1, "validate": 1}
    assert first["data"]["entityKinds"]


def test_refused_documents_are_refused_every_time(fresh: TestClient, calls: dict[str, int], test_db_url: str,
                                                  owner: str) -> None:
    token = create_token(test_db_url, owner)
    unique = " # " + uuid4().hex  # texts no other test sent (a parsed document may be remembered)
    for _ in range(2):
        assert codes(gql(fresh, token, "{ noSuchField }" + unique)) == ["GRAPHQL_VALIDATION_FAILED"]
        assert codes(gql(fresh, token, "{ entityKinds { key }" + unique)) == ["GRAPHQL_PARSE_FAILED"]
    # the valid one is parsed once (then remembered) and validated twice; the broken one parsed twice
    assert calls == {"parse": 3, "validate": 2}


def test_variables_are_checked_on_every_request(fresh: TestClient, test_db_url: str, owner: str) -> None:
    token = create_token(test_db_url, owner)

    def ask(ref: str) -> list[str]:
        body = json.dumps({"query": STATE, "variables": {"r": ref}})  # ASCII: the surrogate travels escaped
        response = fresh.post("/graphql", content=body, headers={"Authorization": f"Bearer {token}",
                                                                 "Content-Type": "application/json"})
        return codes(response.json())

    for _ in range(2):
        assert ask("person:nobody") == ["UNKNOWN_REF"]  # the document is valid (and now remembered) ...
        assert ask("person:\ud800x") == ["BAD_INPUT"]  # ... and a lone surrogate is still refused


def test_operation_name_is_checked_on_every_request(fresh: TestClient, test_db_url: str, owner: str) -> None:
    token = create_token(test_db_url, owner)
    two = "query A { __typename } query B { __typename }"
    response = fresh.post("/graphql", json={"query": two, "operationName": "A"},
                          headers={"Authorization": f"Bearer {token}"})
    assert response.json() == {"data": {"__typename": "Query"}}
    assert codes(gql(fresh, token, two)) == ["OPERATION_NAME_REQUIRED"]


def test_validity_is_remembered_per_limit_and_per_schema() -> None:
    cache = DocumentCache()
    cache.remember_valid("{ a }", 5000, 30)
    assert cache.valid("{ a }", 5000, 30)
    assert not cache.valid("{ a }", 5000, 3) and not cache.valid("{ a }", 100, 30)


def test_the_cache_is_bounded_and_skips_large_documents() -> None:
    cache = DocumentCache(max_documents=2)
    for name in ("a", "b", "c"):
        cache.remember_parsed(f"{{ {name} }}", 5000, parse(f"{{ {name} }}"))
    assert [cache.parsed(f"{{ {n} }}", 5000) is not None for n in "abc"] == [False, True, True]
    big = "{ " + "a " * MAX_CHARS + "}"
    cache.remember_parsed(big, 5000, parse("{ a }"))
    cache.remember_valid(big, 5000, 30)
    assert cache.parsed(big, 5000) is None and not cache.valid(big, 5000, 30)


def test_few_values_counts_nested_values() -> None:
    assert few_values(None) and few_values({"a": [1, 2, {"b": 3}]})
    assert not few_values({"a": list(range(300))})
