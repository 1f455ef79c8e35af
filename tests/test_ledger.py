"""The committer and the temporal reads, through the Python API against the real database."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, Evidence, MemoryMutationProposal, RetractFact, UpsertEntity
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import fact_history, state_as_known_at, state_at
from tests.scenarios import load_scenarios, run_scenario

EVIDENCE = Evidence(kind="test", text="scenario step")


@pytest.mark.parametrize("scenario", load_scenarios(), ids=lambda s: s["entity"])
def test_public_scenarios_through_python_api(db: Database, owner: str, scenario: dict[str, Any]) -> None:
    ref, attr = scenario["entity"], scenario["attribute"]
    register_relation_types(db, [{"key": attr, "name": attr, "cardinality": scenario["cardinality"]}])
    counter = iter(range(1000))

    def step(at: datetime, op: str, value: Any, valid_from: datetime, valid_to: datetime | None) -> None:
        operation: Any
        if op == "assert":
            operation = AssertFact(subject=ref, predicate=attr, value=value, valid_from=valid_from,
                                   valid_to=valid_to, evidence=EVIDENCE)
        else:
            operation = RetractFact(subject=ref, predicate=attr, valid_from=valid_from, valid_to=valid_to,
                                    evidence=EVIDENCE)
        result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(
            run_id=f"run-{next(counter)}", operations=[operation]), recorded_at=at)
        assert result.rejected == [] and result.committed == 1

    def known_at(r: datetime, v: datetime) -> Any:
        state = state_as_known_at(db, owner, ref, r, v)
        values = [f.value for f in state.facts if f.predicate == attr] if state else []
        assert len(values) <= 1
        return values[0] if values else None

    def history() -> list[dict[str, Any]]:
        return [f.model_dump() for f in fact_history(db, owner, ref, attr)]

    run_scenario(scenario, step, known_at, history)


def test_retried_proposal_is_a_noop(db: Database, owner: str) -> None:
    proposal = MemoryMutationProposal(run_id="r-retry", operations=[
        UpsertEntity(ref="person:ann", kind="person", canonical_name="Ann", aliases=["Annie"]),
        AssertFact(subject="person:ann", predicate="city", value="Berlin",
                   valid_from=datetime(2020, 1, 1, tzinfo=UTC), evidence=EVIDENCE),
    ])
    first = commit_proposal(db, owner_principal(owner), proposal)
    second = commit_proposal(db, owner_principal(owner), proposal)
    assert first.committed == 2 and second.replayed and second.committed == 2
    assert len(fact_history(db, owner, "person:ann", "city")) == 1
    now = state_at(db, owner, "Annie", datetime.now(UTC))
    assert now is not None and [f.value for f in now.facts] == ["Berlin"]
