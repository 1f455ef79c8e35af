"""The finder through GraphQL: a commit is embedded in the background after it returns, and
searchWorldMemory answers with the fused hits, the matched text and the mode."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

COMMIT = """mutation { commitProposal(proposal: {runId: "r-finder", operations: [
  {upsertEntity: {ref: "pet:kater", kind: "pet", canonicalName: "Moritz", aliases: ["der Kater"]}},
  {assertFact: {subject: "pet:kater", predicate: "description", value: "black tomcat who sleeps on the heater",
                validFrom: "2026-01-01T00:00:00Z", source: "user", confidence: 1,
                evidence: {kind: "message", text: "Moritz is our black tomcat"}}}
]}) { committed } }"""
SEARCH = """query($q: String!, $mode: SearchMode! = HYBRID) { searchWorldMemory(query: $q, kind: "pet",
  timeRange: {from: "2026-02-01T00:00:00Z"}, mode: $mode) {
  mode text hits { score foundBy matched entity { ref via } fact { subject } memory { sourceKind } } } }"""


def test_a_commit_is_projected_and_embedded_in_the_background(client: TestClient,  # noqa: F811
                                                               make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()
    body = gql(client, token, COMMIT)
    assert body.get("data") and body["data"]["commitProposal"]["committed"] == 2, body
    deadline, hits = time.monotonic() + 120, []  # the background thread loads the model once per process
    while time.monotonic() < deadline:
        data = gql(client, token, SEARCH, {"q": "Katze schläft auf der Heizung"})["data"]["searchWorldMemory"]
        hits = [h for h in data["hits"] if "meaning" in h["foundBy"]]
        if hits:
            break
        time.sleep(0.5)
    assert data["mode"] == "hybrid" and hits and hits[0]["entity"]["ref"] == "pet:kater"
    assert "tomcat" in hits[0]["matched"]
    # mode TEXT: the same server, the query not embedded; only names and words answer
    german = gql(client, token, SEARCH, {"q": "Katze schläft auf der Heizung", "mode": "TEXT"})
    assert german["data"]["searchWorldMemory"]["mode"] == "text", german
    assert german["data"]["searchWorldMemory"]["hits"] == []
    words = gql(client, token, SEARCH, {"q": "tomcat heater", "mode": "TEXT"})["data"]["searchWorldMemory"]
    assert words["mode"] == "text" and words["hits"], words
    assert all("meaning" not in h["foundBy"] for h in words["hits"])
    assert {h["entity"]["ref"] for h in words["hits"] if h["entity"]} == {"pet:kater"}


def test_bad_time_ranges_are_refused(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    body = gql(client, make_token(), """{ searchWorldMemory(query: "x",
        timeRange: {from: "2026-02-01T00:00:00Z", to: "2026-01-01T00:00:00Z"}) { text } }""")
    assert body["errors"][0]["extensions"]["code"] == "BAD_TIME"
