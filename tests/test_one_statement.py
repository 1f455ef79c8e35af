"""One statement per point read: the ref rule is one database function (wm_resolve, 0074) that the
Python resolve and the reads' own statements call; a read is the owner and that one statement in one round
trip; the typed errors and the agent's candidates are what they were."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, LiteralString

import psycopg
import pytest
from psycopg import sql

import cypher
from graph.agent import recall, search
from graph.errors import BadInput
from graph.ledger import entities
from graph.ledger import proposal as p
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.platform.repeatables import DIRECTORY as FUNCTIONS
from graph.reads import temporal, traversal_first
from graph.reads.temporal import Question, fact_history, fact_history_retention, state_as_known_at, state_at
from graph.reads.traversal import Direction, NeighborQuery, neighbors
from graph.sql import load, trusted
from tests.libpq_trace import of_pool, sent

# The aliases' statement get_entity ran as a second round trip, kept as the oracle (tests/sql/, not a product query).
ORACLE_ALIASES = trusted((Path(__file__).parent / "sql" / "agent_aliases.sql").read_text())

EV = p.Evidence(kind="test", text="one statement")
V0 = datetime(2020, 1, 1, tzinfo=UTC)
R1, R2 = datetime(2021, 1, 1, tzinfo=UTC), datetime(2021, 3, 1, tzinfo=UTC)


def _commit(db: Database, owner: str, at: datetime, *ops: Any) -> None:
    proposal = p.MemoryMutationProposal(run_id=uuid.uuid4().hex, operations=list(ops))
    result = commit_proposal(db, owner_principal(owner), proposal, recorded_at=at)
    assert result.rejected == [], result.rejected


@pytest.fixture
def world(db: Database, owner: str) -> str:
    """pet:a (alias "Ace") merged into pet:b at R2, person:o owns pet:a and pet:c; "Twin" is an alias of
    pet:b and (in a chat's namespace) of pet:c."""
    _commit(db, owner, R1, p.UpsertEntity(ref="pet:a", kind="pet", canonical_name="A", aliases=["Ace"]),
            p.UpsertEntity(ref="pet:b", kind="pet", canonical_name="B", aliases=["Twin"]),
            p.UpsertEntity(ref="pet:c", kind="pet", canonical_name="C"),
            p.AddAlias(ref="pet:c", alias="Twin", namespace="chat:c1"),  # another namespace: allowed
            p.AssertFact(subject="pet:a", predicate="birthday", value="2019-01-01", valid_from=V0, source="user",
                         evidence=EV),
            p.AssertFact(subject="pet:b", predicate="birthday", value="2018-05-05", valid_from=V0, source="user",
                         evidence=EV),
            p.UpsertEntity(ref="person:o", kind="person", canonical_name="O"),
            p.AssertRelationship(subject="person:o", predicate="owns", object="pet:a", valid_from=V0, source="user",
                                 evidence=EV),
            p.AssertRelationship(subject="person:o", predicate="owns", object="pet:c", valid_from=V0, source="user",
                                 evidence=EV))
    _commit(db, owner, R2, p.MergeEntities(entity="pet:a", into="pet:b", reason="same"))
    return owner


AFTER_R1 = R1 + timedelta(days=1)
# (name, system time, follow merges) -> (outcome, via, ref)
RULE: list[tuple[tuple[str, datetime | None, bool], tuple[str, str | None, str | None]]] = [
    (("pet:c", None, True), ("found", "ref", "pet:c")),
    (("pet:a", None, True), ("found", "ref", "pet:b")),  # merged now: its survivor
    (("pet:a", None, False), ("found", "ref", "pet:a")),  # history does not follow merges
    (("pet:a", AFTER_R1, True), ("found", "ref", "pet:a")),  # not merged yet then
    (("ACE", AFTER_R1, True), ("found", "alias", "pet:a")),  # aliases compare case-insensitively
    (("Ace", None, True), ("found", "alias", "pet:b")),
    (("Ace", R1 - timedelta(days=1), True), ("not_found", None, None)),  # the alias was not believed yet
    (("Twin", None, True), ("ambiguous", None, None)),
    (("pet:zz", None, True), ("not_found", None, None)),
]


@pytest.mark.parametrize(("args", "expected"), RULE)
def test_the_rule_is_one_function(db: Database, world: str, args: tuple[str, datetime | None, bool],
                                  expected: tuple[str, str | None, str | None]) -> None:
    name, system_time, follow = args
    with db.owner_tx(world, read_only=True) as conn:
        row = conn.execute(load("entity_resolve"), {"name": name, "system_time": system_time,
                                                    "follow": follow}).fetchone()
        assert row is not None and (row["outcome"], row["via"], row["ref"]) == expected
        if expected[0] == "ambiguous":
            with pytest.raises(BadInput) as err:
                entities.resolve(conn, name, follow=follow, system_time=system_time)
            assert err.value.code == "AMBIGUOUS_REF"
        else:
            found = entities.resolve(conn, name, follow=follow, system_time=system_time)
            assert (found.ref if found else None) == expected[2]
    # the reads resolve with the same function inside their own statement
    q = Question.history("birthday") if not follow else (
        Question.known_at(system_time, V0) if system_time else Question.as_of(V0))
    rows = temporal.answer(db, world, name, q)
    assert (rows[0]["outcome"], rows[0]["via"], rows[0]["entity_ref"]) == expected


def test_other_owners_and_no_owner_find_nothing(db: Database, world: str) -> None:
    assert temporal.answer(db, "someone-else", "pet:b", Question.as_of(V0))[0]["outcome"] == "not_found"
    with db.connection() as conn:  # no owner set: row-level security fails closed
        row = conn.execute(load("entity_resolve"), {"name": "pet:b", "system_time": None, "follow": True}).fetchone()
        conn.rollback()
    assert row is not None and row["outcome"] == "not_found" and row["id"] is None


def test_reads_answer_as_before(db: Database, world: str) -> None:
    now = state_at(db, world, "Ace", V0)
    assert now is not None and now.ref == "pet:b" and now.name == "B" and now.kind == "pet"
    assert [str(f.value) for f in now.facts] == ["2018-05-05"]  # a functional value: the survivor's stays
    then = state_as_known_at(db, world, "pet:a", AFTER_R1, V0)
    assert then is not None and then.ref == "pet:a" and [str(f.value) for f in then.facts] == ["2019-01-01"]
    assert [f.status for f in fact_history(db, world, "pet:a", "birthday")] == ["superseded"]
    assert fact_history(db, world, "pet:zz", "birthday") == [] and state_at(db, world, "pet:zz", V0) is None
    assert fact_history_retention(db, world, "pet:a", "birthday") is None  # no retention edge
    empty = state_at(db, world, "pet:c", V0)
    assert empty is not None and empty.facts == []  # one row with no fact: no facts
    for read in (lambda: state_at(db, world, "Twin", V0), lambda: fact_history(db, world, "Twin", "birthday"),
                 lambda: state_as_known_at(db, world, "Twin", AFTER_R1)):
        with pytest.raises(BadInput) as err:
            read()
        assert err.value.code == "AMBIGUOUS_REF"


def test_the_agent_tools_keep_their_candidates(db: Database, world: str) -> None:
    by_ref = recall.get_entity(db, world, "pet:b")
    assert by_ref.entity is not None and by_ref.entity.via == "ref" and by_ref.aliases == ["A", "Ace", "Twin"]
    eid, at = by_ref.entity.id, datetime.now(UTC)
    with db.owner_tx(world, read_only=True) as conn:  # the statements get_entity ran before, by id
        facts = recall.facts_about(conn, [eid], [eid], at)
        aliases = [r["alias"] for r in conn.execute(ORACLE_ALIASES, {"ids": [eid], "at": at}).fetchall()]
    assert [s.model_dump() for s in by_ref.statements] == [search.statement(r).model_dump() for r in facts]
    assert by_ref.aliases == aliases and [s.fact.value for s in by_ref.statements] == ["2018-05-05", "pet:b"]
    by_name = recall.get_entity(db, world, "C")  # a canonical name: find's rule, then the read by its ref
    assert by_name.entity is not None and by_name.entity.ref == "pet:c" and by_name.aliases == ["Twin"]
    twin = recall.get_entity(db, world, "Twin")
    assert twin.entity is None and {c.ref for c in twin.candidates} == {"pet:b", "pet:c"}
    asked = recall.state_at(db, world, "Twin", V0)
    assert asked.entity is None and "ambiguous" in (asked.message or "")
    typo = recall.get_fact_history(db, world, "pet:bb", "birthday")
    assert typo.entity is None and typo.message == 'No entity matches "pet:bb".'


@pytest.fixture
def one(app_db_url: str) -> Iterator[Database]:
    database = Database(app_db_url, max_size=1)
    yield database
    database.close()


def test_a_read_is_one_statement_in_one_round_trip(one: Database, world: str) -> None:
    reads: dict[str, Callable[[], Any]] = {
        "stateAt": lambda: state_at(one, world, "pet:a", V0),
        "stateAsKnownAt": lambda: state_as_known_at(one, world, "pet:a", AFTER_R1, V0),
        "factHistory": lambda: fact_history(one, world, "pet:a", "birthday"),
        "getEntity": lambda: recall.get_entity(one, world, "pet:b"),
        "getStateAt": lambda: recall.state_at(one, world, "pet:b", V0),
        "neighbors": lambda: neighbors(one, world, NeighborQuery(ref="pet:c")),
        "neighbors as known at R": lambda: neighbors(one, world, NeighborQuery(ref="pet:c", system_time=AFTER_R1)),
    }
    for name, read in reads.items():
        kinds = sent(of_pool(one, read))
        # each pins its owner inside its one statement (Database.read_pinned, wm_pin_reader)
        assert (kinds["round trips"], kinds["Bind"], kinds["Sync"]) == (1, 1, 1), (name, kinds)
    # the counter counts: a name that is no ref takes find's path, more statements and round trips; so does
    # a second level of a traversal
    kinds = sent(of_pool(one, lambda: recall.get_entity(one, world, "C")))
    assert kinds["round trips"] > 1 and kinds["Bind"] > 1
    kinds = sent(of_pool(one, lambda: neighbors(one, world, NeighborQuery(ref="pet:c", depth=2))))
    assert kinds["round trips"] > 1 and kinds["Bind"] > 1


def test_neighbors_first_level(db: Database, world: str) -> None:
    """The first level in one statement: the ref resolved as of the system time (an alias, a merge),
    directions, predicates, a second level after it; unknown is None, ambiguous an error."""
    def hood(ref: str, **kw: Any) -> list[tuple[str, str, str, str]]:
        found = neighbors(db, world, NeighborQuery(ref=ref, **kw))
        assert found is not None
        return sorted((h.source.ref, h.label, h.target.ref, h.direction.value) for h in found.hops)

    assert hood("pet:c") == [("pet:c", "owned_by", "person:o", "in")]
    assert hood("Ace") == [("pet:b", "owned_by", "person:o", "in")]  # pet:a's edge, now pet:b's (merged into it)
    then = neighbors(db, world, NeighborQuery(ref="Ace", system_time=AFTER_R1))
    assert then is not None and then.origin.ref == "pet:a" and [h.target.ref for h in then.hops] == ["person:o"]
    both = hood("person:o", direction=Direction.OUT)
    assert [(s, t, d) for s, _, t, d in both] == [("person:o", "pet:b", "out"), ("person:o", "pet:c", "out")]
    assert hood("person:o", direction=Direction.IN) == []
    assert hood("person:o", predicates=["birthday"]) == []
    two = neighbors(db, world, NeighborQuery(ref="pet:c", depth=2))
    assert two is not None and {(h.depth, h.target.ref) for h in two.hops} >= {(1, "person:o")}
    assert neighbors(db, world, NeighborQuery(ref="pet:zz")) is None
    assert neighbors(db, "someone-else", NeighborQuery(ref="pet:c")) is None
    with pytest.raises(BadInput) as err:
        neighbors(db, world, NeighborQuery(ref="Twin"))
    assert err.value.code == "AMBIGUOUS_REF"



PINNED: dict[str, LiteralString] = {
    "wm_read_state_at": "SELECT * FROM wm_read_state_at(%s, 'pet:b', now())",
    "wm_read_state_known_at": "SELECT * FROM wm_read_state_known_at(%s, 'pet:b', now(), now())",
    "wm_read_fact_history": "SELECT * FROM wm_read_fact_history(%s, 'pet:b', 'birthday')",
    "wm_read_entity": "SELECT * FROM wm_read_entity(%s, 'pet:b', now(), 10)",
    "wm_read_neighbors_first": "SELECT * FROM wm_read_neighbors_first(%s, 'pet:c', NULL, '{}', false)",
    "wm_pin_reader": "SELECT wm_pin_reader(%s)",
}


def test_a_pinned_read_leaves_nothing_of_its_owner_on_the_connection(one: Database, world: str) -> None:
    """read_pinned's statement pins the owner for its own transaction only: the next user of the same pooled
    connection (max_size 1) has no owner and is not read-only; another owner reads nothing of this one."""
    assert state_at(one, world, "pet:b", V0) is not None
    with one.connection() as conn:
        row = conn.execute("SELECT current_setting('app.current_owner', true) AS owner, "
                           "current_setting('transaction_read_only') AS ro, count(*) AS n FROM facts").fetchone()
        conn.rollback()
    assert row is not None and (row["owner"] or "", row["ro"], row["n"]) == ("", "off", 0)
    assert state_at(one, "someone-else", "pet:b", V0) is None
    assert recall.get_entity(one, "someone-else", "pet:b").entity is None


@pytest.mark.parametrize("function", sorted(PINNED))
def test_the_console_role_cannot_pin_an_owner(one: Database, world: str, function: str) -> None:
    """The functions that pin an owner are the app's only (wm_pin_reader's grants): the console role, which runs a
    power user's own text, may execute none of them, so it cannot read as another owner."""
    with one.connection() as conn:
        conn.execute("SET LOCAL ROLE worldmem_console")
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(PINNED[function], (world,))
        conn.rollback()


def test_the_neighbors_function_is_what_its_files_compose() -> None:
    """wm_read_neighbors_first (graph/sql/functions/) holds graph/sql/traversal_first.sql with
    cypher/neighbors_first.cypher composed in; a change to either file without the function's fails here."""
    composed = sql.SQL(load("traversal_first")).format(hops=cypher.call(traversal_first.HOPS, "%(graph)s"))
    body = "\n".join(line for line in composed.as_bytes(None).decode().splitlines() if not line.startswith("--"))
    for placeholder, argument in (("%(ref)s", "wanted"), ("%(system_time)s", "system_time"), ("%(graph)s", "graph"),
                                  ("%(all_types)s", "all_types")):
        body = body.replace(placeholder, argument)
    migration = (FUNCTIONS / "wm_read_neighbors_first.sql").read_text()
    frozen = migration.split("-- BEGIN composed\n", 1)[1].split("\n-- END composed", 1)[0]
    assert frozen == body
