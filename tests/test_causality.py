"""Causality and intent: the named causal hops, the seed's memory.py example, outcomes, stamping."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cypher
from graph.age.mirror import micros
from graph.errors import BadInput
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, RecordEvent, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.causality import effects_of, explain_change
from graph.reads.intent import judge, reconcile
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

EXPECT_PASSING = {"target": ["test:test_recall", "test:test_merge"], "predicate": "status",
                  "expected_value": "passing"}


def commit(db: Database, owner: str, run: str, ops: Sequence[Any]) -> CommitResult:
    return commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=list(ops)))


def ok(db: Database, owner: str, run: str, ops: Sequence[Any]) -> None:
    result = commit(db, owner, run, ops)
    assert result.rejected == [], result.rejected


def tool_call(key: str, cause: str, at: datetime, expected: dict[str, Any] | None = None,
              target: str = "file:memory.py") -> RecordEvent:
    return RecordEvent(event_type="agent_tool_call", occurred_at=at, caused_by=cause, source="agent",
                       target=target, intent="refactor memory.py without breaking its tests",
                       expected_effect=expected, goal_ref="goal:clean-memory", summary="edit_file memory.py",
                       external_ref=key)


def result_event(key: str, cause: str, at: datetime, test: str) -> RecordEvent:
    return RecordEvent(event_type="test_result", occurred_at=at, caused_by=cause, target=test,
                       summary=f"{test} ran", external_ref=key)


def status(test: str, value: str, at: datetime, cause: str) -> AssertFact:
    return AssertFact(subject=test, predicate="status", value=value, valid_from=at, caused_by_event=cause,
                      source="agent")


def outcome(db: Database, owner: str, key: str) -> Any:
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT intent_outcome FROM world_events WHERE external_ref = %s", (key,)).fetchone()
    assert row is not None
    return row["intent_outcome"]


@pytest.fixture
def run_r1(db: Database, owner: str) -> datetime:
    """The seed's example: user message -> edit_file on memory.py -> two failing tests (run r1)."""
    t = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=5)
    ok(db, owner, "r1", [
        UpsertEntity(ref="file:memory.py", kind="file", canonical_name="memory.py"),
        UpsertEntity(ref="test:test_recall", kind="test", canonical_name="test_recall"),
        UpsertEntity(ref="test:test_merge", kind="test", canonical_name="test_merge"),
        AssertFact(subject="test:test_merge", predicate="status", value="passing", valid_from=t - timedelta(days=1)),
        RecordEvent(event_type="user_message", occurred_at=t, summary="please refactor memory.py",
                    external_ref="msg-1"),
        tool_call("call-1", "msg-1", t + timedelta(seconds=1), EXPECT_PASSING),
        result_event("res-1", "call-1", t + timedelta(seconds=5), "test:test_recall"),
        result_event("res-2", "call-1", t + timedelta(seconds=6), "test:test_merge"),
        status("test:test_recall", "failing", t + timedelta(seconds=5), "res-1"),
        status("test:test_merge", "failing", t + timedelta(seconds=6), "res-2"),
    ])
    return t


@pytest.mark.usefixtures("run_r1")
def test_causal_forward_and_backward_return_every_field(db: Database, owner: str) -> None:
    with db.owner_tx(owner, read_only=True) as conn:
        ids = {r["external_ref"]: str(r["id"]) for r in conn.execute("SELECT id, external_ref FROM world_events")}
        forward = cypher.run(conn, "causal_forward", {"ids": [ids["call-1"]]})
        backward = cypher.run(conn, "causal_backward", {"ids": [ids["call-1"]]})
    assert {r["id"] for r in forward} == {ids["res-1"], ids["res-2"]}
    for row in forward:
        assert set(row) == {"cause_id", "kind", "id", "event_type", "occurred_at", "correlation_id", "summary"}
        assert row["cause_id"] == ids["call-1"] and row["kind"] == "direct" and row["event_type"] == "test_result"
        assert row["correlation_id"] == "r1" and row["summary"].endswith(" ran")
        assert isinstance(row["occurred_at"], int)
    (cause,) = backward
    assert set(cause) == {"effect_id", "kind", "id", "event_type", "occurred_at", "correlation_id", "summary"}
    assert cause["effect_id"] == ids["call-1"] and cause["id"] == ids["msg-1"] and cause["kind"] == "direct"
    assert cause["event_type"] == "user_message" and cause["correlation_id"] == "r1"
    assert cause["summary"] == "please refactor memory.py" and isinstance(cause["occurred_at"], int)


