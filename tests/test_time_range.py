"""Times outside 0001..9999 UTC: refused at every boundary, refused by the database, survived by readers.

The reader test plants a bad row the way an old database could hold one (constraint dropped, triggers off,
as the superuser), then restores everything in `finally`.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import errors as pg_errors

from graph.age.doctor import check as doctor_check
from graph.errors import BadInput
from graph.ledger.proposal import AssertFact, RecordEvent
from graph.timebounds import LATEST, MAX_TIME, MIN_TIME, check_time, clamp, from_micros, in_range
from resolvers.scalars import parse_datetime
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
YEAR_10000 = "9999-12-31T23:00:00-14:00"
YEAR_0 = "0001-01-01T00:00:00+14:00"
MIGRATION = Path(__file__).resolve().parent.parent / "migrations" / "0021_time_range.sql"


def test_range_is_checked_on_the_utc_instant() -> None:
    assert not in_range(datetime.fromisoformat(YEAR_10000))
    assert not in_range(datetime.fromisoformat(YEAR_0))
    assert in_range(MIN_TIME) and in_range(LATEST) and not in_range(MAX_TIME)
    assert in_range(datetime(9999, 12, 30, 9, 0, tzinfo=timezone(timedelta(hours=-14))))  # 23:00 UTC
    with pytest.raises(BadInput) as err:
        check_time(datetime.fromisoformat(YEAR_10000), "validTo")
    assert err.value.code == "TIME_OUT_OF_RANGE" and "validTo" in err.value.message


def test_clamp_and_micros() -> None:
    assert clamp(datetime.fromisoformat(YEAR_10000)) == LATEST
    assert clamp(datetime.fromisoformat(YEAR_0)) == MIN_TIME
    assert clamp(datetime(2020, 1, 1, tzinfo=UTC)) == datetime(2020, 1, 1, tzinfo=UTC)
    assert from_micros(0, EPOCH) == (EPOCH, False)
    assert from_micros(10**19, EPOCH) == (LATEST, True)
    assert from_micros(-(10**19), EPOCH) == (MIN_TIME, True)


@pytest.mark.parametrize("text", [YEAR_10000, YEAR_0])
def test_boundaries_refuse(text: str) -> None:
    with pytest.raises(BadInput) as err:
        parse_datetime(text)
    assert err.value.code == "TIME_OUT_OF_RANGE"
    with pytest.raises(BadInput) as err:
        AssertFact(subject="person:x", predicate="p", value=1, valid_from=text)  # type: ignore[arg-type]
    assert err.value.code == "TIME_OUT_OF_RANGE"
    with pytest.raises(BadInput):
        RecordEvent(event_type="x", occurred_at=text)  # type: ignore[arg-type]
    assert parse_datetime("9999-12-30T00:00:00Z").year == 9999


def test_the_database_refuses_out_of_range_times(admin_conn: psycopg.Connection) -> None:
    with pytest.raises(pg_errors.CheckViolation), admin_conn.transaction():
        admin_conn.execute("INSERT INTO owner_clock (owner_sub, last_recorded_at) "
                           "VALUES ('time-range-probe', '10000-01-01 00:00:00+00')")
    names = {r[0] for r in admin_conn.execute(
        "SELECT conname FROM pg_constraint WHERE conname LIKE '%\\_in\\_range'").fetchall()}
    for expected in ("facts_valid_from_in_range", "facts_valid_to_in_range", "facts_recorded_at_in_range",
                     "facts_superseded_at_in_range", "world_events_occurred_at_in_range",
                     "entity_aliases_valid_to_in_range", "owner_clock_last_recorded_at_in_range"):
        assert expected in names


COMMIT = """mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed rejected { code } } }"""
EVIDENCE = {"kind": "test", "text": "t"}
READS = """query($r: String!, $now: DateTime!) {
  stateAt(ref: $r, validTime: $now) { facts { predicate value validTo } }
  factHistory(ref: $r, predicate: "colour") { value validTo }
  getEntity(ref: $r) { text }
  recallFactsAbout(entityOrQuery: $r) { text }
  getChangeExplanation(ref: $r, predicate: "colour") { text }
  explainChange(ref: $r, predicate: "colour") { fact { value validTo } }
  searchWorldMemory(query: "vermilion") { text }
  getEffectsOf(eventOrRun: "bad-run") { text }
  effectsOf(runId: "bad-run") { facts { fact { predicate } } }
  neighbors(ref: $r) { hops { predicate validTo } }
  getNeighbors(ref: $r) { text }
}"""


@pytest.fixture
def planted(client: TestClient, make_token: MakeToken,  # noqa: F811
            admin_conn: psycopg.Connection, owner: str) -> Iterator[tuple[str, list[str]]]:
    token = make_token(integration=True)
    assert "errors" not in gql(client, token, "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) "
                               "{ key } }", {"t": [{"key": "colour", "name": "colour", "cardinality": "FUNCTIONAL"},
                                                   {"key": "pal_of", "name": "pal of", "cardinality": "SET"}]})
    ops: list[dict[str, Any]] = [
        {"recordEvent": {"eventType": "user_message", "occurredAt": "2024-01-01T00:00:00Z", "source": "user",
                         "externalRef": "bad-msg", "summary": "colour talk"}},
        {"assertFact": {"subject": "person:bad", "predicate": "colour", "value": "vermilion", "source": "user",
                        "validFrom": "2020-01-01T00:00:00Z", "confidence": 1, "evidence": EVIDENCE,
                        "causedByEvent": "bad-msg"}},
        {"assertRelationship": {"subject": "person:bad", "predicate": "pal_of", "object": "person:pal",
                                "validFrom": "2020-01-01T00:00:00Z", "source": "user", "confidence": 1,
                                "evidence": EVIDENCE}}]
    body = gql(client, token, COMMIT, {"p": {"runId": "bad-run", "operations": ops}})
    assert (body["data"] or {}).get("commitProposal", {}).get("committed") == 3, body
    ids = [r[0] for r in admin_conn.execute(
        "SELECT f.id::text FROM facts f JOIN entities e ON e.id = f.subject_id WHERE e.ref = 'person:bad' "
        "AND f.run_id = 'bad-run' AND f.owner_sub = %s", (owner,)).fetchall()]
    assert len(ids) == 2
    admin_conn.execute("SET session_replication_role = replica")
    admin_conn.execute("ALTER TABLE facts DROP CONSTRAINT facts_valid_to_in_range")
    try:
        admin_conn.execute("UPDATE facts SET valid_to = '10000-01-01 00:00:00+00' WHERE id = ANY(%s::uuid[])",
                           (ids,))
        admin_conn.execute("SELECT * FROM cypher('worldgraph', $$ MATCH ()-[r:REL]->() WHERE r.id IN $ids "
                           "SET r.valid_to = 253402300800000000 RETURN r.id $$, %s) AS (id agtype)",
                           (f'{{"ids": ["{ids[0]}", "{ids[1]}"]}}',))
        yield token, ids
    finally:
        admin_conn.execute("UPDATE facts SET valid_to = NULL WHERE id = ANY(%s::uuid[])", (ids,))
        admin_conn.execute("SELECT * FROM cypher('worldgraph', $$ MATCH ()-[r:REL]->() WHERE r.id IN $ids "
                           "SET r.valid_to = null RETURN r.id $$, %s) AS (id agtype)",
                           (f'{{"ids": ["{ids[0]}", "{ids[1]}"]}}',))
        admin_conn.execute("ALTER TABLE facts ADD CONSTRAINT facts_valid_to_in_range "
                           "CHECK (valid_to >= '0001-01-02 00:00:00+00' AND valid_to < '9999-12-31 00:00:00+00')")
        admin_conn.execute("SET session_replication_role = origin")


def test_readers_survive_a_bad_row_and_report_it(client: TestClient, planted: tuple[str, list[str]]) -> None:  # noqa: F811
    token, _ = planted
    body = gql(client, token, READS, {"r": "person:bad", "now": datetime.now(UTC).isoformat()})
    assert "INTERNAL" not in codes(body), body
    assert codes(body) == ["STORED_TIME_OUT_OF_RANGE"], body
    data = body["data"]
    assert {"predicate": "colour", "value": "vermilion", "validTo": LATEST.isoformat()} in data["stateAt"]["facts"]
    assert data["factHistory"] == [{"value": "vermilion", "validTo": LATEST.isoformat()}]
    assert "vermilion" in data["getEntity"]["text"] and "vermilion" in data["recallFactsAbout"]["text"]
    assert data["explainChange"]["fact"]["value"] == "vermilion"
    assert "vermilion" in data["searchWorldMemory"]["text"]
    assert {f["fact"]["predicate"] for f in data["effectsOf"]["facts"]} >= {"colour"}
    assert [h["predicate"] for h in data["neighbors"]["hops"]] == ["pal_of"]
    assert data["neighbors"]["hops"][0]["validTo"] == LATEST.isoformat()
    assert "pal" in data["getNeighbors"]["text"]


def test_migration_refuses_and_names_the_rows(admin_conn: psycopg.Connection,
                                              planted: tuple[str, list[str]]) -> None:
    _, ids = planted
    # the migrations' one rule (migrations/0021): a column without its CHECK is checked before it gets one
    assert "CREATE PROCEDURE wm_constrain_time_ranges()" in MIGRATION.read_text()
    with pytest.raises(pg_errors.CheckViolation) as err, admin_conn.transaction():
        admin_conn.execute("CALL wm_constrain_time_ranges()")
    detail = err.value.diag.message_detail or ""
    assert "times outside" in str(err.value)
    assert all(f"facts.valid_to = 10000-01-01 00:00:00+00 in row {i}" in detail for i in ids), detail


def test_doctor_reports_instead_of_failing(test_db_url: str, planted: tuple[str, list[str]]) -> None:
    _, ids = planted
    report = doctor_check(test_db_url)
    assert not report.ok
    out_of_range = [p for p in report.problems if p.startswith("time out of range")]
    assert {i for i in ids if any(i in p for p in out_of_range)} == set(ids), report.problems
