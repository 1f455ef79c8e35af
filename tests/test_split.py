"""splitEntity is the exact inverse of a merge, also when facts changed after the merge.

What the merge moved is taken off the survivor over the periods it moved (later beliefs outside them
stay), and what it closed is restored through the time planner, over the periods nothing believed now
covers: never an OVERLAPPING_BELIEF from the split itself.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

import psycopg

from graph.age.doctor import check
from graph.ledger import proposal as p
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import fact_history, state_at

EV = p.Evidence(kind="test", text="split")
V0, V1, V2, V3 = (datetime(y, 1, 1, tzinfo=UTC) for y in (2020, 2022, 2023, 2025))
PROBE = {"2021": datetime(2021, 6, 1, tzinfo=UTC), "2022": datetime(2022, 6, 1, tzinfo=UTC),
         "2024": datetime(2024, 6, 1, tzinfo=UTC)}


def commit(db: Database, owner: str, *ops: Any) -> CommitResult:
    return commit_proposal(db, owner_principal(owner), p.MemoryMutationProposal(run_id=uuid.uuid4().hex,
                                                                          operations=list(ops)))


def ok(result: CommitResult) -> None:
    assert result.rejected == [], result.rejected


def fact(subject: str, predicate: str, value: Any, valid_from: datetime = V0,
         valid_to: datetime | None = None) -> p.AssertFact:
    return p.AssertFact(subject=subject, predicate=predicate, value=value, valid_from=valid_from, valid_to=valid_to,
                        source="user", evidence=EV)


def rel(subject: str, predicate: str, obj: str, valid_from: datetime = V0) -> p.AssertRelationship:
    return p.AssertRelationship(subject=subject, predicate=predicate, object=obj, valid_from=valid_from,
                                source="user", evidence=EV)


def entity(ref: str, name: str) -> p.UpsertEntity:
    return p.UpsertEntity(ref=ref, kind=ref.split(":")[0], canonical_name=name)


def said(db: Database, owner: str, ref: str, predicate: str) -> dict[str, list[str]]:
    out = {}
    for label, t in PROBE.items():
        state = state_at(db, owner, ref, t)
        assert state is not None
        out[label] = sorted(str(f.value) for f in state.facts if f.predicate == predicate)
    return out


def test_split_after_a_later_change_to_a_moved_relationship(db: Database, owner: str) -> None:
    """person:o lived in place:a; merged into place:b; then moved to place:z from 2023; then the split."""
    ok(commit(db, owner, entity("person:o", "O"), entity("place:a", "Alpha"), entity("place:b", "Beta"),
              entity("place:z", "Zed"), rel("person:o", "lives_in", "place:a")))
    ok(commit(db, owner, p.MergeEntities(entity="place:a", into="place:b")))
    ok(commit(db, owner, rel("person:o", "lives_in", "place:z", valid_from=V2)))
    assert said(db, owner, "person:o", "lives_in") == {"2021": ["place:b"], "2022": ["place:b"], "2024": ["place:z"]}
    result = commit(db, owner, p.SplitEntity(entity="place:a"))
    ok(result)
    # The move is undone where it still holds; the later move to place:z stands.
    assert said(db, owner, "person:o", "lives_in") == {"2021": ["place:a"], "2022": ["place:a"], "2024": ["place:z"]}
    restored = [f for f in fact_history(db, owner, "person:o", "lives_in") if f.superseded_at is None]
    assert sorted((f.valid_from, f.valid_to, f.value) for f in restored) == [(V0, V2, "place:a"),
                                                                               (V2, None, "place:z")]


def test_split_after_a_later_change_to_a_moved_attribute(db: Database, owner: str) -> None:
    """pet:a's description moved to pet:b; pet:b was then described differently for 2022; then the split."""
    ok(commit(db, owner, entity("pet:a", "A"), entity("pet:b", "B"), fact("pet:a", "description", "grey"),
              fact("pet:b", "birthday", "2018-01-01")))
    ok(commit(db, owner, p.MergeEntities(entity="pet:a", into="pet:b")))
    ok(commit(db, owner, fact("pet:b", "description", "white", valid_from=V1, valid_to=V2)))
    assert said(db, owner, "pet:b", "description") == {"2021": ["grey"], "2022": ["white"], "2024": ["grey"]}
    ok(commit(db, owner, p.SplitEntity(entity="pet:a")))
    # What the merge moved leaves the survivor over the period it moved, also where a later belief split it.
    assert said(db, owner, "pet:b", "description") == {"2021": [], "2022": ["white"], "2024": []}
    assert said(db, owner, "pet:a", "description") == {"2021": ["grey"], "2022": ["grey"], "2024": ["grey"]}
    assert said(db, owner, "pet:b", "birthday")["2021"] == ["2018-01-01"]