def test_effects_of_run_r1_shows_both_failing_tests(db: Database, owner: str, run_r1: datetime) -> None:
    effects = effects_of(db, owner, run_id="r1")
    assert effects is not None
    assert [(e.event_type, e.depth) for e in effects.events] == [
        ("user_message", 0), ("agent_tool_call", 1), ("test_result", 2), ("test_result", 2)]
    assert sorted((f.subject_ref, f.fact.value, f.depth) for f in effects.facts) == [
        ("test:test_merge", "failing", 2), ("test:test_recall", "failing", 2)]
    root = effects.events[0]
    assert root.correlation_id == "r1" and root.caused_by_event_id is None and root.causation_kind is None
    call = effects.events[1]
    assert call.causation_kind == "direct" and call.correlation_id == "r1" and call.target_ref == "file:memory.py"
    assert call.occurred_at == run_r1 + timedelta(seconds=1)
    from_message = effects_of(db, owner, event_id=root.id, depth=1)
    assert from_message is not None and [e.event_type for e in from_message.events] == ["user_message",
                                                                                        "agent_tool_call"]
    assert from_message.facts == []
    assert effects_of(db, f"{owner}-b", run_id="r1") is None
    with pytest.raises(BadInput):
        effects_of(db, owner, event_id=root.id, run_id="r1")


def test_explain_change_walks_back_to_the_user_message(db: Database, owner: str, run_r1: datetime) -> None:
    why = explain_change(db, owner, ref="test:test_merge", predicate="status")
    assert why is not None and why.subject_ref == "test:test_merge"
    assert why.fact.value == "failing" and why.fact.source == "agent"
    assert [e.event_type for e in why.causes] == ["test_result", "agent_tool_call", "user_message"]
    assert [e.depth for e in why.causes] == [1, 2, 3]
    assert why.root is not None and why.root.summary == "please refactor memory.py"
    assert why.intent is not None and why.intent.intent == "refactor memory.py without breaking its tests"
    assert why.intent.expected_effect == EXPECT_PASSING and why.intent.goal_ref == "goal:clean-memory"
    assert why.intent.intent_outcome == "unfulfilled"
    assert [f.value for f in why.supersedes] == ["passing"] and why.superseded_by == []
    assert not why.hypothesis
    older = explain_change(db, owner, fact_id=why.supersedes[0].id)
    # the open 'passing' row was split: its earlier part stays 'passing', the rest became 'failing'
    assert older is not None and sorted(f.value for f in older.superseded_by) == ["failing", "passing"]
    assert older.causes == []
    assert older.root is None and older.intent is None
    by_id = explain_change(db, owner, fact_id=why.fact.id)
    assert by_id is not None and by_id.fact.id == why.fact.id
    assert explain_change(db, f"{owner}-b", fact_id=why.fact.id) is None
    assert explain_change(db, owner, ref="test:nothing", predicate="status") is None
    with pytest.raises(BadInput):
        explain_change(db, owner, ref="test:test_merge")


def test_judge_outcomes() -> None:
    targets = ["a", "b"]
    assert judge(targets, "ok", {"a": "ok", "b": "ok"}, window_closed=False) == "fulfilled"
    assert judge(targets, "ok", {"a": "ok"}, window_closed=False) == "partial"
    assert judge(targets, "ok", {"a": "ok", "b": "no"}, window_closed=True) == "partial"
    assert judge(targets, "ok", {"a": "no"}, window_closed=False) == "unfulfilled"
    assert judge(targets, "ok", {}, window_closed=False) is None
    assert judge(targets, "ok", {}, window_closed=True) == "unfulfilled"


