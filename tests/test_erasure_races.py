"""Erasure against work in flight: a curator run that read the entity before the erasure and commits after
it, and a finder projection written from a read taken before it, bring nothing back; eraseFacts."""

from __future__ import annotations

import asyncio
import threading
import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg

from curator.pipeline import Curator
from graph.erasure.erase import erase
from graph.errors import NotFound
from graph.finder.projections import Projection, upsert_projection
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, MemoryMutationProposal, UpsertEntity
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.suggest import explain_empty_history
from graph.reads.temporal import fact_history, state_at
from graph.settings import Settings
from tests.curator_llm import Script, entity, fact, ops, turn
from tests.erasure_scan import scan

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_curator_run_in_flight_does_not_resurrect(db: Database, settings: Settings, owner: str,
                                                    admin_conn: psycopg.Connection[Any]) -> None:
    mark = "q" + uuid.uuid4().hex[:10]
    ref = f"pet:{mark}"
    first = Script([ops(entity(ref, f"{mark}Qorvath", aliases=[f"{mark}Zyx"]), fact(ref, "feeding_time", "07:00"))])
    turn(db, owner, "c1", f"{mark}Qorvath is my cat, food at 7")
    asyncio.run(Curator(db, settings, first.model()).curate(owner, "c1"))
    assert state_at(db, owner, ref, datetime.now(UTC)) is not None

    # the next run reads the chat and the entity (its prompt names it), then, while the model is thinking,
    # the owner erases the entity; the run's proposal names it again
    def erase_then_answer(messages: Any) -> dict[str, Any]:
        assert mark in str(messages).lower()  # the run did read it
        erase(db, owner_principal(owner), ref, reason="forget it")
        return ops(entity(ref, f"{mark}Qorvath", aliases=[f"{mark}Zyx"]),
                   fact(ref, "feeding_time", f"{mark} at dusk"))

    second = Script([erase_then_answer])
    turn(db, owner, "c1", f"{mark}Zyx now eats at dusk")
    reports = asyncio.run(Curator(db, settings, second.model()).curate(owner, "c1"))
    assert second.calls == 1
    assert all(r.committed == 0 for r in reports), reports
    assert [r.error for r in reports] == ["names an entity erased meanwhile"], reports
    assert state_at(db, owner, ref, datetime.now(UTC)) is None
    assert scan(admin_conn, mark).found == {}


def _entity(db: Database, owner: str, ref: str, name: str) -> Any:
    commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=f"p-{uuid.uuid4().hex}", operations=[
        UpsertEntity(ref=ref, kind="pet", canonical_name=name)]))
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT id FROM entities WHERE ref = %s", (ref,)).fetchone()
    assert row is not None
    return row["id"]


def _projection(entity_id: Any, text: str) -> Projection:
    return Projection(source_kind="entity", source_key=str(entity_id), text=text, entity_ids=[entity_id])


def test_a_projection_written_after_the_erasure_from_an_earlier_read_is_skipped(
        db: Database, owner: str, admin_conn: psycopg.Connection[Any]) -> None:
    mark = "q" + uuid.uuid4().hex[:10]
    entity_id = _entity(db, owner, f"pet:{mark}", f"{mark}Qorvath")
    with db.owner_tx(owner) as conn:  # the reconciler's transaction, begun before the erasure
        conn.execute("SELECT 1")
        erase(db, owner_principal(owner), f"pet:{mark}")
        assert upsert_projection(conn, _projection(entity_id, f"{mark}Qorvath, a pet")) is False
    assert scan(admin_conn, mark).found == {}


def test_a_projection_written_before_the_erasure_commits_is_erased_with_it(
        db: Database, owner: str, admin_conn: psycopg.Connection[Any]) -> None:
    """The projection's writer holds the entity (FOR KEY SHARE); the erasure waits for it, then takes it too."""
    mark = "q" + uuid.uuid4().hex[:10]
    entity_id = _entity(db, owner, f"pet:{mark}", f"{mark}Qorvath")
    erased: list[Any] = []
    with db.owner_tx(owner) as conn:
        assert upsert_projection(conn, _projection(entity_id, f"{mark}Qorvath, a pet"))
        eraser = threading.Thread(target=lambda: erased.append(erase(db, owner_principal(owner), f"pet:{mark}")))
        eraser.start()
        eraser.join(1.0)
        assert eraser.is_alive() and erased == []  # waiting for the projection's transaction
    eraser.join(10)
    assert erased and erased[0].counts["memory_projections"] == 1
    assert scan(admin_conn, mark).found == {}


def test_erase_facts_takes_one_predicate_and_its_history(db: Database, owner: str,
                                                         admin_conn: psycopg.Connection[Any]) -> None:
    mark = "q" + uuid.uuid4().hex[:10]
    commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="f1", operations=[
        UpsertEntity(ref="pet:kept", kind="pet", canonical_name="Kept"),
        AssertFact(subject="pet:kept", predicate="feeding_time", value=f"{mark} morning", valid_from=T0),
        AssertFact(subject="pet:kept", predicate="birthday", value="2020-05-01", valid_from=T0)]))
    commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="f2", operations=[
        AssertFact(subject="pet:kept", predicate="feeding_time", value=f"{mark} evening", valid_from=T0)]))
    receipt = erase(db, owner_principal(owner), "pet:kept", predicate="feeding_time")
    assert (receipt.kind, receipt.predicate, receipt.counts["facts"], receipt.counts["entities"]) == (
        "facts", "feeding_time", 2, 0)
    assert fact_history(db, owner, "pet:kept", "feeding_time") == []
    assert [f.predicate for f in fact_history(db, owner, "pet:kept", "birthday")] == ["birthday"]
    why = explain_empty_history(db, owner, "pet:kept", "feeding_time")
    assert isinstance(why, NotFound) and why.code == "ERASED" and "at the owner's request" in why.message
    assert scan(admin_conn, mark).found == {}
