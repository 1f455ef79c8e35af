"""The buffered writer (graph/ledger/writer_buffered.py) writes exactly what the immediate writer writes:
the same ledger rows, links, aliases, events, vertices and edges, the same results
and rejections; all or nothing, idempotent, and doctor finds graph == ledger."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from psycopg import sql
from psycopg.rows import dict_row

from graph.age import mirror_batch
from graph.age.doctor import check
from graph.errors import Conflict, InvariantViolation
from graph.ledger import committer
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.entity import NewEntity
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
from graph.ledger.tokens import owner_principal
from graph.ledger.writer_buffered import Buffered
from graph.platform.db import Database

T = datetime(2024, 1, 1, tzinfo=UTC)
EV = Evidence(kind="message", text="batch")


VERTICES = """SELECT properties::text AS p FROM worldgraph."Entity" WHERE (properties::text)::jsonb->>'owner' = %s"""
EDGES = """
SELECT (s.properties::text)::jsonb->>'ref' AS s, (o.properties::text)::jsonb->>'ref' AS o, r.properties::text AS p
FROM worldgraph."REL" r JOIN worldgraph."Entity" s ON s.id = r.start_id JOIN worldgraph."Entity" o ON o.id = r.end_id
WHERE (r.properties::text)::jsonb->>'owner' = %s"""


def day(n: int) -> datetime:
    return T + timedelta(days=n)


def first(**_: Any) -> list[Any]:
    """Entities (one with a non-ASCII alias), functional and set facts, relationships, a value replaced
    twice within the proposal (closing a row the same proposal inserted), a scope, an event and a fact it
    caused, a pending guess, a reference through an alias."""
    return [
        UpsertEntity(ref="person:ann", kind="person", canonical_name="Ann", aliases=["Änni", "annie"]),
        UpsertEntity(ref="person:bob", kind="person", canonical_name="Bob", description="neighbour"),
        UpsertEntity(ref="chat:c1", kind="chat", canonical_name="Chat one"),
        AssertFact(subject="person:ann", predicate="name", value="Ann A.", valid_from=day(0), evidence=EV),
        AssertFact(subject="person:ann", predicate="name", value="Ann B.", valid_from=day(10), evidence=EV),
        AssertFact(subject="person:ann", predicate="name", value="Ann C.", valid_from=day(5), valid_to=day(20),
                   evidence=EV),
        AssertFact(subject="ÄNNI", predicate="email", value="ann@example.org", valid_from=day(0), evidence=EV),
        AssertFact(subject="annie", predicate="email", value="ann@example.org", valid_from=day(3), evidence=EV),
        AssertFact(subject="person:ann", predicate="email", value="a2@example.org", valid_from=day(1), evidence=EV),
        AssertFact(subject="person:bob", predicate="description", value={"text": "tall", "n": [1, None]},
                   valid_from=day(2), scope="chat:c1", evidence=EV),
        AssertFact(subject="person:bob", predicate="birthday", value=None, valid_from=day(2), evidence=EV),
        AssertRelationship(subject="person:ann", predicate="knows", object="person:bob", valid_from=day(0),
                           evidence=EV),
        AssertRelationship(subject="person:bob", predicate="knows", object="person:cid", valid_from=day(4),
                           valid_to=day(9), evidence=EV),
        AssertRelationship(subject="person:ann", predicate="lives_in", object="place:berlin", valid_from=day(0),
                           evidence=EV),
        AssertRelationship(subject="person:ann", predicate="lives_in", object="place:bonn", valid_from=day(6),
                           evidence=EV),
        RecordEvent(event_type="user_message", occurred_at=day(7), actor="person:ann", summary="moved",
                    external_ref="msg-1"),
        AssertFact(subject="person:ann", predicate="status", value="moved", valid_from=day(7),
                   caused_by_event="msg-1", evidence=EV),
        AssertFact(subject="person:bob", predicate="status", value="guess", valid_from=day(1), confidence=0.2,
                   evidence=EV),
        AddAlias(ref="person:bob", alias="Bobby"),
        AssertFact(subject="bobby", predicate="email", value="bob@example.org", valid_from=day(0), evidence=EV),
    ]


def second() -> list[Any]:
    """Against rows committed before: rename, supersede, retract, relationship replaced, alias reuse."""
    return [
        UpsertEntity(ref="person:bob", kind="person", canonical_name="Robert"),
        AssertFact(subject="person:ann", predicate="name", value="Ann D.", valid_from=day(8), valid_to=day(12),
                   evidence=EV),
        RetractFact(subject="person:ann", predicate="email", value="a2@example.org", valid_from=day(4),
                    evidence=EV),
        AssertRelationship(subject="Änni", predicate="lives_in", object="place:cologne", valid_from=day(30),
                           evidence=EV),
        RetractFact(subject="person:bob", predicate="knows", object="person:cid", valid_from=day(5),
                    evidence=EV),
        AssertFact(subject="annie", predicate="email", value="ann@example.org", valid_from=day(0), evidence=EV),
        UpsertEntity(ref="person:dan", kind="person", canonical_name="Dan", aliases=["dan"]),
        AssertRelationship(subject="dan", predicate="knows", object="Bobby", valid_from=day(1), evidence=EV),
    ]


@pytest.fixture
def batched() -> Iterator[None]:
    assert committer.BATCHED
    yield
    committer.BATCHED = True


def commit(db: Database, owner: str, run: str, ops: list[Any], *, batched: bool = True) -> CommitResult:
    committer.BATCHED = batched
    try:
        return commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=run, operations=ops))
    finally:
        committer.BATCHED = True


def snapshot(url: str, owner: str) -> dict[str, Any]:
    """The owner's ledger and graph with ids and system times replaced by what they name."""
    with psycopg.connect(url, row_factory=dict_row, options="-c search_path=public,ag_catalog") as conn:
        ents = conn.execute("SELECT * FROM entities WHERE owner_sub = %s", (owner,)).fetchall()
        ref = {e["id"]: e["ref"] for e in ents}
        runs = {p["recorded_at"]: p["run_id"] for p in conn.execute(
            "SELECT run_id, recorded_at FROM proposals WHERE owner_sub = %s", (owner,)).fetchall()}
        facts = conn.execute("SELECT * FROM facts WHERE owner_sub = %s", (owner,)).fetchall()
        events = conn.execute("SELECT * FROM world_events WHERE owner_sub = %s", (owner,)).fetchall()
        key: dict[Any, Any] = {e["id"]: ("event", e["external_ref"]) for e in events}
        for f in facts:
            key[f["id"]] = (ref[f["subject_id"]], f["predicate"], runs[f["recorded_at"]], f["op_index"],
                            f["valid_from"], f["valid_to"], str(f["object_value"]), ref.get(f["object_entity_id"]))

        def name(value: Any) -> Any:
            try:
                return ref.get(value, key.get(value, runs.get(value, value)))
            except TypeError:  # a JSON value (dict, list): as it is
                return value

        def named(row: dict[str, Any]) -> tuple[Any, ...]:
            return tuple(sorted(((k, name(v)) for k, v in row.items()
                                 if k not in ("id", "owner_sub", "created_at", "updated_at", "correlation_id")),
                                key=str))

        vertices = conn.execute(VERTICES, (owner,)).fetchall()
        edges = conn.execute(EDGES, (owner,)).fetchall()
        aliases = conn.execute("SELECT * FROM entity_aliases WHERE owner_sub = %s", (owner,)).fetchall()
    ids = {str(k): str(v) for k, v in key.items()} | {str(k): v for k, v in ref.items()}
    times = {str(int((t - datetime(1970, 1, 1, tzinfo=UTC)).total_seconds() * 1_000_000)): r for t, r in runs.items()}

    def graph_text(text: str) -> str:
        for old, new in (ids | times).items():
            text = text.replace(old, new)
        return text.replace(owner, "OWNER")

    return {"entities": sorted(map(named, ents)), "facts": sorted(map(named, facts), key=str),
            "aliases": sorted(map(named, aliases), key=str), "events": sorted(map(named, events), key=str),
            "vertices": sorted(graph_text(v["p"]) for v in vertices),
            "edges": sorted(f"{e['s']}->{e['o']} {graph_text(e['p'])}" for e in edges)}


