"""The GitHub-like fixture (tests/data/sync_github.json) synced twice through GraphQL with an integration
token, an agent's actions in between: exactly the changed facts and events, and their causal links."""
# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import MemoryMutationProposal, RecordEvent
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from graph.reads.causality import explain_change
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

FIXTURE = Path(__file__).parent / "data" / "sync_github.json"
KINDS = "mutation($k: [EntityKindInput!]!) { registerEntityKinds(kinds: $k) { key } }"
TYPES = "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }"
SYNC = """mutation($s: String!, $e: [SyncEntryInput!]!) { syncEntities(source: $s, entries: $e) {
  source recordedAt created changed unchanged rejected
  entries { index sourceEntryId status ref changed eventId code message } } }"""


def fixture(name: str) -> dict[str, Any]:
    """The fixture with its `github` namespace renamed (namespaces are global and claimed per owner)."""
    data: dict[str, Any] = json.loads(FIXTURE.read_text().replace("github", name))
    return data


def entries(batch: dict[str, Any], base: datetime) -> list[dict[str, Any]]:
    at = (base + timedelta(minutes=batch["at"])).isoformat()
    return [{**e, "observedAt": at} for e in batch["entries"]]


def register(client: TestClient, token: str, data: dict[str, Any]) -> None:
    assert "errors" not in gql(client, token, KINDS, {"k": data["kinds"]})
    assert "errors" not in gql(client, token, TYPES, {"t": data["predicates"]})


def sync(client: TestClient, token: str, batch: list[dict[str, Any]]) -> dict[str, Any]:
    body = gql(client, token, SYNC, {"s": "acme/home-agent", "e": batch})
    assert "errors" not in body, body
    result: dict[str, Any] = body["data"]["syncEntities"]
    return result


def act(db: Database, owner: str, action: dict[str, Any], base: datetime) -> None:
    expected = {"target": action["target"], **action["expected"]} if "expected" in action else None
    op = RecordEvent(event_type="agent_tool_call", occurred_at=base + timedelta(minutes=action["at"]),
                     target=action["target"], intent=action["intent"], expected_effect=expected,
                     summary=action["summary"], external_ref=action["key"])
    result = commit_proposal(db, Principal(owner=owner, kind="agent"),
                             MemoryMutationProposal(run_id=action["key"], operations=[op]))
    assert result.rejected == [], result.rejected


