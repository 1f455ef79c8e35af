"""The explorer's server side: globalGraph (networkx ranking), memoryCommitted (LISTEN/NOTIFY over
graphql-transport-ws) and the built assets at `/`."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import networkx as nx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from graph.demo import load_demo
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertRelationship, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.platform.live import Commit, parse, summary
from graph.reads import centrality
from resolvers.web import mount_explorer
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

T0 = datetime(2024, 1, 1, tzinfo=UTC)
GLOBAL = """query($limit: Int!, $kinds: [String!], $predicates: [String!]) {
  globalGraph(limit: $limit, kinds: $kinds, predicates: $predicates) {
    nodes { ref kind degree pagerank community } edges { predicate source target }
    totalNodes totalEdges truncated } }"""


def star(db: Database, owner: str, leaves: int = 6) -> None:
    ops: list[Any] = [UpsertEntity(ref="person:hub", kind="person", canonical_name="Hub")]
    for i in range(leaves):
        ops += [UpsertEntity(ref=f"person:p{i}", kind="person", canonical_name=f"P{i}"),
                AssertRelationship(subject=f"person:p{i}", predicate="knows", object="person:hub",
                                   valid_from=T0)]
    ops += [UpsertEntity(ref="place:far", kind="place", canonical_name="Far"),
            AssertRelationship(subject="person:p0", predicate="lives_in", object="place:far",
                               valid_from=T0)]
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="star", operations=ops))
    assert result.rejected == []


def test_rank_puts_the_hub_first_and_respects_the_limit() -> None:
    graph: nx.MultiDiGraph[uuid.UUID] = nx.MultiDiGraph()
    ids = [uuid.uuid4() for _ in range(5)]
    for i, n in enumerate(ids):
        graph.add_node(n, ref=f"thing:{i}", kind="thing", name=str(i))
    for n in ids[1:]:
        graph.add_edge(n, ids[0], key=uuid.uuid4(), predicate="knows")
    ranked = centrality.rank(graph, 3)
    assert ranked.nodes[0].ref == "thing:0"
    assert len(ranked.nodes) == 3 and ranked.total_nodes == 5 and ranked.total_edges == 4
    kept = {n.id for n in ranked.nodes}
    assert all(e.source in kept and e.target in kept for e in ranked.edges) and len(ranked.edges) == 2
    assert centrality.rank(nx.MultiDiGraph(), 3).nodes == []


def test_global_graph_over_graphql(client: TestClient, make_token: MakeToken,  # noqa: F811
                                   db: Database, owner: str) -> None:
    star(db, owner)
    token = make_token()
    body = gql(client, token, GLOBAL, {"limit": 3})
    g = body["data"]["globalGraph"]
    assert g["totalNodes"] == 8 and g["totalEdges"] == 7 and g["truncated"] is False
    assert g["nodes"][0]["ref"] == "person:hub" and len(g["nodes"]) == 3
    assert g["nodes"][0]["degree"] == 6 and {n["community"] for n in g["nodes"]} <= {0, 1, 2}
    people = gql(client, token, GLOBAL, {"limit": 50, "kinds": ["person"]})["data"]["globalGraph"]
    assert people["totalNodes"] == 7 and all(n["kind"] == "person" for n in people["nodes"])
    lives = gql(client, token, GLOBAL, {"limit": 50, "predicates": ["lives_in"]})["data"]["globalGraph"]
    assert {n["ref"] for n in lives["nodes"]} == {"person:p0", "place:far"}
    assert codes(gql(client, token, GLOBAL, {"limit": centrality.MAX_NODES + 1})) == ["BAD_INPUT"]
    other = gql(client, make_token(f"other-{uuid.uuid4().hex[:8]}"), GLOBAL, {"limit": 50})
    assert other["data"]["globalGraph"]["nodes"] == []


def test_commit_payload_parsing() -> None:
    c = parse('{"owner": "o", "committed": 2, "pending": 1, "entityIds": []}')
    assert c == Commit.model_validate({"owner": "o", "committed": 2, "pending": 1})
    assert summary(c) == "2 committed, 1 pending, 0 entities"
    assert parse("not json") is None and parse('{"committed": 1}') is None


SUBSCRIBE = {"id": "1", "type": "subscribe",
             "payload": {"query": "subscription { memoryCommitted { entityIds committed pending summary } }"}}
UPSERT = """mutation($run: String!, $ref: String!) { commitProposal(proposal: {runId: $run, operations: [
  {upsertEntity: {ref: $ref, kind: "pet", canonicalName: "Mo"}},
  {assertFact: {subject: $ref, predicate: "feeding_time", value: "09:00", validFrom: "2024-01-01T00:00:00Z",
                source: "user", confidence: 1, evidence: {kind: "message", text: "t"}}}]}) { committed } }"""


def receive_within(ws: Any, seconds: float) -> dict[str, Any]:
    """The next message, or a failure after `seconds`: the test client's receive has no timeout, and a
    listener that lost its connection would otherwise hang the whole suite."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        waiting = pool.submit(ws.receive_json)
        try:
            message: dict[str, Any] = waiting.result(timeout=seconds)
        except FutureTimeout:
            ws.close()  # unblocks the waiting thread so the pool can shut down
            pytest.fail(f"no subscription message within {seconds} s")
        return message


