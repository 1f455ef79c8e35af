"""Hostile HTTP: every hostile request shape against a real uvicorn on 127.0.0.1, over raw sockets.

Each case asserts the status, the `extensions.code`, that the attacker's keep-alive connection answers a
normal request afterwards, and that another owner's `stateAt` answers within 1 s while the attack runs.

The latency bound is measured, not assumed: before each case the victim's request is timed idle, and the
bound is max(1 s, 5 x idle). On a healthy machine idle is ~10-30 ms, so the bound is 1 s; when the
machine itself is so loaded that an ordinary request takes more than 200 ms, a fixed 1 s would measure
the machine rather than the server. Set HOSTILE_TABLE=path to append each case's row (JSON lines).
"""

from __future__ import annotations

import json
import os
import statistics
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import pytest

from tests.gql import new_token
from tests.hostile_http import (
    ConnectionClosed,
    RawConnection,
    Response,
    graphql_body,
    nested_json,
    start_server,
)

BODY_TIMEOUT_S = 2
COMMIT = """mutation($p: ProposalInput!, $at: DateTime) {
  commitProposal(proposal: $p, recordedAt: $at) { committed pending recordedAt rejected { opIndex code message } }
}"""
STATE_AT = "query($r: String!, $v: DateTime!) { stateAt(ref: $r, validTime: $v) { ref facts { predicate value } } }"
PING = b'{"query": "{ entityKinds { key } }"}'
EVIDENCE = {"kind": "test", "text": "hostile"}


@dataclass
class Owners:
    port: int
    attacker: str
    victim: str


@pytest.fixture(scope="module")
def env(test_db_url: str, app_db_url: str) -> Iterator[Owners]:
    suffix = os.urandom(4).hex()
    attacker = new_token(test_db_url, f"attacker-{suffix}", import_=True, integration=True)
    victim = new_token(test_db_url, f"victim-{suffix}", integration=True)
    proc, port = start_server(app_db_url, {"WORLDMEM_BODY_TIMEOUT_S": str(BODY_TIMEOUT_S)})
    try:
        owners = Owners(port, attacker, victim)
        _seed(owners)
        yield owners
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def _seed(owners: Owners) -> None:
    conn = RawConnection(owners.port)
    try:
        for token in (owners.victim, owners.attacker):
            body = graphql_body(
                "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }",
                {"t": [{"key": "colour", "name": "colour", "cardinality": "FUNCTIONAL"},
                       {"key": "likes", "name": "likes", "cardinality": "SET"}]})
            assert conn.request(body, token=token).status == 200
        ops = [{"assertFact": {"subject": "person:vic", "predicate": "colour", "value": "green",
                               "validFrom": "2020-01-01T00:00:00Z", "source": "user",
                               "confidence": 1, "evidence": EVIDENCE}}]
        answer = conn.request(graphql_body(COMMIT, {"p": {"runId": "seed", "operations": ops}}), token=owners.victim)
        assert (answer.json()["data"] or {}).get("commitProposal", {}).get("committed") == 1, answer.body
        # The attacker's review has work in it: pending facts on entities with alike names (merge suggestions).
        ops = [{"assertFact": {"subject": f"person:alex-smithson-{i}", "predicate": "colour", "value": f"c{i}",
                               "validFrom": "2020-01-01T00:00:00Z", "source": "user", "confidence": 0.2,
                               "evidence": EVIDENCE}} for i in range(150)]
        answer = conn.request(graphql_body(COMMIT, {"p": {"runId": "seed-pending", "operations": ops}}),
                              token=owners.attacker)
        assert (answer.json()["data"] or {}).get("commitProposal", {}).get("pending") == 150, answer.body
    finally:
        conn.close()


def victim_request(owners: Owners) -> float:
    """One request of the other owner, checked for the right answer; returns its latency in seconds."""
    conn = RawConnection(owners.port)
    try:
        started = time.perf_counter()
        answer = conn.request(graphql_body(STATE_AT, {"r": "person:vic", "v": "2024-01-01T00:00:00Z"}),
                              token=owners.victim)
        elapsed = time.perf_counter() - started
    finally:
        conn.close()
    assert answer.status == 200, answer.body
    assert answer.json()["data"]["stateAt"]["facts"] == [{"predicate": "colour", "value": "green"}], answer.body
    return elapsed


@dataclass
class Outcome:
    response: Response | None
    victim_worst: float
    bound: float
    error: BaseException | None = None


