"""Schemathesis against the GraphQL schema: generated queries and mutations never cause a server error.

Every Query and Mutation field of the exported schema is one operation; each gets a bounded number of
generated requests, sent with a valid token of one fresh owner through the session's app. A 5xx status,
an untyped error or an error with code INTERNAL (an unexpected exception the API masked) fails the test:
expected failures must be typed.
"""

from __future__ import annotations

import uuid
from typing import Any

import graphql
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st
from schemathesis.graphql import nodes

from resolvers.schema import export_sdl
from tests.gql import client, new_token  # noqa: F401

MAX_EXAMPLES = 20  # per operation: enough to reach every argument, small enough for CI


def _json_nodes() -> st.SearchStrategy[graphql.ValueNode]:
    """Any JSON value, as the GraphQL literal schemathesis writes into the query."""
    leaves = st.one_of(st.just(nodes.Null), st.booleans().map(nodes.Boolean), st.integers().map(nodes.Int),
                       st.floats(allow_nan=False, allow_infinity=False).map(nodes.Float),
                       st.text(max_size=20).map(nodes.String))

    def nest(inner: st.SearchStrategy[graphql.ValueNode]) -> st.SearchStrategy[graphql.ValueNode]:
        fields = st.dictionaries(st.from_regex(r"[a-z][a-z0-9_]{0,8}", fullmatch=True), inner, max_size=4)
        return st.one_of(st.lists(inner, max_size=4).map(nodes.List), fields.map(lambda d: nodes.Object([
            graphql.ObjectFieldNode(name=graphql.NameNode(value=k), value=v) for k, v in d.items()])))

    return st.recursive(leaves, nest, max_leaves=8)


schemathesis.graphql.scalar("JSON", _json_nodes())
# From the SDL the app serves (the same schema object), so collection needs no server and no database.
schema = schemathesis.graphql.from_file(export_sdl())


@pytest.fixture(scope="module")
def token(test_db_url: str) -> str:
    return new_token(test_db_url, f"owner-fuzz-{uuid.uuid4().hex[:8]}", import_=True, integration=True)


# psycopg_pool's background workers draw from `random` (connection lifetime jitter) while Hypothesis
# generates the next case on the main thread; Hypothesis then blames its strategies. Not ours to fix.
@pytest.mark.filterwarnings("ignore:Do not use the `random` module inside strategies")
@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True, phases=[Phase.explicit, Phase.generate],
          suppress_health_check=list(HealthCheck))
def test_no_server_errors(case: Any, client: TestClient, token: str) -> None:  # noqa: F811
    payload = case.body if isinstance(case.body, dict) else {"query": case.body}
    response = client.post("/graphql", json=payload, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code < 500, response.text
    body = response.json()
    codes = [(e.get("extensions") or {}).get("code") for e in body.get("errors") or []]
    assert None not in codes, (payload, body)  # every error is typed
    assert "INTERNAL" not in codes, (payload, body)
