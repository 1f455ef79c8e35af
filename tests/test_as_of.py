"""As known at R means as known at R, also across merges and splits.

The one as-of condition (`wm_during` / `wm_known` in the database, `timeline.during` / `known` in Python)
agrees with itself in SQL, in Cypher and in Python; and refs are resolved as of the system time asked,
in the typed reads, the agent's tools, traversal and the context builder.
"""

from __future__ import annotations

import itertools
import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

import cypher
from graph.age.mirror import micros
from graph.agent import recall
from graph.agent.world_context import ContextRequest, build
from graph.ledger import proposal as p
from graph.ledger.committer import commit_proposal
from graph.ledger.timeline import believed, during, known
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.reads.temporal import Question, fact_history, state_as_known_at, state_at
from graph.reads.traversal import Direction, NeighborQuery, neighbors
from graph.sql import load
from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

EV = p.Evidence(kind="test", text="as of")
V0 = datetime(2020, 1, 1, tzinfo=UTC)
R1, R2, R3, R4 = (datetime(2021, m, 1, tzinfo=UTC) for m in (1, 3, 5, 7))  # system times of the steps


def _commit(db: Database, owner: str, at: datetime, *ops: Any) -> None:
    proposal = p.MemoryMutationProposal(run_id=uuid.uuid4().hex, operations=list(ops))
    result = commit_proposal(db, owner_principal(owner), proposal, recorded_at=at)
    assert result.rejected == [], result.rejected


def _fact(subject: str, predicate: str, value: Any) -> p.AssertFact:
    return p.AssertFact(subject=subject, predicate=predicate, value=value, valid_from=V0, source="user",
                        evidence=EV)


# --- the one condition --------------------------------------------------------------------------------

T = [datetime(2021, 1, d, tzinfo=UTC) for d in (1, 2, 3)]
CASES = [(lo, hi, t) for lo, hi, t in itertools.product(T, [*T, None], T) if hi is None or hi >= lo]


def test_during_and_known_agree_in_python_sql_and_cypher(db: Database) -> None:
    with db.owner_tx("nobody", read_only=True) as conn:
        for lo, hi, t in CASES:
            sql = conn.execute("SELECT wm_during(%s, %s, %s) AS d, wm_known(%s, %s, %s) AS k, "
                               "wm_known(%s, %s, NULL) AS n, wm_believed(%s) AS b",
                               (lo, hi, t, lo, hi, t, lo, hi, hi)).fetchone()
            assert sql is not None
            params = json.dumps({"lo": micros(lo), "hi": micros(hi), "t": micros(t)})
            graph = conn.execute(
                "SELECT * FROM ag_catalog.cypher('worldgraph', $$ RETURN public.wm_during($lo, $hi, $t), "
                "public.wm_known($lo, $hi, $t), public.wm_known($lo, $hi, null) $$, %s) "
                "AS (d ag_catalog.agtype, k ag_catalog.agtype, n ag_catalog.agtype)", (params,)).fetchone()
            assert graph is not None
            expected = (during(lo, hi, t), known(lo, hi, t), known(lo, hi, None))
            assert (sql["d"], sql["k"], sql["n"]) == expected, (lo, hi, t)
            assert sql["b"] == believed(hi) == sql["n"], (lo, hi)
            # the reads' condition, valid time and system time on the same row's times (Question's twin)
            assert Question.known_at(t, t).sees(lo, hi, lo, hi) == (sql["d"] and sql["k"]), (lo, hi, t)
            assert Question.as_of(t).sees(lo, hi, lo, hi) == (sql["d"] and sql["b"]), (lo, hi, t)
            assert Question.history("p").sees(lo, hi, lo, hi)
            assert tuple(cypher.parse_agtype(v) for v in graph.values()) == expected, (lo, hi, t)
    assert any(during(*c) for c in CASES) and not all(during(*c) for c in CASES)


# --- merges and splits ----------------------------------------------------------------------------------

@pytest.fixture
def merged(db: Database, owner: str) -> str:
    """pet:a (alias "Ace") and pet:b, known from R1; pet:a merged into pet:b at R2; split again at R4."""
    _commit(db, owner, R1, p.UpsertEntity(ref="pet:a", kind="pet", canonical_name="A", aliases=["Ace"]),
            p.UpsertEntity(ref="pet:b", kind="pet", canonical_name="B"),
            p.UpsertEntity(ref="person:o", kind="person", canonical_name="O"),
            _fact("pet:a", "birthday", "2019-01-01"), _fact("pet:b", "birthday", "2018-05-05"),
            _fact("pet:a", "description", "grey"),
            p.AssertRelationship(subject="person:o", predicate="owns", object="pet:a", valid_from=V0,
                                 source="user", evidence=EV))
    _commit(db, owner, R2, p.MergeEntities(entity="pet:a", into="pet:b", reason="same"))
    return owner


