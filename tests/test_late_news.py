"""Late news through GraphQL: an assertion without validTo holds until the next change already known.

The rate case: $150 from 2024-03-01, the renewal $190 from 2026-01-15, then a mid-term amendment that
arrives last, $175 from 2025-02-20 with no end. The renewal stays; the amendment ends where it starts.
The Beta/Gamma case: "from January I work at Beta" is known, then "from today I work at Gamma".
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any

from fastapi.testclient import TestClient

from graph.demo import TYPES
from graph.ledger.committer import payload_hash
from graph.ledger.proposal import AssertFact, MemoryMutationProposal
from graph.ledger.registries import register_relation_types
from graph.platform.db import Database
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

REGISTER = "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }"
COMMIT = """mutation($p: ProposalInput!, $at: DateTime) {
  commitProposal(proposal: $p, recordedAt: $at) {
    committed pending rejected { opIndex code message }
    cutShort { opIndex subject predicate value validFrom endsAt laterFactId laterValue message }
  }
}"""
STATE_AT = "query($r: String!, $v: DateTime!) { stateAt(ref: $r, validTime: $v) { facts { predicate value " \
           "objectRef validFrom validTo } } }"
EVIDENCE = {"kind": "user_assertion", "text": "the user said so"}


def _assert(subject: str, predicate: str, value: Any, valid_from: str, **extra: Any) -> dict[str, Any]:
    return {"assertFact": {"subject": subject, "predicate": predicate, "value": value, "validFrom": valid_from,
                           "source": "user", "confidence": 1.0, "evidence": EVIDENCE, **extra}}


def _relate(subject: str, predicate: str, obj: str, valid_from: str, **extra: Any) -> dict[str, Any]:
    return {"assertRelationship": {"subject": subject, "predicate": predicate, "object": obj,
                                   "validFrom": valid_from, "source": "user", "confidence": 1.0,
                                   "evidence": EVIDENCE, **extra}}


def _commit(client: TestClient, token: str, run: str, *ops: dict[str, Any]) -> dict[str, Any]:  # noqa: F811
    body = gql(client, token, COMMIT, {"p": {"runId": run, "operations": list(ops)}})
    assert body["data"] is not None, body  # a rejection is also told in `errors`, typed
    result: dict[str, Any] = body["data"]["commitProposal"]
    return result


def _value(client: TestClient, token: str, ref: str, predicate: str, at: str) -> Any:  # noqa: F811
    state = gql(client, token, STATE_AT, {"r": ref, "v": at})["data"]["stateAt"]
    found = [f["objectRef"] or f["value"] for f in (state["facts"] if state else []) if f["predicate"] == predicate]
    assert len(found) <= 1
    return found[0] if found else None


def _rates(client: TestClient, token: str) -> dict[str, Any]:  # noqa: F811
    assert "errors" not in gql(client, token, REGISTER, {"t": [
        {"key": "rate", "name": "rate", "cardinality": "FUNCTIONAL"}]})
    assert _commit(client, token, "r1", _assert("organization:acme", "rate", "$150", "2024-03-01T00:00:00Z"),
                   _assert("organization:acme", "rate", "$190", "2026-01-15T00:00:00Z"))["committed"] == 2
    return _commit(client, token, "r3", _assert("organization:acme", "rate", "$175", "2025-02-20T00:00:00Z"))


def test_a_late_amendment_keeps_the_renewal_known_after_it(client: TestClient,  # noqa: F811
                                                           make_token: MakeToken) -> None:  # noqa: F811
    token = make_token(integration=True)
    result = _rates(client, token)
    assert result["committed"] == 1 and result["rejected"] == []
    assert _value(client, token, "organization:acme", "rate", "2026-06-01T00:00:00Z") == "$190"
    assert _value(client, token, "organization:acme", "rate", "2025-06-01T00:00:00Z") == "$175"
    assert _value(client, token, "organization:acme", "rate", "2024-06-01T00:00:00Z") == "$150"
    [cut] = result["cutShort"]
    assert (cut["value"], cut["laterValue"], cut["validFrom"], cut["endsAt"]) == (
        "$175", "$190", "2025-02-20T00:00:00+00:00", "2026-01-15T00:00:00+00:00")
    assert cut["message"] == ("acme's rate: you said $175 from 20 Feb 2025; I already knew $190 from 15 Jan 2026, "
                              "so $175 ends there.")


def test_replace_later_replaces_what_follows_when_said(client: TestClient,  # noqa: F811
                                                      make_token: MakeToken) -> None:  # noqa: F811
    token = make_token(integration=True)
    _rates(client, token)
    result = _commit(client, token, "r4", _assert("organization:acme", "rate", "$180", "2025-03-01T00:00:00Z",
                                                  replaceLater=True))
    assert result["committed"] == 1 and result["cutShort"] == []
    assert _value(client, token, "organization:acme", "rate", "2026-06-01T00:00:00Z") == "$180"
    refused = _commit(client, token, "r5", _assert("organization:acme", "rate", "$1", "2025-03-01T00:00:00Z",
                                                   validTo="2025-04-01T00:00:00Z", replaceLater=True))
    assert [r["code"] for r in refused["rejected"]] == ["BAD_INTERVAL"]


def test_replace_later_is_refused_for_a_token_that_may_not_retract(client: TestClient,  # noqa: F811
                                                                   make_token: MakeToken) -> None:  # noqa: F811
    owner = make_token(integration=True)
    _rates(client, owner)
    agent = make_token(kind="agent")
    op = _assert("organization:acme", "rate", "$180", "2025-03-01T00:00:00Z", replaceLater=True)
    op["assertFact"].update(source="agent", evidence={"kind": "inference", "text": "guessed"})
    result = _commit(client, agent, "a1", op)
    assert [r["code"] for r in result["rejected"]] == ["FORBIDDEN"]
    assert _value(client, owner, "organization:acme", "rate", "2026-06-01T00:00:00Z") == "$190"


def test_from_today_at_gamma_keeps_from_january_at_beta(client: TestClient,  # noqa: F811
                                                        make_token: MakeToken) -> None:  # noqa: F811
    token = make_token(integration=True)
    assert "errors" not in gql(client, token, REGISTER, {"t": [
        {"key": "works_at", "name": "works at", "cardinality": "FUNCTIONAL", "objectKinds": ["organization"]}]})
    assert _commit(client, token, "b1", _relate("person:me", "works_at", "organization:alpha",
                                                "2020-01-01T00:00:00Z"),
                   _relate("person:me", "works_at", "organization:beta", "2027-01-01T00:00:00Z"))["committed"] == 2
    result = _commit(client, token, "g1", _relate("person:me", "works_at", "organization:gamma",
                                                  "2026-12-06T00:00:00Z"))
    assert _value(client, token, "person:me", "works_at", "2027-02-01T00:00:00Z") == "organization:beta"
    assert _value(client, token, "person:me", "works_at", "2026-12-10T00:00:00Z") == "organization:gamma"
    assert _value(client, token, "person:me", "works_at", "2026-06-01T00:00:00Z") == "organization:alpha"
    [cut] = result["cutShort"]
    assert (cut["value"], cut["laterValue"]) == ("organization:gamma", "organization:beta")
    assert "so gamma ends there" in cut["message"]


def test_the_cut_is_said_in_german(db: Database, client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token(integration=True)
    register_relation_types(db, TYPES)  # answer_language, as the demo registers it
    assert "errors" not in gql(client, token, REGISTER, {"t": [
        {"key": "tarif", "name": "Tarif", "cardinality": "FUNCTIONAL"}]})
    de = _commit(client, token, "de0", _assert("person:me", "answer_language", "de", "2000-01-01T00:00:00Z"))
    assert de["committed"] == 1, de
    _commit(client, token, "de1", _assert("organization:acme", "tarif", "190 €", "2026-01-15T00:00:00Z"))
    [cut] = _commit(client, token, "de2", _assert("organization:acme", "tarif", "175 €",
                                                  "2025-02-20T00:00:00Z"))["cutShort"]
    assert cut["message"] == ("acmes Tarif: du hast 175 € ab 20.02.2025 gesagt; ich wusste schon von 190 € ab "
                              "15.01.2026, also endet 175 € dort.")


def test_nothing_is_cut_without_a_later_change(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    token = make_token(integration=True)
    _rates(client, token)
    result = _commit(client, token, "n1", _assert("organization:acme", "rate", "$200", "2026-03-01T00:00:00Z"))
    assert result["cutShort"] == [] and codes({}) == []
    assert _value(client, token, "organization:acme", "rate", "2030-01-01T00:00:00Z") == "$200"


def test_a_merge_and_a_split_follow_the_same_rule(client: TestClient, make_token: MakeToken) -> None:  # noqa: F811
    """The duplicate's open $175 from Feb 2025 moves onto the survivor only up to the $190 it already knew."""
    token = make_token(integration=True)
    assert "errors" not in gql(client, token, REGISTER, {"t": [
        {"key": "rate", "name": "rate", "cardinality": "FUNCTIONAL"}]})
    _commit(client, token, "m1", _assert("organization:acme", "rate", "$190", "2026-01-15T00:00:00Z"),
            _assert("organization:acme-inc", "rate", "$175", "2025-02-20T00:00:00Z"))
    merged = gql(client, token, 'mutation { mergeEntities(entity: "organization:acme-inc", '
                                'into: "organization:acme") { commit { committed } } }')
    assert "errors" not in merged, merged
    assert _value(client, token, "organization:acme", "rate", "2026-06-01T00:00:00Z") == "$190"
    assert _value(client, token, "organization:acme", "rate", "2025-06-01T00:00:00Z") == "$175"
    split = gql(client, token, 'mutation { splitEntity(entity: "organization:acme-inc") { commit { committed } } }')
    assert "errors" not in split, split
    assert _value(client, token, "organization:acme", "rate", "2025-06-01T00:00:00Z") is None
    assert _value(client, token, "organization:acme-inc", "rate", "2026-06-01T00:00:00Z") == "$175"


