"""`worldmem doctor` proves graph == ledger after a randomized workload, and notices tampering."""

from __future__ import annotations

import json
import random
import subprocess
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest

from graph.age.doctor import check
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import (
    AssertRelationship,
    Evidence,
    MemoryMutationProposal,
    MergeEntities,
    RecordEvent,
    RetractFact,
    SplitEntity,
    UpsertEntity,
)
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database

EV = Evidence(kind="test", text="random workload")
T0 = datetime(2024, 1, 1, tzinfo=UTC)


def _workload(db: Database, owner: str, rng: random.Random) -> None:
    people = [f"person:p{i}" for i in range(6)]
    places = [f"place:c{i}" for i in range(3)]
    ops: list[Any] = [UpsertEntity(ref=r, kind=r.split(":")[0], canonical_name=r) for r in people + places]
    commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="seed", operations=ops))
    last_event = None
    for n in range(40):
        start = T0 + timedelta(days=rng.randint(0, 60))
        end = start + timedelta(days=rng.randint(1, 30)) if rng.random() < 0.5 else None
        roll = rng.random()
        op: Any
        if roll < 0.4:
            op = AssertRelationship(subject=rng.choice(people), predicate="lives_in", object=rng.choice(places),
                                    valid_from=start, valid_to=end, evidence=EV)
        elif roll < 0.65:
            a, b = rng.sample(people, 2)
            op = AssertRelationship(subject=a, predicate="knows", object=b, valid_from=start, valid_to=end,
                                    evidence=EV)
        elif roll < 0.8:
            op = RetractFact(subject=rng.choice(people), predicate=rng.choice(["lives_in", "knows"]),
                             valid_from=start, valid_to=end, evidence=EV)
        else:
            op = RecordEvent(event_type="agent_tool_call", occurred_at=start, summary=f"e{n}",
                             caused_by=last_event, external_ref=f"ev-{n}")
            last_event = f"ev-{n}"
        result = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id=f"w{n}", operations=[op]))
        assert result.rejected == [], result.rejected


def test_doctor_reports_graph_equals_ledger_after_random_workload(
        db: Database, test_db_url: str, admin_conn: psycopg.Connection) -> None:
    rng = random.Random(7)
    for owner in ("doctor-a", "doctor-b"):
        _workload(db, owner, rng)
    report = check(test_db_url)
    assert report.ok, report.problems
    # Governance moves edges in the graph too: merge two people (and a place), then split one back.
    merged = commit_proposal(db, owner_principal("doctor-a"), MemoryMutationProposal(run_id="merge", operations=[
        MergeEntities(entity="person:p1", into="person:p0"), MergeEntities(entity="place:c2", into="place:c0")]))
    assert merged.rejected == [], merged.rejected
    assert check(test_db_url).ok, check(test_db_url).problems
    split = commit_proposal(db, owner_principal("doctor-a"), MemoryMutationProposal(run_id="split", operations=[
        SplitEntity(entity="place:c2")]))
    assert split.rejected == [], split.rejected
    report = check(test_db_url)
    assert report.ok, report.problems
    assert report.counts["rels"] > 20 and report.counts["entities"] >= 18 and report.counts["caused"] > 0

    # Tampering with one edge behind the committer's back is noticed (an edge of this test's owner, put back
    # afterwards: later tests check the whole database's mirror).
    [(status,)] = admin_conn.execute(
        "SELECT * FROM cypher('worldgraph', $$ MATCH ()-[r:REL]->() WHERE r.owner = 'doctor-a' WITH r LIMIT 1 "
        "WITH r, r.status AS was SET r.status = 'tampered' RETURN was $$) AS (was agtype)").fetchall()
    tampered = check(test_db_url)
    assert not tampered.ok and any("rels" in p for p in tampered.problems)
    admin_conn.execute(
        "SELECT * FROM cypher('worldgraph', $$ MATCH ()-[r:REL]->() WHERE r.status = 'tampered' "
        "SET r.status = $was RETURN r $$, %s) AS (r agtype)", (json.dumps({"was": json.loads(str(status))}),))
    assert check(test_db_url).ok