def under_attack(owners: Owners, attack: Callable[[], Response]) -> Outcome:
    """Run `attack` in a thread; meanwhile time the other owner's requests until the attack is answered."""
    idle = statistics.median(victim_request(owners) for _ in range(3))
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["response"] = attack()
        except BaseException as exc:  # reported by the test
            box["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    time.sleep(0.05)  # let the attack reach the server first
    worst = victim_request(owners)
    while thread.is_alive():
        worst = max(worst, victim_request(owners))
    thread.join()
    return Outcome(box.get("response"), worst, max(1.0, 5 * idle), box.get("error"))


def record(case: str, outcome: Outcome, usable: bool) -> None:
    path = os.environ.get("HOSTILE_TABLE")
    if not path:
        return
    response = outcome.response
    row = {"case": case, "status": response.status if response else None,
           "codes": response.codes if response else [repr(outcome.error)],
           "connection_usable": usable, "victim_worst_ms": round(outcome.victim_worst * 1000)}
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")


def still_usable(conn: RawConnection, token: str) -> bool:
    """The same keep-alive connection answers a well-formed request. BUSY (retryable) counts as an answer: after
    an allowed load the attacker's own share of the database may still be taken, which says nothing about the
    connection (full-suite runs on a loaded machine saw exactly that)."""
    try:
        answer = conn.request(PING, token=token)
    except (ConnectionClosed, OSError):
        return False
    return answer.status == 200 and set(answer.codes) <= {"BUSY"}


def check(owners: Owners, case: str, attack: Callable[[RawConnection], Response], status: int, code: str | None,
          *, keeps_connection: bool = True, tolerate: frozenset[str] = frozenset()) -> Response:
    """`code` None: no errors, except ones with a code in `tolerate`."""
    conn = RawConnection(owners.port)
    try:
        outcome = under_attack(owners, lambda: attack(conn))
        usable = still_usable(conn, owners.attacker) if outcome.response is not None else False
        record(case, outcome, usable)
        assert outcome.error is None, outcome.error
        response = outcome.response
        assert response is not None
        assert response.status == status, (response.status, response.body[:300])
        assert response.headers.get("content-type", "").startswith("application/json"), response.headers
        if code is None:
            assert set(response.codes) <= tolerate, response.body[:300]
        else:
            assert code in response.codes, response.body[:300]
        assert usable == keeps_connection, f"connection usable after the attack: {usable}"
        assert outcome.victim_worst < outcome.bound, \
            f"other owner waited {outcome.victim_worst:.2f} s (bound {outcome.bound:.2f} s)"
        return response
    finally:
        conn.close()


def send(body: bytes, token: str, content_type: str = "application/json") -> Callable[[RawConnection], Response]:
    return lambda conn: conn.request(body, token=token, content_type=content_type)


# --- bodies that are not a GraphQL request --------------------------------------------------------------

@pytest.mark.parametrize(("case", "body"), [
    ("json_string", b'"{ entityKinds { key } }"'),
    ("json_number", b"42"),
    ("json_null", b"null"),
    ("json_array", b"[1, 2]"),
    ("query_not_a_string", b'{"query": 5}'),
    ("variables_not_an_object", b'{"query": "{ entityKinds { key } }", "variables": [1]}'),
    ("no_query", b"{}"),
])
def test_request_shape(env: Owners, case: str, body: bytes) -> None:
    check(env, case, send(body, env.attacker), 400, "BAD_REQUEST_SHAPE")


def test_one_connection_survives_every_bad_body(env: Owners) -> None:
    """Before, the keep-alive connection broke after five plain-text 500s; now all of them in a row, then
    a normal request, on one connection."""
    bodies = [b'"x"', b"42", b"null", b"[1]", b"{}", b'{"query": ', b'{"query": "\xff"}',
              b'{"query": "{ entityKinds { key } }", "variables": {"v": ' + b"[" * 1_000 + b"]" * 1_000 + b"}}",
              b'{"query": "{ entityKinds { key } }", "variables": {"v": ' + b"9" * 5_000 + b"}}"] * 2
    conn = RawConnection(env.port)
    try:
        for body in bodies:
            answer = conn.request(body, token=env.attacker)
            assert answer.status == 400 and answer.codes and None not in answer.codes, answer.body
        assert still_usable(conn, env.attacker)
    finally:
        conn.close()


def test_other_content_type(env: Owners) -> None:
    check(env, "text_plain_body", send(b"{ entityKinds { key } }", env.attacker, "text/plain"), 400, "BAD_REQUEST")


def test_other_method(env: Owners) -> None:
    def attack(conn: RawConnection) -> Response:
        conn.send(f"PUT /graphql HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nAuthorization: Bearer {env.attacker}"
                  "\r\n\r\n{}".encode())
        return conn.read_response()

    check(env, "put_method", attack, 405, "METHOD_NOT_ALLOWED")


def test_not_json(env: Owners) -> None:
    check(env, "not_json", send(b'{"query": ', env.attacker), 400, "BAD_JSON")


def test_invalid_utf8(env: Owners) -> None:
    body = b'{"query": "{ findEntity(query: \\"\xff\xfe\xc3\\") { text } }"}'
    check(env, "invalid_utf8", send(body, env.attacker), 400, "BAD_ENCODING")


def test_deep_variables(env: Owners) -> None:
    body = ('{"query": "query($v: JSON) { entityKinds { key } }", "variables": {"v": '
            + nested_json(1_000) + "}}").encode()
    check(env, "deep_variables_1000", send(body, env.attacker), 400, "JSON_TOO_DEEP")


def test_deep_cypher_params(env: Owners) -> None:
    body = ('{"query": "query($p: JSON) { cypher(query: \\"MATCH (n) RETURN n LIMIT 1\\", params: $p) '
            '{ columns } }", "variables": {"p": ' + nested_json(5_000) + "}}").encode()
    check(env, "deep_cypher_params_5000", send(body, env.attacker), 400, "JSON_TOO_DEEP")


def test_long_integer_in_variables(env: Owners) -> None:
    body = b'{"query": "query($v: Int!) { findEntity(query: \\"x\\", limit: $v) { text } }", "variables": {"v": ' \
        + b"9" * 5_000 + b"}}"
    check(env, "int_5000_digits_variables", send(body, env.attacker), 400, "NUMBER_TOO_LONG")


def test_long_integer_in_query(env: Owners) -> None:
    query = "{ findEntity(query: \"x\", limit: " + "9" * 5_000 + ") { text } }"
    check(env, "int_5000_digits_query", send(graphql_body(query), env.attacker), 200, "NUMBER_TOO_LONG")


@pytest.mark.parametrize(("depth", "code"), [(80, "JSON_TOO_DEEP"), (300, "QUERY_TOO_DEEP")])
def test_deep_literal_in_query(env: Owners, depth: int, code: str) -> None:
    """A deep JSON literal: refused by the input rule, or deeper still by GraphQL's parser."""
    query = "{ cypher(query: \"MATCH (n) RETURN n LIMIT 1\", params: " + "{a: " * depth + "1" + "}" * depth \
        + ") { columns } }"
    check(env, f"deep_literal_{depth}", send(graphql_body(query), env.attacker), 200, code)


def test_short_body_times_out(env: Owners) -> None:
    """A body shorter than its Content-Length is answered 408 after the body timeout; the connection then
    closes (the request's framing is lost, so it cannot be reused), and a new one works."""

    def attack(conn: RawConnection) -> Response:
        conn.send(b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Authorization: Bearer " + env.attacker.encode() + b"\r\nContent-Length: 100\r\n\r\n{\"query")
        return conn.read_response()

    started = time.monotonic()
    check(env, "short_body", attack, 408, "REQUEST_TIMEOUT", keeps_connection=False)
    assert time.monotonic() - started < 30
    fresh = RawConnection(env.port)
    try:
        assert still_usable(fresh, env.attacker)
    finally:
        fresh.close()


# --- work before and around execution --------------------------------------------------------------------

def test_one_megabyte_query(env: Owners) -> None:
    """~1 MB of `entityKinds { key }` aliases: refused after a bounded number of tokens."""
    query = "{ " + " ".join(f"a{i}: entityKinds {{ key }}" for i in range(36_000)) + " }"
    body = graphql_body(query)
    assert len(body) < 1_000_000
    check(env, "query_1mb_tokens", send(body, env.attacker), 200, "QUERY_TOO_LARGE")


def test_repeated_fields(env: Owners) -> None:
    """1,000 copies of one field fit the token limit; merging them was 3.4 s of CPU: refused before that."""
    query = "{ " + " ".join(["entityKinds { key }"] * 1_000) + " }"
    check(env, "same_field_x1000", send(graphql_body(query), env.attacker), 200, "QUERY_TOO_LARGE")


def test_nested_repetition(env: Owners) -> None:
    """40 copies of one field, each with 95 copies of a subfield, within the width and token limits: GraphQL's
    merge check took 0.38 s of validation on the event loop; refused before that."""
    query = "{ " + " ".join('stateAt(ref: "x") { ' + "ref " * 95 + "}" for _ in range(40)) + " }"
    check(env, "same_field_x40_x95", send(graphql_body(query), env.attacker), 200, "QUERY_TOO_LARGE")


def test_fragment_fan_out(env: Owners) -> None:
    fields = " ".join(["entityKinds { key }"] * 50)
    query = "{ " + " ".join(f"...F{i}" for i in range(10)) + " } " \
        + " ".join(f"fragment F{i} on Query {{ {fields} }}" for i in range(10))
    check(env, "fragments_10x50", send(graphql_body(query), env.attacker), 200, "QUERY_TOO_LARGE")


def test_get_with_deep_variables(env: Owners) -> None:
    def attack(conn: RawConnection) -> Response:
        variables = quote(nested_json(1_000))
        conn.send(f"GET /graphql?query=%7B%20entityKinds%20%7B%20key%20%7D%20%7D&variables={variables} HTTP/1.1\r\n"
                  f"Host: x\r\nAccept: application/json\r\nAuthorization: Bearer {env.attacker}\r\n\r\n".encode())
        return conn.read_response()

    check(env, "get_deep_variables_1000", attack, 400, "JSON_TOO_DEEP")


def test_alias_bomb(env: Owners) -> None:
    query = "{ " + " ".join(f"r{i}: pendingReview(limit: 100) {{ message items {{ number }} }}"
                            for i in range(50)) + " }"
    check(env, "alias_bomb_50_pending_review", send(graphql_body(query), env.attacker), 200, "TOO_MANY_ALIASES")


def test_allowed_aliases_do_not_starve_others(env: Owners) -> None:
    """Under the alias limit, three connections of one owner at once: they finish, and slow only that owner."""
    query = "{ " + " ".join(f"r{i}: pendingReview(limit: 100) {{ message }}" for i in range(30)) + " }"
    body = graphql_body(query)
    results: list[Response] = []

    def helper() -> None:
        extra = RawConnection(env.port)
        try:
            results.append(extra.request(body, token=env.attacker))
        finally:
            extra.close()

    threads = [threading.Thread(target=helper) for _ in range(2)]

    def attack(conn: RawConnection) -> Response:
        for t in threads:
            t.start()
        return conn.request(body, token=env.attacker)

    # Each request may run out of its budget (BUSY, retryable): it waits behind the owner's own calls. The
    # other two are joined only after the check asked on this connection again: waiting for them first left
    # it idle past uvicorn's keep-alive timeout (5 s), and a server that closes an idle connection is right.
    check(env, "aliases_30_x3_pending_review", attack, 200, None, tolerate=frozenset({"BUSY"}))
    for t in threads:
        t.join()
    assert [r.status for r in results] == [200, 200]
    assert all(set(r.codes) <= {"BUSY"} for r in results), [r.body[:200] for r in results]


def test_two_anonymous_operations(env: Owners) -> None:
    body = graphql_body("query { entityKinds { key } } query { relationTypes { key } }")
    check(env, "two_anonymous_operations", send(body, env.attacker), 200, "OPERATION_NAME_REQUIRED")


def test_two_named_operations_without_name(env: Owners) -> None:
    body = graphql_body("query A { entityKinds { key } } query B { relationTypes { key } }")
    check(env, "two_operations_no_operation_name", send(body, env.attacker), 200, "OPERATION_NAME_REQUIRED")


def test_negative_limit(env: Owners) -> None:
    body = graphql_body('{ findEntity(query: "x", limit: -1) { text } }')
    check(env, "find_entity_limit_minus_1", send(body, env.attacker), 200, "BAD_LIMIT")


# --- text the database cannot hold ------------------------------------------------------------------------

def test_nul_in_kind_name(env: Owners) -> None:
    body = graphql_body("mutation($k: [EntityKindInput!]!) { registerEntityKinds(kinds: $k) { key } }",
                        {"k": [{"key": "gadget", "name": "Gad\u0000get"}]})
    check(env, "nul_in_kind_name", send(body, env.attacker), 200, "BAD_INPUT")


def test_nul_in_relation_description(env: Owners) -> None:
    body = graphql_body("mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }",
                        {"t": [{"key": "fixes", "name": "fixes", "cardinality": "SET", "description": "a\u0000b"}]})
    check(env, "nul_in_relation_description", send(body, env.attacker), 200, "BAD_INPUT")


def test_lone_surrogate_in_ref(env: Owners) -> None:
    body = b'{"query": "query($r: String!) { stateAt(ref: $r, validTime: \\"2024-01-01T00:00:00Z\\") ' \
        b'{ ref } }", "variables": {"r": "person:\\ud800x"}}'
    check(env, "lone_surrogate_in_ref", send(body, env.attacker), 200, "BAD_INPUT")


def test_lone_surrogate_in_value(env: Owners) -> None:
    ops = ('[{"assertFact": {"subject": "person:att", "predicate": "colour", "value": "\\udc00", '
           '"validFrom": "2020-01-01T00:00:00Z", "source": "user", "confidence": 1, '
           '"evidence": {"kind": "t", "text": "t"}}}]')
    body = ('{"query": ' + json.dumps(COMMIT) + ', "variables": {"p": {"runId": "sur", "operations": '
            + ops + "}}}").encode()
    check(env, "lone_surrogate_in_value", send(body, env.attacker), 200, "BAD_INPUT")


# --- time -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize(("case", "field", "value"), [
    ("valid_to_year_10000_utc", "validTo", "9999-12-31T23:00:00-14:00"),
    ("valid_from_year_0_utc", "validFrom", "0001-01-01T00:00:00+14:00"),
])
def test_time_out_of_range(env: Owners, case: str, field: str, value: str) -> None:
    fact: dict[str, Any] = {"subject": "person:att", "predicate": "colour", "value": "red",
                            "validFrom": "2020-01-01T00:00:00Z", "source": "user",
                               "confidence": 1, "evidence": EVIDENCE}
    fact[field] = value
    body = graphql_body(COMMIT, {"p": {"runId": f"t-{case}", "operations": [{"assertFact": fact}]}})
    check(env, case, send(body, env.attacker), 200, "TIME_OUT_OF_RANGE")
    # and nothing was written (the entity does not exist: UNKNOWN_REF); the attacker's reads still work
    conn = RawConnection(env.port)
    try:
        read = conn.request(graphql_body(STATE_AT, {"r": "person:att", "v": "2024-01-01T00:00:00Z"}),
                            token=env.attacker)
        assert read.status == 200, read.body
        assert [e["extensions"]["code"] for e in read.json()["errors"]] == ["UNKNOWN_REF"], read.body
    finally:
        conn.close()


