"""Registries: idempotent upserts, conflicts, core protection, kinds, and the GraphQL fields over them.

Registries are global, so every test registers keys under its own fresh `tNNNN:` namespace.
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

import uuid
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graph.errors import BadInput, Conflict
from graph.ledger.registries import (
    EntityKind,
    RelationType,
    get_entity_kind,
    get_relation_type,
    list_entity_kinds,
    list_relation_types,
    register_entity_kinds,
    register_relation_types,
)
from graph.platform.db import Database
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401 (fixtures)

REGISTER_TYPES = """
mutation($types: [RelationTypeInput!]!) {
  registerRelationTypes(types: $types) {
    key name description inverse cardinality subjectKinds objectKinds
    isSymmetric isTransitive isHierarchical inferenceEnabled privileged source trustTier state
  }
}"""
REGISTER_KINDS = """
mutation($kinds: [EntityKindInput!]!) {
  registerEntityKinds(kinds: $kinds) { key name description privileged source trustTier state }
}"""


@pytest.fixture
def ns() -> str:
    return f"t{uuid.uuid4().hex[:10]}"


def employer(ns: str, **overrides: Any) -> dict[str, Any]:
    base = {"key": f"{ns}:employer", "name": "employer", "cardinality": "functional",
            "subject_kinds": ["person"], "object_kinds": ["organization"], "inverse": f"{ns}:employs",
            "description": "Where someone works"}
    return {**base, **overrides}


def stored_type(db: Database, key: str) -> RelationType | None:
    with db.connection() as conn, conn.transaction():
        return get_relation_type(conn, key)


def stored_kind(db: Database, key: str) -> EntityKind | None:
    with db.connection() as conn, conn.transaction():
        return get_entity_kind(conn, key)


def test_get_relation_type_returns_every_field(db: Database) -> None:
    found = stored_type(db, "lives_in")
    assert found == RelationType(
        key="lives_in", name="lives in", description="Residence", inverse="residence_of",
        cardinality="functional", subject_kinds=["person", "pet"], object_kinds=["place"],
        is_symmetric=False, is_transitive=False, is_hierarchical=False, inference_enabled=False,
        privileged=False, source="core", trust_tier=0, state="active")
    assert stored_type(db, "no_such_predicate") is None


def test_get_entity_kind_returns_every_field(db: Database) -> None:
    assert stored_kind(db, "policy") == EntityKind(
        key="policy", name="Policy", description="A standing rule the agent must follow", privileged=True,
        source="core", trust_tier=0, state="active")
    assert stored_kind(db, "no_such_kind") is None


def test_lists_are_sorted_and_complete(db: Database) -> None:
    with db.connection() as conn, conn.transaction():
        types, kinds = list_relation_types(conn), list_entity_kinds(conn)
    assert [t.key for t in types] == sorted(t.key for t in types) and "knows" in {t.key for t in types}
    assert [k.key for k in kinds] == sorted(k.key for k in kinds) and "person" in {k.key for k in kinds}


def test_register_is_idempotent(db: Database, ns: str) -> None:
    [first] = register_relation_types(db, [employer(ns)])
    assert first.source == "integration" and first.cardinality == "functional"
    assert first.object_kinds == ["organization"] and first.inference_enabled is False
    assert first.trust_tier == 2  # registered through the API: untrusted, never auto-inferred
    # Same meaning, kinds in another order and description omitted: a no-op.
    same = employer(ns, subject_kinds=["person", "person"], description=None)
    [again] = register_relation_types(db, [same])
    assert again == first == stored_type(db, f"{ns}:employer")


def test_integration_may_rename_but_not_redefine(db: Database, ns: str) -> None:
    register_relation_types(db, [employer(ns)])
    [renamed] = register_relation_types(db, [employer(ns, name="works for", description="Employment")])
    assert (renamed.name, renamed.description) == ("works for", "Employment")
    for change in ({"cardinality": "set"}, {"object_kinds": ["project"]}, {"inverse": None},
                   {"subject_kinds": None}, {"is_transitive": True}):
        with pytest.raises(Conflict) as exc:
            register_relation_types(db, [employer(ns, **change)])
        assert exc.value.code == "CONFLICTING_DEFINITION"
    assert stored_type(db, f"{ns}:employer") == renamed


def test_a_conflict_rolls_back_the_whole_batch(db: Database, ns: str) -> None:
    register_relation_types(db, [employer(ns)])
    fresh = employer(ns, key=f"{ns}:colleague", cardinality="set", inverse=None)
    with pytest.raises(Conflict):
        register_relation_types(db, [fresh, employer(ns, cardinality="set")])
    assert stored_type(db, f"{ns}:colleague") is None


def test_core_keys_cannot_be_redefined(db: Database) -> None:
    core = stored_type(db, "lives_in")
    assert core is not None
    same = {"key": "lives_in", "name": "lives in", "cardinality": "functional", "inverse": "residence_of",
            "subject_kinds": ["pet", "person"], "object_kinds": ["place"]}
    assert register_relation_types(db, [same]) == [core]
    for change in ({"name": "resides in"}, {"description": "Home"}, {"cardinality": "set"}):
        with pytest.raises(Conflict) as exc:
            register_relation_types(db, [{**same, **change}])
        assert exc.value.code == "CONFLICTING_DEFINITION"
    assert stored_type(db, "lives_in") == core


def test_unknown_kinds_are_refused(db: Database, ns: str) -> None:
    with pytest.raises(BadInput) as exc:
        register_relation_types(db, [employer(ns, object_kinds=[f"{ns}:company"])])
    assert exc.value.code == "UNKNOWN_KIND" and f"{ns}:company" in exc.value.message
    register_entity_kinds(db, [{"key": f"{ns}:company", "name": "Company"}])
    [created] = register_relation_types(db, [employer(ns, object_kinds=[f"{ns}:company"])])
    assert created.object_kinds == [f"{ns}:company"]


@pytest.mark.parametrize("key", ["Bad", "1abc", "a-b", "a:b:c", ":x", "x:", "", "a" * 101])
def test_malformed_keys_are_bad_input(db: Database, ns: str, key: str) -> None:
    with pytest.raises(BadInput) as exc:
        register_relation_types(db, [employer(ns, key=key)])
    assert exc.value.code == "BAD_INPUT" and "types[0]" in exc.value.message
    with pytest.raises(BadInput):
        register_entity_kinds(db, [{"key": key, "name": "x"}])


def test_entity_kinds_upsert(db: Database, ns: str) -> None:
    [kind] = register_entity_kinds(db, [{"key": f"{ns}:vehicle", "name": "Vehicle"}])
    assert kind == EntityKind(key=f"{ns}:vehicle", name="Vehicle", source="integration")
    assert register_entity_kinds(db, [{"key": f"{ns}:vehicle", "name": "Vehicle"}]) == [kind]
    [renamed] = register_entity_kinds(db, [{"key": f"{ns}:vehicle", "name": "Car", "description": "Wheels"}])
    assert (renamed.name, renamed.description) == ("Car", "Wheels")
    assert register_entity_kinds(db, [{"key": "person", "name": "Person"}])[0].source == "core"
    with pytest.raises(Conflict) as exc:
        register_entity_kinds(db, [{"key": "person", "name": "Human"}])
    assert exc.value.code == "CONFLICTING_DEFINITION"


# --- through GraphQL -------------------------------------------------------------------------------


def api_employer(ns: str, **overrides: Any) -> dict[str, Any]:
    base = {"key": f"{ns}:employer", "name": "employer", "cardinality": "FUNCTIONAL",
            "subjectKinds": ["person"], "objectKinds": ["organization"], "inverse": f"{ns}:employs"}
    return {**base, **overrides}


def test_registering_needs_an_integration_token(
    client: TestClient, make_token: MakeToken, db: Database, ns: str
) -> None:
    for token in (make_token(), make_token(import_=True)):
        body = gql(client, token, REGISTER_TYPES, {"types": [api_employer(ns)]})
        assert body["data"] is None and codes(body) == ["FORBIDDEN"]
        body = gql(client, token, REGISTER_KINDS, {"kinds": [{"key": f"{ns}:car", "name": "Car"}]})
        assert body["data"] is None and codes(body) == ["FORBIDDEN"]
    assert stored_type(db, f"{ns}:employer") is None and stored_kind(db, f"{ns}:car") is None


def test_register_over_graphql(client: TestClient, make_token: MakeToken, ns: str) -> None:
    token = make_token(integration=True)
    body = gql(client, token, REGISTER_TYPES, {"types": [api_employer(ns)]})
    assert "errors" not in body, body
    expected = {"key": f"{ns}:employer", "name": "employer", "description": None, "inverse": f"{ns}:employs",
                "cardinality": "FUNCTIONAL", "subjectKinds": ["person"], "objectKinds": ["organization"],
                "isSymmetric": False, "isTransitive": False, "isHierarchical": False,
                "inferenceEnabled": False, "privileged": False, "source": "integration", "trustTier": 2,
                "state": "active"}
    assert body["data"]["registerRelationTypes"] == [expected]
    again = gql(client, token, REGISTER_TYPES, {"types": [api_employer(ns)]})
    assert again["data"]["registerRelationTypes"] == [expected]
    listed = gql(client, make_token(), "{ relationTypes { key cardinality } }")["data"]["relationTypes"]
    assert {"key": f"{ns}:employer", "cardinality": "FUNCTIONAL"} in listed


def test_conflict_over_graphql_changes_nothing(
    client: TestClient, make_token: MakeToken, db: Database, ns: str
) -> None:
    token = make_token(integration=True)
    gql(client, token, REGISTER_TYPES, {"types": [api_employer(ns)]})
    before = stored_type(db, f"{ns}:employer")
    batch = [api_employer(ns, key=f"{ns}:friend", cardinality="SET", inverse=None),
             api_employer(ns, cardinality="SET")]
    body = gql(client, token, REGISTER_TYPES, {"types": batch})
    assert body["data"] is None and codes(body) == ["CONFLICTING_DEFINITION"]
    assert stored_type(db, f"{ns}:employer") == before and stored_type(db, f"{ns}:friend") is None


def test_typed_errors_over_graphql(client: TestClient, make_token: MakeToken, ns: str) -> None:
    token = make_token(integration=True)
    unknown = gql(client, token, REGISTER_TYPES, {"types": [api_employer(ns, objectKinds=["spaceship"])]})
    assert codes(unknown) == ["UNKNOWN_KIND"]
    bad_key = {"types": [api_employer(ns, key="Bad Key")]}
    response = client.post("/graphql", headers={"Authorization": f"Bearer {token}"},
                           json={"query": REGISTER_TYPES, "variables": bad_key})
    assert codes(response.json()) == ["BAD_INPUT"] and response.json()["data"] is None
    assert "Traceback" not in response.text and "File \"" not in response.text
    wrong_enum = gql(client, token, REGISTER_TYPES, {"types": [api_employer(ns, cardinality="MANY")]})
    assert codes(wrong_enum) == ["GRAPHQL_VALIDATION_FAILED"]
    kinds = gql(client, token, REGISTER_KINDS, {"kinds": [{"key": f"{ns}:car", "name": ""}]})
    assert codes(kinds) == ["BAD_INPUT"]


def test_entity_kinds_over_graphql(client: TestClient, make_token: MakeToken, ns: str) -> None:
    token = make_token(integration=True)
    body = gql(client, token, REGISTER_KINDS, {"kinds": [{"key": f"{ns}:car", "name": "Car"}]})
    assert body["data"]["registerEntityKinds"] == [{
        "key": f"{ns}:car", "name": "Car", "description": None, "privileged": False,
        "source": "integration", "trustTier": 0, "state": "active"}]
    listed = gql(client, make_token(), "{ entityKinds { key } }")["data"]["entityKinds"]
    assert {"key": f"{ns}:car"} in listed
