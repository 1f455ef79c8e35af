"""Helpers for API tests: a TestClient on a real database, tokens, and one-call GraphQL requests.

Import the fixtures into a test module with `from tests.gql import client, make_token  # noqa: F401`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graph.ledger.tokens import Kind, create_token
from graph.settings import Settings
from resolvers.app import create_app

MakeToken = Callable[..., str]


def gql(
    client: TestClient, token: str | None, query: str, variables: dict[str, Any] | None = None
) -> dict[str, Any]:
    """POST one GraphQL request; returns the JSON body (with `data` and/or `errors`)."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.post("/graphql", json={"query": query, "variables": variables or {}}, headers=headers)
    body: dict[str, Any] = response.json()
    return body


def codes(body: dict[str, Any]) -> list[str]:
    """The `extensions.code` of every error in a response body."""
    return [e.get("extensions", {}).get("code") for e in body.get("errors") or []]


def new_token(admin_url: str, owner: str, import_: bool = False, integration: bool = False, *,
              kind: Kind = "owner", name: str | None = None) -> str:
    return create_token(admin_url, owner, can_import=import_, can_integrate=integration, kind=kind, name=name)


@pytest.fixture
def make_token(test_db_url: str, owner: str) -> MakeToken:
    """`make_token(owner=None, import_=False, integration=False, kind="owner", name=None)`; owner defaults
    to the test's owner."""

    def make(owner_: str | None = None, *, import_: bool = False, integration: bool = False,
             kind: Kind = "owner", name: str | None = None) -> str:
        return new_token(test_db_url, owner_ or owner, import_, integration, kind=kind, name=name)

    return make


@pytest.fixture(scope="module")
def client(settings: Settings, app_db_url: str) -> Iterator[TestClient]:
    """One app (and pool) per test module; server exceptions become 500 responses, as in production. Not per
    session: each module imports this fixture, which makes it that module's own, so a session scope kept one
    app per module open (its pools, its listener, its lock sessions) to the end and ran out of connections."""
    # a client on this machine, as GET /metrics requires when no metrics token is set (resolvers/metrics_access.py)
    with TestClient(create_app(settings, database_url=app_db_url), raise_server_exceptions=False,
                    client=("127.0.0.1", 50000)) as c:
        yield c
