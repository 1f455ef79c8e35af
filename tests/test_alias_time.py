"""Identities over time, and the soft spots of the ledger: an alias's validity ends with its history kept;
an agent adds aliases and changes descriptions only as it may rename; governance names successors."""

from __future__ import annotations

from datetime import UTC, datetime

import psycopg
import pytest

from graph.ledger import proposal as p
from graph.ledger.committer import CommitResult, commit_proposal
from graph.ledger.tokens import Principal, owner_principal
from graph.platform.db import Database

T0 = datetime(2026, 1, 1, tzinfo=UTC)
GIVEN_UP = datetime(2026, 6, 1, tzinfo=UTC)
SAID = p.Evidence(kind="user_assertion", text="the user said so")
GUESS = p.Evidence(kind="inference", text="looks like it")


def _commit(db: Database, who: Principal, *ops: p.Operation, run: str | None = None) -> CommitResult:
    proposal = p.MemoryMutationProposal(run_id=run or f"r-{datetime.now(UTC).timestamp()}", operations=list(ops))
    return commit_proposal(db, who, proposal)


def _aliases(admin_conn: psycopg.Connection, owner: str, alias: str) -> list[tuple[object, ...]]:
    return admin_conn.execute(
        "SELECT a.valid_from, a.valid_to, a.superseded_at IS NULL FROM entity_aliases a WHERE a.owner_sub = %s "
        "AND a.alias = %s ORDER BY a.recorded_at", (owner, alias)).fetchall()


def test_an_alias_ends_with_its_history_kept(db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    me = owner_principal(owner)
    assert _commit(db, me, p.UpsertEntity(ref="person:ann", kind="person", canonical_name="Ann"),
                   p.AddAlias(ref="person:ann", alias="+49 170 1234567", namespace="phone", valid_from=T0)
                   ).rejected == []
    ended = _commit(db, me, p.EndAlias(ref="person:ann", alias="+49 170 1234567", namespace="phone",
                                       valid_to=GIVEN_UP))
    assert (ended.committed, ended.rejected) == (1, [])
    assert _aliases(admin_conn, owner, "+49 170 1234567") == [(T0, None, False), (T0, GIVEN_UP, True)]
    # ending it again (later or at the same end) changes nothing; another entity's alias is not its to end
    assert _commit(db, me, p.EndAlias(ref="person:ann", alias="+49 170 1234567", namespace="phone",
                                      valid_to=GIVEN_UP)).rejected == []
    assert len(_aliases(admin_conn, owner, "+49 170 1234567")) == 2
    _commit(db, me, p.UpsertEntity(ref="person:bo", kind="person", canonical_name="Bo"))
    wrong = _commit(db, me, p.EndAlias(ref="person:bo", alias="+49 170 1234567", namespace="phone"))
    assert [r.code for r in wrong.rejected] == ["UNKNOWN_ALIAS"]
    early = _commit(db, me, p.EndAlias(ref="person:ann", alias="+49 170 1234567", namespace="phone",
                                       valid_to=datetime(2025, 1, 1, tzinfo=UTC)))
    assert [r.code for r in early.rejected] == ["BAD_INTERVAL"]


def test_an_agent_adds_aliases_and_describes_only_as_it_may_rename(db: Database, owner: str) -> None:
    me, agent = owner_principal(owner), Principal(owner, "agent")
    assert _commit(db, me, p.UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna")).rejected == []
    for op in (p.AddAlias(ref="pet:luna", alias="Lulu", evidence=GUESS),
               p.UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna", aliases=["Lu"], evidence=GUESS),
               p.UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna", description="a dog",
                              evidence=GUESS),
               p.EndAlias(ref="pet:luna", alias="Luna", evidence=GUESS)):
        assert [r.code for r in _commit(db, agent, op).rejected] == ["FORBIDDEN"], op.op
    # the user's own words, relayed, or a direct observation: as a rename
    assert _commit(db, agent, p.AddAlias(ref="pet:luna", alias="Lulu", evidence=SAID)).rejected == []
    assert _commit(db, agent, p.UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna",
                                             description="a cat", evidence=p.Evidence(kind="observation", text="seen"))
                   ).rejected == []
    # what it already holds, and a new entity with its aliases, need nothing
    assert _commit(db, agent, p.AddAlias(ref="pet:luna", alias="Lulu", evidence=GUESS)).rejected == []
    assert _commit(db, agent, p.UpsertEntity(ref="pet:mo", kind="pet", canonical_name="Mo", aliases=["Moe"],
                                             evidence=GUESS)).rejected == []


