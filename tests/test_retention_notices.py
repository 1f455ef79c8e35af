"""Every read that reaches behind the retention edge says so, typed and in words, and points at the rollups:
factHistory (its sibling field factHistoryRetention), getFactHistory, explainChange, getChangeExplanation,
stateAt / getStateAt (as-of). Reads about now (getEntity) are exact and say nothing. The world:
tests/retention_world.py (60 days of a sensor, window 30 days), pruned once by the job."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graph.demo import TYPES as DEMO_TYPES
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.retention import job
from tests.gql import client, gql, new_token  # noqa: F401
from tests.retention_world import SENSOR, WINDOW_DAYS, load_sensor

ENTITY = "query($r: String!) { getEntity(ref: $r) { text retention { edge } facts { fact { predicate value } } } }"
HISTORY = """query($r: String!, $p: String!) {
  factHistory(ref: $r, predicate: $p) { validFrom validTo }
  factHistoryRetention(ref: $r, predicate: $p) {
    reason edge message summaries rollups { projectionId predicate month text } }
  getFactHistory(ref: $r, predicate: $p) { text retention { reason summaries } }
}"""
EXPLAIN = """query($id: ID, $r: String, $p: String) {
  explainChange(factId: $id, ref: $r, predicate: $p) { fact { value source } supersedes { id }
    retention { reason edge message rollups { month text } } }
  getChangeExplanation(factId: $id, ref: $r, predicate: $p) { text retention { reason } }
}"""
STATE = """query($r: String!, $t: DateTime!) {
  getStateAt(ref: $r, validTime: $t) { text retention { reason rollups { projectionId month text } } }
}"""
TYPED_STATE = """query($r: String!, $t: DateTime!) {
  stateAt(ref: $r, validTime: $t) { facts { predicate } retention { reason message rollups { projectionId month } } }
}"""


@dataclass
class World:
    owner: str
    token: str
    start: datetime
    edge: datetime
    entity_before: dict[str, Any]
    projections: dict[str, str]  # id -> text of the owner's rollups


@pytest.fixture(scope="module")
def world(db: Database, client: TestClient, test_db_url: str) -> World:  # noqa: F811
    owner = f"retn-{datetime.now(UTC):%H%M%S%f}"
    start = load_sensor(db, owner, datetime.now(UTC))
    token = new_token(test_db_url, owner)
    before = gql(client, token, ENTITY, {"r": SENSOR})["data"]["getEntity"]
    report = job.run(db, job.Options(owner=owner, window_days=WINDOW_DAYS))
    assert report.owners[0].pruned > 100
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute("SELECT id::text AS id, text FROM memory_projections WHERE source_kind = 'rollup'")
        projections = {r["id"]: r["text"] for r in rows}
    return World(owner, token, start, report.edge, before, projections)


def test_fact_history_says_which_rows_were_pruned_and_points_at_every_rollup(client: TestClient,  # noqa: F811
                                                                             world: World) -> None:
    body = gql(client, world.token, HISTORY, {"r": SENSOR, "p": "temperature"})
    assert "errors" not in body, body
    data = body["data"]
    notice = data["factHistoryRetention"]
    assert notice["reason"] == "HISTORY" and notice["edge"] == world.edge.isoformat()
    assert notice["message"].startswith("Observed values of temperature older than the retention edge "
                                        f"({world.edge.date().isoformat()})")
    rollups = notice["rollups"]
    assert len(rollups) >= 2 and [r["month"] for r in rollups] == sorted(r["month"] for r in rollups)
    assert {r["projectionId"]: r["text"] for r in rollups} == world.projections  # every rollup, by its id
    assert notice["summaries"] == [r["text"] for r in rollups]
    assert all(r["predicate"] == "temperature" for r in rollups)
    # behind the edge the history lists only what was kept: the owner's correction and the row it names
    behind = [r for r in data["factHistory"] if r["validTo"] and r["validTo"] <= world.edge.isoformat()]
    assert len(behind) == 2
    agent = data["getFactHistory"]
    assert agent["retention"]["reason"] == "HISTORY" and agent["retention"]["summaries"] == notice["summaries"]
    assert agent["text"].endswith(notice["rollups"][-1]["text"]) and notice["message"] in agent["text"]


def test_a_complete_history_and_an_unknown_ref_carry_no_notice(client: TestClient,  # noqa: F811
                                                               world: World) -> None:
    data = gql(client, world.token, HISTORY, {"r": SENSOR, "p": "note"})["data"]
    assert data["factHistoryRetention"] is None and data["getFactHistory"]["retention"] is None
    assert [r["validTo"] for r in data["factHistory"]] == [None]
    unknown = gql(client, world.token, "{ factHistoryRetention(ref: \"device:nope\", predicate: \"temperature\") "
                                       "{ edge } }")
    assert unknown == {"data": {"factHistoryRetention": None}}


def test_explain_change_says_where_pruning_cut_the_chain(client: TestClient, world: World) -> None:  # noqa: F811
    rows = gql(client, world.token, "query($r: String!) { factHistory(ref: $r, predicate: \"temperature\") "
                                    "{ id source } }", {"r": SENSOR})["data"]["factHistory"]
    [fix] = [r["id"] for r in rows if r["source"] == "user"]  # the owner's correction of an old reading
    data = gql(client, world.token, EXPLAIN, {"id": fix})["data"]
    x = data["explainChange"]
    assert x["fact"] == {"value": 25.0, "source": "user"} and len(x["supersedes"]) == 1  # the held row, then cut
    assert x["retention"]["reason"] == "CHAIN" and x["retention"]["edge"] == world.edge.isoformat()
    assert x["retention"]["message"].startswith("The values of temperature this one replaced before the "
                                                "retention edge")
    assert {r["text"] for r in x["retention"]["rollups"]} == set(world.projections.values())
    agent = data["getChangeExplanation"]
    assert agent["retention"] == {"reason": "CHAIN"} and x["retention"]["message"] in agent["text"]
    # the current reading's chain (50 links) stays inside the window, and a series never pruned: no notice
    for key in ({"r": SENSOR, "p": "temperature"}, {"r": SENSOR, "p": "note"}):
        data = gql(client, world.token, EXPLAIN, key)["data"]
        assert data["explainChange"]["supersedes"] or key["p"] == "note"
        assert data["explainChange"]["retention"] is None and data["getChangeExplanation"]["retention"] is None


def test_as_of_behind_the_edge_points_at_the_month_s_rollup(client: TestClient, world: World) -> None:  # noqa: F811
    old = world.start + timedelta(days=5, hours=12)
    data = gql(client, world.token, STATE, {"r": SENSOR, "t": old.isoformat()})["data"]["getStateAt"]
    [rollup] = data["retention"]["rollups"]
    assert data["retention"]["reason"] == "AS_OF" and rollup["month"] == f"{old:%Y-%m}-01"
    assert world.projections[rollup["projectionId"]] == rollup["text"] and rollup["text"] in data["text"]
    recent = gql(client, world.token, STATE, {"r": SENSOR, "t": (world.edge + timedelta(days=3)).isoformat()})
    assert recent["data"]["getStateAt"]["retention"] is None


def test_typed_state_at_behind_the_edge_says_so_like_the_agent_s(client: TestClient, world: World) -> None:  # noqa: F811
    """stateAt reads the notice's statement along with the facts (graph.reads.temporal._state) and asks the
    language only when there is a notice: the same rollups as getStateAt, the message in the owner's language."""
    old = world.start + timedelta(days=5, hours=12)
    typed = gql(client, world.token, TYPED_STATE, {"r": SENSOR, "t": old.isoformat()})["data"]["stateAt"]
    agent = gql(client, world.token, STATE, {"r": SENSOR, "t": old.isoformat()})["data"]["getStateAt"]
    assert typed["retention"]["reason"] == "AS_OF" and typed["retention"]["message"] in agent["text"]
    assert typed["retention"]["rollups"] == [{k: r[k] for k in ("projectionId", "month")}
                                             for r in agent["retention"]["rollups"]]
    recent = gql(client, world.token, TYPED_STATE, {"r": SENSOR, "t": (world.edge + timedelta(days=3)).isoformat()})
    assert recent["data"]["stateAt"]["retention"] is None and recent["data"]["stateAt"]["facts"]


