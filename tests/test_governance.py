"""Governance (Appendix D) through the committer: accept, reject with suppression, merge and split."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg

from graph.governance.moves import swap, uncovered
from graph.ledger import proposal as p
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.timeline import Interval
from graph.ledger.tokens import Principal, owner_principal
from graph.ledger.trust import lifts_suppression
from graph.platform.db import Database
from graph.reads.temporal import fact_history, state_at

EV = p.Evidence(kind="test", text="governance")
T0, T1, T2, T3 = (datetime(y, 1, 1, tzinfo=UTC) for y in (2020, 2021, 2022, 2023))
PROBES = (datetime(2020, 6, 1, tzinfo=UTC), datetime(2021, 6, 1, tzinfo=UTC), datetime(2024, 6, 1, tzinfo=UTC))


def commit(db: Database, owner: str, *ops: Any, run_id: str | None = None,
           chat_id: str | None = None) -> CommitResult:
    proposal = p.MemoryMutationProposal(run_id=run_id or uuid.uuid4().hex, chat_id=chat_id, operations=list(ops))
    return commit_proposal(db, owner_principal(owner), proposal)


def ok(result: CommitResult) -> CommitResult:
    assert result.rejected == [], result.rejected
    return result


def codes(result: CommitResult) -> list[str]:
    return [r.code for r in result.rejected]


def fact(subject: str, predicate: str, value: Any, *, source: str = "user", confidence: float = 1.0,
         valid_from: datetime = T0, valid_to: datetime | None = None, scope: str | None = None) -> p.AssertFact:
    return p.AssertFact(subject=subject, predicate=predicate, value=value, source=source, confidence=confidence,
                        valid_from=valid_from, valid_to=valid_to, scope=scope, evidence=EV)


def rel(subject: str, predicate: str, obj: str, *, source: str = "user", confidence: float = 1.0,
        valid_from: datetime = T0) -> p.AssertRelationship:
    return p.AssertRelationship(subject=subject, predicate=predicate, object=obj, source=source,
                                confidence=confidence, valid_from=valid_from, evidence=EV)


def entity(ref: str, name: str, *aliases: str) -> p.UpsertEntity:
    return p.UpsertEntity(ref=ref, kind=ref.split(":")[0], canonical_name=name, aliases=list(aliases))


def values(db: Database, owner: str, ref: str, predicate: str, at: datetime = PROBES[-1]) -> list[Any]:
    state = state_at(db, owner, ref, at)
    return sorted(str(f.value) for f in state.facts if f.predicate == predicate) if state else []


def pending_ids(db: Database, owner: str, ref: str, predicate: str) -> list[str]:
    return [str(f.id) for f in fact_history(db, owner, ref, predicate) if f.status == "pending"
            and f.superseded_at is None]


def snapshot(db: Database, owner: str, ref: str) -> list[tuple[Any, ...]]:
    """What state_at says about `ref` at several valid times, without row ids or system times."""
    out = []
    for t in PROBES:
        state = state_at(db, owner, ref, t)
        assert state is not None
        out += sorted((t, state.ref, f.predicate, str(f.value), f.valid_from, f.valid_to, f.source, f.confidence,
                       f.scope, f.status) for f in state.facts)
    return out


# --- pure parts ---------------------------------------------------------------------------------------

def test_uncovered_leaves_only_the_open_periods() -> None:
    whole = Interval(T0)
    assert uncovered(whole, []) == [whole]
    assert uncovered(whole, [Interval(T1, T2)]) == [Interval(T0, T1), Interval(T2)]
    assert uncovered(Interval(T1, T2), [Interval(T0)]) == []
    assert uncovered(whole, [Interval(T1, T2), Interval(T3)]) == [Interval(T0, T1), Interval(T2, T3)]


def test_swap_and_who_lifts() -> None:
    a, b, c = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    assert swap(a, a, b) == b and swap(c, a, b) == c and swap(None, a, b) is None
    me, agent = Principal("o", "owner"), Principal("o", "agent")
    assert lifts_suppression(me, "user") and not lifts_suppression(me, "agent")
    assert not lifts_suppression(me, "integration:github") and not lifts_suppression(agent, "agent")


# --- accept / reject ----------------------------------------------------------------------------------

def test_accept_makes_a_pending_fact_an_active_belief(db: Database, owner: str) -> None:
    ok(commit(db, owner, entity("pet:luna", "Luna")))
    assert ok(commit(db, owner, fact("pet:luna", "birthday", "2019-04-01", source="agent",
                                     confidence=0.3))).pending == 1
    assert values(db, owner, "pet:luna", "birthday") == []
    [pending] = pending_ids(db, owner, "pet:luna", "birthday")
    ok(commit(db, owner, p.AcceptProposal(fact_id=pending)))
    assert values(db, owner, "pet:luna", "birthday") == ["2019-04-01"]
    rows = {str(f.id): f for f in fact_history(db, owner, "pet:luna", "birthday")}
    assert rows[pending].status == "superseded" and rows[pending].superseded_at is not None
    [active] = [f for f in rows.values() if f.status == "active"]
    assert str(active.supersedes_fact_id) == pending and active.source == "agent" and active.confidence == 1.0
    again = commit(db, owner, p.AcceptProposal(fact_id=pending))
    assert codes(again) == ["NOT_PENDING"]


def test_accepting_a_conflicting_proposal_replaces_the_active_value(db: Database, owner: str) -> None:
    ok(commit(db, owner, fact("pet:luna", "birthday", "2019-04-01")))
    ok(commit(db, owner, fact("pet:luna", "birthday", "2019-05-01", source="agent", confidence=0.2)))
    assert values(db, owner, "pet:luna", "birthday") == ["2019-04-01"]
    [pending] = pending_ids(db, owner, "pet:luna", "birthday")
    ok(commit(db, owner, p.AcceptProposal(fact_id=pending)))
    assert values(db, owner, "pet:luna", "birthday") == ["2019-05-01"]


def test_reject_invalidates_and_suppresses_until_the_user_says_it(db: Database, owner: str) -> None:
    ok(commit(db, owner, fact("pet:luna", "feeding_time", "07:00", source="agent", confidence=0.3)))
    [pending] = pending_ids(db, owner, "pet:luna", "feeding_time")
    ok(commit(db, owner, p.RejectProposal(fact_id=pending, reason="she is fed at eight")))
    [row] = fact_history(db, owner, "pet:luna", "feeding_time")
    assert row.status == "invalidated" and row.superseded_at is not None
    for source, confidence in (("agent", 0.3), ("agent", 0.9), ("curator", 1.0), ("integration:feeder", 1.0)):
        again = commit(db, owner, fact("pet:luna", "feeding_time", "07:00", source=source,
                                       confidence=confidence))
        assert codes(again) == ["SUPPRESSED"], source
    # Another spelling of the value, or the value under a scope, is the same rejected belief.
    ok(commit(db, owner, entity("chat:c1", "Chat 1")))
    for variant in (fact("pet:luna", "feeding_time", " 07.00 ", source="agent"),
                    fact("pet:luna", "feeding_time", "07:00", source="agent", scope="chat:c1")):
        assert codes(commit(db, owner, variant)) == ["SUPPRESSED"]
    # Another value or another subject is not suppressed.
    ok(commit(db, owner, fact("pet:luna", "feeding_time", "08:00", source="agent", confidence=0.9)))
    # The owner saying it lifts the marker; afterwards the agent may say it too.
    ok(commit(db, owner, fact("pet:luna", "feeding_time", "07:00", valid_from=T1)))
    assert values(db, owner, "pet:luna", "feeding_time") == ["07:00", "08:00"]
    ok(commit(db, owner, fact("pet:luna", "feeding_time", "07:00", source="agent", valid_from=T2)))


def test_a_marker_follows_its_subject_into_a_merge(db: Database, owner: str) -> None:
    ok(commit(db, owner, entity("pet:lu", "Lu"), entity("pet:luna", "Luna"),
              fact("pet:lu", "feeding_time", "07:00", source="agent", confidence=0.3)))
    [pending] = pending_ids(db, owner, "pet:lu", "feeding_time")
    ok(commit(db, owner, p.RejectProposal(fact_id=pending), p.MergeEntities(entity="pet:lu", into="pet:luna")))
    assert codes(commit(db, owner, fact("pet:lu", "feeding_time", "07:00", source="agent"))) == ["SUPPRESSED"]
    ok(commit(db, owner, fact("pet:luna", "feeding_time", "07:00")))
    ok(commit(db, owner, fact("pet:luna", "feeding_time", "07:00", source="agent", valid_from=T1)))


def test_reject_of_a_pending_relationship_suppresses_the_object(db: Database, owner: str) -> None:
    ok(commit(db, owner, entity("person:ann", "Ann"), entity("place:rome", "Rome"), entity("place:oslo", "Oslo")))
    ok(commit(db, owner, rel("person:ann", "lives_in", "place:rome", source="agent", confidence=0.2)))
    [pending] = pending_ids(db, owner, "person:ann", "lives_in")
    ok(commit(db, owner, p.RejectProposal(fact_id=pending)))
    assert codes(commit(db, owner, rel("person:ann", "lives_in", "place:rome", source="agent"))) == ["SUPPRESSED"]
    ok(commit(db, owner, rel("person:ann", "lives_in", "place:oslo", source="agent")))


def test_only_the_owner_governs(db: Database, owner: str) -> None:
    ok(commit(db, owner, fact("pet:luna", "birthday", "2019-04-01", source="agent", confidence=0.3)))
    [pending] = pending_ids(db, owner, "pet:luna", "birthday")
    for op in (p.AcceptProposal(fact_id=pending, source="agent"),
               p.RejectProposal(fact_id=pending, source="integration:x"),
               p.MergeEntities(entity="pet:luna", into="pet:lu", source="curator")):
        assert codes(commit(db, owner, op)) == ["FORBIDDEN"]
    assert codes(commit(db, owner, p.AcceptProposal(fact_id=str(uuid.uuid4())))) == ["UNKNOWN_FACT"]
    assert codes(commit(db, owner, p.AcceptProposal(fact_id="x" * 36))) == ["BAD_ID"]


def test_governance_is_idempotent_on_the_run_id(db: Database, owner: str) -> None:
    ok(commit(db, owner, fact("pet:luna", "birthday", "2019-04-01", source="agent", confidence=0.3)))
    [pending] = pending_ids(db, owner, "pet:luna", "birthday")
    first = ok(commit(db, owner, p.AcceptProposal(fact_id=pending), run_id="accept-1"))
    second = commit(db, owner, p.AcceptProposal(fact_id=pending), run_id="accept-1")
    assert second.replayed and second.committed == first.committed == 1


# --- merge / split ------------------------------------------------------------------------------------

def _world(db: Database, owner: str) -> None:
    ok(commit(db, owner,
              entity("pet:luna", "Luna", "Lunchen"), entity("pet:lu", "Lu", "Lulu"),
              entity("person:basti", "Basti"), entity("place:home", "Home"), entity("place:vet", "Vet"),
              fact("pet:luna", "birthday", "2019-04-01"),
              fact("pet:lu", "birthday", "2019-04-02", valid_from=T1),
              fact("pet:lu", "feeding_time", "07:00"), fact("pet:luna", "feeding_time", "07:00", valid_from=T1),
              fact("pet:lu", "feeding_time", "18:00", valid_to=T2),
              rel("pet:lu", "lives_in", "place:home"), rel("person:basti", "owns", "pet:lu"),
              fact("pet:lu", "description", "grey", source="agent", confidence=0.2)))


def test_merge_repoints_facts_aliases_and_edges_without_overwriting(
        db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    _world(db, owner)
    before = admin_conn.execute("SELECT count(*) FROM facts WHERE owner_sub = %s", (owner,)).fetchone()
    ok(commit(db, owner, p.MergeEntities(entity="pet:lu", into="pet:luna", reason="same cat")))
    # Reads of the duplicate follow to the survivor; the survivor keeps its own birthday where it had one.
    assert snapshot(db, owner, "pet:lu") == snapshot(db, owner, "pet:luna")
    assert values(db, owner, "pet:luna", "birthday", PROBES[0]) == ["2019-04-01"]
    assert values(db, owner, "pet:luna", "feeding_time", PROBES[0]) == ["07:00", "18:00"]
    assert values(db, owner, "pet:luna", "lives_in") == ["place:home"]
    assert values(db, owner, "person:basti", "owns") == ["pet:luna"]
    assert values(db, owner, "Lulu", "birthday") == ["2019-04-01"]  # aliases moved
    assert values(db, owner, "Lu", "birthday") == ["2019-04-01"]  # the duplicate's name became an alias
    after = admin_conn.execute("SELECT count(*) FROM facts WHERE owner_sub = %s", (owner,)).fetchone()
    assert before is not None and after is not None and after[0] > before[0]  # nothing deleted
    status = admin_conn.execute("SELECT status, merged_into_id IS NOT NULL FROM entities WHERE owner_sub = %s "
                                "AND ref = 'pet:lu'", (owner,)).fetchone()
    assert status == ("merged", True)
    moved = admin_conn.execute("SELECT count(*) FROM facts WHERE owner_sub = %s AND supersedes_fact_id IN "
                               "(SELECT id FROM facts WHERE owner_sub = %s AND status = 'superseded')",
                               (owner, owner)).fetchone()
    # 6 rows named pet:lu; its birthday is the survivor's own over the whole period, so 5 were inserted.
    assert moved == (5,)
    pending = admin_conn.execute("SELECT count(*) FROM facts f JOIN entities e ON e.id = f.subject_id WHERE "
                                 "f.owner_sub = %s AND f.status = 'pending' AND f.superseded_at IS NULL AND "
                                 "e.ref = 'pet:luna'", (owner,)).fetchone()
    assert pending == (1,)
    assert _live_edges(admin_conn, owner) == {("person:basti", "owns", "pet:luna"),
                                              ("pet:luna", "lives_in", "place:home")}
    event = admin_conn.execute("SELECT payload->>'action', payload->>'reason' FROM world_events WHERE "
                               "owner_sub = %s AND event_type = 'governance'", (owner,)).fetchall()
    assert event == [("merge", "same cat")]


def _live_edges(conn: psycopg.Connection, owner: str) -> set[tuple[str, str, str]]:
    rows = conn.execute(
        "SELECT * FROM ag_catalog.cypher('worldgraph', $$ MATCH (a:Entity)-[r:REL]->(b:Entity) "
        "WHERE r.owner = $owner AND r.superseded_at IS NULL RETURN a.ref, r.predicate, b.ref $$, %s) "
        "AS (a ag_catalog.agtype, p ag_catalog.agtype, b ag_catalog.agtype)",
        (f'{{"owner": "{owner}"}}',)).fetchall()
    return {tuple(str(c).strip('"') for c in row) for row in rows}  # type: ignore[misc]


def test_split_is_the_exact_inverse_of_merge(db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    _world(db, owner)
    refs = ("pet:luna", "pet:lu", "person:basti")
    before = {ref: snapshot(db, owner, ref) for ref in refs}
    edges = _live_edges(admin_conn, owner)
    ok(commit(db, owner, p.MergeEntities(entity="Lulu", into="pet:luna"), run_id="merge-1"))
    assert snapshot(db, owner, "pet:lu") != before["pet:lu"]
    ok(commit(db, owner, p.SplitEntity(entity="pet:lu"), run_id="split-1"))
    assert {ref: snapshot(db, owner, ref) for ref in refs} == before
    assert _live_edges(admin_conn, owner) == edges
    assert values(db, owner, "Lulu", "birthday", PROBES[1]) == ["2019-04-02"]
    assert len(pending_ids(db, owner, "pet:lu", "description")) == 1
    assert codes(commit(db, owner, p.SplitEntity(entity="pet:lu"))) == ["NOT_MERGED"]
    # Merge again, split by the merge's id.
    ok(commit(db, owner, p.MergeEntities(entity="pet:lu", into="pet:luna")))
    merge_id = admin_conn.execute("SELECT id FROM entity_merges WHERE owner_sub = %s AND split_at IS NULL",
                                  (owner,)).fetchone()
    assert merge_id is not None
    ok(commit(db, owner, p.SplitEntity(merge_id=str(merge_id[0]))))
    assert {ref: snapshot(db, owner, ref) for ref in refs} == before


def test_merge_and_split_refusals(db: Database, owner: str) -> None:
    _world(db, owner)
    refs = ("pet:luna", "pet:lu", "person:basti")
    assert codes(commit(db, owner, p.MergeEntities(entity="pet:lu", into="pet:lu"))) == ["SAME_ENTITY"]
    assert codes(commit(db, owner, p.MergeEntities(entity="pet:lu", into="person:basti"))) == ["KIND_MISMATCH"]
    assert codes(commit(db, owner, p.MergeEntities(entity="pet:nope", into="pet:lu"))) == ["UNKNOWN_ENTITY"]
    assert codes(commit(db, owner, p.SplitEntity(entity="pet:lu"))) == ["NOT_MERGED"]
    assert codes(commit(db, owner, p.SplitEntity())) == ["BAD_INPUT"]
    ok(commit(db, owner, entity("pet:mimi", "Mimi")))
    before = {ref: snapshot(db, owner, ref) for ref in (*refs, "pet:mimi")}
    ok(commit(db, owner, p.MergeEntities(entity="pet:lu", into="pet:luna")))
    assert codes(commit(db, owner, p.MergeEntities(entity="pet:lu", into="pet:mimi"))) == ["ALREADY_MERGED"]
    ok(commit(db, owner, p.MergeEntities(entity="pet:luna", into="pet:mimi")))
    assert values(db, owner, "pet:lu", "lives_in") == ["place:home"]  # two hops of merged_into
    assert codes(commit(db, owner, p.SplitEntity(entity="pet:lu"))) == ["SPLIT_ORDER"]
    ok(commit(db, owner, p.SplitEntity(entity="pet:luna")))
    ok(commit(db, owner, p.SplitEntity(entity="pet:lu")))
    assert {ref: snapshot(db, owner, ref) for ref in (*refs, "pet:mimi")} == before


def test_invalidate_closes_edges_of_beliefs_only_and_audits(
        db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    ok(commit(db, owner, entity("person:ann", "Ann"), entity("place:rome", "Rome"), entity("place:oslo", "Oslo"),
              rel("person:ann", "lives_in", "place:rome"),
              rel("person:ann", "lives_in", "place:oslo", source="agent", confidence=0.2)))
    rows = {f.status: str(f.id) for f in fact_history(db, owner, "person:ann", "lives_in")}
    ok(commit(db, owner, p.InvalidateFact(fact_id=rows["pending"], reason="never lived there")))
    assert _live_edges(admin_conn, owner) == {("person:ann", "lives_in", "place:rome")}
    ok(commit(db, owner, p.InvalidateFact(fact_id=rows["active"], reason="wrong")))
    assert _live_edges(admin_conn, owner) == set()
    assert values(db, owner, "person:ann", "lives_in") == []
    audit = admin_conn.execute("SELECT payload->>'action', payload->>'reason' FROM world_events WHERE "
                               "owner_sub = %s AND event_type = 'governance' ORDER BY recorded_at",
                               (owner,)).fetchall()
    assert audit == [("invalidate", "never lived there"), ("invalidate", "wrong")]