@pytest.mark.usefixtures("run_r1")
def test_outcomes_fulfilled_partial_and_unfulfilled(db: Database, owner: str) -> None:
    assert outcome(db, owner, "call-1") == "unfulfilled"  # both tests failed
    t = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=2)
    ok(db, owner, "r2", [
        RecordEvent(event_type="user_message", occurred_at=t, summary="fix the tests", external_ref="msg-2"),
        tool_call("call-2", "msg-2", t + timedelta(seconds=1), EXPECT_PASSING),
        result_event("res-3", "call-2", t + timedelta(seconds=5), "test:test_recall"),
        status("test:test_recall", "passing", t + timedelta(seconds=5), "res-3"),
    ])
    assert outcome(db, owner, "call-2") == "partial"
    ok(db, owner, "r3", [result_event("res-4", "call-2", t + timedelta(seconds=9), "test:test_merge"),
                         status("test:test_merge", "passing", t + timedelta(seconds=9), "res-4")])
    assert outcome(db, owner, "call-2") == "fulfilled"
    assert outcome(db, owner, "call-1") == "unfulfilled"  # later effects of another action do not count


@pytest.mark.usefixtures("run_r1")
def test_an_effect_that_never_happens_is_unfulfilled_and_a_late_one_is_taken_in(
        db: Database, owner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import graph.reads.intent

    monkeypatch.setattr(graph.reads.intent, "RECONCILE_BATCH", 1)  # page through call-1 and call-4
    t = datetime.now(UTC).replace(microsecond=0)
    expected = {"target": "file:memory.py", "predicate": "status", "expected_value": "formatted", "within_seconds": 60}
    ok(db, owner, "r4", [RecordEvent(event_type="user_message", occurred_at=t, external_ref="msg-4"),
                         tool_call("call-4", "msg-4", t, expected)])
    assert outcome(db, owner, "call-4") is None  # nothing observed yet, window open
    assert reconcile(db, owner, t + timedelta(seconds=30)) == []
    changes = reconcile(db, owner, t + timedelta(seconds=61), open_only=True)
    assert [(c.old, c.new) for c in changes] == [(None, "unfulfilled")]
    assert outcome(db, owner, "call-4") == "unfulfilled"
    ok(db, owner, "r5", [RecordEvent(event_type="state_change", occurred_at=t + timedelta(minutes=5),
                                     caused_by="call-4", target="file:memory.py", external_ref="late-4"),
                         AssertFact(subject="file:memory.py", predicate="status", value="formatted",
                                    valid_from=t + timedelta(minutes=5), caused_by_event="late-4")])
    assert outcome(db, owner, "call-4") == "fulfilled"
    assert reconcile(db, owner, t + timedelta(minutes=6)) == []


def test_causation_kinds_are_stamped_at_every_site(db: Database, owner: str) -> None:
    t = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=1)
    ok(db, owner, "run-a", [
        UpsertEntity(ref="issue:i42", kind="issue", canonical_name="i42", external_id="gh-42"),
        UpsertEntity(ref="issue:i43", kind="issue", canonical_name="i43"),
        RecordEvent(event_type="user_message", occurred_at=t, external_ref="m"),
        RecordEvent(event_type="automation_fire", occurred_at=t, caused_by="m", intent="remind",
                    external_ref="fire"),
        RecordEvent(event_type="agent_tool_call", occurred_at=t, caused_by="m", source="agent", target="issue:i42",
                    intent="close the issue", external_ref="close"),
    ])
    ok(db, owner, "run-f", [RecordEvent(event_type="follow_up_run", occurred_at=t, caused_by="fire",
                                        external_ref="follow")])
    ok(db, owner, "sync-1", [RecordEvent(event_type="integration_sync", occurred_at=t + timedelta(minutes=2),
                                         target="issue:i42", source="integration:github", external_ref="s1")])
    ok(db, owner, "sync-2", [RecordEvent(event_type="integration_sync", occurred_at=t + timedelta(minutes=40),
                                         target="issue:i42", source="integration:github", external_ref="s2")])
    ok(db, owner, "sync-3", [RecordEvent(event_type="integration_sync", occurred_at=t + timedelta(minutes=40),
                                         target="issue:i43", source="integration:github", external_ref="s3")])
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute("SELECT e.external_ref, e.causation_kind, e.correlation_id, c.external_ref AS cause "
                            "FROM world_events e LEFT JOIN world_events c ON c.id = e.caused_by_event_id").fetchall()
    got = {r["external_ref"]: (r["causation_kind"], r["correlation_id"], r["cause"]) for r in rows}
    assert got == {
        "m": (None, "run-a", None), "fire": ("trigger", "run-a", "m"), "follow": ("trigger", "run-f", "fire"),
        "close": ("direct", "run-a", "m"),
        "s1": ("direct", "run-a", "close"),  # within the window: the agent's action caused it
        "s2": ("inferred", "sync-2", "close"),  # later: only a hypothesis, with its own correlation
        "s3": (None, "sync-3", None),  # nothing the agent did: a root
    }


