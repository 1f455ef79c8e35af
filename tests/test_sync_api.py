"""syncEntities and removeIntegration through GraphQL: who may call them, what each entry is rejected with,
idempotency, the body allowance of integration tokens, namespaces, and the AGE mirror after a sync."""
# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from graph.age.doctor import check
from graph.ledger.committer import commit_proposal
from graph.ledger.proposal import AssertFact, Evidence, MemoryMutationProposal, RejectProposal
from graph.ledger.tokens import Principal, owner_principal
from graph.platform.db import Database
from graph.settings import Settings
from graph.sync.removal import MESSAGES
from resolvers.app import create_app
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

KINDS = "mutation($k: [EntityKindInput!]!) { registerEntityKinds(kinds: $k) { key } }"
TYPES = "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }"
SYNC = """mutation($s: String!, $e: [SyncEntryInput!]!) { syncEntities(source: $s, entries: $e) {
  created changed unchanged rejected entries { index status ref changed code message eventId } } }"""
REMOVE = """mutation($n: String!) { removeIntegration(name: $n) {
  name deprecatedKinds deprecatedPredicates staleEntities message } }"""
NOW = datetime.now(UTC).replace(microsecond=0)


def entry(i: int, ns: str, at: datetime = NOW - timedelta(hours=1), **content: Any) -> dict[str, Any]:
    return {"sourceEntryId": f"row{i}", "kind": f"{ns}:ticket", "externalId": f"T-{i}",
            "content": content or {"state": "open"}, "observedAt": at.isoformat()}


def setup(client: TestClient, make_token: MakeToken) -> tuple[str, str]:
    """An integration (a fresh name) with a kind `ns:ticket` and predicates state, title, tags (a set)."""
    ns = f"it{uuid.uuid4().hex[:8]}"
    token = make_token(kind="integration", name=ns)
    assert "errors" not in gql(client, token, KINDS, {"k": [{"key": f"{ns}:ticket", "name": "ticket"}]})
    types = [{"key": f"{ns}:{k}", "name": k, "cardinality": c}
             for k, c in (("state", "FUNCTIONAL"), ("title", "FUNCTIONAL"), ("tags", "SET"))]
    assert "errors" not in gql(client, token, TYPES, {"t": types})
    return ns, token


def sync(client: TestClient, token: str, entries: list[dict[str, Any]], source: str = "main") -> dict[str, Any]:
    body = gql(client, token, SYNC, {"s": source, "e": entries})
    assert "errors" not in body, body
    result: dict[str, Any] = body["data"]["syncEntities"]
    return result


def test_only_integration_tokens_sync(client: TestClient, make_token: MakeToken) -> None:
    ns, _ = setup(client, make_token)
    for token in (make_token(), make_token(kind="agent"), make_token(integration=True)):
        body = gql(client, token, SYNC, {"s": "main", "e": [entry(1, ns)]})
        assert codes(body) == ["FORBIDDEN"] and body["data"] is None


def test_each_entry_is_judged_on_its_own(client: TestClient, make_token: MakeToken) -> None:
    ns, token = setup(client, make_token)
    result = sync(client, token, [
        entry(1, ns, title="ok"),
        entry(2, "nosuch"),  # kind not registered
        {**entry(3, ns), "kind": "policy"},  # core and privileged
        entry(4, ns, colour="red"),  # predicate not registered
        entry(5, ns, tags="a"),  # a set predicate
        {**entry(6, ns), "externalId": "has space"},
        entry(1, ns, title="again"),  # the same key as entry 0
        entry(7, ns, NOW + timedelta(hours=1)),
        {**entry(8, ns), "content": ["not", "an", "object"]},
        entry(9, ns, status="x"),  # bare keys are the integration's namespace: ns:status is unknown
    ])
    got = [(e["index"], e["status"], e["code"]) for e in result["entries"]]
    assert got == [(0, "CREATED", None), (1, "REJECTED", "UNKNOWN_KIND"), (2, "REJECTED", "FORBIDDEN"),
                   (3, "REJECTED", "UNKNOWN_PREDICATE"), (4, "REJECTED", "BAD_INPUT"), (5, "REJECTED", "BAD_REF"),
                   (6, "REJECTED", "DUPLICATE_ENTRY"), (7, "REJECTED", "BAD_TIME"), (8, "REJECTED", "BAD_INPUT"),
                   (9, "REJECTED", "UNKNOWN_PREDICATE")]
    assert (result["created"], result["rejected"]) == (1, 9)
    assert result["entries"][0]["ref"] == f"{ns}:ticket:T-1"
    assert all(e["message"] for e in result["entries"][1:])