def _facts(view: Any) -> list[tuple[str, str, str]]:
    return sorted((view.ref, f.predicate, str(f.value)) for f in view.facts)


def test_state_as_known_at_resolves_the_ref_as_of_the_system_time(db: Database, merged: str) -> None:
    before = state_as_known_at(db, merged, "pet:a", R1 + timedelta(days=1), V0)
    assert before is not None
    assert _facts(before) == [("pet:a", "birthday", "2019-01-01"), ("pet:a", "description", "grey")]
    by_alias = state_as_known_at(db, merged, "Ace", R1 + timedelta(days=1), V0)  # the alias named pet:a then
    assert by_alias is not None and _facts(by_alias) == _facts(before)
    after = state_as_known_at(db, merged, "pet:a", R2 + timedelta(days=1), V0)
    assert after is not None and after.ref == "pet:b"
    assert ("pet:b", "birthday", "2018-05-05") in _facts(after) and ("pet:b", "description", "grey") in _facts(after)
    now = state_at(db, merged, "pet:a", V0)
    assert now is not None and _facts(now) == _facts(after)
    # Before it was recorded the entity did not exist, as known then: the ref names nothing.
    assert state_as_known_at(db, merged, "pet:a", R1 - timedelta(days=1), V0) is None


def test_fact_history_of_a_merged_entity_is_its_own(db: Database, merged: str) -> None:
    rows = fact_history(db, merged, "pet:a", "birthday")
    assert [(str(f.value), f.status, f.recorded_at, f.superseded_at) for f in rows] == [
        ("2019-01-01", "superseded", R1, R2)]
    survivor = fact_history(db, merged, "pet:b", "birthday")
    assert [str(f.value) for f in survivor] == ["2018-05-05"]


def test_split_ends_the_merge_at_its_own_system_time(db: Database, merged: str) -> None:
    _commit(db, merged, R4, p.SplitEntity(entity="pet:a", reason="different cats"))
    between = state_as_known_at(db, merged, "pet:a", R3, V0)
    assert between is not None and between.ref == "pet:b"
    after = state_as_known_at(db, merged, "pet:a", R4 + timedelta(days=1), V0)
    assert after is not None and _facts(after) == [("pet:a", "birthday", "2019-01-01"), ("pet:a", "description",
                                                                                         "grey")]
    assert [(f.recorded_at, f.superseded_at) for f in fact_history(db, merged, "pet:a", "birthday")] == [
        (R1, R2), (R4, None)]


def test_agent_tools_resolve_as_of_the_system_time(db: Database, merged: str) -> None:
    before = recall.state_as_known_at(db, merged, "pet:a", R1 + timedelta(days=1), V0)
    assert before.entity is not None and before.entity.ref == "pet:a"
    assert sorted(str(s.fact.value) for s in before.statements) == ["2019-01-01", "grey"]
    after = recall.state_as_known_at(db, merged, "pet:a", R2 + timedelta(days=1), V0)
    assert after.entity is not None and after.entity.ref == "pet:b"
    history = recall.get_fact_history(db, merged, "pet:a", "birthday")
    assert history.entity is not None and history.entity.ref == "pet:a"
    assert [str(s.fact.value) for s in history.statements] == ["2019-01-01"]
    now = recall.state_at(db, merged, "pet:a", V0)
    assert now.entity is not None and now.entity.ref == "pet:b"


def test_neighbors_resolve_the_origin_as_of_the_system_time(db: Database, merged: str) -> None:
    then = neighbors(db, merged, NeighborQuery(ref="pet:a", direction=Direction.IN, valid_time=R3,
                                               system_time=R1 + timedelta(days=1)))
    assert then is not None and then.origin.ref == "pet:a"
    assert [(h.source.ref, h.label, h.target.ref) for h in then.hops] == [("pet:a", "owned_by", "person:o")]
    later = neighbors(db, merged, NeighborQuery(ref="pet:a", direction=Direction.IN, valid_time=R3,
                                                system_time=R2 + timedelta(days=1)))
    assert later is not None and later.origin.ref == "pet:b"
    assert [(h.source.ref, h.label, h.target.ref) for h in later.hops] == [("pet:b", "owned_by", "person:o")]


