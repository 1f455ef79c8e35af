"""Intent outcomes from effects recorded only as events (graph/reads/intent.py's payload convention).

An observing event (state_change, test_result, integration_sync) with a cause over a direct or trigger
link and a payload {"target": ref, "predicate": p, "value": v} observes v as an effect; inferred links,
the action's own payload and other event types never do; facts keep deciding as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, RecordEvent, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.intent import observation, reconcile

EXPECT = {"target": ["test:test_recall", "test:test_merge"], "predicate": "status", "expected_value": "passing",
          "within_seconds": 600}


def ok(db: Database, owner: str, run: str, ops: Sequence[Any]) -> None:
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=list(ops)))
    assert result.rejected == [], result.rejected


def outcome(db: Database, owner: str, key: str) -> Any:
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT intent_outcome FROM world_events WHERE external_ref = %s", (key,)).fetchone()
    assert row is not None
    return row["intent_outcome"]


def observed(key: str, cause: str, at: datetime, test: str | None, value: Any, *, event_type: str = "test_result",
             target: str | None = None, **extra: Any) -> RecordEvent:
    payload: dict[str, Any] = {"predicate": "status", "value": value}
    if test is not None:
        payload["target"] = test
    return RecordEvent(event_type=event_type, occurred_at=at, caused_by=cause, target=target, payload=payload,
                       summary="tests ran", external_ref=key, **extra)


@pytest.fixture
def call(db: Database, owner: str) -> datetime:
    """User message -> the agent's edit that expects both tests to pass (run r1), nothing observed yet."""
    t = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    ok(db, owner, "r1", [
        UpsertEntity(ref="file:memory.py", kind="file", canonical_name="memory.py"),
        UpsertEntity(ref="test:test_recall", kind="test", canonical_name="test_recall"),
        UpsertEntity(ref="test:test_merge", kind="test", canonical_name="test_merge"),
        RecordEvent(event_type="user_message", occurred_at=t, summary="refactor memory.py", external_ref="msg"),
        RecordEvent(event_type="agent_tool_call", occurred_at=t + timedelta(seconds=1), caused_by="msg",
                    source="agent", target="file:memory.py", intent="refactor without breaking the tests",
                    expected_effect=EXPECT, external_ref="call",
                    # the action's own payload says what it wants, which is not an observation
                    payload={"target": "test:test_recall", "predicate": "status", "value": "passing"}),
    ])
    assert outcome(db, owner, "call") is None
    return t


def test_the_payload_convention() -> None:
    assert observation("test_result", {"target": "test:a", "predicate": "status", "value": None}) == "status"
    assert observation("state_change", {"predicate": "status", "value": "on"}) == "status"
    assert observation("integration_sync", {"predicate": "status", "value": "closed"}) == "status"
    assert observation("agent_tool_call", {"predicate": "status", "value": "on"}) is None
    assert observation("test_result", {"predicate": "status"}) is None
    assert observation("test_result", {"predicate": 3, "value": "x"}) is None
    assert observation("test_result", {}) is None


def test_fulfilled_by_events_alone(db: Database, owner: str, call: datetime) -> None:
    ok(db, owner, "r2", [observed("res-1", "call", call + timedelta(seconds=5), "test:test_recall", "passing")])
    assert outcome(db, owner, "call") == "partial"  # re-judged as the event is recorded
    # the target defaults to the event's own target; a later event of the correlation, caused by the message
    ok(db, owner, "r3", [observed("res-2", "msg", call + timedelta(seconds=6), None, "passing",
                                  target="test:test_merge", correlation_id="r1")])
    assert outcome(db, owner, "call") == "fulfilled"
    with db.owner_tx(owner, read_only=True) as conn:
        facts = conn.execute("SELECT count(*) AS n FROM facts WHERE predicate = 'status'").fetchone()
    assert facts is not None and facts["n"] == 0  # no fact was involved
    assert reconcile(db, owner, call + timedelta(hours=1)) == []


def test_unfulfilled_when_the_event_says_otherwise(db: Database, owner: str, call: datetime) -> None:
    ok(db, owner, "r2", [observed("res-1", "call", call + timedelta(seconds=5), "test:test_recall", "failing"),
                         observed("res-2", "call", call + timedelta(seconds=5), "test:test_merge", "failing",
                                  event_type="state_change")])
    assert outcome(db, owner, "call") == "unfulfilled"
    # the latest observation per target counts: a later passing run of one test makes it partial
    ok(db, owner, "r3", [observed("res-3", "res-1", call + timedelta(seconds=9), "test:test_recall", "passing")])
    assert outcome(db, owner, "call") == "partial"


