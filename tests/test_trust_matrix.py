"""Trust is a property of the token: token kind x operation, through GraphQL.

Every cell gets a fresh owner with the same world (set up by the owner themself), then runs one
operation with a token of one kind and records what happened: `committed`, `pending` (stored for the
owner's review, never believed) or the error code. The expected table below is the contract; the test
prints the table it observed (`pytest -s tests/test_trust_matrix.py`).
"""

# ruff: noqa: F811  (pytest fixtures imported from tests.gql are test arguments by design)

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient

from graph.ledger import proposal as p
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import Kind, owner_principal
from graph.platform.db import Database
from graph.reads.temporal import fact_history
from tests.gql import client, gql, new_token  # noqa: F401 (fixtures)

T = "2024-01-01T00:00:00Z"
SAID = p.Evidence(kind="message", text="set-up")
KINDS: tuple[Kind, ...] = ("owner", "agent", "integration")


def _setup(db: Database, owner: str) -> dict[str, str]:
    """The same small world for every cell; returns the ids the operations name."""
    at = datetime(2024, 1, 1, tzinfo=UTC)
    me = owner_principal(owner)
    ops: list[Any] = [
        p.UpsertEntity(ref="person:ann", kind="person", canonical_name="Ann"),
        p.UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna"),
        p.UpsertEntity(ref="pet:lu", kind="pet", canonical_name="Lu"),
        p.UpsertEntity(ref="pet:bo", kind="pet", canonical_name="Bo"),
        p.UpsertEntity(ref="policy:quiet", kind="policy", canonical_name="Quiet hours"),
        p.AssertFact(subject="pet:luna", predicate="birthday", value="2019-04-01", valid_from=at, evidence=SAID),
        p.AssertFact(subject="policy:quiet", predicate="rule", value="quiet after 23:00", valid_from=at,
                     evidence=SAID),
        p.AssertFact(subject="pet:luna", predicate="feeding_time", value="06:00", valid_from=at, source="agent",
                     confidence=0.2, evidence=SAID),
        p.AssertFact(subject="pet:luna", predicate="feeding_time", value="05:00", valid_from=at, source="agent",
                     confidence=0.2, evidence=SAID),
        p.MergeEntities(entity="pet:bo", into="pet:lu"),
    ]
    assert commit_proposal(db, me, p.MemoryMutationProposal(run_id="setup", operations=ops)).rejected == []
    feeding = {f.value: str(f.id) for f in fact_history(db, owner, "pet:luna", "feeding_time")}
    rejected = commit_proposal(db, me, p.MemoryMutationProposal(run_id="reject", operations=[
        p.RejectProposal(fact_id=feeding["05:00"])]))
    assert rejected.rejected == []
    birthday = fact_history(db, owner, "pet:luna", "birthday")[0]
    return {"pending": feeding["06:00"], "active": str(birthday.id)}


def _fact(value: Any, *, predicate: str = "feeding_time", subject: str = "pet:luna", source: str | None = None,
          evidence: str = "message", memory_type: str | None = None) -> dict[str, Any]:
    op: dict[str, Any] = {"subject": subject, "predicate": predicate, "value": value, "validFrom": T,
                          "confidence": 1, "evidence": {"kind": evidence, "text": "matrix"}}
    if source is not None:
        op["source"] = source
    if memory_type is not None:
        op["memoryType"] = memory_type
    return {"assertFact": op}