def test_context_follows_a_chain_of_merges(db: Database, merged: str) -> None:
    _commit(db, merged, R3, p.UpsertEntity(ref="pet:c", kind="pet", canonical_name="C"),
            p.MergeEntities(entity="pet:b", into="pet:c"))
    context = build(db, merged, ContextRequest(message="how is pet:a?", at=R4))
    assert [le.entity.ref for le in context.linked] == ["pet:c"]
    assert recall.state_at(db, merged, "pet:a", V0).entity is not None
    assert state_as_known_at(db, merged, "pet:a", R3 + timedelta(days=1), V0).ref == "pet:c"  # type: ignore[union-attr]


def test_survivor_function_as_the_app_sees_it(db: Database, merged: str) -> None:
    def survivor(conn: psycopg.Connection[Any], r: datetime | None) -> str:
        row = conn.execute("SELECT e.ref FROM entities e WHERE e.id = wm_survivor((SELECT id FROM entities "
                           "WHERE ref = 'pet:a'), %s)", (r,)).fetchone()
        assert row is not None
        return str(row["ref"])

    with db.owner_tx(merged, read_only=True) as conn:
        assert [survivor(conn, r) for r in (R1, R2, R3, None)] == ["pet:a", "pet:b", "pet:b", "pet:b"]
    with db.owner_tx("someone-else", read_only=True) as conn:  # another owner sees no merge at all
        row = conn.execute("SELECT count(*) AS n FROM entity_merges").fetchone()
        assert row is not None and row["n"] == 0


NAMED: dict[str, tuple[dict[str, Any], set[str]]] = {
    "entity_survivor": ({"id": uuid.uuid4(), "system_time": None},
                        {"id", "ref", "kind", "canonical_name", "status", "merged_into_id", "created_at"}),
    "entity_resolve": ({"name": "Ace", "system_time": R1, "follow": True},
                       {"outcome", "via", "id", "ref", "kind", "canonical_name", "status", "merged_into_id",
                        "created_at"}),
    "traversal_merged_sources_at": ({"ids": [uuid.uuid4()], "system_time": R1}, {"id", "survivor"}),
    "traversal_any_merge_at": ({"system_time": R1}, {"merged"}),
    "traversal_survivors": ({"ids": [uuid.uuid4()], "system_time": None}, {"start_id", "id", "ref", "kind", "name"}),
}


@pytest.mark.parametrize("name", sorted(NAMED))
def test_named_queries_return_their_fields(db: Database, merged: str, name: str) -> None:
    params, columns = NAMED[name]
    with db.owner_tx(merged, read_only=True) as conn:
        cur = conn.execute(load(name), params)
        assert cur.description is not None
        assert {c.name for c in cur.description} == columns


def test_merges_known_at_r_as_traversal_sees_them(db: Database, merged: str) -> None:
    with db.owner_tx(merged, read_only=True) as conn:
        ids = {r["ref"]: r["id"] for r in conn.execute("SELECT ref, id FROM entities").fetchall()}

        def sources(r: datetime) -> list[tuple[Any, Any]]:
            rows = conn.execute(load("traversal_merged_sources_at"), {"ids": [ids["pet:b"]], "system_time": r})
            return [(row["id"], row["survivor"]) for row in rows.fetchall()]

        def any_merge(r: datetime) -> bool:
            row = conn.execute(load("traversal_any_merge_at"), {"system_time": r}).fetchone()
            return bool(row and row["merged"])

        assert sources(R1) == [] and not any_merge(R1)
        assert sources(R2) == [(ids["pet:a"], ids["pet:b"])] and any_merge(R2)


KNOWN = """query($ref: String!, $r: DateTime!, $v: DateTime) {
  stateAsKnownAt(ref: $ref, systemTime: $r, validTime: $v) { ref facts { predicate value } }
  factHistory(ref: $ref, predicate: "birthday") { value status recordedAt supersededAt }
}"""


def test_the_typed_fields_over_graphql(client: TestClient, make_token: MakeToken, merged: str) -> None:  # noqa: F811
    token = make_token(merged)
    before = gql(client, token, KNOWN, {"ref": "pet:a", "r": (R1 + timedelta(days=1)).isoformat(),
                                        "v": V0.isoformat()})
    assert "errors" not in before, before
    state = before["data"]["stateAsKnownAt"]
    assert state["ref"] == "pet:a"
    assert sorted((f["predicate"], f["value"]) for f in state["facts"]) == [("birthday", "2019-01-01"),
                                                                          ("description", "grey")]
    assert [(h["value"], h["status"]) for h in before["data"]["factHistory"]] == [("2019-01-01", "superseded")]
    after = gql(client, token, KNOWN, {"ref": "pet:a", "r": (R2 + timedelta(days=1)).isoformat(),
                                       "v": V0.isoformat()})
    assert after["data"]["stateAsKnownAt"]["ref"] == "pet:b"
