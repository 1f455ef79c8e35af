"""Neighbour traversal: the named Cypher hops, the expansion policy, time travel, merges, isolation."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cypher
from graph.age.mirror import micros
from graph.errors import BadInput
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertRelationship, MemoryMutationProposal, MergeEntities, RetractFact, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.traversal import Direction, Neighborhood, NeighborQuery, RelType, label, level_predicates, neighbors
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

T0 = datetime(2024, 1, 1, tzinfo=UTC)
COLUMNS = {"from_id", "fact_id", "predicate", "scope", "valid_from", "valid_to", "recorded_at", "superseded_at",
           "to_id", "to_ref", "to_kind", "to_name", "to_status", "to_merged_into"}


def commit(db: Database, owner: str, run: str, ops: Sequence[Any], at: datetime | None = None) -> None:
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=list(ops)),
                             recorded_at=at)
    assert result.rejected == [], result.rejected


def rel(subject: str, predicate: str, obj: str, valid_from: datetime = T0, valid_to: datetime | None = None,
        source: str = "user") -> AssertRelationship:
    return AssertRelationship(subject=subject, predicate=predicate, object=obj, valid_from=valid_from,
                              valid_to=valid_to, source=source)


def entity(ref: str, name: str | None = None) -> UpsertEntity:
    kind, slug = ref.split(":", 1)
    return UpsertEntity(ref=ref, kind=kind, canonical_name=name or slug)


def edges(hood: Neighborhood | None) -> set[tuple[int, str, str, str]]:
    assert hood is not None
    return {(h.depth, h.source.ref, h.label, h.target.ref) for h in hood.hops}


@pytest.fixture
def house(db: Database, owner: str) -> None:
    """ann owns house; kitchen part_of house part_of street part_of city; bob knows ann."""
    commit(db, owner, "house", [
        entity("person:ann"), entity("person:bob"), entity("place:house"), entity("place:kitchen"),
        entity("place:street"), entity("place:city"),
        rel("person:ann", "owns", "place:house"), rel("place:kitchen", "part_of", "place:house"),
        rel("place:house", "part_of", "place:street"), rel("place:street", "part_of", "place:city"),
        rel("person:bob", "knows", "person:ann"),
    ])


@pytest.mark.usefixtures("house")
def test_neighbors_out_and_in_return_every_field(db: Database, owner: str) -> None:
    hood = neighbors(db, owner, NeighborQuery(ref="place:house"))
    assert hood is not None
    house_id = str(hood.origin.id)
    params = {"ids": [house_id], "v": micros(datetime.now(UTC)), "r": None, "predicates": None}
    with db.owner_tx(owner, read_only=True) as conn:
        out = cypher.run(conn, "neighbors_out", params)
        inc = cypher.run(conn, "neighbors_in", params)
    assert [set(r) for r in out + inc] == [COLUMNS] * 3
    (street,) = out
    assert street["from_id"] == house_id and street["predicate"] == "part_of"
    assert street["to_ref"] == "place:street" and street["to_kind"] == "place" and street["to_name"] == "street"
    assert street["to_status"] == "active" and street["to_merged_into"] is None and street["scope"] is None
    assert street["valid_from"] == micros(T0) and street["valid_to"] is None
    assert isinstance(street["recorded_at"], int) and street["superseded_at"] is None
    assert isinstance(street["fact_id"], str) and isinstance(street["to_id"], str)
    assert {(r["predicate"], r["to_ref"]) for r in inc} == {("owns", "person:ann"), ("part_of", "place:kitchen")}
    with db.owner_tx(owner, read_only=True) as conn:
        only = cypher.run(conn, "neighbors_in", {**params, "predicates": ["owns"]})
    assert [r["to_ref"] for r in only] == ["person:ann"]


def test_level_predicates_and_labels_follow_the_registry() -> None:
    types = {
        "owns": RelType(key="owns", inverse="owned_by"),
        "part_of": RelType(key="part_of", inverse="has_part", is_transitive=True, inference_enabled=True),
        "gh:depends_on": RelType(key="gh:depends_on", is_transitive=True, source="integration", trust_tier=2),
        "gh:mentions": RelType(key="gh:mentions", source="integration", trust_tier=2),
    }
    assert level_predicates(types, None, 1) is None
    assert level_predicates(types, ["owns"], 1) == ["owns"]
    assert level_predicates(types, None, 2) == ["part_of"]
    assert level_predicates(types, ["owns", "gh:depends_on", "gh:mentions"], 3) == ["gh:mentions", "owns"]
    assert level_predicates(types, ["unknown"], 2) == []
    assert label(types, "owns", Direction.IN) == "owned_by"
    assert label(types, "owns", Direction.OUT) == "owns"
    assert label(types, "gh:mentions", Direction.IN) == "gh:mentions"


@pytest.mark.usefixtures("house")
def test_depth_one_renders_inverse_predicates_and_directions(db: Database, owner: str) -> None:
    both = neighbors(db, owner, NeighborQuery(ref="place:house"))
    assert edges(both) == {(1, "place:house", "owned_by", "person:ann"),
                           (1, "place:house", "has_part", "place:kitchen"),
                           (1, "place:house", "part_of", "place:street")}
    hop = next(h for h in both.hops if h.target.ref == "person:ann") if both else None
    assert hop is not None and hop.predicate == "owns" and hop.direction is Direction.IN
    assert hop.valid_from == T0 and hop.valid_to is None and hop.superseded_at is None
    assert edges(neighbors(db, owner, NeighborQuery(ref="place:house", direction=Direction.OUT))) == {
        (1, "place:house", "part_of", "place:street")}
    owners = NeighborQuery(ref="place:house", direction=Direction.IN, predicates=["owns"])
    assert edges(neighbors(db, owner, owners)) == {(1, "place:house", "owned_by", "person:ann")}
    assert neighbors(db, owner, NeighborQuery(ref="place:nowhere")) is None


@pytest.mark.usefixtures("house")
def test_only_inference_enabled_predicates_expand_past_depth_one(db: Database, owner: str) -> None:
    out = NeighborQuery(ref="place:kitchen", depth=3, direction=Direction.OUT)
    assert edges(neighbors(db, owner, out)) == {
        (1, "place:kitchen", "part_of", "place:house"), (2, "place:house", "part_of", "place:street"),
        (3, "place:street", "part_of", "place:city")}
    # owns and knows are not inference-enabled: ann is met at depth 1 from the house, bob is not reached
    found = edges(neighbors(db, owner, NeighborQuery(ref="place:house", depth=2)))
    assert (1, "place:house", "owned_by", "person:ann") in found
    assert not any(target == "person:bob" for *_, target in found)
    # ... unless the caller names them
    named = edges(neighbors(db, owner, NeighborQuery(ref="place:house", depth=2, predicates=["owns", "knows"])))
    assert named == {(1, "place:house", "owned_by", "person:ann"), (2, "person:ann", "knows", "person:bob")}


def test_untrusted_transitive_predicates_are_never_followed_transitively(db: Database, owner: str) -> None:
    register_relation_types(db, [{"key": "gh:depends_on", "name": "depends on", "cardinality": "set",
                                  "is_transitive": True}])
    commit(db, owner, "gh", [entity("issue:a"), entity("issue:b"), entity("issue:c"),
                             rel("issue:a", "gh:depends_on", "issue:b", source="integration:github"),
                             rel("issue:b", "gh:depends_on", "issue:c", source="integration:github")])
    query = NeighborQuery(ref="issue:a", depth=3, predicates=["gh:depends_on"], direction=Direction.OUT)
    assert edges(neighbors(db, owner, query)) == {(1, "issue:a", "gh:depends_on", "issue:b")}


def test_as_of_valid_time_and_as_known_at_system_time(db: Database, owner: str) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    r1, r2 = now - timedelta(days=2), now - timedelta(days=1)
    moved_in, moved_out = T0, T0 + timedelta(days=365)
    commit(db, owner, "p1", [entity("person:cy"), entity("place:flat"),
                             rel("person:cy", "lives_in", "place:flat", moved_in, moved_out)], at=r1)
    query = NeighborQuery(ref="person:cy", direction=Direction.OUT, valid_time=moved_in + timedelta(days=10))
    assert edges(neighbors(db, owner, query)) == {(1, "person:cy", "lives_in", "place:flat")}
    assert edges(neighbors(db, owner, query.model_copy(update={"valid_time": moved_out}))) == set()
    assert edges(neighbors(db, owner, query.model_copy(update={"valid_time": moved_in - timedelta(days=1)}))) == set()
    # later we learn cy never lived there: retracted at r2
    commit(db, owner, "p2", [RetractFact(subject="person:cy", predicate="lives_in", object="place:flat",
                                         valid_from=moved_in, valid_to=moved_out)], at=r2)
    assert edges(neighbors(db, owner, query)) == set()
    then = neighbors(db, owner, query.model_copy(update={"system_time": r1 + timedelta(hours=1)}))
    assert edges(then) == {(1, "person:cy", "lives_in", "place:flat")}
    assert then is not None and then.hops[0].superseded_at == r2 and then.hops[0].recorded_at == r1
    before = query.model_copy(update={"system_time": r1 - timedelta(hours=1)})
    assert neighbors(db, owner, before) is None  # cy was recorded at r1: unknown before, as any unknown ref


def test_merged_entities_are_followed_to_their_survivor(db: Database, owner: str) -> None:
    now = datetime.now(UTC).replace(microsecond=0)
    r1, r2 = now - timedelta(days=2), now - timedelta(days=1)
    commit(db, owner, "m1", [entity("person:dee"), entity("place:home"), entity("place:home2", "home"),
                             rel("person:dee", "owns", "place:home2")], at=r1)
    commit(db, owner, "m2", [MergeEntities(entity="place:home2", into="place:home")], at=r2)
    # As known before the merge (merges carry their own system time), place:home2 was its own entity.
    back_then = NeighborQuery(ref="person:dee", direction=Direction.OUT, system_time=r1 + timedelta(hours=1))
    assert edges(neighbors(db, owner, back_then)) == {(1, "person:dee", "owns", "place:home2")}
    assert edges(neighbors(db, owner, NeighborQuery(ref="place:home2", system_time=r1 + timedelta(hours=1)))) == {
        (1, "place:home2", "owned_by", "person:dee")}
    assert edges(neighbors(db, owner, NeighborQuery(ref="place:home", system_time=r1 + timedelta(hours=1)))) == set()
    # As known after it, and now, the duplicate is followed to its survivor.
    after = NeighborQuery(ref="person:dee", direction=Direction.OUT, system_time=r2 + timedelta(hours=1))
    assert edges(neighbors(db, owner, after)) == {(1, "person:dee", "owns", "place:home")}
    assert edges(neighbors(db, owner, NeighborQuery(ref="place:home2", system_time=r2 + timedelta(hours=1)))) == {
        (1, "place:home", "owned_by", "person:dee")}
    assert edges(neighbors(db, owner, NeighborQuery(ref="place:home2"))) == {
        (1, "place:home", "owned_by", "person:dee")}


@pytest.mark.usefixtures("house")
def test_another_owner_never_appears(db: Database, owner: str) -> None:
    other = f"{owner}-b"
    commit(db, other, "b", [entity("place:house"), entity("person:mallory"), entity("place:city"),
                            rel("person:mallory", "owns", "place:house"), rel("place:house", "part_of", "place:city")])
    mine = neighbors(db, owner, NeighborQuery(ref="place:house", depth=3, predicates=["owns", "part_of", "knows"]))
    theirs = neighbors(db, other, NeighborQuery(ref="place:house", depth=3, predicates=["owns", "part_of"]))
    assert mine is not None and theirs is not None
    assert "person:mallory" not in {n.ref for n in mine.nodes}
    assert {n.id for n in mine.nodes}.isdisjoint({n.id for n in theirs.nodes} | {theirs.origin.id})
    assert edges(theirs) == {(1, "place:house", "owned_by", "person:mallory"),
                             (1, "place:house", "part_of", "place:city")}


def test_bad_input(db: Database, owner: str) -> None:
    with pytest.raises(ValueError):
        NeighborQuery(ref="place:x", depth=4)
    with pytest.raises(BadInput):
        neighbors(db, owner, NeighborQuery(ref="place:x", valid_time=datetime(2024, 1, 1)))


NEIGHBORS = """query($ref: String!, $depth: Int, $dir: Direction, $preds: [String!], $v: DateTime, $s: DateTime) {
  neighbors(ref: $ref, depth: $depth, direction: $dir, predicates: $preds, validTime: $v, systemTime: $s) {
    origin { id ref kind name }
    validTime systemTime
    hops { depth factId predicate label direction source { ref } target { id ref kind name } scopeId
           validFrom validTo recordedAt supersededAt }
  }
}"""


@pytest.mark.usefixtures("house")
def test_neighbors_over_graphql(client: TestClient, make_token: MakeToken, owner: str) -> None:  # noqa: F811
    body = gql(client, make_token(), NEIGHBORS, {"ref": "place:kitchen", "depth": 2, "dir": "OUT"})
    assert "errors" not in body, body
    hood = body["data"]["neighbors"]
    assert hood["origin"]["ref"] == "place:kitchen" and hood["systemTime"] is None
    assert [(h["depth"], h["source"]["ref"], h["label"], h["direction"], h["target"]["ref"]) for h in hood["hops"]] == [
        (1, "place:kitchen", "part_of", "OUT", "place:house"), (2, "place:house", "part_of", "OUT", "place:street")]
    first = hood["hops"][0]
    assert first["predicate"] == "part_of" and first["validFrom"] == T0.isoformat() and first["validTo"] is None
    assert first["factId"] and first["recordedAt"] and first["supersededAt"] is None and first["scopeId"] is None
    missing = gql(client, make_token(), NEIGHBORS, {"ref": "place:nowhere"})
    assert missing["data"]["neighbors"] is None
    other = gql(client, make_token(f"{owner}-x"), NEIGHBORS, {"ref": "place:kitchen"})
    assert other["data"]["neighbors"] is None
    bad = gql(client, make_token(), NEIGHBORS, {"ref": "place:kitchen", "depth": 9})
    assert bad["errors"][0]["extensions"]["code"] == "BAD_INPUT"


@pytest.mark.usefixtures("house")
def test_a_walk_that_fans_out_too_far_says_so(db: Database, owner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import graph.reads.traversal

    monkeypatch.setattr(graph.reads.traversal, "MAX_HOPS", 2)
    hood = neighbors(db, owner, NeighborQuery(ref="place:house", depth=3))
    assert hood is not None and hood.truncated and len(hood.hops) == 2
    assert not neighbors(db, owner, NeighborQuery(ref="person:bob")).truncated  # type: ignore[union-attr]