def test_governance_names_the_successor_of_what_it_closes(db: Database, owner: str,
                                                          admin_conn: psycopg.Connection) -> None:
    me, agent = owner_principal(owner), Principal(owner, "agent")
    assert _commit(db, me, p.UpsertEntity(ref="pet:rex", kind="pet", canonical_name="Rex"),
                   p.UpsertEntity(ref="pet:rexy", kind="pet", canonical_name="Rexy"),
                   p.AssertFact(subject="pet:rexy", predicate="birthday", value="2020-01-01", valid_from=T0)
                   ).rejected == []
    assert _commit(db, agent, p.AssertFact(subject="pet:rex", predicate="birthday", value="2019-05-01",
                                           valid_from=T0, evidence=GUESS)).pending == 1
    [pending] = admin_conn.execute("SELECT id FROM facts WHERE owner_sub = %s AND status = 'pending'",
                                   (owner,)).fetchall()
    assert _commit(db, me, p.AcceptProposal(fact_id=str(pending[0]))).rejected == []
    assert _commit(db, me, p.MergeEntities(entity="pet:rexy", into="pet:rex")).rejected == []
    assert _commit(db, me, p.SplitEntity(entity="pet:rexy")).rejected == []
    # every row governance closed as superseded, and that something replaced, names what replaced it
    orphans = admin_conn.execute(
        "SELECT o.id, o.status FROM facts o WHERE o.owner_sub = %s AND o.superseded_at IS NOT NULL "
        "AND o.superseded_by_fact_id IS NULL AND EXISTS (SELECT 1 FROM facts n WHERE n.owner_sub = o.owner_sub "
        "AND n.supersedes_fact_id = o.id)", (owner,)).fetchall()
    assert orphans == []
    accepted = admin_conn.execute("SELECT n.status, n.value_text FROM facts o JOIN LATERAL (SELECT status, "
                                  "object_value #>> '{}' AS value_text FROM facts WHERE id = o.superseded_by_fact_id"
                                  ") n ON true WHERE o.id = %s", (pending[0],)).fetchone()
    assert accepted is not None and accepted[1] == "2019-05-01"


def test_an_ended_alias_can_be_taken_over_but_never_held_twice_at_once(db: Database, owner: str) -> None:
    me, phone = owner_principal(owner), "+49 170 7654321"
    assert _commit(db, me, p.UpsertEntity(ref="person:ann", kind="person", canonical_name="Ann"),
                   p.UpsertEntity(ref="person:bo", kind="person", canonical_name="Bo"),
                   p.UpsertEntity(ref="person:cy", kind="person", canonical_name="Cy"),
                   p.AddAlias(ref="person:ann", alias=phone, namespace="phone", valid_from=T0)).rejected == []
    assert _commit(db, me, p.EndAlias(ref="person:ann", alias=phone, namespace="phone",
                                      valid_to=GIVEN_UP)).rejected == []
    # while ann still held it, nobody else could
    overlapping = _commit(db, me, p.AddAlias(ref="person:bo", alias=phone, namespace="phone",
                                             valid_from=datetime(2026, 5, 1, tzinfo=UTC)))
    assert [r.code for r in overlapping.rejected] == ["ALIAS_TAKEN"]
    # given up, the number is reassigned to bo
    taken_over = _commit(db, me, p.AddAlias(ref="person:bo", alias=phone, namespace="phone", valid_from=GIVEN_UP))
    assert taken_over.rejected == []
    # and now bo holds it: nobody else may, and the number names bo
    assert [r.code for r in _commit(db, me, p.AddAlias(ref="person:cy", alias=phone, namespace="phone")).rejected
            ] == ["ALIAS_TAKEN"]
    named = _commit(db, me, p.AssertFact(subject=phone, predicate="name", value="Bo by phone",
                                         valid_from=GIVEN_UP,
                                         source="user", confidence=1, evidence=SAID))
    assert named.rejected == []
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT e.ref FROM facts f JOIN entities e ON e.id = f.subject_id "
                           "WHERE f.object_value = '\"Bo by phone\"'::jsonb").fetchone()
    assert row is not None and row["ref"] == "person:bo"
    # bo may end his own holding; ann's ended row stays as it was
    assert _commit(db, me, p.EndAlias(ref="person:bo", alias=phone, namespace="phone")).rejected == []


def test_the_database_refuses_two_holdings_of_one_alias_at_once(db: Database, owner: str,
                                                                admin_conn: psycopg.Connection) -> None:
    me = owner_principal(owner)
    assert _commit(db, me, p.UpsertEntity(ref="person:ann", kind="person", canonical_name="Ann"),
                   p.UpsertEntity(ref="person:bo", kind="person", canonical_name="Bo"),
                   p.AddAlias(ref="person:ann", alias="Fax 1", namespace="phone", valid_from=T0)).rejected == []
    insert = ("INSERT INTO entity_aliases (owner_sub, entity_id, namespace, alias, valid_from, recorded_at, source) "
              "SELECT %s, id, 'phone', 'FAX 1', %s, now(), 'user' FROM entities "
              "WHERE owner_sub = %s AND ref = 'person:bo'")
    with pytest.raises(psycopg.errors.ExclusionViolation), admin_conn.transaction():
        admin_conn.execute(insert, (owner, GIVEN_UP, owner))  # ann holds it from T0 with no end
