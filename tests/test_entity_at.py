"""getEntity and entityEvents at an instant: aliases, beliefs, relationships and events of that instant."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.gql import MakeToken, client, gql, make_token  # noqa: F401

COMMIT = """mutation($p: ProposalInput!, $at: DateTime) {
  commitProposal(proposal: $p, recordedAt: $at) { committed rejected { code message } recordedAt } }"""
ENTITY = """query($r: String!, $v: DateTime, $s: DateTime) {
  getEntity(ref: $r, validTime: $v, systemTime: $s) {
    entity { ref name } description aliases message facts { fact { predicate value } } }
  entityEvents(ref: $r, validTime: $v, systemTime: $s) { eventType occurredAt }
}"""
SAID = {"kind": "user_assertion", "text": "said"}


def _commit(client: TestClient, token: str, run: str, at: str, *ops: dict[str, Any]) -> None:  # noqa: F811
    body = gql(client, token, COMMIT, {"p": {"runId": run, "operations": list(ops)}, "at": at})
    assert body["data"]["commitProposal"]["rejected"] == [], body


def _entity(client: TestClient, token: str, v: str | None = None,  # noqa: F811
            s: str | None = None) -> tuple[list[str], list[tuple[str, Any]], list[str]]:
    body = gql(client, token, ENTITY, {"r": "person:ann", "v": v, "s": s})
    assert body.get("errors") is None, body
    data = body["data"]
    facts = sorted((f["fact"]["predicate"], f["fact"]["value"]) for f in data["getEntity"]["facts"])
    return data["getEntity"]["aliases"], facts, [e["eventType"] for e in data["entityEvents"]]


def test_get_entity_answers_for_the_instant(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token(import_=True)
    _commit(client, token, "t1", "2026-01-01T00:00:00Z",
            {"upsertEntity": {"ref": "person:ann", "kind": "person", "canonicalName": "Ann", "aliases": ["Annie"]}},
            {"addAlias": {"ref": "person:ann", "alias": "+49 170 1", "namespace": "phone",
                          "validFrom": "2026-01-01T00:00:00Z"}},
            {"assertFact": {"subject": "person:ann", "predicate": "name", "value": "Ann A.",
                            "validFrom": "2026-01-01T00:00:00Z", "source": "user", "confidence": 1, "evidence": SAID}},
            {"recordEvent": {"eventType": "user_message", "occurredAt": "2026-01-02T00:00:00Z",
                             "target": "person:ann"}})
    _commit(client, token, "t2", "2026-03-01T00:00:00Z",
            {"upsertEntity": {"ref": "person:ann", "kind": "person", "canonicalName": "Ann Bee",
                              "description": "the neighbour"}},
            {"endAlias": {"ref": "person:ann", "alias": "+49 170 1", "namespace": "phone",
                          "validTo": "2026-03-01T00:00:00Z"}},
            {"addAlias": {"ref": "person:ann", "alias": "+49 170 2", "namespace": "phone",
                          "validFrom": "2026-03-01T00:00:00Z"}},
            {"assertFact": {"subject": "person:ann", "predicate": "name", "value": "Ann B.",
                            "validFrom": "2026-03-01T00:00:00Z", "source": "user", "confidence": 1, "evidence": SAID}},
            {"recordEvent": {"eventType": "state_change", "occurredAt": "2026-03-02T00:00:00Z",
                             "target": "person:ann"}})
    now = _entity(client, token)
    assert (now[0], now[1]) == (["Annie", "+49 170 2"], [("name", "Ann B.")])
    assert now[2] == ["state_change", "user_message"]
    # as believed now, about February: the first number and name; only the event that had happened then
    assert _entity(client, token, v="2026-02-01T00:00:00Z") == (
        ["Annie", "+49 170 1"], [("name", "Ann A.")], ["user_message"])
    # as known in February, about February: the same (the second number was not recorded yet)
    assert _entity(client, token, v="2026-02-01T00:00:00Z", s="2026-02-01T00:00:00Z") == (
        ["Annie", "+49 170 1"], [("name", "Ann A.")], ["user_message"])
    # as known in February, about April: the first number still held then, nothing of March was known
    assert _entity(client, token, v="2026-04-01T00:00:00Z", s="2026-02-01T00:00:00Z") == (
        ["Annie", "+49 170 1"], [("name", "Ann A.")], ["user_message"])
    # its name and description as known then, and now
    assert _named(client, token, s="2026-02-01T00:00:00Z") == ("Ann", None)
    assert _named(client, token, v="2026-02-01T00:00:00Z") == ("Ann Bee", "the neighbour")
    assert _named(client, token) == ("Ann Bee", "the neighbour")
    # before it was recorded it did not exist, as known then: as an unknown ref
    before = gql(client, token, ENTITY, {"r": "person:ann", "v": "2026-02-01T00:00:00Z",
                                         "s": "2025-06-01T00:00:00Z"})
    assert before.get("errors") is None, before
    assert before["data"]["getEntity"]["entity"] is None and before["data"]["entityEvents"] is None
    assert before["data"]["getEntity"]["message"] == (
        'No entity "person:ann" was known on 2025-06-01: it was first recorded on 2026-01-01.')
    # from the instant it was recorded it is named
    assert _named(client, token, s="2026-01-01T00:00:00Z") == ("Ann", None)


KNOWN_AT = """query($r: String!, $s: DateTime!) {
  getStateAsKnownAt(ref: $r, systemTime: $s) { entity { ref } message facts { fact { predicate } } } }"""


def test_state_as_known_at_before_the_entity_was_recorded(client: TestClient,  # noqa: F811
                                                          make_token: MakeToken) -> None:  # noqa: F811
    token = make_token(import_=True)
    _commit(client, token, "k1", "2026-01-01T00:00:00Z",
            {"upsertEntity": {"ref": "person:ann", "kind": "person", "canonicalName": "Ann", "aliases": ["Annie"]}})
    for name in ("person:ann", "Annie"):
        before = gql(client, token, KNOWN_AT, {"r": name, "s": "2025-12-31T23:59:59Z"})["data"]["getStateAsKnownAt"]
        assert before["entity"] is None and before["facts"] == [], before
    ref = gql(client, token, KNOWN_AT, {"r": "person:ann", "s": "2025-12-31T23:59:59Z"})["data"]["getStateAsKnownAt"]
    assert "first recorded on 2026-01-01" in ref["message"]
    after = gql(client, token, KNOWN_AT, {"r": "Annie", "s": "2026-01-01T00:00:01Z"})["data"]["getStateAsKnownAt"]
    assert after["entity"] == {"ref": "person:ann"}


def _named(client: TestClient, token: str, v: str | None = None,  # noqa: F811
           s: str | None = None) -> tuple[str, str | None]:
    entity = gql(client, token, ENTITY, {"r": "person:ann", "v": v, "s": s})["data"]["getEntity"]
    return entity["entity"]["name"], entity["description"]


LEDGER_KNOWN = """query($r: String!, $s: DateTime!) { stateAsKnownAt(ref: $r, systemTime: $s) { ref } }"""


def test_ledger_state_as_known_at_before_the_entity_was_recorded(client: TestClient,  # noqa: F811
                                                                 make_token: MakeToken) -> None:  # noqa: F811
    token = make_token(import_=True)
    _commit(client, token, "l1", "2026-01-01T00:00:00Z",
            {"upsertEntity": {"ref": "person:ann", "kind": "person", "canonicalName": "Ann"}})
    before = gql(client, token, LEDGER_KNOWN, {"r": "person:ann", "s": "2025-12-31T00:00:00Z"})
    error = before["errors"][0]
    assert error["extensions"]["code"] == "UNKNOWN_REF"
    assert error["message"] == 'no entity "person:ann" as known on 2025-12-31: it was first recorded on 2026-01-01'
    after = gql(client, token, LEDGER_KNOWN, {"r": "person:ann", "s": "2026-01-01T00:00:00Z"})
    assert after["data"]["stateAsKnownAt"] == {"ref": "person:ann"}
