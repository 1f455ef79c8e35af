"""Who may register and change vocabulary keys: namespaces per integration and owner, registrants."""

# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

import uuid
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from graph.platform.db import Database
from tests.gql import client, codes, gql, new_token  # noqa: F401 (fixtures)

TYPES = "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key name cardinality } }"
KINDS = "mutation($k: [EntityKindInput!]!) { registerEntityKinds(kinds: $k) { key name } }"


def _type(key: str, name: str = "colour", cardinality: str = "FUNCTIONAL") -> dict[str, Any]:
    return {"key": key, "name": name, "cardinality": cardinality}


def _register(client: TestClient, token: str, *types: dict[str, Any]) -> dict[str, Any]:
    return gql(client, token, TYPES, {"t": list(types)})


@pytest.fixture
def name() -> str:
    return f"i{uuid.uuid4().hex[:8]}"


def test_an_integration_namespace_belongs_to_one_owner(client: TestClient, test_db_url: str, name: str) -> None:
    alice, bob = f"alice-{name}", f"bob-{name}"
    alices = new_token(test_db_url, alice, kind="integration", name=name)
    bobs = new_token(test_db_url, bob, kind="integration", name=name)
    bobs_owner = new_token(test_db_url, bob, integration=True)
    assert _register(client, alices, _type(f"{name}:colour"))["data"]["registerRelationTypes"][0]["key"]
    # Bob's integration of the same name cannot claim or redefine anything in Alice's namespace
    assert codes(_register(client, bobs, _type(f"{name}:colour", cardinality="SET"))) == ["NAMESPACE_TAKEN"]
    assert codes(_register(client, bobs, _type(f"{name}:size"))) == ["NAMESPACE_TAKEN"]
    assert codes(_register(client, bobs_owner, _type(f"{name}:size"))) == ["NAMESPACE_TAKEN"]
    assert codes(gql(client, bobs, KINDS, {"k": [{"key": f"{name}:car", "name": "Car"}]})) == ["NAMESPACE_TAKEN"]


def test_an_integration_registers_only_in_its_namespace(client: TestClient, test_db_url: str, owner: str,
                                                        name: str) -> None:
    token = new_token(test_db_url, owner, kind="integration", name=name)
    for key in ("status", "name", f"x{name}:colour", "owns"):  # core keys included: never shadowed
        assert codes(_register(client, token, _type(key))) == ["NAMESPACE"], key
    # all or nothing: a refused key in a batch writes none of it
    assert codes(_register(client, token, _type(f"{name}:ok"), _type("colour"))) == ["NAMESPACE"]
    assert codes(_register(client, token, _type(f"{name}:ok", cardinality="SET"))) == []


def test_only_the_registrant_changes_a_key(client: TestClient, test_db_url: str, owner: str, name: str) -> None:
    feed = new_token(test_db_url, owner, kind="integration", name=name)
    other_feed = new_token(test_db_url, owner, kind="integration", name=f"{name}b")
    me = new_token(test_db_url, owner, integration=True)
    key = f"{name}:colour"
    assert codes(_register(client, feed, _type(key))) == []
    # the same owner's own token may use it (identical definition) but not rename it
    assert codes(_register(client, me, _type(key))) == []
    assert codes(_register(client, me, _type(key, name="color"))) == ["REGISTERED_BY_OTHER"]
    assert codes(_register(client, other_feed, _type(key, name="color"))) == ["NAMESPACE"]
    renamed = _register(client, feed, _type(key, name="color"))
    assert renamed["data"]["registerRelationTypes"][0]["name"] == "color"
    # a key the owner registered without a namespace is theirs: another owner may use it, not rename it
    plain = f"k{name}"
    stranger = new_token(test_db_url, f"other-{owner}", integration=True)
    assert codes(_register(client, me, _type(plain))) == []
    assert codes(_register(client, stranger, _type(plain))) == []
    assert codes(_register(client, stranger, _type(plain, name="hijacked"))) == ["REGISTERED_BY_OTHER"]
    assert codes(_register(client, stranger, _type(plain, cardinality="SET"))) == ["CONFLICTING_DEFINITION"]


def test_core_keys_cannot_be_renamed_by_any_token(client: TestClient, test_db_url: str, owner: str) -> None:
    me = new_token(test_db_url, owner, integration=True)
    assert codes(_register(client, me, {**_type("status"), "name": "state"})) == ["CONFLICTING_DEFINITION"]


def test_agent_tokens_register_nothing(client: TestClient, test_db_url: str, owner: str, name: str) -> None:
    agent = new_token(test_db_url, owner, kind="agent")
    assert codes(_register(client, agent, _type(f"{name}:colour"))) == ["FORBIDDEN"]


def test_app_role_cannot_rewrite_a_registrant(db: Database) -> None:
    with pytest.raises(psycopg.errors.InsufficientPrivilege), db.connection() as conn, conn.transaction():
        conn.execute("UPDATE relation_types SET registered_owner = 'me', registered_as = 'owner' WHERE key = 'owns'")
    with pytest.raises(psycopg.errors.InsufficientPrivilege), db.connection() as conn, conn.transaction():
        conn.execute("UPDATE registry_namespaces SET owner_sub = 'me'")
