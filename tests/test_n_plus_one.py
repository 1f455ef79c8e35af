"""No resolver issues N+1 queries: a request's SQL statements are counted and must not grow with N.

Every statement the app sends goes through psycopg's `Cursor.execute`; the test wraps it (in this
process: the TestClient runs the app here) and compares the count for a small and a large world. A
resolver that loaded each entity's facts on its own would make the large world cost more.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from graph.ledger import proposal as p
from graph.platform.db import Database
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401
from tests.test_governance import commit, entity, fact, ok

REVIEW = """{ pendingReview(limit: 50) { message items { kind question
  entities { ref name facts { predicate value source } } } } }"""


class Counter:
    def __init__(self) -> None:
        self.statements = 0
        self.on = False


@pytest.fixture
def counter(monkeypatch: pytest.MonkeyPatch) -> Iterator[Counter]:
    count = Counter()
    original = psycopg.Cursor.execute

    def counting(self: psycopg.Cursor[Any], *args: Any, **kwargs: Any) -> Any:
        if count.on:
            count.statements += 1
        return original(self, *args, **kwargs)

    monkeypatch.setattr(psycopg.Cursor, "execute", counting)
    yield count


def _world(db: Database, owner: str, pairs: int) -> None:
    """`pairs` pairs of alike pets (each a merge suggestion), each pet with two facts."""
    ops: list[Any] = []
    for _ in range(pairs):
        base = uuid.uuid4().hex[:9]
        for name in (base, base + "q"):
            ref = f"pet:{name}"
            ops += [entity(ref, name), fact(ref, "birthday", "2019-04-01"), fact(ref, "feeding_time", "07:00")]
    ok(commit(db, owner, *ops))


def _cost(client: TestClient, token: str, counter: Counter) -> tuple[int, dict[str, Any]]:  # noqa: F811
    counter.statements, counter.on = 0, True
    try:
        body = gql(client, token, REVIEW)
    finally:
        counter.on = False
    assert "errors" not in body, body
    return counter.statements, body["data"]["pendingReview"]


def test_counter_sees_every_statement(db: Database, owner: str, counter: Counter) -> None:
    counter.on = True
    ok(commit(db, owner, p.UpsertEntity(ref="pet:a", kind="pet", canonical_name="A")))
    assert counter.statements >= 5  # so a count of 0 below cannot pass by accident


def test_review_of_n_entities_with_their_facts_costs_o1_statements(
        client: TestClient, make_token: MakeToken, db: Database, counter: Counter) -> None:  # noqa: F811
    costs = []
    for pairs in (1, 8):
        owner = f"owner-{uuid.uuid4().hex[:12]}"
        _world(db, owner, pairs)
        statements, review = _cost(client, make_token(owner), counter)
        assert len(review["items"]) == pairs
        assert sum(len(e["facts"]) for i in review["items"] for e in i["entities"]) == 4 * pairs
        costs.append(statements)
    assert costs[0] == costs[1], f"statements grew with N: {costs}"
    assert costs[0] <= 12, costs


AGENT_QUERIES = {
    "searchWorldMemory": '{ searchWorldMemory(query: "zorblat", limit: 20) { text hits { __typename } } }',
    "findEntity": '{ findEntity(query: "zorblat", limit: 20) { text matches { ref } } }',
    "worldContext": '{ worldContext(message: "how are the zorblat pets", budgetTokens: 4000) { markdown } }',
}


@pytest.mark.parametrize("field", AGENT_QUERIES)
def test_agent_tools_cost_o1_statements(client: TestClient, make_token: MakeToken, db: Database,  # noqa: F811
                                        counter: Counter, field: str) -> None:
    costs = []
    for n in (1, 8):
        owner = f"owner-{uuid.uuid4().hex[:12]}"
        ops: list[Any] = []
        for i in range(n):
            ref = f"pet:zorblat{i}"
            ops += [entity(ref, f"zorblat {i}", "zorblat" + "x" * i), fact(ref, "birthday", "2019-04-01"),
                    fact(ref, "feeding_time", "07:00")]
        ok(commit(db, owner, *ops))
        token = make_token(owner)
        counter.statements, counter.on = 0, True
        try:
            body = gql(client, token, AGENT_QUERIES[field])
        finally:
            counter.on = False
        assert "errors" not in body, body
        costs.append(counter.statements)
    assert costs[0] == costs[1], f"{field}: statements grew with N: {costs}"
