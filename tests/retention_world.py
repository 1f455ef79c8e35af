"""A sensor's windowed history for the retention tests: three readings a day for 60 days (window: 30 days),
imported week by week (system time = the end of each week, as a feed would have delivered them), marked
windowed the way the sync API marks integration-observed state; plus the owner's own words about the sensor
(permanent), and one of their corrections."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import psycopg

from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database

SENSOR = "device:living-room-sensor"
FEED = "integration:homeassistant"
# (hour UTC, temperature): nights ~18.5, afternoons ~22.5, evenings ~21.7
READINGS = [(3, 18.5), (15, 22.5), (20, 21.7)]
DAYS = 60
WINDOW_DAYS = 30
TYPES = [{"key": "temperature", "name": "temperature", "cardinality": "functional", "subject_kinds": ["device"]},
         {"key": "note", "name": "note", "cardinality": "functional", "subject_kinds": ["device"]}]


def day0(now: datetime) -> datetime:
    return (now - timedelta(days=DAYS + 5)).replace(hour=0, minute=0, second=0, microsecond=0)


def windowed(run_id: str) -> Callable[[psycopg.Connection[Any], CommitResult], None]:
    """What the sync API does for observed state (facts.retention_class, granted to the app in 0003)."""
    def mark(conn: psycopg.Connection[Any], _: CommitResult) -> None:
        conn.execute("UPDATE facts SET retention_class = 'windowed' "
                     "WHERE owner_sub = wm_owner() AND run_id = %s AND source <> 'user'", [run_id])
    return mark


def load_sensor(db: Database, owner: str, now: datetime, days: int = DAYS) -> datetime:
    """Import the history; returns day 0. The owner's note (source user) comes first and stays permanent."""
    register_relation_types(db, TYPES)
    start = day0(now)
    who = owner_principal(owner)
    first = MemoryMutationProposal(run_id="sensor-setup", operations=[
        UpsertEntity(ref=SENSOR, kind="device", canonical_name="Living room sensor"),
        AssertFact(subject=SENSOR, predicate="note", value="hangs above the sofa", valid_from=start)])
    assert not commit_proposal(db, who, first, recorded_at=start).rejected
    for week in range(0, days, 7):  # one proposal per week: what a feed's batch import would look like
        ops: list[Any] = [AssertFact(subject=SENSOR, predicate="temperature", value=value + (d % 3) * 0.1,
                                     valid_from=start + timedelta(days=d, hours=hour), source=FEED)
                          for d in range(week, min(week + 7, days)) for hour, value in READINGS]
        proposal = MemoryMutationProposal(run_id=f"sensor-{week}", operations=ops)
        at = start + timedelta(days=min(week + 7, days) - 1, hours=23, minutes=59)
        result = commit_proposal(db, who, proposal, recorded_at=at, on_commit=windowed(proposal.run_id))
        assert not result.rejected, result.rejected
    # The owner corrects one old reading: the user's row (permanent) names the windowed row it split, which
    # therefore stays; the pieces left of that row come back with the default class (the job re-marks them).
    fix = MemoryMutationProposal(run_id="owner-fix", operations=[AssertFact(
        subject=SENSOR, predicate="temperature", value=25.0, valid_from=start + timedelta(days=3, hours=16),
        valid_to=start + timedelta(days=3, hours=17))])
    assert not commit_proposal(db, who, fix, recorded_at=start + timedelta(days=days)).rejected
    return start
