"""The ledger's soft spots: provenance under set dedupe, successors, replay first, canonical
hashes, the append-only trigger as the app role, internal failures never blamed on the caller, the
intent compare-and-set, and causedBy by two indexed lookups."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient
from psycopg import errors as pg_errors
from psycopg.rows import dict_row

from graph.age import mirror, mirror_batch
from graph.errors import InvariantViolation
from graph.ledger import committer, ops
from graph.ledger.committer import CommitResult, commit_proposal, payload_hash
from graph.ledger.events import lookup
from graph.ledger.proposal import (
    AssertFact,
    AssertRelationship,
    Evidence,
    MemoryMutationProposal,
    RecordEvent,
    UpsertEntity,
)
from graph.ledger.timeline import Interval, Piece, Plan
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.sql import load
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

T = datetime(2022, 1, 1, tzinfo=UTC)
USER = Evidence(kind="message", text="my mail is y@x")
GUESS = Evidence(kind="inference", text="guess")


def commit(db: Database, owner: str, run: str, *ops_: Any, at: datetime | None = None) -> CommitResult:
    return commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=list(ops_)),
                           recorded_at=at)


def rows(db: Database, owner: str, predicate: str) -> list[dict[str, Any]]:
    with db.owner_tx(owner, read_only=True) as conn:
        return [dict(r) for r in conn.execute(
            "SELECT id, object_value, valid_from, valid_to, superseded_at, status, source, confidence, evidence,"
            " supersedes_fact_id, superseded_by_fact_id FROM facts WHERE predicate = %s"
            " ORDER BY recorded_at, valid_from", (predicate,)).fetchall()]


def mail(value: str, start: datetime, end: datetime | None = None, *, source: str = "user",
         confidence: float = 1.0, evidence: Evidence = USER) -> AssertFact:
    return AssertFact(subject="person:me", predicate="email", value=value, valid_from=start, valid_to=end,
                      source=source, confidence=confidence, evidence=evidence)


# -- set predicates: insert only what is not covered; provenance stays --------------------------------

def test_set_dedupe_keeps_the_users_provenance(db: Database, owner: str) -> None:
    assert commit(db, owner, "u", mail("y@x", T)).committed == 1
    assert commit(db, owner, "g", mail("y@x", T - timedelta(days=10), source="agent", confidence=0.6,
                                       evidence=GUESS)).committed == 1
    history = rows(db, owner, "email")
    user_row = next(r for r in history if r["source"] == "user")
    # the user's row is untouched: still open, confidence 1, their words
    assert user_row["superseded_at"] is None and user_row["confidence"] == 1.0
    assert user_row["evidence"]["text"] == "my mail is y@x" and user_row["valid_from"] == T
    # the agent's guess covers only the part that was not believed yet
    guessed = [r for r in history if r["source"] == "agent"]
    assert [(r["valid_from"], r["valid_to"]) for r in guessed] == [(T - timedelta(days=10), T)]
    assert all(r["superseded_at"] is None for r in history)


def test_reasserting_a_value_believed_across_two_adjacent_rows_changes_nothing(db: Database, owner: str) -> None:
    commit(db, owner, "a", mail("y@x", T, T + timedelta(days=3)))
    commit(db, owner, "b", mail("y@x", T + timedelta(days=3)))
    before = rows(db, owner, "email")
    assert len(before) == 2
    result = commit(db, owner, "c", mail("y@x", T + timedelta(days=1), T + timedelta(days=30)))
    assert result.rejected == []
    assert rows(db, owner, "email") == before  # nothing closed, nothing inserted


def test_every_closed_row_names_its_successor(db: Database, owner: str) -> None:
    def name(value: str, start: datetime, end: datetime | None = None) -> AssertFact:
        return AssertFact(subject="person:me", predicate="name", value=value, valid_from=start, valid_to=end,
                          evidence=USER)
    commit(db, owner, "a", name("A", T, T + timedelta(days=2)))
    commit(db, owner, "b", name("B", T + timedelta(days=2), T + timedelta(days=5)))
    commit(db, owner, "c", name("C", T - timedelta(days=1), T + timedelta(days=4)))
    history = rows(db, owner, "name")
    c_row = next(r for r in history if r["object_value"] == "C")
    closed = [r for r in history if r["superseded_at"] is not None]
    assert sorted(r["object_value"] for r in closed) == ["A", "B"]
    assert all(r["superseded_by_fact_id"] == c_row["id"] for r in closed)
    # B's surviving tail still points back at B
    tail = next(r for r in history if r["object_value"] == "B" and r["superseded_at"] is None)
    b_row = next(r for r in closed if r["object_value"] == "B")
    assert tail["supersedes_fact_id"] == b_row["id"] and tail["valid_from"] == T + timedelta(days=4)


# -- idempotency: replay first, canonical hash ------------------------------------------------------------

def test_a_retried_import_replays_even_after_later_imports(db: Database, owner: str) -> None:
    first = MemoryMutationProposal(run_id="imp-1", operations=[mail("a@x", T)])
    r1 = datetime.now(UTC) - timedelta(hours=2)
    assert commit_proposal(db, owner_principal(owner), first, recorded_at=r1).committed == 1
    assert commit(db, owner, "imp-2", mail("b@x", T), at=r1 + timedelta(hours=1)).committed == 1
    again = commit_proposal(db, owner_principal(owner), first, recorded_at=r1)
    assert again.replayed and again.committed == 1 and again.recorded_at == r1


def test_the_payload_hash_ignores_key_order(db: Database, owner: str) -> None:
    def proposal(value: dict[str, Any]) -> MemoryMutationProposal:
        return MemoryMutationProposal(run_id="ko", operations=[AssertFact(
            subject="person:me", predicate="description", value=value, valid_from=T, evidence=USER)])
    one, other = proposal({"a": 1, "b": {"x": 1, "y": 2}}), proposal({"b": {"y": 2, "x": 1}, "a": 1})
    assert payload_hash(one) == payload_hash(other)
    assert payload_hash(one) != payload_hash(proposal({"a": 2, "b": {"x": 1, "y": 2}}))
    assert commit_proposal(db, owner_principal(owner), one).committed == 1
    assert commit_proposal(db, owner_principal(owner), other).replayed


# -- the append-only trigger, as the app role -------------------------------------------------------------

def test_the_app_role_cannot_move_system_time_or_skip_the_lifecycle(db: Database, owner: str) -> None:
    commit(db, owner, "a", mail("a@x", T))
    commit(db, owner, "b", AssertFact(subject="person:me", predicate="name", value="A", valid_from=T, evidence=USER))
    commit(db, owner, "c", AssertFact(subject="person:me", predicate="name", value="B", valid_from=T, evidence=USER))
    refused = [
        # a closed row's superseded_at moved later (the column grant alone allowed this)
        "UPDATE facts SET superseded_at = superseded_at + interval '1 day' WHERE superseded_at IS NOT NULL",
        "UPDATE facts SET superseded_at = NULL WHERE superseded_at IS NOT NULL",
        # closing before the row was recorded
        "UPDATE facts SET superseded_at = recorded_at - interval '1 day', status = 'superseded'"
        " WHERE superseded_at IS NULL AND predicate = 'email'",
        # lifecycle jumps: believed again, back to pending, closed without a system time
        "UPDATE facts SET status = 'active' WHERE status = 'superseded'",
        "UPDATE facts SET status = 'pending', superseded_at = now() WHERE status = 'active' AND predicate = 'email'",
        "UPDATE facts SET status = 'invalidated' WHERE status = 'active' AND predicate = 'email'",
        # a successor only for a closed row, and only once
        "UPDATE facts SET superseded_by_fact_id = id WHERE superseded_at IS NULL",
        "UPDATE facts SET superseded_by_fact_id = id WHERE superseded_by_fact_id IS NOT NULL",
    ]
    for statement in refused:
        with db.owner_tx(owner) as conn:
            assert conn.execute("SELECT current_user").fetchone() == {"current_user": "worldmem_app"}
            with pytest.raises(pg_errors.CheckViolation):
                conn.execute(statement)
    # the lifecycle the ledger uses still works: close once, later archive
    with db.owner_tx(owner) as conn:
        closed = conn.execute("UPDATE facts SET superseded_at = recorded_at, status = 'superseded'"
                              " WHERE superseded_at IS NULL AND predicate = 'email' RETURNING id").fetchall()
        assert len(closed) == 1
        assert conn.execute("UPDATE facts SET status = 'archived' WHERE status = 'superseded'"
                            " RETURNING id").fetchall()


def test_a_closed_alias_keeps_its_system_time(db: Database, owner: str) -> None:
    commit(db, owner, "a", UpsertEntity(ref="person:al", kind="person", canonical_name="Al", aliases=["Ally"]))
    with db.owner_tx(owner) as conn:
        assert conn.execute("UPDATE entity_aliases SET superseded_at = now() RETURNING id").fetchall()
    with db.owner_tx(owner) as conn, pytest.raises(pg_errors.CheckViolation):
        conn.execute("UPDATE entity_aliases SET superseded_at = superseded_at + interval '1 day'")


# -- internal failures are ours, never the caller's -------------------------------------------------------

def test_a_planner_bug_is_internal_not_overlapping_belief(db: Database, owner: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    commit(db, owner, "a", AssertFact(subject="person:me", predicate="name", value="A", valid_from=T, evidence=USER))
    broken = Plan(insert=[Piece(Interval(T))])  # forgets to close the row it overlaps

    monkeypatch.setattr(ops, "plan_replace", lambda *_, **__: broken)
    before = committer.INTERNAL_FAILURES["constraint ExclusionViolation"]
    with pytest.raises(InvariantViolation):
        commit(db, owner, "b", AssertFact(subject="person:me", predicate="name", value="B", valid_from=T,
                                          evidence=USER))
    assert committer.INTERNAL_FAILURES["constraint ExclusionViolation"] == before + 1
    assert [r["object_value"] for r in rows(db, owner, "name")] == ["A"]
    with db.owner_tx(owner, read_only=True) as conn:  # not recorded as committed: a retry runs again
        assert conn.execute(load("proposal_get"), {"run_id": "b"}).fetchone() is None


def test_an_internal_failure_is_masked_over_graphql(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    token = make_token()
    mutation = """mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed rejected { code } } }"""

    def name(run: str, value: str) -> dict[str, Any]:
        return {"p": {"runId": run, "operations": [{"assertFact": {
            "subject": "person:me", "predicate": "name", "value": value, "validFrom": T.isoformat(),
            "source": "user", "confidence": 1.0, "evidence": {"kind": "message", "text": "t"}}}]}}
    assert gql(client, token, mutation, name("a", "A"))["data"]["commitProposal"]["committed"] == 1
    monkeypatch.setattr(ops, "plan_replace", lambda *_, **__: Plan(insert=[Piece(Interval(T))]))
    body = gql(client, token, mutation, name("b", "B"))
    assert codes(body) == ["INTERNAL"] and body["errors"][0]["message"] == "Unexpected error."
    assert "OVERLAPPING_BELIEF" not in str(body) and "facts_functional_no_overlap" not in str(body)


def test_a_mirror_invariant_failure_is_internal(db: Database, owner: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def out_of_step(*_: Any) -> None:
        raise InvariantViolation("graph mirror out of step with the ledger (test)")
    monkeypatch.setattr(mirror, "create_rel", out_of_step)
    monkeypatch.setattr(mirror_batch, "create_rels", out_of_step)  # the batched path's edges
    with pytest.raises(InvariantViolation):
        commit(db, owner, "r", UpsertEntity(ref="person:you", kind="person", canonical_name="You"),
               AssertFact(subject="person:me", predicate="name", value="A", valid_from=T, evidence=USER),
               AssertRelationship(subject="person:me", predicate="knows", object="person:you",
                                        valid_from=T, evidence=USER))
    assert rows(db, owner, "name") == []


# -- intent outcomes: compare-and-set ---------------------------------------------------------------------

def test_a_stale_judgement_does_not_overwrite_a_newer_outcome(db: Database, owner: str) -> None:
    at = datetime.now(UTC) - timedelta(minutes=1)
    commit(db, owner, "e", RecordEvent(event_type="user_message", occurred_at=at, summary="hi", external_ref="m"))
    with db.owner_tx(owner) as conn:
        event = lookup(conn, "m")
        assert event is not None
        fresh = conn.execute(load("intent_set_outcome"), {"id": event.id, "outcome": "fulfilled",
                                                          "previous": None}).fetchone()
        assert fresh is not None
        # a reconciler that judged from the old (NULL) outcome loses
        stale = conn.execute(load("intent_set_outcome"), {"id": event.id, "outcome": "unfulfilled",
                                                          "previous": None}).fetchone()
        assert stale is None
        row = conn.execute("SELECT intent_outcome FROM world_events WHERE id = %s", (event.id,)).fetchone()
        assert row == {"intent_outcome": "fulfilled"}


# -- causedBy: parse, then one indexed lookup -------------------------------------------------------------

def test_caused_by_finds_events_by_id_and_by_external_ref(db: Database, owner: str) -> None:
    at = datetime.now(UTC) - timedelta(minutes=1)
    uuid_like = "0190b8d2-0000-7000-8000-000000000001"
    commit(db, owner, "e", RecordEvent(event_type="user_message", occurred_at=at, summary="a", external_ref="ext-1"),
           RecordEvent(event_type="user_message", occurred_at=at, summary="b", external_ref=uuid_like))
    with db.owner_tx(owner) as conn:
        by_ref = lookup(conn, "ext-1")
        assert by_ref is not None
        by_id = lookup(conn, str(by_ref.id))
        assert by_id is not None and by_id.id == by_ref.id
        assert lookup(conn, uuid_like) is not None  # an external ref shaped like a UUID
        assert lookup(conn, "nope") is None
    result = commit(db, owner, "f", RecordEvent(event_type="user_message", occurred_at=at, caused_by="ext-1",
                                                 summary="c"))
    assert result.rejected == []


def test_event_lookups_can_use_their_indexes(admin_conn: psycopg.Connection) -> None:
    with admin_conn.cursor(row_factory=dict_row) as cur, admin_conn.transaction():
        cur.execute("SET LOCAL enable_seqscan = off")
        for name, params in (("event_by_id", {"id": "0190b8d2-0000-7000-8000-000000000001"}),
                             ("event_by_external_ref", {"key": "ext-1"})):
            plan = "\n".join(r["QUERY PLAN"] for r in cur.execute(
                b"EXPLAIN " + load(name).encode(), params).fetchall())
            assert "Seq Scan" not in plan and "Index" in plan, plan


def test_a_proposal_stored_with_the_old_hash_still_replays(db: Database, owner: str) -> None:
    proposal = MemoryMutationProposal(run_id="old", operations=[mail("o@x", T)])
    assert commit_proposal(db, owner_principal(owner), proposal).committed == 1
    legacy = committer._legacy_hash(proposal)
    assert legacy != payload_hash(proposal)
    with db.owner_tx(owner) as conn:  # as a row written before the canonical hash
        conn.execute("UPDATE proposals SET payload_hash = %s WHERE run_id = 'old'", (legacy,))
    assert commit_proposal(db, owner_principal(owner), proposal).replayed
