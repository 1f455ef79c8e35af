"""Concurrent commits: N threads write one functional attribute and N one set predicate of the same entity
at once. The owner's clock lock serialises them; afterwards no two believed values overlap, no set member
is believed twice for the same time, every proposal has its own system time, and doctor finds graph ==
ledger."""

from __future__ import annotations

import random
import threading
from datetime import UTC, datetime, timedelta
from typing import Any

from graph.age.doctor import check
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.proposal import AssertFact, AssertRelationship, Evidence, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database

N = 8
T0 = datetime(2023, 1, 1, tzinfo=UTC)
EV = Evidence(kind="test", text="concurrent")

OVERLAPS = """
SELECT count(*) AS n FROM facts a JOIN facts b
  ON a.subject_id = b.subject_id AND a.predicate = b.predicate AND a.id < b.id
 AND a.scope_entity_id IS NOT DISTINCT FROM b.scope_entity_id AND a.valid && b.valid
WHERE a.superseded_at IS NULL AND b.superseded_at IS NULL AND a.status = 'active' AND b.status = 'active'
  AND a.predicate = %(predicate)s
  AND (a.functional OR (a.object_value IS NOT DISTINCT FROM b.object_value
                        AND a.object_entity_id IS NOT DISTINCT FROM b.object_entity_id))
"""


def _op(kind: str, i: int, rng: random.Random) -> Any:
    start = T0 + timedelta(days=rng.randint(0, 20))
    end = start + timedelta(days=rng.randint(1, 15)) if rng.random() < 0.6 else None
    if kind == "functional":
        return AssertFact(subject="person:c", predicate="name", value=f"name-{i % 3}", valid_from=start,
                          valid_to=end, evidence=EV)
    return AssertRelationship(subject="person:c", predicate="knows", object=f"person:k{i % 3}",
                              valid_from=start, valid_to=end, evidence=EV)


def test_concurrent_commits_to_one_attribute_and_one_set(db: Database, owner: str, test_db_url: str) -> None:
    seed: list[Any] = [UpsertEntity(ref=f"person:{r}", kind="person", canonical_name=r)
                       for r in ("c", "k0", "k1", "k2")]
    principal = owner_principal(owner)
    assert commit_proposal(db, principal, MemoryMutationProposal(run_id="seed", operations=seed)).rejected == []
    rng = random.Random(11)
    jobs = [(kind, i, _op(kind, i, rng)) for i in range(N) for kind in ("functional", "set")]
    start = threading.Barrier(len(jobs))
    results: dict[str, CommitResult] = {}
    failures: list[BaseException] = []

    def run(kind: str, i: int, op: Any) -> None:
        try:
            start.wait(timeout=30)
            results[f"{kind}-{i}"] = commit_proposal(
                db, owner_principal(owner), MemoryMutationProposal(run_id=f"{kind}-{i}", operations=[op]))
        except BaseException as exc:  # reported below, with the thread's name
            failures.append(exc)

    threads = [threading.Thread(target=run, args=job, name=f"{job[0]}-{job[1]}") for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert failures == [] and len(results) == len(jobs), failures
    assert all(r.rejected == [] and r.committed == 1 for r in results.values()), results
    # one system time per proposal, all distinct (the clock is monotonic per owner)
    assert len({r.recorded_at for r in results.values()}) == len(jobs)

    with db.owner_tx(owner, read_only=True) as conn:
        for predicate in ("name", "knows"):
            row = conn.execute(OVERLAPS, {"predicate": predicate}).fetchone()
            assert row == {"n": 0}, predicate
        believed = conn.execute("SELECT count(*) AS n FROM facts WHERE predicate = 'knows'"
                                " AND superseded_at IS NULL").fetchone()
        assert believed is not None and believed["n"] >= 3
    problems = [p for p in check(test_db_url).problems if owner in p]
    assert problems == []
