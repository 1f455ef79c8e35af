"""Observed events (windowed event types) live in monthly partitions of observed_events; the job rolls each
owner's month up and drops the partition only when every owner in it is rolled up, with exactly the rows it
holds now. Months of 2020 keep these tests apart from anything else in the test database."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from graph.age.doctor import check
from graph.errors import BadInput
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, RecordEvent, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.retention import job, observed
from graph.retention.classes import month_of

DOOR = "device:front-door"


def _owner() -> str:
    return f"obs-{uuid.uuid4().hex[:10]}"


def _door(db: Database, owner: str) -> uuid.UUID:
    setup = MemoryMutationProposal(run_id="door", operations=[
        UpsertEntity(ref=DOOR, kind="device", canonical_name="Front door")])
    assert not commit_proposal(db, owner_principal(owner), setup).rejected
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT id FROM entities WHERE ref = %s", [DOOR]).fetchone()
    assert row is not None
    return uuid.UUID(str(row["id"]))


def _observe(db: Database, owner: str, month: datetime, opened: int, closed: int) -> None:
    door = _door(db, owner)
    batch = [observed.Observation(event_type="observation", occurred_at=month + timedelta(hours=7 * i),
                                  source="integration:homeassistant", target_entity_id=door,
                                  summary="opened" if i < opened else "closed", payload={"i": i})
             for i in range(opened + closed)]
    with db.owner_tx(owner) as conn:
        assert len(observed.record(conn, batch)) == opened + closed


def _partition(db: Database, month: datetime) -> bool:
    with db.connection() as conn, conn.transaction():
        return month_of(month) in observed.months(conn)


def _run(db: Database, owner: str) -> job.Report:
    return job.run(db, job.Options(owner=owner, window_days=30))


def test_a_month_is_rolled_up_then_its_partition_dropped(db: Database) -> None:
    a, b = _owner(), _owner()
    march, april = datetime(2020, 3, 1, tzinfo=UTC), datetime(2020, 4, 1, tzinfo=UTC)
    _observe(db, a, march, opened=10, closed=5)
    _observe(db, b, april, opened=1, closed=1)
    with db.owner_tx(b, read_only=True) as conn:  # row-level security: b sees only b's observations
        assert conn.execute("SELECT count(*) AS n FROM observed_events").fetchone() == {"n": 2}
    dry = job.run(db, job.Options(owner=a, window_days=30, dry_run=True))
    assert dry.owners[0].event_months == {"2020-03": 15} and dry.dropped == {} and _partition(db, march)

    report = _run(db, a)
    assert report.dropped.get("2020-03") == 15 and not _partition(db, march)
    assert "not rolled up" in report.kept["2020-04"] and _partition(db, april)  # b's month waits for b
    with db.owner_tx(a, read_only=True) as conn:
        texts = [r["text"] for r in conn.execute(
            "SELECT text FROM memory_projections WHERE source_kind = 'rollup' AND embedding_pending")]
        assert conn.execute("SELECT count(*) AS n FROM observed_events").fetchone() == {"n": 0}
    assert texts == ["15 observation events about Front door (device:front-door), 2020-03 (03-01 to 03-05): "
                     "mostly 'opened' (67 %), 'closed' (33 %)"]

    assert _run(db, b).dropped.get("2020-04") == 2 and not _partition(db, april)
    again = _run(db, a)  # twice is safe: nothing left, the rollup stays
    assert again.owners[0].event_months == {} and "2020-03" not in again.dropped
    with db.owner_tx(a, read_only=True) as conn:
        assert conn.execute("SELECT count(*) AS n FROM memory_projections WHERE source_kind = 'rollup'"
                            ).fetchone() == {"n": 1}


def test_a_row_that_arrives_after_the_rollup_keeps_the_partition(db: Database) -> None:
    c = _owner()
    june = datetime(2020, 6, 1, tzinfo=UTC)
    _observe(db, c, june, opened=3, closed=0)
    with db.owner_tx(c) as conn:
        assert observed.roll_up_month(conn, month_of(june), "en") == 3
    late = observed.Observation(event_type="observation", occurred_at=june + timedelta(days=20), source="integration:x")
    with db.owner_tx(c) as conn:
        observed.record(conn, [late])
    with pytest.raises(psycopg.errors.CheckViolation, match="not rolled up"), \
            db.connection() as conn, conn.transaction():
        observed.drop_month(conn, month_of(june))
    assert _partition(db, june)
    assert _run(db, c).dropped.get("2020-06") == 4  # the next run rolls the late row up too


def test_only_windowed_event_types_are_observations(db: Database) -> None:
    wrong = observed.Observation(event_type="state_change", occurred_at=datetime(2020, 7, 1, tzinfo=UTC),
                                 source="integration:x")
    with pytest.raises(BadInput, match="not a windowed"), db.owner_tx(_owner()) as conn:
        observed.record(conn, [wrong])


def test_the_current_month_is_never_dropped(db: Database) -> None:
    with pytest.raises(psycopg.errors.CheckViolation, match="has not ended"), \
            db.connection() as conn, conn.transaction():
        observed.drop_month(conn, month_of(datetime.now(UTC)))


def test_windowed_world_events_are_rolled_up_and_pruned_with_their_mirror(db: Database, test_db_url: str) -> None:
    owner = _owner()
    august = datetime(2020, 8, 3, tzinfo=UTC)
    ops: list[Any] = [
        UpsertEntity(ref=DOOR, kind="device", canonical_name="Front door"),
        RecordEvent(event_type="user_message", occurred_at=august, summary="is the door shut?", external_ref="ask"),
        RecordEvent(event_type="observation", occurred_at=august + timedelta(minutes=1), target=DOOR,
                    summary="closed", caused_by="ask", causation_kind="direct", external_ref="seen-1"),
        RecordEvent(event_type="observation", occurred_at=august + timedelta(days=1), target=DOOR, summary="closed"),
        RecordEvent(event_type="observation", occurred_at=august + timedelta(days=2), target=DOOR, summary="open",
                    external_ref="seen-3"),
        AssertFact(subject=DOOR, predicate="description", value="the door sticks", valid_from=august,
                   caused_by_event="seen-3")]  # a fact names seen-3 as its cause: it stays
    proposal = MemoryMutationProposal(run_id="door", operations=ops)
    assert not commit_proposal(db, owner_principal(owner), proposal).rejected
    dry = _run_dry(db, owner)
    assert [(e.series, e.rows) for e in dry.owners[0].events] == [
        ("observation Front door (device:front-door) 2020-08", 2)]
    report = _run(db, owner)
    assert report.owners[0].events_pruned == 2
    with db.owner_tx(owner, read_only=True) as conn:
        left = sorted(r["summary"] for r in conn.execute("SELECT summary FROM world_events"))
        texts = [r["text"] for r in conn.execute("SELECT text FROM memory_projections WHERE source_kind = 'rollup'")]
    assert left == ["is the door shut?", "open"]  # the user's message (permanent) and the held observation
    assert texts == ["2 observation events about Front door (device:front-door), 2020-08 (08-03 to 08-04): "
                     "mostly 'closed' (100 %)"]
    # the AGE mirror lost the same vertices and the CAUSED edge (doctor checks the whole database: only this
    # owner's rows are this test's business)
    doctor = check(test_db_url)
    assert [p for p in doctor.problems if owner in p] == []
    with db.owner_tx(owner, read_only=True) as conn:
        graph = conn.execute("SELECT (SELECT count(*) FROM worldgraph.\"Event\") AS events, "
                             "(SELECT count(*) FROM worldgraph.\"CAUSED\") AS caused").fetchone()
    assert graph == {"events": 2, "caused": 0}
    assert _run(db, owner).owners[0].events == []


def _run_dry(db: Database, owner: str) -> job.Report:
    return job.run(db, job.Options(owner=owner, window_days=30, dry_run=True))