def test_batched_and_one_by_one_write_the_same_ledger_and_graph(db: Database, owner: str,
                                                                 test_db_url: str, batched: None) -> None:
    one, many = f"{owner}-one", f"{owner}-many"
    results = {}
    for who, is_batched in ((one, False), (many, True)):
        results[who] = [commit(db, who, "r1", first(), batched=is_batched),
                        commit(db, who, "r2", second(), batched=is_batched)]
    strip = [[r.model_dump(exclude={"recorded_at"}) for r in got] for got in results.values()]
    assert strip[0] == strip[1]
    assert results[many][0].committed == len(first()) - 1 and results[many][0].pending == 1
    a, b = snapshot(test_db_url, one), snapshot(test_db_url, many)
    for part in a:
        assert a[part] == b[part], part
    assert len(b["edges"]) >= 6 and len(b["vertices"]) == 8
    assert any("superseded" in str(f) for f in b["facts"])
    assert not [p for p in check(test_db_url).problems if one in p or many in p]


def test_a_failing_operation_in_the_middle_of_500_writes_nothing(db: Database, owner: str, test_db_url: str,
                                                                   batched: None) -> None:
    ops: list[Any] = []
    for i in range(250):
        ops += [UpsertEntity(ref=f"person:p{i}", kind="person", canonical_name=f"P {i}"),
                AssertRelationship(subject=f"person:p{i}", predicate="knows", object=f"person:p{i + 1}",
                                   valid_from=T, evidence=EV)]
    ops[251] = AssertFact(subject="person:p125", predicate="no_such_predicate", value=1, valid_from=T)
    ops[401] = AssertFact(subject="person:p200", predicate="birthday", value=1, valid_from=T, valid_to=T)
    got = commit(db, owner, "big", ops)
    reference = commit(db, f"{owner}-ref", "big", ops, batched=False)
    assert [(r.op_index, r.code) for r in got.rejected] == [(251, "UNKNOWN_PREDICATE"), (401, "BAD_INTERVAL")]
    assert got == reference and got.committed == 0
    with psycopg.connect(test_db_url) as conn:
        for table in ("entities", "facts", "proposals"):
            count = sql.SQL("SELECT count(*) FROM {} WHERE owner_sub = %s").format(sql.Identifier(table))
            assert conn.execute(count, (owner,)).fetchone() == (0,)
        assert conn.execute(VERTICES, (owner,)).fetchall() == []
    ops[251], ops[401] = ops[250], ops[400]
    ok = commit(db, owner, "big", ops)
    assert ok.committed == 500 and not ok.rejected
    assert not [p for p in check(test_db_url).problems if owner in p]


