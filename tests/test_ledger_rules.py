"""Rules of the ledger beyond the scenarios: the database's own guard, sets, scopes, pending, invalidation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from psycopg import errors as pg_errors

from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.proposal import (
    AddAlias,
    AssertFact,
    AssertRelationship,
    Evidence,
    InvalidateFact,
    MemoryMutationProposal,
    RetractFact,
    UpsertEntity,
)
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import fact_history, state_as_known_at, state_at

EV = Evidence(kind="test", text="rule")
T = datetime(2022, 1, 1, tzinfo=UTC)
LATER = datetime(2031, 1, 1, tzinfo=UTC)


def commit(db: Database, owner: str, run: str, *ops: Any, at: datetime | None = None) -> CommitResult:
    return commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=list(ops)),
                           recorded_at=at)


def values(db: Database, owner: str, ref: str, predicate: str, when: datetime = LATER) -> list[Any]:
    state = state_at(db, owner, ref, when)
    return sorted(f.value for f in state.facts if f.predicate == predicate) if state else []


def test_the_database_itself_refuses_overlapping_believed_values(db: Database, owner: str) -> None:
    commit(db, owner, "r1", AssertFact(subject="person:o", predicate="name", value="A", valid_from=T, evidence=EV))
    with db.owner_tx(owner) as conn:
        row = conn.execute("SELECT * FROM facts WHERE owner_sub = %s", (owner,)).fetchone()
        assert row is not None
        columns = ["subject_id", "predicate", "functional", "object_kind", "valid_from", "recorded_at", "believed",
                   "source", "confidence", "status"]
        with pytest.raises(pg_errors.ExclusionViolation):
            conn.execute("INSERT INTO facts (subject_id, predicate, functional, object_kind, object_value, "
                         "valid_from, recorded_at, believed, source, confidence, status) "
                         "VALUES (%s, %s, %s, %s, '\"B\"', %s, %s, %s, %s, %s, %s)",
                         [row[c] for c in columns])


def test_the_app_cannot_overwrite_a_belief(db: Database, owner: str) -> None:
    commit(db, owner, "r1", AssertFact(subject="person:o", predicate="name", value="A", valid_from=T, evidence=EV))
    with db.owner_tx(owner) as conn, pytest.raises(pg_errors.InsufficientPrivilege):
        conn.execute("UPDATE facts SET object_value = '\"forged\"' WHERE owner_sub = %s", (owner,))
    with db.owner_tx(owner) as conn, pytest.raises(pg_errors.InsufficientPrivilege):
        conn.execute("DELETE FROM facts WHERE owner_sub = %s", (owner,))


def test_set_predicates_keep_several_values_and_dedup_identical_ones(db: Database, owner: str) -> None:
    def feed(run: str, value: str, start: datetime) -> None:
        assert commit(db, owner, run, AssertFact(subject="pet:luna", predicate="feeding_time", value=value,
                                                  valid_from=start, evidence=EV)).committed == 1
    feed("a", "07:00", T)
    feed("b", "18:00", T)
    feed("c", "07:00", T + timedelta(days=3))  # already believed: no new row
    assert values(db, owner, "pet:luna", "feeding_time") == ["07:00", "18:00"]
    assert len(fact_history(db, owner, "pet:luna", "feeding_time")) == 2
    commit(db, owner, "d", RetractFact(subject="pet:luna", predicate="feeding_time", value="18:00",
                                       valid_from=T + timedelta(days=10), evidence=EV))
    assert values(db, owner, "pet:luna", "feeding_time") == ["07:00"]
    assert values(db, owner, "pet:luna", "feeding_time", T + timedelta(days=5)) == ["07:00", "18:00"]


def test_functional_values_in_different_scopes_coexist(db: Database, owner: str) -> None:
    commit(db, owner, "s", UpsertEntity(ref="chat:c1", kind="chat", canonical_name="Chat 1"),
           AssertFact(subject="person:me", predicate="description", value="global", valid_from=T, evidence=EV),
           AssertFact(subject="person:me", predicate="description", value="in chat", valid_from=T, scope="chat:c1",
                      evidence=EV))
    state = state_at(db, owner, "person:me", LATER)
    assert state is not None
    assert sorted((f.value, f.scope) for f in state.facts) == [("global", None), ("in chat", "chat:c1")]


def test_low_confidence_waits_as_pending_and_is_never_believed(db: Database, owner: str) -> None:
    commit(db, owner, "a", AssertFact(subject="person:p", predicate="name", value="Pat", valid_from=T, evidence=EV))
    result = commit(db, owner, "b", AssertFact(subject="person:p", predicate="name", value="Patricia",
                                               valid_from=T, confidence=0.3, source="agent", evidence=EV))
    assert (result.committed, result.pending) == (0, 1)
    assert values(db, owner, "person:p", "name") == ["Pat"]
    history = fact_history(db, owner, "person:p", "name")
    assert sorted(f.status for f in history) == ["active", "pending"]


def test_invalidation_keeps_the_row_and_what_was_known(db: Database, owner: str) -> None:
    commit(db, owner, "a", AssertFact(subject="person:q", predicate="name", value="Wrong", valid_from=T,
                                      evidence=EV), at=datetime(2023, 1, 1, tzinfo=UTC))
    [row] = fact_history(db, owner, "person:q", "name")
    commit(db, owner, "b", InvalidateFact(fact_id=str(row.id), reason="typo"), at=datetime(2023, 2, 1, tzinfo=UTC))
    assert values(db, owner, "person:q", "name") == []
    then = state_as_known_at(db, owner, "person:q", datetime(2023, 1, 15, tzinfo=UTC), LATER)
    assert then is not None and [f.value for f in then.facts] == ["Wrong"]
    [after] = fact_history(db, owner, "person:q", "name")
    assert after.status == "invalidated" and after.superseded_at == datetime(2023, 2, 1, tzinfo=UTC)
    again = commit(db, owner, "c", InvalidateFact(fact_id=str(row.id)))
    assert [r.code for r in again.rejected] == ["NOT_BELIEVED"]


def test_aliases_resolve_and_cannot_name_two_entities(db: Database, owner: str) -> None:
    commit(db, owner, "a", UpsertEntity(ref="person:ann", kind="person", canonical_name="Ann", aliases=["Annie"]),
           UpsertEntity(ref="person:bob", kind="person", canonical_name="Bob"),
           AssertFact(subject="Annie", predicate="name", value="Ann Smith", valid_from=T, evidence=EV))
    assert values(db, owner, "person:ann", "name") == ["Ann Smith"]
    taken = commit(db, owner, "b", AddAlias(ref="person:bob", alias="annie"))
    assert [r.code for r in taken.rejected] == ["ALIAS_TAKEN"]


def test_one_proposal_one_system_time_ops_in_order(db: Database, owner: str) -> None:
    result = commit(db, owner, "a",
                    UpsertEntity(ref="place:berlin", kind="place", canonical_name="Berlin"),
                    UpsertEntity(ref="place:paris", kind="place", canonical_name="Paris"),
                    AssertRelationship(subject="person:r", predicate="lives_in", object="place:berlin",
                                       valid_from=T, evidence=EV),
                    AssertRelationship(subject="person:r", predicate="lives_in", object="place:paris",
                                       valid_from=T + timedelta(days=30), evidence=EV))
    assert result.committed == 4 and result.recorded_at is not None
    rows = fact_history(db, owner, "person:r", "lives_in")
    assert {f.recorded_at for f in rows} == {result.recorded_at}
    assert values(db, owner, "person:r", "lives_in") == ["place:paris"]
    assert values(db, owner, "person:r", "lives_in", T + timedelta(days=1)) == ["place:berlin"]


def test_unset_owner_sees_and_writes_nothing(app_db_url: str, db: Database, owner: str) -> None:
    commit(db, owner, "a", AssertFact(subject="person:s", predicate="name", value="S", valid_from=T, evidence=EV))
    with psycopg.connect(app_db_url) as conn:
        assert conn.execute("SELECT count(*) FROM facts").fetchone() == (0,)
        assert conn.execute("SELECT count(*) FROM entities").fetchone() == (0,)
        with pytest.raises(pg_errors.Error):
            conn.execute("INSERT INTO entities (ref, kind, canonical_name, created_at, updated_at) "
                         "VALUES ('person:x', 'person', 'X', now(), now())")