# name -> (kind of request, payload); "own" in a source is replaced by the token's own source.
OPS: dict[str, tuple[str, Any]] = {
    "upsertEntity": ("commit", {"upsertEntity": {"ref": "pet:mo", "kind": "pet", "canonicalName": "Mo"}}),
    "upsertEntity privileged kind (policy)": (
        "commit", {"upsertEntity": {"ref": "policy:new", "kind": "policy", "canonicalName": "New rule"}}),
    "upsertEntity renaming an existing entity": (
        "commit", {"upsertEntity": {"ref": "pet:luna", "kind": "pet", "canonicalName": "Lunatic"}}),
    "upsertEntity renaming, evidence user_assertion": (
        "commit", {"upsertEntity": {"ref": "pet:luna", "kind": "pet", "canonicalName": "Lunatic",
                                    "evidence": {"kind": "user_assertion", "text": "call her Lunatic"}}}),
    "addAlias": ("commit", {"addAlias": {"ref": "pet:luna", "alias": "Lunchen"}}),
    "addAlias, evidence user_assertion": ("commit", {"addAlias": {
        "ref": "pet:luna", "alias": "Lunchen", "evidence": {"kind": "user_assertion", "text": "we call her so"}}}),
    "assertFact replaceLater, evidence message": (
        "commit", {"assertFact": {**_fact("2020-01-01", predicate="birthday", source="own")["assertFact"],
                                  "replaceLater": True}}),
    "assertFact as itself, evidence message": ("commit", _fact("07:00", source="own")),
    "assertFact evidence user_assertion": ("commit", _fact("07:00", source="own", evidence="user_assertion")),
    "assertFact evidence tool_result": ("commit", _fact("07:00", source="own", evidence="tool_result")),
    "assertFact derived preference": (
        "commit", _fact("quiet mornings", subject="person:ann", predicate="prefers", source="own",
                        evidence="inference", memory_type="preference")),
    "assertFact user_assertion in an untrusted run": (
        "untrusted", _fact("07:00", source="own", evidence="user_assertion")),
    "assertFact claiming source user": ("commit", _fact("07:00", source="user")),
    "assertFact claiming another integration": ("commit", _fact("07:00", source="integration:other")),
    "assertFact privileged predicate (rule)": (
        "commit", _fact("no calls after 22:00", subject="policy:quiet", predicate="rule", source="own",
                        evidence="user_assertion")),
    "assertFact re-asserting a rejected belief": ("commit", _fact("05:00", source="own", evidence="user_assertion")),
    "assertFact rejected belief, another spelling": (
        "commit", _fact(" 05:00 ", source="own", evidence="user_assertion")),
    "assertFact rejected belief, under a scope": ("commit", {"assertFact": {
        **_fact("05:00", source="own", evidence="user_assertion")["assertFact"], "scope": "person:ann"}}),
    "assertFact memoryType capability": (
        "commit", _fact("may open the front door", subject="person:ann", predicate="prefers", source="own",
                        evidence="user_assertion", memory_type="capability")),
    "assertFact memoryType permission": (
        "commit", _fact("may spend 500 EUR", subject="person:ann", predicate="prefers", source="own",
                        evidence="user_assertion", memory_type="Permission")),
    "assertFact memoryType policy": (
        "commit", _fact("no calls after 22:00", subject="person:ann", predicate="prefers", source="own",
                        evidence="user_assertion", memory_type="policy")),
    "assertRelationship": ("commit", {"assertRelationship": {
        "subject": "person:ann", "predicate": "owns", "object": "pet:luna", "validFrom": T, "source": "own",
        "confidence": 1, "evidence": {"kind": "user_assertion", "text": "matrix"}}}),
    "retractFact": ("commit", {"retractFact": {"subject": "pet:luna", "predicate": "birthday", "validFrom": T,
                                               "source": "own", "evidence": {"kind": "message", "text": "m"}}}),
    "retractFact evidence user_assertion": ("commit", {"retractFact": {
        "subject": "pet:luna", "predicate": "birthday", "validFrom": T, "source": "own",
        "evidence": {"kind": "user_assertion", "text": "m"}}}),
    "retractFact privileged predicate (rule)": ("commit", {"retractFact": {
        "subject": "policy:quiet", "predicate": "rule", "validFrom": T, "source": "own",
        "evidence": {"kind": "user_assertion", "text": "m"}}}),
    "recordEvent": ("commit", {"recordEvent": {"eventType": "state_change", "occurredAt": T,
                                               "target": "pet:luna", "summary": "m"}}),
    "recordEvent governance": ("commit", {"recordEvent": {
        "eventType": "governance", "occurredAt": T, "summary": "owner accepted all pending facts",
        "payload": {"action": "accept_proposal"}}}),
    "invalidateFact (operation)": ("commit", {"invalidateFact": {"factId": "$active", "reason": "m"}}),
    "commitProposal with recordedAt": ("import", {"upsertEntity": {"ref": "pet:mo", "kind": "pet",
                                                                   "canonicalName": "Mo"}}),
    "acceptProposal": ("mutation", 'acceptProposal(id: "$pending")'),
    "rejectProposal": ("mutation", 'rejectProposal(id: "$pending")'),
    "invalidateFact": ("mutation", 'invalidateFact(id: "$active", reason: "wrong")'),
    "mergeEntities": ("mutation", 'mergeEntities(entity: "pet:lu", into: "pet:luna")'),
    "splitEntity": ("mutation", 'splitEntity(entity: "pet:bo")'),
    "dismissMergeSuggestion": ("mutation", 'dismissMergeSuggestion(entity: "pet:lu", other: "pet:luna")'),
    "registerRelationTypes in its namespace": ("register", "$feed"),
    "registerRelationTypes in another namespace": ("register", "elsewhere"),
    "registerRelationTypes without namespace": ("register", None),
}