def test_one_proposal_that_tells_the_later_value_first(client: TestClient,  # noqa: F811
                                                       make_token: MakeToken) -> None:  # noqa: F811
    """Several operations are applied set-based (graph/ledger/writer_buffered.py): the cut is the same."""
    token = make_token(integration=True)
    assert "errors" not in gql(client, token, REGISTER, {"t": [
        {"key": "rate", "name": "rate", "cardinality": "FUNCTIONAL"}]})
    result = _commit(client, token, "b1", _assert("organization:acme", "rate", "$190", "2026-01-15T00:00:00Z"),
                     _assert("organization:acme", "rate", {"usd": 175}, "2025-02-20T00:00:00Z"))
    assert result["committed"] == 2 and result["rejected"] == []
    [cut] = result["cutShort"]
    assert (cut["opIndex"], cut["value"], cut["laterValue"]) == (1, {"usd": 175}, "$190")
    assert cut["message"].startswith('acme\'s rate: you said {"usd":175} from 20 Feb 2025')
    assert _value(client, token, "organization:acme", "rate", "2026-06-01T00:00:00Z") == "$190"


def test_a_proposal_hashed_before_replace_later_existed_still_replays() -> None:
    """A retry of a proposal committed before the flag existed must hash as it was stored (RUN_ID_REUSED else)."""
    op = AssertFact(subject="organization:acme", predicate="rate", value="$1",
                    valid_from=datetime(2025, 1, 1, tzinfo=UTC))
    proposal = MemoryMutationProposal(run_id="old", operations=[op])
    before = proposal.model_dump(mode="json", exclude={"created_at", "untrusted"})
    del before["operations"][0]["replace_later"]
    body = json.dumps(before, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert payload_hash(proposal) == hashlib.sha256(body.encode()).hexdigest()
    said = proposal.model_copy(update={"operations": [op.model_copy(update={"replace_later": True})]})
    assert payload_hash(said) != payload_hash(proposal)