def test_memory_committed_is_announced_to_its_owner_only(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                        owner: str) -> None:
    token, stranger = make_token(), make_token(f"other-{uuid.uuid4().hex[:8]}")
    with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send_json({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}})
        assert ws.receive_json()["type"] == "connection_ack"
        ws.send_json(SUBSCRIBE)
        # the subscription is live once the listener is; a commit of another owner comes first and is not seen
        assert gql(client, stranger, UPSERT, {"run": "s1", "ref": "pet:other"})["data"]["commitProposal"]
        body = gql(client, token, UPSERT, {"run": "s2", "ref": "pet:mo"})
        assert body["data"]["commitProposal"]["committed"] == 2
        message = receive_within(ws, 30)
        assert message["type"] == "next", message
        event = message["payload"]["data"]["memoryCommitted"]
        assert event["committed"] == 2 and event["pending"] == 0 and len(event["entityIds"]) == 1
        hood = gql(client, token, '{ neighbors(ref: "pet:mo") { origin { id } } }')
        assert event["entityIds"] == [hood["data"]["neighbors"]["origin"]["id"]]
        assert "feeding" not in str(message) and "09:00" not in str(message)  # ids and counts only


def test_a_websocket_without_a_token_is_refused(client: TestClient) -> None:  # noqa: F811
    with client.websocket_connect("/graphql", subprotocols=["graphql-transport-ws"]) as ws:
        ws.send_json({"type": "connection_init", "payload": {}})
        message = ws.receive()
        assert message["type"] == "websocket.close" and message["code"] == 4403


def test_the_explorer_is_served_at_the_root(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<title>Gedächtnis</title>")
    built = FastAPI()
    mount_explorer(built, tmp_path)
    assert "Gedächtnis" in TestClient(built).get("/").text
    bare = FastAPI()
    mount_explorer(bare, tmp_path / "missing")
    response = TestClient(bare).get("/")
    assert response.status_code == 404 and "make run" in response.text


EVENTS = """query($ref: String!) { entityEvents(ref: $ref) { eventType depth summary causedByEventId id intent } }"""


def test_entity_events_give_the_timeline_with_direct_causes(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                             db: Database, owner: str) -> None:
    load_demo(db, owner)
    token = make_token()
    events = gql(client, token, EVENTS, {"ref": "Luni"})["data"]["entityEvents"]
    about = {(e["eventType"], e["depth"]) for e in events}
    assert about == {("state_change", 0), ("agent_tool_call", 0), ("user_message", 1)}
    message = next(e for e in events if e["eventType"] == "user_message")
    assert all(e["causedByEventId"] == message["id"] for e in events if e["depth"] == 0)
    assert gql(client, token, EVENTS, {"ref": "pet:nobody"})["data"]["entityEvents"] is None
    assert codes(gql(client, token, '{ entityEvents(ref: "pet:luna", limit: 0) { id } }')) == ["BAD_INPUT"]