C, P, F = "committed", "pending", "FORBIDDEN"
EXPECTED: dict[str, tuple[str, str, str]] = {  # (owner, agent, integration)
    "upsertEntity": (C, C, C),
    "upsertEntity privileged kind (policy)": (C, C, C),
    "upsertEntity renaming an existing entity": (C, F, C),
    "upsertEntity renaming, evidence user_assertion": (C, C, C),
    "addAlias": (C, F, C),
    "addAlias, evidence user_assertion": (C, C, C),
    "assertFact replaceLater, evidence message": (C, F, C),
    "assertFact as itself, evidence message": (C, P, C),
    "assertFact evidence user_assertion": (C, C, C),
    "assertFact evidence tool_result": (C, C, C),
    "assertFact derived preference": (C, P, C),
    "assertFact user_assertion in an untrusted run": (C, P, P),
    "assertFact claiming source user": (C, "SOURCE_NOT_ALLOWED", "SOURCE_NOT_ALLOWED"),
    "assertFact claiming another integration": (C, "SOURCE_NOT_ALLOWED", "SOURCE_NOT_ALLOWED"),
    "assertFact privileged predicate (rule)": (C, P, P),
    "assertFact re-asserting a rejected belief": (C, "SUPPRESSED", "SUPPRESSED"),
    "assertFact rejected belief, another spelling": (C, "SUPPRESSED", "SUPPRESSED"),
    "assertFact rejected belief, under a scope": (C, "SUPPRESSED", "SUPPRESSED"),
    "assertFact memoryType capability": (C, P, P),
    "assertFact memoryType permission": (C, P, P),
    "assertFact memoryType policy": (C, P, P),
    "assertRelationship": (C, C, C),
    "retractFact": (C, F, C),
    "retractFact evidence user_assertion": (C, C, C),
    "retractFact privileged predicate (rule)": (C, F, F),
    "recordEvent": (C, C, C),
    "recordEvent governance": ("OWNER_ONLY", "OWNER_ONLY", "OWNER_ONLY"),
    "invalidateFact (operation)": (C, F, F),
    "commitProposal with recordedAt": (C, F, F),
    "acceptProposal": (C, F, F),
    "rejectProposal": (C, F, F),
    "invalidateFact": (C, F, F),
    "mergeEntities": (C, F, F),
    "splitEntity": (C, F, F),
    "dismissMergeSuggestion": (C, F, F),
    "registerRelationTypes in its namespace": (C, F, C),
    "registerRelationTypes in another namespace": (C, F, "NAMESPACE"),
    "registerRelationTypes without namespace": (C, F, "NAMESPACE"),
}

COMMIT = """mutation($p: ProposalInput!, $at: DateTime) {
  commitProposal(proposal: $p, recordedAt: $at) { committed pending rejected { code } } }"""
REGISTER = """mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }"""


def _substitute(payload: Any, ids: dict[str, str], source: str) -> Any:
    text = json.dumps(payload)
    for key, value in ids.items():
        text = text.replace(f"${key}", value)
    return json.loads(text.replace('"source": "own"', json.dumps({"source": source})[1:-1]))


def _outcome(body: dict[str, Any], field: str) -> str:
    data = (body.get("data") or {}).get(field)
    if field == "commitProposal" and data is not None:
        if data["rejected"]:
            return str(data["rejected"][0]["code"])
        return "pending" if data["pending"] else "committed"
    errors = body.get("errors") or []
    return str(errors[0]["extensions"]["code"]) if errors else "committed"


def run_cell(client: TestClient, db: Database, admin_url: str, name: str, kind: Kind) -> str:
    owner = f"matrix-{uuid.uuid4().hex[:10]}"
    # integration namespaces are global: each cell's integration has a name (and namespace) of its own
    feed = f"feed{uuid.uuid4().hex[:8]}"
    ids = {**_setup(db, owner), "feed": feed}
    how, payload = OPS[name]
    # owner tokens get the flags the operation needs (--import, --integration): the kind is what is tested
    token = new_token(admin_url, owner, import_=how == "import" and kind == "owner",
                      integration=how == "register" and kind == "owner",
                      kind=kind, name=feed if kind == "integration" else None)
    source = {"owner": "user", "agent": "agent", "integration": f"integration:{feed}"}[kind]
    if how == "mutation":
        call = _substitute(payload, ids, source)
        return _outcome(gql(client, token, f"mutation {{ {call} {{ ok }} }}"), call.split("(")[0])
    if how == "register":
        namespace = feed if payload == "$feed" else payload
        key = f"{namespace}:k{uuid.uuid4().hex[:6]}" if namespace else f"k{uuid.uuid4().hex[:8]}"
        types = [{"key": key, "name": "m", "cardinality": "SET"}]
        return _outcome(gql(client, token, REGISTER, {"t": types}), "registerRelationTypes")
    proposal = {"runId": "cell", "operations": [_substitute(payload, ids, source)], "untrusted": how == "untrusted"}
    variables = {"p": proposal, "at": datetime.now(UTC).isoformat() if how == "import" else None}
    return _outcome(gql(client, token, COMMIT, variables), "commitProposal")


def table(observed: dict[str, tuple[str, ...]]) -> str:
    lines = ["| operation | owner | agent | integration |", "|---|---|---|---|"]
    lines += [f"| {name} | {' | '.join(cells)} |" for name, cells in observed.items()]
    return "\n".join(lines)


def test_matrix_names_every_operation_once() -> None:
    assert set(OPS) == set(EXPECTED)


@pytest.mark.parametrize("kind", KINDS)
def test_token_kind_matrix(client: TestClient, db: Database, test_db_url: str, kind: Kind) -> None:
    column = KINDS.index(kind)
    observed = {name: run_cell(client, db, test_db_url, name, kind) for name in OPS}
    expected = {name: cells[column] for name, cells in EXPECTED.items()}
    print(f"\n{kind}:\n" + "\n".join(f"  {n}: {o}" for n, o in observed.items()))
    assert observed == expected