def test_changes_only_and_out_of_order(client: TestClient, make_token: MakeToken, db: Database, owner: str) -> None:
    ns, token = setup(client, make_token)
    t0 = NOW - timedelta(hours=2)
    assert sync(client, token, [entry(1, ns, t0, state="open", title="A")])["created"] == 1
    same = sync(client, token, [entry(1, ns, t0 + timedelta(minutes=5), title="A", state="open")])
    assert (same["unchanged"], same["entries"][0]["eventId"]) == (1, None)
    changed = sync(client, token, [entry(1, ns, t0 + timedelta(minutes=10), state="closed", title="A")])
    assert changed["entries"][0]["changed"] == [f"{ns}:state"]
    late = sync(client, token, [entry(1, ns, t0 + timedelta(minutes=1), state="open", title="A")])
    assert late["entries"][0]["code"] == "OUT_OF_ORDER"
    # another source of the same integration is another entry, backing the same entity
    other = sync(client, token, [entry(1, ns, t0 + timedelta(minutes=20), state="closed", title="B")], "mirror")
    assert other["entries"][0]["status"] == "CREATED" and other["entries"][0]["ref"] == f"{ns}:ticket:T-1"
    with db.owner_tx(owner, read_only=True) as conn:
        rows = conn.execute(
            "SELECT predicate, object_value AS v, valid_from, valid_to FROM facts f JOIN entities e ON "
            "e.id = f.subject_id WHERE e.ref = %s AND f.superseded_at IS NULL ORDER BY 1, 3",
            (f"{ns}:ticket:T-1",)).fetchall()
        events = conn.execute("SELECT count(*) AS n FROM world_events w JOIN entities e ON e.id = w.target_entity_id "
                              "WHERE e.ref = %s", (f"{ns}:ticket:T-1",)).fetchone()
        entries = conn.execute("SELECT source, last_synced_at > first_synced_at AS touched FROM sync_entries "
                               "ORDER BY source").fetchall()
    assert [(r["predicate"], r["v"], r["valid_from"], r["valid_to"]) for r in rows] == [
        (f"{ns}:state", "open", t0, t0 + timedelta(minutes=10)),
        # the second source restating "closed" is a change point of its own (graph.ledger.timeline.plan_replace)
        (f"{ns}:state", "closed", t0 + timedelta(minutes=10), t0 + timedelta(minutes=20)),
        (f"{ns}:state", "closed", t0 + timedelta(minutes=20), None),
        (f"{ns}:title", "A", t0, t0 + timedelta(minutes=20)),
        (f"{ns}:title", "B", t0 + timedelta(minutes=20), None)]
    assert events is not None and events["n"] == 3  # created, changed, created from the second source
    assert [(e["source"], e["touched"]) for e in entries] == [("main", True), ("mirror", False)]


def test_an_existing_ref_is_adopted(client: TestClient, make_token: MakeToken, db: Database, owner: str) -> None:
    ns, token = setup(client, make_token)
    owner_token = make_token()
    proposal = {"runId": "adopt", "operations": [{"upsertEntity": {
        "ref": f"{ns}:ticket:T-5", "kind": f"{ns}:ticket", "canonicalName": "Ticket five"}}]}
    body = gql(client, owner_token, "mutation($p: ProposalInput!) { commitProposal(proposal: $p) { committed } }",
               {"p": proposal})
    assert body["data"]["commitProposal"]["committed"] == 1, body
    result = sync(client, token, [entry(5, ns)])
    assert (result["entries"][0]["status"], result["entries"][0]["ref"]) == ("CREATED", f"{ns}:ticket:T-5")
    with db.owner_tx(owner, read_only=True) as conn:
        row = conn.execute("SELECT external_id, backing_ref, canonical_name FROM entities WHERE ref = %s",
                           (f"{ns}:ticket:T-5",)).fetchone()
    assert row == {"external_id": "T-5", "backing_ref": f"{ns}:main:row5", "canonical_name": "Ticket five"}