def test_same_recorded_at_orders_strictly_after(env: Owners, test_db_url: str) -> None:
    at = "2025-06-01T00:00:00+00:00"
    importer = new_token(test_db_url, f"importer-{os.urandom(4).hex()}", import_=True, integration=True)
    conn = RawConnection(env.port)
    try:
        conn.request(graphql_body(
            "mutation($t: [RelationTypeInput!]!) { registerRelationTypes(types: $t) { key } }",
            {"t": [{"key": "colour", "name": "colour", "cardinality": "FUNCTIONAL"}]}), token=importer)
    finally:
        conn.close()

    def proposal(run: str, value: str) -> bytes:
        ops = [{"assertFact": {"subject": "person:imp", "predicate": "colour", "value": value,
                               "validFrom": "2020-01-01T00:00:00Z", "source": "user",
                               "confidence": 1, "evidence": EVIDENCE}}]
        return graphql_body(COMMIT, {"p": {"runId": run, "operations": ops}, "at": at})

    first = check(env, "import_same_recorded_at_1", send(proposal("imp-1", "blue"), importer), 200, None)
    second = check(env, "import_same_recorded_at_2", send(proposal("imp-2", "pink"), importer), 200, None)
    one, two = first.json()["data"]["commitProposal"], second.json()["data"]["commitProposal"]
    assert one["committed"] == 1 and two["committed"] == 1, (one, two)
    assert two["recordedAt"] > one["recordedAt"], (one, two)
    conn = RawConnection(env.port)
    try:
        history = conn.request(graphql_body(
            '{ factHistory(ref: "person:imp", predicate: "colour") { value recordedAt supersededAt } }'),
            token=importer).json()["data"]["factHistory"]
    finally:
        conn.close()
    closed = [row for row in history if row["value"] == "blue"]
    assert closed and all(row["supersededAt"] is None or row["supersededAt"] > row["recordedAt"] for row in closed)


def test_relationship_object_created_on_first_use(env: Owners) -> None:
    ops = [{"assertRelationship": {"subject": "person:att", "predicate": "likes", "object": "person:new-friend",
                                   "validFrom": "2020-01-01T00:00:00Z", "source": "user",
                               "confidence": 1, "evidence": EVIDENCE}}]
    answer = check(env, "relationship_object_first_use",
                   send(graphql_body(COMMIT, {"p": {"runId": "rel-first", "operations": ops}}), env.attacker),
                   200, None)
    assert answer.json()["data"]["commitProposal"]["committed"] == 1, answer.body
