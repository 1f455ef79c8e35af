"""The demo world of the seed's examples, loaded by `worldmem demo` (and `make run`).

Basti (person:basti, the owner: alias "me") owns Luna the cat, whose feeding times changed
retroactively: told 3 days ago that breakfast moved from 07:00 to 08:00 two weeks ago. He works on
repo:home-agent, whose GitHub issue #42 an integration reports blocked. A policy says Luna gets no
food after 20:00. He prefers concise answers and metric units, and answers in German except in the
home-agent repo (English: scope resolution). A low-confidence guess of Luna's birthday waits as pending.

Idempotent: every step is a proposal with a fixed run id, and a step already committed is skipped (its
dates, relative to the first load, stay as they were).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.errors import Conflict
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import (
    AddAlias,
    AssertFact,
    AssertRelationship,
    Evidence,
    MemoryMutationProposal,
    RecordEvent,
    RetractFact,
    UpsertEntity,
)
from graph.ledger.registries import register_entity_kinds, register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.sql import load

DEFAULT_OWNER = "demo"
KINDS = [{"key": "github:issue", "name": "GitHub issue", "description": "An issue of a GitHub repository"}]
TYPES = [{"key": "answer_language", "name": "answer language", "cardinality": "functional",
          "subject_kinds": ["person"], "description": "Language the agent answers in"}]
SAID = Evidence(kind="message", text="told by Basti in chat")


@dataclass
class DemoReport:
    owner: str
    committed: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


def _steps(t: datetime) -> list[tuple[str, str | None, datetime, list[Any]]]:
    """(run id, chat id, recorded at, operations); `t` is the moment of the first load."""
    d = timedelta(days=1)
    setup, retro, sync, agent = t - 40 * d, t - 3 * d, t - 2 * d, t - 1 * d
    return [
        ("demo-1-setup", None, setup, [
            UpsertEntity(ref="person:basti", kind="person", canonical_name="Basti", aliases=["me", "Sebastian"]),
            UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna", aliases=["Luni"]),
            UpsertEntity(ref="repo:home-agent", kind="repo", canonical_name="home-agent", aliases=["home agent"]),
            UpsertEntity(ref="chat:c1", kind="chat", canonical_name="Kitchen chat"),
            UpsertEntity(ref="policy:no-late-food", kind="policy", canonical_name="No food after 20:00"),
            AddAlias(ref="pet:luna", alias="the cat", namespace="chat:c1"),
            AssertRelationship(subject="person:basti", predicate="owns", object="pet:luna", valid_from=t - 900 * d,
                               evidence=SAID),
            AssertRelationship(subject="person:basti", predicate="works_on", object="repo:home-agent",
                               valid_from=t - 200 * d, evidence=SAID),
            AssertFact(subject="pet:luna", predicate="feeding_time", value="07:00", valid_from=t - 60 * d,
                       evidence=SAID),
            AssertFact(subject="pet:luna", predicate="feeding_time", value="18:00", valid_from=t - 60 * d,
                       evidence=SAID),
            AssertFact(subject="policy:no-late-food", predicate="rule", valid_from=setup, evidence=SAID,
                       value="Never feed Luna after 20:00 (vet's advice)."),
            AssertRelationship(subject="policy:no-late-food", predicate="applies_to", object="pet:luna",
                               valid_from=setup, evidence=SAID),
            AssertFact(subject="person:basti", predicate="prefers", value="concise answers", valid_from=setup,
                       evidence=SAID),
            AssertFact(subject="person:basti", predicate="prefers", value="metric units", valid_from=setup,
                       confidence=0.75, source="agent", evidence=Evidence(kind="inference", text="uses km, kg")),
            AssertFact(subject="person:basti", predicate="answer_language", value="de", valid_from=setup,
                       memory_type="preference", evidence=SAID),
            AssertFact(subject="person:basti", predicate="answer_language", value="en", valid_from=setup,
                       memory_type="preference", scope="repo:home-agent", priority=1, evidence=SAID),
        ]),
        ("demo-2-breakfast", "c1", retro, [
            RecordEvent(event_type="user_message", occurred_at=retro, actor="person:basti",
                        summary="Since two weeks Luna gets breakfast at 8, not at 7.", external_ref="demo:msg-1"),
            RecordEvent(event_type="state_change", occurred_at=retro, target="pet:luna", caused_by="demo:msg-1",
                        summary="Luna's breakfast moved from 07:00 to 08:00", external_ref="demo:change-1"),
            RetractFact(subject="pet:luna", predicate="feeding_time", value="07:00", valid_from=t - 14 * d,
                        evidence=SAID, reason="breakfast moved to 08:00"),
            AssertFact(subject="pet:luna", predicate="feeding_time", value="08:00", valid_from=t - 14 * d,
                       evidence=SAID, caused_by_event="demo:change-1"),
        ]),
        ("demo-3-github-sync", None, sync, [
            UpsertEntity(ref="github:issue:42", kind="github:issue", canonical_name="Feeding reminder automation",
                         aliases=["#42"], source="integration:github"),
            RecordEvent(event_type="integration_sync", occurred_at=sync, target="github:issue:42",
                        summary="label 'blocked' added to #42", external_ref="demo:sync-42",
                        source="integration:github"),
            AssertFact(subject="github:issue:42", predicate="status", value="blocked", valid_from=sync,
                       source="integration:github", caused_by_event="demo:sync-42",
                       reason="waiting for the vet to confirm the new feeding times"),
            AssertRelationship(subject="github:issue:42", predicate="part_of", object="repo:home-agent",
                               valid_from=sync, source="integration:github"),
        ]),
        ("demo-4-agent", "c1", agent, [
            RecordEvent(event_type="agent_tool_call", occurred_at=agent, target="pet:luna",
                        caused_by="demo:msg-1", intent="remind Basti of Luna's 18:00 meal",
                        expected_effect={"target": "pet:luna", "predicate": "feeding_time", "expected_value": "18:00"},
                        summary="scheduled a daily 17:55 reminder", external_ref="demo:tool-1", source="agent"),
            AssertFact(subject="pet:luna", predicate="birthday", value="2021-04-01", valid_from=t - 2000 * d,
                       source="agent", confidence=0.3, evidence=Evidence(kind="inference", text="vet invoice?")),
        ]),
    ]


def load_demo(db: Database, owner: str = DEFAULT_OWNER, now: datetime | None = None) -> DemoReport:
    """Register the demo vocabulary and commit each step not committed before."""
    register_entity_kinds(db, KINDS)
    register_relation_types(db, TYPES)
    report = DemoReport(owner=owner)
    t = (now or datetime.now(UTC)).replace(second=0, microsecond=0)
    for run_id, chat_id, at, ops in _steps(t):
        if committed(db, owner, run_id):
            report.skipped.append(run_id)
            continue
        proposal = MemoryMutationProposal(run_id=run_id, chat_id=chat_id, proposed_by="demo", operations=ops)
        result = commit_proposal(db, owner_principal(owner), proposal, recorded_at=at)
        if result.rejected:
            first = result.rejected[0]
            raise Conflict(f"demo step {run_id} was rejected: op {first.op_index}: {first.message}",
                           code=first.code)
        report.committed.append(run_id)
    return report


def committed(db: Database, owner: str, run_id: str) -> bool:
    """Whether the proposal `run_id` of `owner` was committed before."""
    with db.owner_tx(owner, read_only=True) as conn:
        return conn.execute(load("proposal_get"), {"run_id": run_id}).fetchone() is not None
