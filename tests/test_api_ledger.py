"""The core GraphQL contract end to end: scenarios, idempotency, owner isolation, bad input."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401
from tests.scenarios import load_scenarios, run_scenario

REGISTER = "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }"
COMMIT = """mutation($p: ProposalInput!, $at: DateTime) {
  commitProposal(proposal: $p, recordedAt: $at) { committed pending rejected { opIndex code message } }
}"""
FACT = "id predicate value validFrom validTo recordedAt supersededAt status source confidence"
KNOWN_AT = "query($r: String!, $s: DateTime!, $v: DateTime) { stateAsKnownAt(ref: $r, systemTime: $s, " \
           "validTime: $v) { ref facts { " + FACT + " } } }"
STATE_AT = "query($r: String!, $v: DateTime!) { stateAt(ref: $r, validTime: $v) { ref facts { " + FACT + " } } }"
HISTORY = "query($r: String!, $p: String!) { factHistory(ref: $r, predicate: $p) { " + FACT + " } }"
EVIDENCE = {"kind": "test", "text": "acceptance"}


def iso(t: datetime | None) -> str | None:
    return None if t is None else t.isoformat()


def parse(t: str | None) -> datetime | None:
    return None if t is None else datetime.fromisoformat(t)


def assert_op(subject: str, predicate: str, value: Any, valid_from: str, **extra: Any) -> dict[str, Any]:
    return {"assertFact": {"subject": subject, "predicate": predicate, "value": value, "validFrom": valid_from,
                           "source": "user", "confidence": 1.0, "evidence": EVIDENCE, **extra}}


@pytest.mark.parametrize("scenario", load_scenarios(), ids=lambda s: s["entity"])
def test_public_scenarios_through_graphql(client: TestClient, make_token: MakeToken,  # noqa: F811
                                          scenario: dict[str, Any]) -> None:
    token = make_token(import_=True, integration=True)
    ref, attr = scenario["entity"], scenario["attribute"]
    body = gql(client, token, REGISTER, {"t": [{"key": attr, "name": attr,
                                                "cardinality": scenario["cardinality"].upper()}]})
    assert "errors" not in body, body
    runs = iter(range(100))

    def step(at: datetime, op: str, value: Any, valid_from: datetime, valid_to: datetime | None) -> None:
        if op == "assert":
            operation = assert_op(ref, attr, value, iso(valid_from) or "", validTo=iso(valid_to))
        else:
            operation = {"retractFact": {"subject": ref, "predicate": attr, "validFrom": iso(valid_from),
                                         "validTo": iso(valid_to), "source": "user", "evidence": EVIDENCE}}
        result = gql(client, token, COMMIT, {"p": {"runId": f"s-{next(runs)}", "operations": [operation]},
                                             "at": iso(at)})
        assert "errors" not in result, result
        assert result["data"]["commitProposal"] == {"committed": 1, "pending": 0, "rejected": []}

    def known_at(r: datetime, v: datetime) -> Any:
        data = gql(client, token, KNOWN_AT, {"r": ref, "s": iso(r), "v": iso(v)})["data"]["stateAsKnownAt"]
        values = [f["value"] for f in data["facts"] if f["predicate"] == attr] if data else []
        assert len(values) <= 1
        return values[0] if values else None

    def history() -> list[dict[str, Any]]:
        rows = gql(client, token, HISTORY, {"r": ref, "p": attr})["data"]["factHistory"]
        return [{"value": f["value"], **{k: parse(f[c]) for k, c in (
            ("valid_from", "validFrom"), ("valid_to", "validTo"), ("recorded_at", "recordedAt"),
            ("superseded_at", "supersededAt"))}} for f in rows]

    run_scenario(scenario, step, known_at, history)


def test_retried_proposal_writes_nothing_twice(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token()
    proposal = {"runId": "retry-1", "operations": [
        {"upsertEntity": {"ref": "person:bea", "kind": "person", "canonicalName": "Bea", "aliases": ["B."]}},
        assert_op("person:bea", "name", "Bea Example", "2020-01-01T00:00:00Z")]}
    first = gql(client, token, COMMIT, {"p": proposal})
    again = gql(client, token, COMMIT, {"p": proposal})
    assert first["data"]["commitProposal"]["committed"] == 2
    assert again["data"] == first["data"]
    rows = gql(client, token, HISTORY, {"r": "person:bea", "p": "name"})["data"]["factHistory"]
    assert len(rows) == 1
    changed = {**proposal, "operations": proposal["operations"][:1]}
    assert codes(gql(client, token, COMMIT, {"p": changed})) == ["RUN_ID_REUSED"]


def test_owner_a_never_sees_owner_b(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    a, b = make_token("iso-a"), make_token("iso-b")
    secret = {"runId": "b-1", "operations": [assert_op("person:zed", "name", "Zed Secret", "2020-01-01T00:00:00Z")]}
    assert gql(client, b, COMMIT, {"p": secret})["data"]["commitProposal"]["committed"] == 1
    now = "2030-01-01T00:00:00Z"
    for query, variables in ((STATE_AT, {"r": "person:zed", "v": now}),
                             (KNOWN_AT, {"r": "person:zed", "s": now}),
                             (HISTORY, {"r": "person:zed", "p": "name"})):
        body = gql(client, a, query, variables)
        # to A, B's entity does not exist: the unknown-ref error, with no suggestion drawn from B's data
        assert "Zed Secret" not in str(body) and codes(body) == ["UNKNOWN_REF"] and "did you mean" not in str(body)
    # A cannot write into B's entity either: the ref resolves within A only (a new entity of A's).
    mine = {"runId": "a-1", "operations": [assert_op("person:zed", "name", "A's Zed", "2020-01-01T00:00:00Z")]}
    assert gql(client, a, COMMIT, {"p": mine})["data"]["commitProposal"]["committed"] == 1
    b_view = gql(client, b, STATE_AT, {"r": "person:zed", "v": now})["data"]["stateAt"]["facts"]
    assert [f["value"] for f in b_view] == ["Zed Secret"]


@pytest.mark.parametrize(("operation", "code"), [
    (assert_op("person:x", "no_such_predicate", 1, "2020-01-01T00:00:00Z"), "UNKNOWN_PREDICATE"),
    (assert_op("place:x", "birthday", "2000-01-01", "2020-01-01T00:00:00Z"), "KIND_MISMATCH"),
    (assert_op("person:x", "name", "x" * 20000, "2020-01-01T00:00:00Z"), "VALUE_TOO_LARGE"),
    (assert_op("person:x", "name", "x", "2020-01-02T00:00:00Z", validTo="2020-01-01T00:00:00Z"), "BAD_INTERVAL"),
    ({"upsertEntity": {"ref": "person:y", "kind": "no_kind", "canonicalName": "Y"}}, "UNKNOWN_KIND"),
    ({"upsertEntity": {"ref": "pet:y", "kind": "person", "canonicalName": "Y"}}, "KIND_MISMATCH"),
    ({"retractFact": {"subject": "person:nobody", "predicate": "name", "validFrom": "2020-01-01T00:00:00Z",
                      "source": "user", "evidence": EVIDENCE}}, "UNKNOWN_ENTITY"),
])
def test_bad_operations_are_typed_and_change_nothing(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                     test_db_url: str, owner: str,
                                                     operation: dict[str, Any], code: str) -> None:
    token = make_token()
    good = assert_op("person:good", "name", "Good", "2020-01-01T00:00:00Z")
    body = gql(client, token, COMMIT, {"p": {"runId": "bad", "operations": [good, operation]}})
    result = body["data"]["commitProposal"]
    assert result["committed"] == 0 and [r["code"] for r in result["rejected"]] == [code]
    assert result["rejected"][0]["opIndex"] == 1 and codes(body) == [code]
    assert "Traceback" not in str(body)
    with psycopg.connect(test_db_url) as conn:
        counts = conn.execute("SELECT (SELECT count(*) FROM entities WHERE owner_sub = %s), "
                              "(SELECT count(*) FROM facts WHERE owner_sub = %s)", (owner, owner)).fetchone()
    assert counts == (0, 0)


@pytest.mark.parametrize("bad_time", ["2020-01-32", "2020-13-01T00:00:00Z", "2020-01-01T00:00:00", "yesterday"])
def test_malformed_dates_are_typed_errors(client: TestClient, make_token: MakeToken, bad_time: str) -> None:  # noqa: F811
    body = gql(client, make_token(), COMMIT, {"p": {"runId": "d", "operations": [
        assert_op("person:d", "name", "D", bad_time)]}})
    assert body.get("data") is None and codes(body) and all(codes(body))
    assert "Traceback" not in str(body)


def test_recorded_at_needs_an_import_token_and_is_monotonic(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    plain, importer = make_token(), make_token(import_=True)
    op = assert_op("person:m", "name", "M", "2020-01-01T00:00:00Z")
    body = gql(client, plain, COMMIT, {"p": {"runId": "m0", "operations": [op]}, "at": "2021-01-01T00:00:00Z"})
    assert codes(body) == ["FORBIDDEN"]
    ok = gql(client, importer, COMMIT, {"p": {"runId": "m1", "operations": [op]}, "at": "2021-01-01T00:00:00Z"})
    assert ok["data"]["commitProposal"]["committed"] == 1
    earlier = gql(client, importer, COMMIT, {"p": {"runId": "m2", "operations": [op]}, "at": "2020-06-01T00:00:00Z"})
    assert codes(earlier) == ["RECORDED_AT_NOT_MONOTONIC"]


def test_nul_characters_are_bad_input_not_internal(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    body = gql(client, make_token(), STATE_AT, {"r": "person:a\x00b", "v": "2020-01-01T00:00:00Z"})
    assert codes(body) == ["BAD_INPUT"]