def test_doctor_command_exits_nonzero_on_a_broken_url() -> None:
    proc = subprocess.run([".venv/bin/worldmem", "doctor", "--url", "postgresql://x:y@127.0.0.1:1/none"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


def test_doctor_compares_what_traversal_reads_of_an_entity(db: Database, test_db_url: str,
                                                           admin_conn: psycopg.Connection) -> None:
    owner = "doctor-names"
    commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="s", operations=[
        UpsertEntity(ref="person:x", kind="person", canonical_name="Xaver"),
        UpsertEntity(ref="person:y", kind="person", canonical_name="Yvonne"),
        MergeEntities(entity="person:y", into="person:x")]))
    assert not [p for p in check(test_db_url).problems if owner in p]
    row = admin_conn.execute("SELECT canonical_name, merged_into_id::text FROM entities"
                             " WHERE owner_sub = %s AND ref = 'person:y'", (owner,)).fetchone()
    assert row is not None and row[1] is not None
    forge = {"name": "SELECT * FROM cypher('worldgraph', $$ MATCH (e:Entity) WHERE e.owner = 'doctor-names' "
                     "AND e.ref = 'person:y' SET e.name = $v RETURN e $$, %s) AS (e agtype)"}
    forge["merged_into"] = ("SELECT * FROM cypher('worldgraph', $$ MATCH (e:Entity) WHERE e.owner = 'doctor-names' "
                            "AND e.ref = 'person:y' SET e.merged_into = $v RETURN e $$, %s) AS (e agtype)")
    for prop, forged, original in (("name", "Forged", row[0]), ("merged_into", None, row[1])):
        # the name traversal renders, and the merge it follows to the survivor
        for value in (forged, original):
            admin_conn.execute(forge[prop], (json.dumps({"v": value}),))
            problems = [p for p in check(test_db_url).problems if owner in p]
            if value == forged:
                assert problems and all(p.startswith("entities:") for p in problems), (prop, problems)
    assert not [p for p in check(test_db_url).problems if owner in p]


def test_the_command_names_the_age_version_once(test_db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    from cli.main import main

    main(["doctor", "--url", test_db_url])
    printed = capsys.readouterr().out.splitlines()
    assert [line for line in printed if "AGE" in line] == [printed[0]] and "pgvector" in printed[0]


def test_doctor_reports_merged_into_that_disagrees_with_the_open_merge(
        db: Database, test_db_url: str, admin_conn: psycopg.Connection) -> None:
    owner = "doctor-merges"
    commit_proposal(db, owner_principal(owner), MemoryMutationProposal(run_id="m", operations=[
        UpsertEntity(ref="person:a", kind="person", canonical_name="Anna"),
        UpsertEntity(ref="person:b", kind="person", canonical_name="Berta"),
        UpsertEntity(ref="person:c", kind="person", canonical_name="Cora"),
        MergeEntities(entity="person:b", into="person:a")]))
    assert not [p for p in check(test_db_url).problems if owner in p]
    forged = ("UPDATE entities SET status = 'merged', merged_into_id = (SELECT id FROM entities WHERE "
              "owner_sub = %(owner)s AND ref = %(into)s) WHERE owner_sub = %(owner)s AND ref = %(ref)s")
    admin_conn.execute(forged, {"owner": owner, "ref": "person:b", "into": "person:c"})  # not its merge's
    admin_conn.execute(forged, {"owner": owner, "ref": "person:c", "into": "person:a"})  # without a merge
    problems = [p for p in check(test_db_url).problems if p.startswith(f"merges: {owner}")]
    assert len(problems) == 2, problems
    assert problems[0].startswith(f"merges: {owner} person:b: merged_into_id says ")
    assert problems[1].startswith(f"merges: {owner} person:c: ") and problems[1].endswith("open merges say none")
    admin_conn.execute(forged, {"owner": owner, "ref": "person:b", "into": "person:a"})
    admin_conn.execute("UPDATE entities SET status = 'active', merged_into_id = NULL WHERE owner_sub = %s "
                       "AND ref = 'person:c'", (owner,))
    assert not [p for p in check(test_db_url).problems if owner in p]