def run_rows(db: Database, owner: str, run_id: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    with db.owner_tx(owner, read_only=True) as conn:
        facts = conn.execute(
            "SELECT e.ref, f.predicate, f.object_value AS value, f.valid_from, f.valid_to, f.retention_class, "
            "f.source, f.caused_by_event_id FROM facts f JOIN entities e ON e.id = f.subject_id "
            "WHERE f.run_id = %s AND f.superseded_at IS NULL ORDER BY 1, 2, 4", (run_id,)).fetchall()
        events = conn.execute(
            "SELECT w.id, e.ref, w.causation_kind, c.external_ref AS cause, w.payload, w.event_type "
            "FROM world_events w JOIN entities e ON e.id = w.target_entity_id "
            "LEFT JOIN world_events c ON c.id = w.caused_by_event_id WHERE w.run_id = %s ORDER BY 2",
            (run_id,)).fetchall()
    return list(facts), list(events)


def test_github_fixture_synced_twice(client: TestClient, make_token: MakeToken, db: Database, owner: str) -> None:
    name = f"gh{uuid.uuid4().hex[:8]}"
    data = fixture(name)
    token = make_token(kind="integration", name=name)
    register(client, token, data)
    base = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=3)

    first = sync(client, token, entries(data["first"], base))
    assert (first["created"], first["changed"], first["unchanged"], first["rejected"]) == (7, 0, 0, 0)
    assert first["entries"][0]["ref"] == f"{name}:issue:acme/home-agent#7"
    assert first["entries"][0]["changed"] == [f"{name}:{k}" for k in ("author", "labels", "state", "title")]
    again = sync(client, token, entries(data["first"], base))  # idempotent: a retry changes nothing
    assert (again["created"], again["changed"], again["unchanged"]) == (0, 0, 7)

    for action in data["agent_actions"]:
        act(db, owner, action, base)
    second = sync(client, token, entries(data["second"], base))
    status = {e["sourceEntryId"]: (e["status"], e["changed"]) for e in second["entries"]}
    p = f"{name}:"
    assert status == {
        "I_kw7": ("CHANGED", [p + "state"]),
        "I_kw8": ("UNCHANGED", []),  # same content, keys in another order
        "I_kw9": ("CHANGED", [p + "labels"]),
        "PR_kw10": ("CHANGED", [p + "draft", p + "state"]),  # draft: the key is gone
        "PRR_100": ("UNCHANGED", []),
        "PRR_101": ("CREATED", [p + "decision", p + "pull", p + "reviewed_by"]),
        "LA_bug": ("CHANGED", [p + "color"]),
        "LA_feature": ("UNCHANGED", []),
    }

    t1, t2 = base, base + timedelta(minutes=150)
    run_id = f"sync:{name}:acme/home-agent:{datetime.fromisoformat(second['recordedAt']).isoformat()}"
    facts, events = run_rows(db, owner, run_id)
    issue, pull, review, bug = (f"{name}:{r}" for r in ("issue:acme/home-agent#7", "pull:acme/home-agent#10",
                                                        "review:acme/home-agent#10/r101", "label:acme/home-agent/bug"))
    nine = f"{name}:issue:acme/home-agent#9"
    # every row the second sync wrote: the new values from t2, and what was believed before kept up to t2
    assert [(f["ref"], f["predicate"], f["value"], f["valid_from"], f["valid_to"]) for f in facts] == sorted([
        (issue, p + "state", "open", t1, t2), (issue, p + "state", "closed", t2, None),
        (nine, p + "labels", [], t1, t2), (nine, p + "labels", ["flaky"], t2, None),
        (bug, p + "color", "d73a4a", t1, t2), (bug, p + "color", "b60205", t2, None),
        (pull, p + "draft", True, t1, t2),
        (pull, p + "state", "open", t1, t2), (pull, p + "state", "merged", t2, None),
        (review, p + "decision", "approved", t2, None), (review, p + "pull", "#10", t2, None),
        (review, p + "reviewed_by", "basti", t2, None),
    ], key=lambda r: (r[0], r[1], r[3]))
    assert {f["retention_class"] for f in facts} == {"windowed"}
    assert {f["source"] for f in facts} == {f"integration:{name}"}
    # one integration_sync event per created or changed entry, linked by the core's causality rule
    assert [(e["ref"], e["causation_kind"], e["cause"]) for e in events] == sorted([
        (issue, "direct", "act-close-7"),  # the agent closed #7 three minutes before: direct
        (nine, "inferred", "act-comment-9"),  # the agent's comment was 90 minutes before: only a hypothesis
        (pull, None, None), (review, None, None), (bug, None, None),  # nothing the agent did: roots
    ])
    assert {e["event_type"] for e in events} == {"integration_sync"}
    closed = next(e for e in events if e["ref"] == issue)
    assert closed["payload"]["changes"] == {p + "state": {"from": "open", "to": "closed"}}
    new_values = [f for f in facts if f["valid_to"] is None and f["ref"] == issue]
    assert [f["caused_by_event_id"] for f in new_values] == [closed["id"]]

    why = explain_change(db, owner, ref=issue, predicate=p + "state")
    assert why is not None and why.fact.value == "closed" and not why.hypothesis
    assert [(c.event_type, c.causation_kind) for c in why.causes] == [
        ("integration_sync", "direct"), ("agent_tool_call", None)]
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT intent_outcome FROM world_events WHERE external_ref = 'act-close-7'").fetchone()
    assert row is not None and row["intent_outcome"] == "fulfilled"  # the sync observed what the agent expected
