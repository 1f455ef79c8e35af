"""attributeSeries and heldFor against the database and over GraphQL: as believed now and as known at an
earlier system time, merged refs, scopes, and typed errors."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from graph.domains import history
from graph.errors import BadInput, NotFound
from graph.ledger import proposal as p
from graph.platform.db import Database
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401
from tests.test_governance import commit, entity, ok

T = datetime(2026, 11, 30, 8, 0, tzinfo=UTC)
DOOR = "device:front_door"


def m(minutes: float) -> datetime:
    return T + timedelta(minutes=minutes)


def status(value: str, start: float, end: float | None = None) -> p.AssertFact:
    return p.AssertFact(subject=DOOR, predicate="status", value=value, valid_from=m(start),
                        valid_to=None if end is None else m(end))


def _door(db: Database, owner: str) -> datetime:
    """open from 0, closed from 30, open from 50; then (later in system time) closed from 40 to 50 was wrong:
    it was open all along from 0. Returns the system time before the correction."""
    ok(commit(db, owner, entity(DOOR, "Front door"), status("open", 0)))
    ok(commit(db, owner, status("closed", 30)))
    first = ok(commit(db, owner, status("open", 50))).recorded_at
    assert first is not None
    ok(commit(db, owner, status("open", 30, 50)))
    return first


def test_series_as_believed_now_and_as_known_before_the_correction(db: Database, owner: str) -> None:
    before = _door(db, owner)
    now = history.attribute_series(db, owner, DOOR, "status", m(-10), m(70))
    assert [(x["value"], x["valid_from"], x["valid_to"]) for x in now.points] == [("open", m(0), m(70))]
    assert len(now.points[0]["fact_ids"]) >= 2  # several rows, one segment for the chart
    then = history.attribute_series(db, owner, DOOR, "status", m(-10), m(70), system_time=before)
    assert [(x["value"], x["valid_from"], x["valid_to"]) for x in then.points] == [
        ("open", m(0), m(30)), ("closed", m(30), m(50)), ("open", m(50), m(70))]


def test_held_for_as_believed_now_and_as_known_then(db: Database, owner: str) -> None:
    before = _door(db, owner)
    assert history.held(db, owner, DOOR, "status", "open", 60, at=m(60)).held is True
    then = history.held(db, owner, DOOR, "status", "open", 60, at=m(60), system_time=before)
    assert then.held is False and then.since == m(50) and then.minutes_held == 10
    closed = history.held(db, owner, DOOR, "status", "closed", 5, at=m(45), system_time=before)
    assert closed.held is True and closed.until == m(50)
    assert history.held(db, owner, DOOR, "status", "closed", 5, at=m(45)).held is False


def test_a_merged_ref_answers_with_its_survivor(db: Database, owner: str) -> None:
    _door(db, owner)
    ok(commit(db, owner, entity("device:door2", "Door two")))
    ok(commit(db, owner, p.MergeEntities(entity="device:door2", into=DOOR)))
    series = history.attribute_series(db, owner, "device:door2", "status", m(0), m(10))
    assert series.ref == DOOR and [x["value"] for x in series.points] == ["open"]


def test_scoped_values_are_their_own_series(db: Database, owner: str) -> None:
    ok(commit(db, owner, entity(DOOR, "Front door"), entity("chat:c1", "Chat"), status("open", 0),
              p.AssertFact(subject=DOOR, predicate="status", value="locked", valid_from=m(0), scope="chat:c1")))
    assert [x["value"] for x in history.attribute_series(db, owner, DOOR, "status", m(0), m(5)).points] == ["open"]
    scoped = history.attribute_series(db, owner, DOOR, "status", m(0), m(5), scope="chat:c1")
    assert [x["value"] for x in scoped.points] == ["locked"]


def test_errors_are_typed_and_name_what_is_wrong(db: Database, owner: str) -> None:
    _door(db, owner)
    with pytest.raises(NotFound) as unknown:
        history.attribute_series(db, owner, "device:front_dor", "status", m(0), m(1))
    assert unknown.value.code == "UNKNOWN_REF" and "device:front_door" in unknown.value.message
    with pytest.raises(NotFound) as predicate:
        history.held(db, owner, DOOR, "statuss", "open", 5)
    assert predicate.value.code == "UNKNOWN_PREDICATE"
    with pytest.raises(BadInput) as interval:
        history.attribute_series(db, owner, DOOR, "status", m(1), m(1))
    assert interval.value.code == "BAD_INTERVAL"
    with pytest.raises(BadInput) as minutes:
        history.held(db, owner, DOOR, "status", "open", 0)
    assert minutes.value.code == "BAD_LIMIT"


SERIES = """query($from: DateTime!, $to: DateTime!, $sys: DateTime) {
  attributeSeries(ref: "device:front_door", predicate: "status", from: $from, to: $to, systemTime: $sys) {
    ref predicate truncated points { value validFrom validTo factIds } } }"""
HELD = """query($at: DateTime, $sys: DateTime) {
  heldFor(ref: "device:front_door", predicate: "status", value: "open", minutes: 60, asOf: $at, systemTime: $sys) {
    held since until minutesHeld } }"""


def test_graphql_series_and_held_for(client: TestClient, make_token: MakeToken, db: Database,  # noqa: F811
                                     owner: str) -> None:
    before = _door(db, owner)
    token = make_token(kind="agent")
    body = gql(client, token, SERIES, {"from": m(20).isoformat(), "to": m(60).isoformat(), "sys": before.isoformat()})
    points = body["data"]["attributeSeries"]["points"]
    assert [x["value"] for x in points] == ["open", "closed", "open"]
    assert datetime.fromisoformat(points[1]["validTo"]) == m(50)
    held = gql(client, token, HELD, {"at": m(60).isoformat()})["data"]["heldFor"]
    assert held["held"] is True and datetime.fromisoformat(held["since"]) == m(0) and held["until"] is None
    late = gql(client, token, HELD, {"at": m(60).isoformat(), "sys": before.isoformat()})["data"]["heldFor"]
    assert late["held"] is False and late["minutesHeld"] == 10
    bad = gql(client, token, SERIES, {"from": m(5).isoformat(), "to": m(1).isoformat()})
    assert codes(bad) == ["BAD_INTERVAL"]