def test_integration_tokens_may_send_large_bodies(settings: Settings, app_db_url: str,
                                                  make_token: MakeToken, client: TestClient) -> None:
    ns, token = setup(client, make_token)
    small = settings.model_copy(update={"max_request_bytes": 20_000, "max_sync_request_bytes": 400_000,
                                        "max_import_request_bytes": 30_000})
    batch = [entry(i, ns, title="x" * 50) for i in range(300)]  # ~60 kB
    assert 20_000 < len(json.dumps(batch)) < 400_000
    with TestClient(create_app(small, database_url=app_db_url), raise_server_exceptions=False) as api:
        big = api.post("/graphql", json={"query": SYNC, "variables": {"s": "main", "e": batch}},
                       headers={"Authorization": f"Bearer {token}"})
        assert big.status_code == 200 and big.json()["data"]["syncEntities"]["created"] == 300
        owner_token = make_token()
        refused = api.post("/graphql", json={"query": SYNC, "variables": {"s": "main", "e": batch}},
                           headers={"Authorization": f"Bearer {owner_token}"})
        assert refused.status_code == 413 and codes(refused.json()) == ["PAYLOAD_TOO_LARGE"]
        huge = [entry(i, ns, title="x" * 2000) for i in range(300)]  # ~600 kB: over the integration's bound
        too_big = api.post("/graphql", json={"query": SYNC, "variables": {"s": "main", "e": huge}},
                           headers={"Authorization": f"Bearer {token}"})
        assert too_big.status_code == 413 and "400000" in too_big.json()["errors"][0]["message"]


def test_remove_integration(client: TestClient, make_token: MakeToken, db: Database, owner: str) -> None:
    ns, token = setup(client, make_token)
    assert sync(client, token, [entry(1, ns), entry(2, ns)])["created"] == 2
    assert codes(gql(client, token, REMOVE, {"n": ns})) == ["FORBIDDEN"]  # the owner's decision only
    stranger = make_token(f"other-{uuid.uuid4().hex[:8]}")
    elsewhere = gql(client, stranger, REMOVE, {"n": ns})["data"]["removeIntegration"]
    assert (elsewhere["deprecatedKinds"], elsewhere["staleEntities"]) == ([], 0)  # not their namespace

    removed = gql(client, make_token(), REMOVE, {"n": ns})["data"]["removeIntegration"]
    assert removed["deprecatedKinds"] == [f"{ns}:ticket"]
    assert removed["deprecatedPredicates"] == sorted(f"{ns}:{k}" for k in ("state", "tags", "title"))
    assert removed["staleEntities"] == 2
    assert removed["message"] == MESSAGES["en"].format(name=ns, kinds=1, predicates=3, stale=2)
    after = sync(client, token, [entry(3, ns)])
    assert after["entries"][0]["code"] == "UNKNOWN_KIND"
    kinds = gql(client, token, "{ entityKinds { key state } }")["data"]["entityKinds"]
    assert {"key": f"{ns}:ticket", "state": "deprecated"} in kinds
    with db.owner_tx(owner, read_only=True) as conn:
        stale = conn.execute("SELECT count(*) AS n FROM sync_entries WHERE stale_since IS NOT NULL").fetchone()
    assert stale is not None and stale["n"] == 2
    # staleness is a believed fact of each entity it fed: stateAt and the context block show it
    ref = f"{ns}:ticket:T-1"
    state = gql(client, token, "query($r: String!) { stateAt(ref: $r) { facts { predicate value source } } }",
                {"r": ref})["data"]["stateAt"]["facts"]
    marks = [f for f in state if f["predicate"] == "stale_since"]
    assert len(marks) == 1 and marks[0]["source"] == "user"
    assert {"predicate": f"{ns}:state", "value": "open", "source": f"integration:{ns}"} in state  # history stays
    block = gql(client, token, "query($m: String!) { worldContext(message: $m) { markdown } }",
                {"m": f"what about {ref}?"})["data"]["worldContext"]["markdown"]
    assert f"{ref} stale_since = " in block and f"{ref} {ns}:state = \"open\"" in block
    again = gql(client, make_token(), REMOVE, {"n": ns})["data"]["removeIntegration"]
    assert (again["deprecatedKinds"], again["staleEntities"]) == ([], 0)  # removing twice changes nothing


def test_removal_messages_in_both_languages() -> None:
    fields = {"name": "github", "kinds": 1, "predicates": 2, "stale": 3}
    assert MESSAGES["de"].format(**fields).startswith("Integration github entfernt")
    assert MESSAGES["en"].format(**fields).startswith("Integration github removed")


