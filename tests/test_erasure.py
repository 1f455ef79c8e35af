"""Erasure: the hard purge leaves no trace anywhere in the database, the log or /metrics; what remains says
when; refusals are typed and leave everything as it was; the app role has no way around the ledger's guard."""

from __future__ import annotations

import logging
import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from curator.turns import TurnIn, record_turn
from graph.age.doctor import check
from graph.erasure.erase import erase, receipts
from graph.finder.reconciler import reconcile_owner
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import (
    AssertFact,
    AssertRelationship,
    Evidence,
    MemoryMutationProposal,
    RecordEvent,
    UpsertEntity,
)
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import state_at
from resolvers import document_cache
from tests.erasure_scan import scan
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

T0 = datetime(2026, 1, 1, tzinfo=UTC)
TYPES = [{"key": "answer_language", "name": "answer language", "cardinality": "functional",
          "subject_kinds": ["person"], "description": "Language the agent answers in"}]
ERASE = ("mutation($ref: String!, $reason: String!) { eraseEntity(ref: $ref, reason: $reason) "
         "{ id kind counts receiptHash tokenKind reason erasedAt } }")
STATE = "query($ref: String!) { stateAt(ref: $ref) { facts { predicate } } }"
HISTORY = "query($ref: String!) { factHistory(ref: $ref, predicate: \"feeding_time\") { id } }"
KNOWN = ("query($ref: String!) { stateAsKnownAt(ref: $ref, systemTime: \"2026-06-01T00:00:00Z\") "
         "{ facts { predicate } } }")
EXPLAIN = "query($id: ID!) { explainChange(factId: $id) { causes { id } erased { link message erasureId } } }"
GET = "query($ref: String!) { getEntity(ref: $ref) { entity { ref } message } }"


def remembered_documents() -> str:
    """The texts of the GraphQL documents the process remembers (resolvers.document_cache)."""
    return " ".join(str(list(c._parsed)) for c in document_cache._BY_SCHEMA.values())


def commit(db: Database, owner: str, run: str, *ops: Any) -> None:
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=list(ops)))
    assert result.rejected == [], result.rejected


def world(db: Database, owner: str, mark: str) -> dict[str, str]:
    """An entity whose ref, name, aliases and values all carry `mark`, a neighbour that keeps none of it, an
    event about it with a surviving effect, chat turns, and the finder's projections."""
    ref, keep = f"pet:{mark}x", f"person:keep{uuid.uuid4().hex[:6]}"
    said = Evidence(kind="message", text=f"{mark}Qorvath eats at {mark}-o'clock")
    commit(db, owner, "w1",
           UpsertEntity(ref=ref, kind="pet", canonical_name=f"{mark}Qorvath", aliases=[f"{mark}Zyx", f"Wib {mark}\"q"],
                        description=f"the {mark} cat"),
           UpsertEntity(ref=keep, kind="person", canonical_name="Keeper Person"),
           AssertFact(subject=ref, predicate="feeding_time", value=f"{mark}-o'clock", valid_from=T0, evidence=said),
           AssertFact(subject=ref, predicate="feeding_time", value=f"{mark} at dusk", valid_from=T0),
           AssertRelationship(subject=keep, predicate="cares_for", object=ref, valid_from=T0),
           AssertFact(subject=keep, predicate="prefers", value="tea", valid_from=T0),
           RecordEvent(event_type="state_change", occurred_at=T0, target=ref, summary=f"{mark}Qorvath moved",
                       external_ref="ev-about", payload={"who": f"{mark}Zyx"}))
    commit(db, owner, "w2",  # a rename keeps the former name and description (getEntity at a system time)
           UpsertEntity(ref=ref, kind="pet", canonical_name=f"{mark}Qorvath II", description=f"the {mark} cat, 2"),
           RecordEvent(event_type="follow_up_run", occurred_at=T0, actor=keep, caused_by="ev-about",
                       summary="a follow-up", external_ref="ev-after"),
           AssertFact(subject=keep, predicate="prefers", value="coffee", valid_from=T0, caused_by_event="ev-about"))
    record_turn(db, owner, TurnIn.model_validate({"chat_id": "c1", "role": "user",
                                                  "text": f"my cat {mark}Zyx is hungry"}))
    record_turn(db, owner, TurnIn.model_validate({"chat_id": "c1", "role": "user", "text": "nice weather today"}))
    reconcile_owner(db, owner, None)
    return {"ref": ref, "keep": keep}