def test_inferred_links_are_hypotheses_and_never_fulfil_an_intent(db: Database, owner: str) -> None:
    t = datetime.now(UTC).replace(microsecond=0) - timedelta(hours=2)
    ok(db, owner, "run-b", [
        UpsertEntity(ref="issue:i7", kind="issue", canonical_name="i7"),
        RecordEvent(event_type="user_message", occurred_at=t, external_ref="m7"),
        RecordEvent(event_type="agent_tool_call", occurred_at=t, caused_by="m7", source="agent", target="issue:i7",
                    intent="close it", expected_effect={"target": "issue:i7", "predicate": "status",
                                                        "expected_value": "closed", "within_seconds": 600},
                    external_ref="close-7"),
    ])
    ok(db, owner, "sync-7", [
        RecordEvent(event_type="integration_sync", occurred_at=t + timedelta(hours=1), target="issue:i7",
                    source="integration:github", external_ref="s7"),
        AssertFact(subject="issue:i7", predicate="status", value="closed", valid_from=t + timedelta(hours=1),
                   source="integration:github", caused_by_event="s7"),
    ])
    why = explain_change(db, owner, ref="issue:i7", predicate="status")
    assert why is not None and why.hypothesis and [e.causation_kind for e in why.causes] == ["inferred", "direct",
                                                                                             None]
    reconcile(db, owner)
    assert outcome(db, owner, "close-7") == "unfulfilled"


def test_bad_causation_is_rejected(db: Database, owner: str) -> None:
    t = datetime.now(UTC)
    cases = {
        "INTENT_REQUIRED": RecordEvent(event_type="agent_tool_call", occurred_at=t, source="agent"),
        "BAD_EXPECTED_EFFECT": RecordEvent(event_type="agent_tool_call", occurred_at=t, source="agent", intent="x",
                                           expected_effect={"target": "file:a", "value": 1}),
        "BAD_CAUSATION": RecordEvent(event_type="state_change", occurred_at=t, causation_kind="direct"),
    }
    for code, op in cases.items():
        result = commit(db, owner, f"bad-{code}", [op])
        assert [r.code for r in result.rejected] == [code]


EFFECTS = """query($run: String, $event: ID, $depth: Int) { effectsOf(runId: $run, eventId: $event, depth: $depth) {
  events { id eventType occurredAt recordedAt depth causedByEventId causationKind correlationId runId summary
           intent expectedEffect goalRef intentOutcome actorRef targetRef }
  facts { subjectRef causedByEventId depth fact { id predicate value status } } } }"""
EXPLAIN = """query($id: ID, $ref: String, $p: String) { explainChange(factId: $id, ref: $ref, predicate: $p) {
  subjectRef fact { id value evidence } supersedes { value } supersededBy { value }
  causes { eventType depth } root { eventType summary } intent { intent intentOutcome expectedEffect }
  hypothesis } }"""


