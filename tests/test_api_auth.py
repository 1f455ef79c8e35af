"""The API boundary: tokens, typed errors, masking, body and depth limits."""

# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

from typing import Any, cast

import pytest
from fastapi.testclient import TestClient

from graph.errors import Unavailable
from graph.ledger import registries, token_cache
from graph.ledger.tokens import Principal, authenticate, create_token, hash_token, revoke_token
from graph.platform.db import Database
from graph.settings import Settings
from resolvers import context
from resolvers.app import create_app
from resolvers.schema import build_schema
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401 (fixtures)

KINDS = "{ entityKinds { key } }"
WELL_FORMED = "wm_" + "x" * 43  # passes the format check, so the (patched) lookup is asked


def only_unauthenticated(body: dict[str, Any]) -> bool:
    return body.get("data") is None and codes(body) == ["UNAUTHENTICATED"]


def test_no_token_is_refused_with_nothing_else(client: TestClient) -> None:
    body = gql(client, None, KINDS)
    assert only_unauthenticated(body), body


@pytest.mark.parametrize("header", ["Bearer wm_not-a-real-token", "Bearer ", "Basic dXNlcjpwdw==", "wm_abc"])
def test_bad_token_is_refused(client: TestClient, header: str) -> None:
    response = client.post("/graphql", json={"query": KINDS}, headers={"Authorization": header})
    assert only_unauthenticated(response.json()), response.text


def test_unauthenticated_sees_no_validation_and_no_data(client: TestClient) -> None:
    assert only_unauthenticated(gql(client, "wm_nope", "{ noSuchField }"))
    assert only_unauthenticated(gql(client, None, "mutation { registerEntityKinds(kinds: []) { key } }"))
    # Introspection is allowed without a token (see test_graphiql.py), but not mixed with data.
    assert only_unauthenticated(gql(client, None, "{ __schema { queryType { name } } entityKinds { key } }"))
    assert only_unauthenticated(gql(client, None, "{ ...F } fragment F on Query { entityKinds { key } }"))
    assert only_unauthenticated(gql(client, None, "{ __typename } query Two { entityKinds { key } }"))


def test_revoked_token_is_refused(client: TestClient, test_db_url: str, owner: str) -> None:
    """A token never verified since its revocation is refused at once (the cache holds only live tokens);
    tests/test_token_cache.py covers one verified just before (refused once the cache's TTL is over)."""
    token = create_token(test_db_url, owner)
    assert revoke_token(test_db_url, token)
    assert not revoke_token(test_db_url, token)
    assert only_unauthenticated(gql(client, token, KINDS))


def test_token_is_stored_hashed_and_carries_rights(
    make_token: MakeToken, admin_conn: Any, db: Any, owner: str
) -> None:
    token = make_token(import_=True, integration=True)
    assert token.startswith("wm_") and len(token) > 40
    rows = admin_conn.execute(
        "SELECT token_hash, owner_sub, can_import, can_integrate, created_at, revoked_at "
        "FROM api_tokens WHERE owner_sub = %s", (owner,)).fetchall()
    assert len(rows) == 1
    token_hash, owner_sub, can_import, can_integrate, created_at, revoked_at = rows[0]
    assert (token_hash, owner_sub, can_import, can_integrate) == (hash_token(token), owner, True, True)
    assert created_at is not None and revoked_at is None
    principal = authenticate(db, token)
    assert (principal.owner, principal.can_import, principal.can_integrate) == (owner, True, True)


def test_app_role_cannot_write_tokens(db: Any) -> None:
    import psycopg

    with pytest.raises(psycopg.errors.InsufficientPrivilege), db.connection() as conn, conn.transaction():
        conn.execute("INSERT INTO api_tokens (token_hash, owner_sub) VALUES (repeat('a', 64), 'someone')")


def test_token_owner_is_validated(test_db_url: str) -> None:
    from graph.errors import BadInput

    with pytest.raises(BadInput):
        create_token(test_db_url, "not a valid owner!")