def test_get_entity_reads_now_exactly_and_says_nothing(client: TestClient, world: World) -> None:  # noqa: F811
    after = gql(client, world.token, ENTITY, {"r": SENSOR})["data"]["getEntity"]
    assert after == world.entity_before and after["retention"] is None
    assert {f["fact"]["predicate"] for f in after["facts"]} == {"note", "temperature"}


SERIES = """query($r: String!, $from: DateTime!, $to: DateTime!, $at: DateTime!) {
  attributeSeries(ref: $r, predicate: "temperature", from: $from, to: $to) {
    points { value } retention { reason rollups { month text } } }
  heldFor(ref: $r, predicate: "temperature", value: 21.7, minutes: 60, asOf: $at) { held retention { reason } }
}"""


def test_series_and_held_for_behind_the_edge_say_so(client: TestClient, world: World) -> None:  # noqa: F811
    old = world.start + timedelta(days=5)
    span = {"r": SENSOR, "from": old.isoformat(), "to": (old + timedelta(days=2)).isoformat(),
            "at": (old + timedelta(hours=20, minutes=30)).isoformat()}
    data = gql(client, world.token, SERIES, span)["data"]
    assert data["attributeSeries"]["points"] == []  # the raw rows are gone ...
    [rollup] = data["attributeSeries"]["retention"]["rollups"]  # ... and the month's rollup says what they were
    assert data["attributeSeries"]["retention"]["reason"] == "AS_OF" and rollup["month"] == f"{old:%Y-%m}-01"
    assert data["heldFor"] == {"held": False, "retention": {"reason": "AS_OF"}}
    recent = world.edge + timedelta(days=3)
    span = {"r": SENSOR, "from": recent.isoformat(), "to": (recent + timedelta(days=2)).isoformat(),
            "at": recent.replace(hour=20, minute=30).isoformat()}
    data = gql(client, world.token, SERIES, span)["data"]
    assert data["attributeSeries"]["points"] and data["attributeSeries"]["retention"] is None
    assert data["heldFor"]["retention"] is None