@pytest.mark.usefixtures("run_r1")
def test_effects_of_and_explain_change_over_graphql(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()
    body = gql(client, token, EFFECTS, {"run": "r1"})
    assert "errors" not in body, body
    effects = body["data"]["effectsOf"]
    assert [(e["eventType"], e["depth"]) for e in effects["events"]] == [
        ("user_message", 0), ("agent_tool_call", 1), ("test_result", 2), ("test_result", 2)]
    call = effects["events"][1]
    assert call["intentOutcome"] == "unfulfilled" and call["expectedEffect"] == EXPECT_PASSING
    assert call["causedByEventId"] == effects["events"][0]["id"] and call["runId"] == "r1"
    assert call["goalRef"] == "goal:clean-memory" and call["targetRef"] == "file:memory.py"
    assert sorted((f["subjectRef"], f["fact"]["value"]) for f in effects["facts"]) == [
        ("test:test_merge", "failing"), ("test:test_recall", "failing")]
    why = gql(client, token, EXPLAIN, {"ref": "test:test_recall", "p": "status"})["data"]["explainChange"]
    assert [c["eventType"] for c in why["causes"]] == ["test_result", "agent_tool_call", "user_message"]
    assert why["root"] == {"eventType": "user_message", "summary": "please refactor memory.py"}
    assert why["intent"]["intentOutcome"] == "unfulfilled" and why["hypothesis"] is False
    assert gql(client, token, EXPLAIN, {"id": why["fact"]["id"]})["data"]["explainChange"]["fact"] == why["fact"]
    assert gql(client, token, EFFECTS, {"run": "nope"})["data"]["effectsOf"] is None
    bad = gql(client, token, EXPLAIN, {"id": "not-a-uuid"})
    assert bad["errors"][0]["extensions"]["code"] == "BAD_ID"
    both = gql(client, token, EFFECTS, {"run": "r1", "event": call["id"]})
    assert both["errors"][0]["extensions"]["code"] == "BAD_INPUT"


def test_micros_round_trip() -> None:
    from graph.reads.traversal import from_micros

    t = datetime(2024, 5, 1, 12, 30, 15, 123456, tzinfo=UTC)
    assert from_micros(micros(t) or 0) == t


@pytest.mark.usefixtures("run_r1")
def test_effects_that_fan_out_too_far_say_so(db: Database, owner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import graph.reads.causality

    monkeypatch.setattr(graph.reads.causality, "MAX_EVENTS", 2)
    capped = effects_of(db, owner, run_id="r1")
    assert capped is not None and not capped.truncated  # the run's own events are always there
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT id FROM world_events WHERE external_ref = 'msg-1'").fetchone()
    assert row is not None
    walked = effects_of(db, owner, event_id=row["id"])
    assert walked is not None and walked.truncated and len(walked.events) == 2
    monkeypatch.setattr(graph.reads.causality, "MAX_FACTS", 1)
    few = effects_of(db, owner, run_id="r1")
    assert few is not None and few.truncated and len(few.facts) == 1


@pytest.mark.usefixtures("run_r1")
def test_judged_outcomes_feed_the_intent_metrics(db: Database, owner: str) -> None:
    from graph.platform import metrics

    def count(label: str) -> float:
        return float(metrics.intent_outcomes.labels(label)._value.get())

    before = count("fulfilled"), count("partial")
    t = datetime.now(UTC).replace(microsecond=0) - timedelta(minutes=2)
    ok(db, owner, "m2", [
        RecordEvent(event_type="user_message", occurred_at=t, summary="fix the tests", external_ref="mmsg-2"),
        tool_call("mcall-2", "mmsg-2", t + timedelta(seconds=1), EXPECT_PASSING),
        result_event("mres-3", "mcall-2", t + timedelta(seconds=5), "test:test_recall"),
        status("test:test_recall", "passing", t + timedelta(seconds=5), "mres-3"),
    ])
    assert count("partial") == before[1] + 1
    ok(db, owner, "m3", [result_event("mres-4", "mcall-2", t + timedelta(seconds=9), "test:test_merge"),
                         status("test:test_merge", "passing", t + timedelta(seconds=9), "mres-4")])
    assert count("fulfilled") == before[0] + 1