def test_erasure_leaves_no_trace(client: TestClient, make_token: MakeToken,  # noqa: F811
                                 db: Database, owner: str, admin_conn: psycopg.Connection[Any],
                                 caplog: pytest.LogCaptureFixture, test_db_url: str) -> None:
    caplog.set_level(logging.DEBUG)
    mark = "q" + uuid.uuid4().hex[:10]
    w = world(db, owner, mark)
    before = scan(admin_conn, mark)
    assert before.found, "the world must hold the marked strings before the erasure"
    assert any(p.startswith("worldgraph.") for p in before.found), before.found  # the AGE mirror has them too
    assert "public.chat_turns.text" in before.found and "public.memory_projections.text" in before.found
    assert "public.entity_descriptions.canonical_name" in before.found, before.found
    token = make_token()
    inline = '{ stateAt(ref: "' + w["ref"] + '") { facts { predicate } } }'  # a document spelling the ref out
    assert "errors" not in gql(client, token, inline)
    assert mark in remembered_documents()

    body = gql(client, token, ERASE, {"ref": w["ref"], "reason": f"please forget {mark}Zyx"})
    assert "errors" not in body, body
    receipt = body["data"]["eraseEntity"]
    counts = receipt["counts"]
    assert (counts["entities"], counts["entity_aliases"], counts["chat_turns"]) == (1, 2, 1), counts
    assert counts["facts"] == 3 and counts["world_events"] == 1 and counts["graph:Entity"] == 1, counts
    assert counts["graph:REL"] == 1 and counts["memory_projections"] >= 1, counts
    assert receipt["tokenKind"] == "owner" and receipt["reason"] == "please forget [erased]"
    assert len(receipt["receiptHash"]) == 64

    after = scan(admin_conn, mark)
    metrics = client.get("/metrics").text
    print(f"\nerasure scan: {len(after.places)} columns of {len({p.rsplit('.', 1)[0] for p in after.places})} "
          f"tables (AGE labels: {', '.join(after.labels)}), the log ({len(caplog.records)} records) and /metrics: "
          f"found {sum(after.found.values())}")
    assert after.found == {}
    assert mark not in caplog.text.lower() and mark not in metrics.lower() and mark not in remembered_documents()
    assert set(after.labels) >= {"worldgraph.Entity", "worldgraph.REL", "worldgraph.Event", "worldgraph.CAUSED"}

    # the neighbour is untouched but for what named the erased entity
    kept = state_at(db, owner, w["keep"], datetime.now(UTC))
    assert kept is not None and sorted(f.value for f in kept.facts if f.predicate == "prefers") == ["coffee", "tea"]
    # the surviving event and fact caused by the erased event say where their chain was cut
    with db.owner_tx(owner, read_only=True) as conn:
        cut = conn.execute("SELECT row_kind, link FROM erasure_cuts ORDER BY 1").fetchall()
        coffee = conn.execute("SELECT id FROM facts WHERE value_text = 'coffee'").fetchone()
    assert [(c["row_kind"], c["link"]) for c in cut] == [("event", "cause"), ("fact", "cause")]
    assert coffee is not None
    body = gql(client, token, EXPLAIN, {"id": str(coffee["id"])})
    [erased] = body["data"]["explainChange"]["erased"]
    assert (erased["link"], erased["erasureId"]) == ("cause", receipt["id"]), erased
    assert "erased at the owner's request" in erased["message"] and body["data"]["explainChange"]["causes"] == []
    # the graph mirror still equals the ledger for this owner (other tests' owners may hold rows written
    # around the mirror on purpose, e.g. test_search_plans' planner fixtures, and the order of files varies)
    problems = [p for p in check(test_db_url).problems if owner in p]
    assert problems == [], problems