def test_split_after_the_moved_value_was_replaced_entirely(db: Database, owner: str) -> None:
    ok(commit(db, owner, entity("pet:a", "A"), entity("pet:b", "B"), fact("pet:a", "birthday", "2019-01-01")))
    ok(commit(db, owner, p.MergeEntities(entity="pet:a", into="pet:b")))
    ok(commit(db, owner, fact("pet:b", "birthday", "2019-02-02")))
    ok(commit(db, owner, p.SplitEntity(entity="pet:a")))
    assert said(db, owner, "pet:b", "birthday")["2022"] == ["2019-02-02"]
    assert said(db, owner, "pet:a", "birthday")["2022"] == ["2019-01-01"]


def test_split_of_a_set_member_re_asserted_after_the_merge(db: Database, owner: str) -> None:
    """A set value the survivor gained from the merge and later re-asserted more widely keeps the rest."""
    ok(commit(db, owner, entity("pet:a", "A"), entity("pet:b", "B"),
              fact("pet:a", "feeding_time", "07:00", valid_to=V1)))
    ok(commit(db, owner, p.MergeEntities(entity="pet:a", into="pet:b")))
    ok(commit(db, owner, fact("pet:b", "feeding_time", "07:00", valid_from=datetime(2021, 1, 1, tzinfo=UTC))))
    ok(commit(db, owner, p.SplitEntity(entity="pet:a")))
    assert said(db, owner, "pet:a", "feeding_time") == {"2021": ["07:00"], "2022": [], "2024": []}
    assert said(db, owner, "pet:b", "feeding_time") == {"2021": [], "2022": ["07:00"], "2024": ["07:00"]}


def test_graph_equals_ledger_after_splits_with_later_changes(db: Database, owner: str, test_db_url: str) -> None:
    test_split_after_a_later_change_to_a_moved_relationship(db, owner)
    report = check(test_db_url)  # across owners: tests/test_doctor.py tampers with one of its own edges
    assert [problem for problem in report.problems if owner in problem] == []
    assert report.counts["rels"] > 0


def test_split_refuses_when_a_moved_alias_now_names_another_entity(db: Database, owner: str,
                                                                   admin_conn: psycopg.Connection) -> None:
    """No operation moves an alias away today; the admin connection plays a future one."""
    ok(commit(db, owner, p.UpsertEntity(ref="pet:a", kind="pet", canonical_name="A", aliases=["Ace"]),
              entity("pet:b", "B"), entity("pet:c", "C"), fact("pet:a", "birthday", "2019-01-01")))
    ok(commit(db, owner, p.MergeEntities(entity="pet:a", into="pet:b")))
    admin_conn.execute("UPDATE entity_aliases SET superseded_at = now() WHERE owner_sub = %s AND alias = 'Ace' "
                       "AND superseded_at IS NULL", (owner,))
    admin_conn.execute("INSERT INTO entity_aliases (owner_sub, entity_id, alias, valid_from, recorded_at, source) "
                       "SELECT owner_sub, id, 'Ace', now(), now(), 'user' FROM entities "
                       "WHERE owner_sub = %s AND ref = 'pet:c'", (owner,))
    result = commit(db, owner, p.SplitEntity(entity="pet:a"))
    assert [(r.code, "'Ace'" in r.message) for r in result.rejected] == [("SPLIT_CONFLICT", True)]
    assert said(db, owner, "pet:a", "birthday")["2021"] == ["2019-01-01"]  # still merged: nothing changed
    assert state_at(db, owner, "pet:a", PROBE["2021"]).ref == "pet:b"  # type: ignore[union-attr]