def test_a_repeated_bulk_run_id_replays_and_other_operations_are_refused(db: Database, owner: str,
                                                                         test_db_url: str, batched: None) -> None:
    ops: list[Any] = [AssertFact(subject=f"person:q{i}", predicate="description", value=f"d{i}", valid_from=T,
                                 evidence=EV) for i in range(300)]
    first_result = commit(db, owner, "bulk", ops)
    again = commit(db, owner, "bulk", ops)
    assert first_result.committed == 300 and again.replayed and again.committed == 300
    with psycopg.connect(test_db_url) as conn:
        assert conn.execute("SELECT count(*) FROM facts WHERE owner_sub = %s", (owner,)).fetchone() == (300,)
    with pytest.raises(Conflict) as refused:
        commit(db, owner, "bulk", ops[:-1])
    assert refused.value.code == "RUN_ID_REUSED"


def test_a_batched_mirror_failure_is_repeated_one_by_one(db: Database, owner: str, test_db_url: str,
                                                         batched: None, monkeypatch: pytest.MonkeyPatch) -> None:
    def out_of_step(*_: Any) -> None:
        raise InvariantViolation("graph mirror out of step with the ledger (test)")
    monkeypatch.setattr(mirror_batch, "create_rels", out_of_step)
    before = committer.BATCH_FALLBACKS["InvariantViolation"]
    got = commit(db, owner, "r", [UpsertEntity(ref="person:a", kind="person", canonical_name="A"),
                                  AssertRelationship(subject="person:a", predicate="knows", object="person:b",
                                                     valid_from=T, evidence=EV)])
    assert got.committed == 2 and committer.BATCH_FALLBACKS["InvariantViolation"] == before + 1
    assert not [p for p in check(test_db_url).problems if owner in p]


def test_the_batch_answers_reads_from_what_it_buffered(db: Database, owner: str) -> None:
    """Unit level: a buffered entity and row are found by ref and as believed before anything is sent."""
    with db.owner_tx(owner) as conn:
        batch = Buffered(conn, owner, 4)
        batch.prefetch([UpsertEntity(ref="person:x", kind="person", canonical_name="X")])
        assert batch.known("person:x") == (True, None, 0)
        assert batch.known("person:unasked") == (False, None, 0)
        entity = batch.create_entity(NewEntity(ref="person:x", kind="person", name="X", description=None,
                                               external_id=None, at=T, run_id="r"))
        assert batch.known("person:x") == (True, entity, 1)
        assert batch.resolve("person:x") == entity
        assert batch.kinds["person"] is not None and batch.flushes == 0  # nothing sent: the block writes nothing
