"""recordObservations over GraphQL: who may call it (by token kind; the source comes from the token), typed
rejections, all or nothing, idempotent retries by externalRef, nothing before the retention edge, and the
rolled-up month found as a summary after the job ran."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graph.errors import Conflict
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AddAlias, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.retention import job, observed
from graph.sql import load
from tests.gql import client, codes, gql, new_token  # noqa: F401

DOOR = "device:hall-door"
RECORD = """mutation($o: [ObservationInput!]!) { recordObservations(observations: $o) {
  source recorded duplicates ids rejected { index code message } } }"""


@pytest.fixture
def door(db: Database, owner: str) -> str:
    setup = MemoryMutationProposal(run_id="door", operations=[
        UpsertEntity(ref=DOOR, kind="device", canonical_name="Hall door"), AddAlias(ref=DOOR, alias="Haustür")])
    assert not commit_proposal(db, owner_principal(owner), setup).rejected
    return owner


def _rows(db: Database, owner: str) -> list[dict[str, Any]]:
    with db.owner_tx(owner, read_only=True) as conn:
        return list(conn.execute("SELECT o.event_type, o.source, o.summary, o.payload, o.external_ref, e.ref "
                                 "FROM observed_events o LEFT JOIN entities e ON e.id = o.target_entity_id "
                                 "ORDER BY o.occurred_at").fetchall())


def _at(hours_ago: float) -> str:
    return (datetime.now(UTC) - timedelta(hours=hours_ago)).isoformat()


def test_an_integration_records_observations_once(db: Database, client: TestClient, test_db_url: str,  # noqa: F811
                                                  door: str) -> None:
    token = new_token(test_db_url, door, kind="integration", name="homeassistant")
    batch = [{"occurredAt": _at(3), "target": DOOR, "summary": "opened", "externalRef": "ha:1",
              "payload": {"contact": "open"}},
             {"occurredAt": _at(2), "target": "Haustür", "summary": "closed", "externalRef": "ha:2"},
             {"occurredAt": _at(1), "summary": "motion in the hall", "externalRef": "ha:3"}]
    first = gql(client, token, RECORD, {"o": batch})
    assert "errors" not in first, first
    done = first["data"]["recordObservations"]
    assert done["source"] == "integration:homeassistant" and done["recorded"] == 3 and done["duplicates"] == 0
    assert all(done["ids"]) and done["rejected"] == []
    rows = _rows(db, door)
    assert [(r["source"], r["summary"], r["ref"]) for r in rows] == [
        ("integration:homeassistant", "opened", DOOR), ("integration:homeassistant", "closed", DOOR),
        ("integration:homeassistant", "motion in the hall", None)]
    assert rows[0]["payload"] == {"contact": "open"} and rows[1]["payload"] == {}
    again = gql(client, token, RECORD, {"o": batch})["data"]["recordObservations"]  # a retried call
    assert (again["recorded"], again["duplicates"], again["ids"]) == (0, 3, [None, None, None])
    assert len(_rows(db, door)) == 3


def test_trust_comes_from_the_token(db: Database, client: TestClient, test_db_url: str, door: str) -> None:  # noqa: F811
    agent = new_token(test_db_url, door, kind="agent")
    done = gql(client, agent, RECORD, {"o": [{"occurredAt": _at(1), "target": DOOR, "summary": "seen open"}]})
    assert done["data"]["recordObservations"]["source"] == "agent"
    refused = gql(client, new_token(test_db_url, door), RECORD, {"o": [{"occurredAt": _at(1), "summary": "x"}]})
    assert codes(refused) == ["FORBIDDEN"] and refused["data"] is None
    assert [r["source"] for r in _rows(db, door)] == ["agent"]
    # the input has no source field at all: an integration cannot claim to be the user
    claim = gql(client, agent, RECORD, {"o": [{"occurredAt": _at(1), "source": "user"}]})
    assert codes(claim) == ["GRAPHQL_VALIDATION_FAILED"]


def test_bad_observations_are_rejected_with_codes_and_nothing_is_written(db: Database, client: TestClient,  # noqa: F811
                                                                         test_db_url: str, door: str) -> None:
    token = new_token(test_db_url, door, kind="integration", name="homeassistant")
    batch: list[dict[str, Any]] = [
        {"occurredAt": _at(1), "target": DOOR, "summary": "fine"},
        {"occurredAt": _at(1), "eventType": "no_such_type"},
        {"occurredAt": _at(1), "eventType": "state_change"},
        {"occurredAt": (datetime.now(UTC) + timedelta(hours=2)).isoformat()},
        {"occurredAt": _at(1), "target": "device:nope"},
        {"occurredAt": _at(1), "payload": [1, 2]},
        {"occurredAt": _at(1), "summary": "x" * 2001},
        {"occurredAt": _at(1), "externalRef": "r" * 401},
        {"occurredAt": _at(1), "payload": {"blob": "y" * 17_000}},
        {"occurredAt": _at(1), "summary": "nul\u0000"},
    ]
    body = gql(client, token, RECORD, {"o": batch})
    done = body["data"]["recordObservations"]
    assert done["recorded"] == 0 and done["ids"] == []
    assert [(r["index"], r["code"]) for r in done["rejected"]] == [
        (1, "UNKNOWN_EVENT_TYPE"), (2, "NOT_WINDOWED"), (3, "BAD_TIME"), (4, "UNKNOWN_REF"), (5, "BAD_INPUT"),
        (6, "VALUE_TOO_LARGE"), (7, "BAD_INPUT"), (8, "VALUE_TOO_LARGE"), (9, "BAD_INPUT")]
    assert "recordEvent" in done["rejected"][1]["message"]
    assert codes(body) == ["UNKNOWN_EVENT_TYPE"]  # the first rejection, beside the data
    assert _rows(db, door) == []
    assert codes(gql(client, token, RECORD, {"o": []})) == ["BAD_LIMIT"]


def test_nothing_is_recorded_behind_the_retention_edge(db: Database, client: TestClient,  # noqa: F811
                                                       test_db_url: str, door: str) -> None:
    edge = datetime.now(UTC) - timedelta(days=30)
    with db.owner_tx(door) as conn:
        conn.execute(load("retention_edge_put"), {"edge": edge})
    token = new_token(test_db_url, door, kind="integration", name="homeassistant")
    body = gql(client, token, RECORD, {"o": [{"occurredAt": (edge + timedelta(hours=1)).isoformat()},
                                             {"occurredAt": (edge - timedelta(hours=1)).isoformat()}]})
    [why] = body["data"]["recordObservations"]["rejected"]
    assert why["index"] == 1 and why["code"] == "BEHIND_RETENTION_EDGE" and edge.isoformat() in why["message"]
    assert _rows(db, door) == []
    late = observed.Observation(event_type="observation", occurred_at=edge - timedelta(days=40), source="integration:x")
    with pytest.raises(Conflict) as refused, db.owner_tx(door) as conn:  # the internal writer refuses it too
        observed.record(conn, [late])
    assert refused.value.code == "BEHIND_RETENTION_EDGE" and _rows(db, door) == []


def test_recorded_observations_are_rolled_up_behind_the_window(db: Database, client: TestClient,  # noqa: F811
                                                              test_db_url: str, door: str) -> None:
    token = new_token(test_db_url, door, kind="integration", name="homeassistant")
    month = (datetime.now(UTC).replace(day=1, hour=12, minute=0, second=0, microsecond=0) - timedelta(days=70)
             ).replace(day=1)
    batch = [{"occurredAt": (month + timedelta(days=d)).isoformat(), "target": DOOR,
              "summary": "opened" if d % 3 else "closed"} for d in range(9)]
    assert gql(client, token, RECORD, {"o": batch})["data"]["recordObservations"]["recorded"] == 9
    report = job.run(db, job.Options(owner=door, window_days=30))
    assert report.owners[0].event_months == {f"{month:%Y-%m}": 9}
    with db.owner_tx(door, read_only=True) as conn:
        texts = [r["text"] for r in conn.execute("SELECT text FROM memory_projections WHERE source_kind = 'rollup'")]
    assert texts == [f"9 observation events about Hall door ({DOOR}), {month:%Y-%m} "
                     f"({month:%m}-01 to {month:%m}-09): mostly 'opened' (67 %), 'closed' (33 %)"]
    late = gql(client, token, RECORD, {"o": [{"occurredAt": (month + timedelta(days=10)).isoformat()}]})
    assert codes(late) == ["BEHIND_RETENTION_EDGE"]  # the job moved the edge past that month