def test_notices_in_german(db: Database, client: TestClient, world: World) -> None:  # noqa: F811
    register_relation_types(db, DEMO_TYPES)
    german = MemoryMutationProposal(run_id="lang-de", operations=[
        UpsertEntity(ref="person:me", kind="person", canonical_name="Ich"),
        AssertFact(subject="person:me", predicate="answer_language", value="de", valid_from=world.start)])
    assert not commit_proposal(db, owner_principal(world.owner), german).rejected
    history = gql(client, world.token, HISTORY, {"r": SENSOR, "p": "temperature"})["data"]
    assert history["factHistoryRetention"]["message"].startswith(
        "Beobachtete Werte von temperature vor der Aufbewahrungsgrenze")
    assert "Monatszusammenfassungen" in history["getFactHistory"]["text"]
    rows = gql(client, world.token, "query($r: String!) { factHistory(ref: $r, predicate: \"temperature\") "
                                    "{ id source } }", {"r": SENSOR})["data"]["factHistory"]
    [fix] = [r["id"] for r in rows if r["source"] == "user"]
    explain = gql(client, world.token, EXPLAIN, {"id": fix})["data"]
    assert explain["explainChange"]["retention"]["message"].startswith("Die Werte von temperature, die dieser")
    old = world.start + timedelta(days=5, hours=12)
    typed = gql(client, world.token, TYPED_STATE, {"r": SENSOR, "t": old.isoformat()})["data"]["stateAt"]
    assert typed["retention"]["message"].startswith("Gefragt ist eine Zeit vor der Aufbewahrungsgrenze")
