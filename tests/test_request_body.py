"""The pure checks of a GraphQL request body, the input rules and the committer's same-recordedAt rule."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from graphql import parse

from graph.ledger.committer import TICK, commit_proposal
from graph.ledger.proposal import AssertFact, AssertRelationship, MemoryMutationProposal
from graph.ledger.registries import register_relation_types
from graph.ledger.tokens import Principal
from graph.platform.db import Database
from resolvers.input_rules import MAX_REPEATS, check_variables, most_repeated, widest_selection
from resolvers.operation_guard import operation_name_required
from resolvers.request_body import MAX_JSON_DEPTH, check_body, check_query_params, json_depth


@pytest.mark.parametrize(("body", "code"), [
    (b'"x"', "BAD_REQUEST_SHAPE"), (b"1", "BAD_REQUEST_SHAPE"), (b"null", "BAD_REQUEST_SHAPE"),
    (b"[]", "BAD_REQUEST_SHAPE"), (b'{"query": ""}', "BAD_REQUEST_SHAPE"),
    (b'{"query": "{ a }", "operationName": 1}', "BAD_REQUEST_SHAPE"),
    (b'{"query": "{ a }", "extensions": "x"}', "BAD_REQUEST_SHAPE"),
    (b'{"query": ', "BAD_JSON"), (b'{"query": "{ a }", "variables": {"n": NaN}}', "BAD_JSON"),
    (b'{"query": "\xff"}', "BAD_ENCODING"),
    (b'{"query": "{ a }", "variables": {"n": ' + b"1" * 101 + b"}}", "NUMBER_TOO_LONG"),
    (b'{"query": "{ a }", "variables": {"n": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}", "JSON_TOO_DEEP"),
    (b'{"query": "{ a }", "variables": {"n": ' + b"[" * 65 + b"]" * 65 + b"}}", "JSON_TOO_DEEP"),
])
def test_refused_bodies(body: bytes, code: str) -> None:
    refusal = check_body(body)
    assert refusal is not None and refusal.code == code, refusal


def test_accepted_bodies() -> None:
    assert check_body(b'{"query": "{ a }", "variables": {"n": ' + b"[" * 62 + b"]" * 62 + b"}}") is None  # 64 deep
    assert check_body(b'{"query": "{ a }", "variables": null, "operationName": null}') is None
    assert check_body(b'{"query": "{ a }", "variables": {"n": ' + b"9" * 100 + b"}}") is None
    assert check_query_params({"query": "{ a }", "variables": '{"a": 1}'}) is None
    refusal = check_query_params({"query": "{ a }", "variables": "[" * 70 + "]" * 70})
    assert refusal is not None and refusal.code == "JSON_TOO_DEEP"


def test_json_depth() -> None:
    assert json_depth(1) == 0 and json_depth({}) == 1 and json_depth({"a": [1, {"b": 2}]}) == 3
    assert json_depth([[[[]]]], limit=2) == 3  # stops once past the limit
    assert MAX_JSON_DEPTH == 64


def test_variables_and_documents() -> None:
    error = check_variables({"r": ["ok", "x\ud800"]})
    assert error is not None and error.extensions == {"code": "BAD_INPUT"}
    assert check_variables({"r": "fine\u0000still-text"}) is None  # NUL is each resolver's business
    assert widest_selection(parse("{ a b c { d e } }")) == 3
    assert widest_selection(parse("{ ...F ...F } fragment F on Q { a b }")) == 4
    assert most_repeated(parse("{ a b x: a c { d d d } }")) == 3  # by response name, in each selection set
    assert most_repeated(parse("{ ...F ... on Q { a } a } fragment F on Q { a b }")) == 3  # fragments expanded
    assert MAX_REPEATS == 3
    error = operation_name_required(parse("query A { a } query B { b }"), None)
    assert error is not None and error.extensions == {"code": "OPERATION_NAME_REQUIRED"}
    assert operation_name_required(parse("query A { a } query B { b }"), "B") is None
    assert operation_name_required(parse("{ a }"), None) is None


def _fact(value: str) -> AssertFact:
    return AssertFact(subject="person:imp", predicate="mood", value=value,
                      valid_from=datetime(2020, 1, 1, tzinfo=UTC))


def test_same_recorded_at_is_ordered_one_tick_after(db: Database, owner: str) -> None:
    register_relation_types(db, [{"key": "mood", "name": "mood", "cardinality": "functional"}])
    at = datetime(2025, 1, 1, tzinfo=UTC)
    importer = Principal(owner, "owner", can_import=True)
    one = commit_proposal(db, importer, MemoryMutationProposal(run_id="a", operations=[_fact("x")]),
                          recorded_at=at)
    two = commit_proposal(db, importer, MemoryMutationProposal(run_id="b", operations=[_fact("y")]),
                          recorded_at=at)
    again = commit_proposal(db, importer, MemoryMutationProposal(run_id="b", operations=[_fact("y")]),
                            recorded_at=at)
    assert one.recorded_at == at and two.recorded_at == at + TICK
    assert again.replayed and again.recorded_at == at + TICK


def test_relationship_object_is_created_on_first_use(db: Database, owner: str) -> None:
    register_relation_types(db, [{"key": "met", "name": "met", "cardinality": "set"}])
    rel = AssertRelationship(subject="person:ann", predicate="met", object="person:bob",
                             valid_from=datetime(2020, 1, 1, tzinfo=UTC))
    me = Principal(owner, "owner")
    assert commit_proposal(db, me, MemoryMutationProposal(run_id="r", operations=[rel])).committed == 1
    odd = AssertRelationship(subject="person:ann", predicate="met", object="nokind:zed",
                             valid_from=datetime(2020, 1, 1, tzinfo=UTC))
    refused = commit_proposal(db, me, MemoryMutationProposal(run_id="r2", operations=[odd]))
    assert [r.code for r in refused.rejected] == ["UNKNOWN_ENTITY"]