@pytest.mark.parametrize("name", ["person", "status", "policy"])
def test_no_namespace_shadows_core(client: TestClient, make_token: MakeToken, name: str) -> None:
    for token in (make_token(kind="integration", name=name), make_token(integration=True)):
        body = gql(client, token, KINDS, {"k": [{"key": f"{name}:vip", "name": "vip"}]})
        assert codes(body) == ["NAMESPACE"]


def test_an_inverse_stays_in_its_namespace(client: TestClient, make_token: MakeToken) -> None:
    ns, token = setup(client, make_token)
    def typ(inverse: str) -> list[dict[str, Any]]:
        return [{"key": f"{ns}:reviews", "name": "reviews", "cardinality": "SET", "inverse": inverse}]
    assert codes(gql(client, token, TYPES, {"t": typ("owned_by")})) == ["NAMESPACE"]  # would label as core
    assert "errors" not in gql(client, token, TYPES, {"t": typ(f"{ns}:reviewed_by")})


def test_the_mirror_equals_the_ledger_after_syncs(client: TestClient, make_token: MakeToken, db: Database,
                                                  owner: str, test_db_url: str) -> None:
    ns, token = setup(client, make_token)
    sync(client, token, [entry(i, ns, NOW - timedelta(hours=2)) for i in range(20)])
    sync(client, token, [entry(i, ns, NOW - timedelta(hours=1), state="closed") for i in range(0, 20, 2)])
    with db.owner_tx(owner, read_only=True) as conn:
        ids = [str(r["id"]) for r in conn.execute(
            "SELECT id FROM entities UNION ALL SELECT id FROM world_events").fetchall()]
    assert len(ids) == 20 + 30
    problems = check(test_db_url).problems
    assert [p for p in problems if any(i in p for i in ids)] == []


def test_a_value_the_owner_rejected_is_not_synced(client: TestClient, make_token: MakeToken, db: Database,
                                                  owner: str) -> None:
    ns, token = setup(client, make_token)
    t0 = NOW - timedelta(hours=2)
    sync(client, token, [entry(1, ns, t0), entry(2, ns, t0)])
    guess = AssertFact(subject=f"{ns}:ticket:T-1", predicate=f"{ns}:state", value="closed", valid_from=t0,
                       evidence=Evidence(kind="inference", text="it looked done"))
    assert commit_proposal(db, Principal(owner=owner, kind="agent"),
                           MemoryMutationProposal(run_id="guess", operations=[guess])).pending == 1
    with db.owner_tx(owner, read_only=True) as conn:
        pending = conn.execute("SELECT id FROM facts WHERE status = 'pending'").fetchone()
    assert pending is not None
    rejected = commit_proposal(db, owner_principal(owner), MemoryMutationProposal(
        run_id="no", operations=[RejectProposal(fact_id=str(pending["id"]))]))
    assert rejected.committed == 1, rejected
    result = sync(client, token, [entry(1, ns, t0 + timedelta(hours=1), state="closed"),
                                  entry(2, ns, t0 + timedelta(hours=1), state="closed")])
    assert [(e["status"], e["code"]) for e in result["entries"]] == [("REJECTED", "SUPPRESSED"), ("CHANGED", None)]
    again = sync(client, token, [entry(1, ns, t0 + timedelta(hours=1), state="closed")])
    assert again["entries"][0]["code"] == "SUPPRESSED"  # nothing of the refused entry was remembered


def test_sync_entries_are_private_and_fail_closed(client: TestClient, make_token: MakeToken, db: Database,
                                                  owner: str) -> None:
    ns, token = setup(client, make_token)
    sync(client, token, [entry(1, ns)])
    count = "SELECT count(*) AS n FROM sync_entries"
    with db.owner_tx(owner, read_only=True) as conn:
        assert conn.execute(count).fetchone() == {"n": 1}
    with db.owner_tx(f"{owner}-other", read_only=True) as conn:
        assert conn.execute(count).fetchone() == {"n": 0}
    with db.connection() as conn, conn.transaction():  # no owner at all
        assert conn.execute(count).fetchone() == {"n": 0}
    with db.owner_tx(f"{owner}-other") as conn, pytest.raises(psycopg.errors.InsufficientPrivilege):
        conn.execute("UPDATE sync_entries SET entity_id = entity_id")  # the key and entity never change


def test_more_than_10000_entries_are_refused_whole(client: TestClient, make_token: MakeToken) -> None:
    ns, token = setup(client, make_token)
    body = gql(client, token, SYNC, {"s": "main", "e": [entry(i, ns) for i in range(10_001)]})
    assert codes(body) == ["BAD_LIMIT"] and body["data"] is None