def test_validation_and_parse_errors_are_typed(client: TestClient, make_token: MakeToken) -> None:
    token = make_token()
    body = gql(client, token, "{ noSuchField }")
    assert codes(body) == ["GRAPHQL_VALIDATION_FAILED"] and "noSuchField" in body["errors"][0]["message"]
    assert codes(gql(client, token, "{ entityKinds { key ")) == ["GRAPHQL_PARSE_FAILED"]


def test_query_depth_is_limited(settings: Settings) -> None:
    # Our registry types are shallow, so check the limiter on a schema built with a tiny limit.
    shallow = build_schema(max_depth=0)
    ctx = context.Context(cast(Database, None), settings, Principal("someone", "owner"))
    result = shallow.execute_sync("{ relationTypes { key } }", context_value=ctx)
    assert result.errors and result.data is None
    error = result.errors[0]
    assert error.extensions == {"code": "QUERY_TOO_DEEP", "callerMustFix": True}
    assert "exceeds maximum operation depth" in error.message


def test_unexpected_errors_are_masked(
    client: TestClient, make_token: MakeToken, monkeypatch: pytest.MonkeyPatch
) -> None:
    def explode(_: object) -> None:
        raise RuntimeError("secret internals at /srv/worldmem/graph/registries.py")

    monkeypatch.setattr(registries, "all_entity_kinds", explode)
    response = client.post("/graphql", json={"query": KINDS},
                           headers={"Authorization": f"Bearer {make_token()}"})
    body = response.json()
    assert codes(body) == ["INTERNAL"] and body["errors"][0]["message"] == "Unexpected error."
    assert "secret" not in response.text and "Traceback" not in response.text


def test_database_outage_is_typed(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    def down(*_: object) -> None:
        raise Unavailable("the database is not reachable")

    monkeypatch.setattr(token_cache, "authenticate", down)
    body = gql(client, WELL_FORMED, KINDS)
    assert body["data"] is None and codes(body) == ["UNAVAILABLE"]


@pytest.fixture(scope="module")
def small_client(settings: Settings, app_db_url: str) -> Any:
    small = settings.model_copy(update={"max_request_bytes": 300})
    with TestClient(create_app(small, database_url=app_db_url)) as c:
        yield c


def test_oversize_body_is_refused(small_client: TestClient) -> None:
    query = "{ entityKinds { key } }" + " " * 400
    response = small_client.post("/graphql", json={"query": query})
    assert response.status_code == 413
    assert codes(response.json()) == ["PAYLOAD_TOO_LARGE"]


def test_oversize_chunked_body_is_refused(small_client: TestClient) -> None:
    def chunks() -> Any:
        yield b'{"query": "{ entityKinds { key } }'
        yield b" " * 400
        yield b'"}'

    response = small_client.post("/graphql", content=chunks(), headers={"content-type": "application/json"})
    assert response.status_code == 413
    assert codes(response.json()) == ["PAYLOAD_TOO_LARGE"]


def test_small_body_passes_the_limit(small_client: TestClient, make_token: MakeToken) -> None:
    assert gql(small_client, make_token(), KINDS)["data"]["entityKinds"]


def test_cli_token_create_prints_the_token_last(
    test_db_url: str, db: Any, owner: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from cli import main as cli

    monkeypatch.setattr(cli, "admin_url", lambda _settings: test_db_url)
    assert cli.main(["token", "create", "--owner", owner, "--integration"]) == 0
    token = capsys.readouterr().out.strip().splitlines()[-1]
    assert authenticate(db, token) == Principal(owner, "owner", can_import=False, can_integrate=True)
    assert cli.main(["token", "create", "--owner", "bad owner"]) == 2
    assert "owner must be" in capsys.readouterr().err


def test_broken_token_lookup_is_masked(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise KeyError("relation api_tokens does not exist")

    monkeypatch.setattr(token_cache, "authenticate", broken)
    response = client.post("/graphql", json={"query": KINDS}, headers={"Authorization": f"Bearer {WELL_FORMED}"})
    assert response.status_code == 200 and codes(response.json()) == ["INTERNAL"]
    assert "api_tokens" not in response.text