def test_reads_of_an_erased_ref_say_when(client: TestClient, make_token: MakeToken,  # noqa: F811
                                         db: Database, owner: str) -> None:
    mark = "q" + uuid.uuid4().hex[:10]
    w = world(db, owner, mark)
    token = make_token()
    assert "errors" not in gql(client, token, ERASE, {"ref": w["ref"], "reason": ""})
    day = datetime.now(UTC).date().isoformat()
    for query in (STATE, HISTORY, KNOWN):
        body = gql(client, token, query, {"ref": w["ref"]})
        assert codes(body) == ["ERASED"], body
        message = body["errors"][0]["message"]
        assert f"erased on {day} at the owner's request" in message and mark not in message.replace(w["ref"], "")
    got_body = gql(client, token, GET, {"ref": w["ref"]})
    assert "errors" not in got_body, got_body
    got = got_body["data"]["getEntity"]
    assert got["entity"] is None and f"erased on {day}" in got["message"]
    # German for an owner who speaks German
    register_relation_types(db, TYPES)
    commit(db, owner, "lang", UpsertEntity(ref="person:me", kind="person", canonical_name="Ich"),
           AssertFact(subject="person:me", predicate="answer_language", value="de", valid_from=T0))
    body = gql(client, token, STATE, {"ref": w["ref"]})
    assert f"wurde am {day} auf Wunsch des Besitzers gelöscht" in body["errors"][0]["message"], body
    listed = gql(client, token, "{ erasures { id kind counts } }")["data"]["erasures"]
    assert [e["kind"] for e in listed] == ["entity"] and mark not in str(listed)


def test_bad_requests_are_typed_and_erase_nothing(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                  db: Database, owner: str) -> None:
    mark = "q" + uuid.uuid4().hex[:10]
    w = world(db, owner, mark)
    other = f"owner-{uuid.uuid4().hex[:12]}"
    commit(db, other, "o1", UpsertEntity(ref="pet:theirs", kind="pet", canonical_name="Theirs"))
    owner_token = make_token()
    for kind, name in (("agent", None), ("integration", "acme")):
        body = gql(client, make_token(kind=kind, name=name), ERASE, {"ref": w["ref"], "reason": ""})
        assert codes(body) == ["OWNER_ONLY"], body
        assert codes(gql(client, make_token(kind=kind, name=name), "{ erasures { id } }")) == ["OWNER_ONLY"]
    assert codes(gql(client, owner_token, ERASE, {"ref": "pet:nobody", "reason": ""})) == ["UNKNOWN_REF"]
    assert codes(gql(client, owner_token, ERASE, {"ref": "pet:theirs", "reason": ""})) == ["UNKNOWN_REF"]
    assert state_at(db, other, "pet:theirs", datetime.now(UTC)) is not None  # another owner's ref: untouched
    assert state_at(db, owner, w["ref"], datetime.now(UTC)) is not None  # nothing half-erased
    assert receipts(db, owner) == []

    first = gql(client, owner_token, ERASE, {"ref": w["ref"], "reason": ""})
    again = gql(client, owner_token, ERASE, {"ref": w["ref"], "reason": ""})
    assert codes(again) == ["ALREADY_ERASED"] and first["data"]["eraseEntity"]["id"] in again["errors"][0]["message"]
    assert len(receipts(db, owner)) == 1


def test_an_erased_ref_is_not_written_again(db: Database, owner: str) -> None:
    mark = "q" + uuid.uuid4().hex[:10]
    w = world(db, owner, mark)
    erase(db, owner_principal(owner), w["ref"])
    result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="late", operations=[
        UpsertEntity(ref=w["ref"], kind="pet", canonical_name="again"),
        AssertFact(subject=w["ref"], predicate="feeding_time", value="20:00", valid_from=T0)]))
    assert [r.code for r in result.rejected] == ["ERASED_REF"] and result.committed == 0
    assert state_at(db, owner, w["ref"], datetime.now(UTC)) is None


def test_the_app_role_cannot_delete_or_become_the_owner_role(app_db_url: str, db: Database, owner: str) -> None:
    """The exception to the append-only ledger is wm_erase alone: the app role deletes nothing itself,
    cannot take the role whose guard branch allows rewriting links, and cannot forge a receipt."""
    mark = "q" + uuid.uuid4().hex[:10]
    world(db, owner, mark)
    attempts = ["DELETE FROM facts", "DELETE FROM entities", "DELETE FROM chat_turns", "DELETE FROM world_events",
                "SET ROLE worldmem_owner",
                "INSERT INTO erasures (kind, target_hashes, token_kind, counts, receipt_hash) "
                "VALUES ('entity', '{}', 'owner', '{}', 'x')",
                "DELETE FROM worldgraph._ag_label_vertex", "DELETE FROM erasures"]
    with psycopg.connect(app_db_url, autocommit=True) as conn:
        for statement in attempts:
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                with conn.transaction():
                    conn.execute("SELECT set_config('app.current_owner', %s, true)", (owner,))
                    conn.execute(statement)
    with db.owner_tx(owner, read_only=True) as c:
        row = c.execute("SELECT count(*) AS n FROM facts").fetchone()
    assert row is not None and row["n"] == 5