def test_facts_still_decide(db: Database, owner: str, call: datetime) -> None:
    at = call + timedelta(seconds=5)
    ok(db, owner, "r2", [
        observed("res-1", "call", at, "test:test_recall", "passing"),
        # the same run's fact about the same moment says otherwise: the fact decides
        AssertFact(subject="test:test_recall", predicate="status", value="failing", valid_from=at,
                   caused_by_event="res-1", source="agent"),
        observed("res-2", "call", at, "test:test_merge", "passing"),
    ])
    assert outcome(db, owner, "call") == "partial"
    ok(db, owner, "r3", [
        RecordEvent(event_type="test_result", occurred_at=at + timedelta(seconds=1), caused_by="call",
                    external_ref="res-3"),
        AssertFact(subject="test:test_recall", predicate="status", value="passing",
                   valid_from=at + timedelta(seconds=1), caused_by_event="res-3", source="agent"),
    ])
    assert outcome(db, owner, "call") == "fulfilled"  # one by a fact, one by an event


def test_other_events_never_count(db: Database, owner: str, call: datetime) -> None:
    at = call + timedelta(seconds=5)
    ok(db, owner, "r2", [
        # another kind of event (a retried tool call) saying the value is no observation
        observed("retry", "call", at, "test:test_recall", "passing", event_type="agent_tool_call",
                 source="agent", intent="retry"),
        # another predicate, or no value
        RecordEvent(event_type="test_result", occurred_at=at, caused_by="call", external_ref="res-0",
                    payload={"target": "test:test_recall", "predicate": "coverage", "value": "passing"}),
        RecordEvent(event_type="test_result", occurred_at=at, caused_by="call", external_ref="res-00",
                    payload={"target": "test:test_recall", "predicate": "status"}),
        # an event of the correlation without a cause
        RecordEvent(event_type="test_result", occurred_at=at, correlation_id="r1", external_ref="res-root",
                    payload={"target": "test:test_recall", "predicate": "status", "value": "passing"}),
        # a payload naming no entity, or one that is not a target
        observed("res-x", "call", at, "test:nothing", "passing"),
        observed("res-y", "call", at, "file:memory.py", "passing"),
    ])
    assert outcome(db, owner, "call") is None
    assert [(c.old, c.new) for c in reconcile(db, owner, call + timedelta(hours=1))] == [(None, "unfulfilled")]


def test_inferred_events_never_count(db: Database, owner: str) -> None:
    t = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)
    expected = {"target": "issue:i7", "predicate": "status", "expected_value": "closed", "within_seconds": 600}
    ok(db, owner, "run-b", [
        UpsertEntity(ref="issue:i7", kind="issue", canonical_name="i7"),
        RecordEvent(event_type="user_message", occurred_at=t, external_ref="m7"),
        RecordEvent(event_type="agent_tool_call", occurred_at=t, caused_by="m7", source="agent", target="issue:i7",
                    intent="close it", expected_effect=expected, external_ref="close-7"),
        # named as a hypothesis by its recorder
        observed("guess", "close-7", t + timedelta(seconds=5), "issue:i7", "closed", event_type="state_change",
                 causation_kind="inferred", correlation_id="run-b"),
    ])
    assert outcome(db, owner, "close-7") is None
    # an integration sync long after the action is linked to it only as a hypothesis (inferred)
    ok(db, owner, "sync-7", [
        RecordEvent(event_type="integration_sync", occurred_at=t + timedelta(hours=1), target="issue:i7",
                    source="integration:github", external_ref="s7",
                    payload={"target": "issue:i7", "predicate": "status", "value": "closed"}),
    ])
    with db.owner_tx(owner, read_only=True) as conn:
        kinds = conn.execute("SELECT external_ref, causation_kind FROM world_events WHERE external_ref IN "
                             "('guess', 's7') ORDER BY external_ref").fetchall()
    assert [(r["external_ref"], r["causation_kind"]) for r in kinds] == [("guess", "inferred"), ("s7", "inferred")]
    assert outcome(db, owner, "close-7") is None
    reconcile(db, owner)
    assert outcome(db, owner, "close-7") == "unfulfilled"


def test_a_sync_in_the_window_is_direct_and_counts(db: Database, owner: str) -> None:
    t = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=30)
    expected = {"target": "issue:i8", "predicate": "status", "expected_value": "closed"}
    ok(db, owner, "run-c", [
        UpsertEntity(ref="issue:i8", kind="issue", canonical_name="i8"),
        RecordEvent(event_type="user_message", occurred_at=t, external_ref="m8"),
        RecordEvent(event_type="agent_tool_call", occurred_at=t, caused_by="m8", source="agent", target="issue:i8",
                    intent="close it", expected_effect=expected, external_ref="close-8"),
    ])
    ok(db, owner, "sync-8", [
        RecordEvent(event_type="integration_sync", occurred_at=t + timedelta(minutes=2), target="issue:i8",
                    source="integration:github", external_ref="s8",
                    payload={"predicate": "status", "value": "closed"}),
    ])
    assert outcome(db, owner, "close-8") == "fulfilled"
