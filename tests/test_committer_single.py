"""A proposal of one operation runs in one pipeline, without a savepoint, with its registry reads fetched
with the owner's clock (graph/ledger/committer.py PIPELINED, graph/ledger/prefetch.py): it writes
exactly what the path before wrote, rolls back all of itself on a rejection, reports a constraint as
INTERNAL, leaves its connection usable, and needs fewer round trips."""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import partial
from typing import Any

import psycopg
import pytest

from graph.age.doctor import check
from graph.errors import InvariantViolation
from graph.ledger import committer, facts, ops
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.proposal import AssertFact, Evidence, MemoryMutationProposal
from graph.ledger.timeline import Interval, Piece, Plan
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.sql import load
from tests.libpq_trace import of_pool, parse, round_trips
from tests.test_committer_batch import first, second, snapshot

T = datetime(2024, 1, 1, tzinfo=UTC)
EV = Evidence(kind="message", text="single")


@pytest.fixture
def pipelined() -> Iterator[None]:
    assert committer.PIPELINED
    yield
    committer.PIPELINED = True


def one(db: Database, owner: str, run: str, op: Any, *, pipelined: bool = True) -> CommitResult:
    committer.PIPELINED = pipelined
    try:
        return commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=[op]))
    finally:
        committer.PIPELINED = True


def test_one_operation_at_a_time_writes_the_same_ledger_and_graph_both_ways(
        db: Database, owner: str, test_db_url: str, pipelined: None) -> None:
    fast, plain = f"{owner}-fast", f"{owner}-plain"
    # every operation of the batch test's two proposals as a proposal of its own (a new subject created on
    # first use, aliases, supersessions, splits, scopes, events and causes, pending guesses, retractions), a
    # rejection, and a replay of an earlier run
    steps = [*first(), *second(), AssertFact(subject="person:zed", predicate="no_such_predicate", value=1,
                                             valid_from=T, evidence=EV)]
    results: dict[str, list[dict[str, Any]]] = {}
    for who, fast_path in ((fast, True), (plain, False)):
        got = [one(db, who, f"r{i}", op, pipelined=fast_path) for i, op in enumerate(steps)]
        got.append(one(db, who, "r3", steps[3], pipelined=fast_path))
        results[who] = [r.model_dump(exclude={"recorded_at"}) for r in got]
    assert results[fast] == results[plain]
    assert results[fast][-2]["rejected"][0]["code"] == "UNKNOWN_PREDICATE" and results[fast][-1]["replayed"]
    assert sum(r["pending"] for r in results[fast]) == 1
    a, b = snapshot(test_db_url, plain), snapshot(test_db_url, fast)
    for part in a:
        assert a[part] == b[part], part
    assert not any("person:zed" in str(e) for e in b["entities"])  # created on first use, rolled back
    assert len(b["edges"]) >= 6 and any("superseded" in str(f) for f in b["facts"])
    assert not [p for p in check(test_db_url).problems if fast in p or plain in p]


def test_a_constraint_is_internal_and_the_connection_stays_usable(app_db_url: str, owner: str,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = Database(app_db_url, max_size=1)  # the failed transaction's connection is the next one's
    try:
        one(db, owner, "a", AssertFact(subject="person:me", predicate="name", value="A", valid_from=T, evidence=EV))
        monkeypatch.setattr(ops, "plan_replace", lambda *_, **__: Plan(insert=[Piece(Interval(T))]))  # forgets to close
        with pytest.raises(InvariantViolation, match="ExclusionViolation"):
            one(db, owner, "b", AssertFact(subject="person:me", predicate="name", value="B", valid_from=T,
                                           evidence=EV))
        monkeypatch.undo()
        result = one(db, owner, "c", AssertFact(subject="person:me", predicate="name", value="C", valid_from=T,
                                                evidence=EV))
        assert result.committed == 1
        with db.owner_tx(owner, read_only=True) as conn:
            assert conn.execute(load("proposal_get"), {"run_id": "b"}).fetchone() is None
            assert conn.execute(load("proposal_get"), {"run_id": "c"}).fetchone() is not None
    finally:
        db.close()


def test_a_single_operation_needs_fewer_round_trips(app_db_url: str, owner: str, pipelined: None) -> None:
    assert round_trips(parse(["x\tF\t4\tSync\n", "x\tB\t5\tReadyForQuery\tI\n"] * 2)) == 2  # the counter counts
    db = Database(app_db_url, max_size=1)
    counts = {}
    try:
        for fast_path in (False, True):
            for i in range(6):  # the last one traced, with every statement prepared
                fact = AssertFact(subject="person:me", predicate="name", value=f"{i}", valid_from=T, evidence=EV)
                commit = partial(one, db, owner, f"{fast_path}-{i}", fact, pipelined=fast_path)
                counts[fast_path] = round_trips(of_pool(db, commit))
    finally:
        db.close()
    assert counts[False] >= 14  # BEGIN, the clock, a savepoint, each read and write, the record, COMMIT
    # BEGIN, the owner, the clock, the prefetch (registries, markers, subject, stored proposal, believed rows);
    # then the plan's one statement (facts_replace, not fetched for a literal), the record and COMMIT
    assert counts[True] <= 2, counts


def test_a_refused_write_nobody_fetched_is_internal_at_commit(db: Database, owner: str, pipelined: None,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    one(db, owner, "a", AssertFact(subject="person:me", predicate="name", value="A", valid_from=T, evidence=EV))
    original = facts.replace

    def twice(writer: Any, closing: list[Any], *args: Any) -> None:  # 0018: set once
        original(writer, closing, *args)  # facts_replace.sql, not fetched: a literal has no edge
        writer.conn.execute("UPDATE facts SET superseded_by_fact_id = id WHERE id = %s", (closing[0].id,))

    monkeypatch.setattr(facts, "replace", twice)
    with pytest.raises(InvariantViolation, match="CheckViolation"):
        one(db, owner, "b", AssertFact(subject="person:me", predicate="name", value="B", valid_from=T, evidence=EV))
    monkeypatch.undo()
    with db.owner_tx(owner, read_only=True) as conn:
        assert conn.execute(load("proposal_get"), {"run_id": "b"}).fetchone() is None
    assert one(db, owner, "c", AssertFact(subject="person:me", predicate="name", value="C", valid_from=T,
                                          evidence=EV)).committed == 1


def test_the_record_announces_the_commit_and_a_rejection_announces_nothing(
        db: Database, owner: str, app_db_url: str, pipelined: None) -> None:
    """commit_record.sql also sends live_commit_notify's announcement (one statement, not two)."""
    with psycopg.connect(app_db_url, autocommit=True) as listener:
        listener.execute("LISTEN worldmem_commit")
        assert one(db, owner, "n1", AssertFact(subject="person:luna", predicate="name", value="Luna",
                                               valid_from=T, evidence=EV)).committed == 1
        assert one(db, owner, "n2", AssertFact(subject="person:luna", predicate="no_such_predicate", value=1,
                                               valid_from=T, evidence=EV)).rejected
        notes = [json.loads(n.payload) for n in listener.notifies(timeout=2, stop_after=2)]
    with db.owner_tx(owner, read_only=True) as conn:
        luna = conn.execute(load("entity_by_ref"), {"ref": "person:luna"}).fetchone()
    assert luna is not None
    mine = [n for n in notes if n["owner"] == owner]
    assert mine == [{"owner": owner, "committed": 1, "pending": 0, "entityIds": [str(luna["id"])]}]
