"""A connection terminated while a proposal commits: the answer is UNAVAILABLE (retryable) or success, never
INTERNAL ("can't change 'autocommit' now" came from handing a dead connection back), and nothing is half
written: each proposal's entity and fact are both there or both absent."""

from __future__ import annotations

import random
import threading
import uuid
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from graph.errors import Unavailable
from graph.platform.db import Database
from tests.gql import MakeToken, client, codes, gql, make_token  # noqa: F401

PROPOSAL = """mutation($run: String!, $ref: String!) { commitProposal(proposal: {runId: $run, operations: [
  {upsertEntity: {ref: $ref, kind: "pet", canonicalName: "Mo"}},
  {assertFact: {subject: $ref, predicate: "feeding_time", value: "09:00", validFrom: "2024-01-01T00:00:00Z",
                source: "user", confidence: 1, evidence: {kind: "message", text: "t"}}}]}) { committed } }"""
KILL = ("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
        "AND usename = 'worldmem_app' AND pid <> pg_backend_pid() AND state <> 'idle' "
        "AND query NOT LIKE 'LISTEN%'")
ROUNDS = 80


def kill(admin: psycopg.Connection, killed: list[int]) -> None:
    killed.append(len(admin.execute(KILL).fetchall()))


def test_commits_killed_midway_are_unavailable_and_whole(client: TestClient, make_token: MakeToken,  # noqa: F811
                                                         test_db_url: str, owner: str) -> None:
    token = make_token()
    gql(client, token, "{ entityKinds { key } }")  # the token's answer is cached: the kills meet the commits
    kills = 0
    answers: list[tuple[str, Any]] = []
    timing = random.Random(36)
    with psycopg.connect(test_db_url, autocommit=True) as admin:
        for i in range(ROUNDS):
            ref = f"pet:k{i}_{uuid.uuid4().hex[:6]}"
            # one kill per commit, at a moment spread over the commit's few milliseconds
            killed: list[int] = []
            timer = threading.Timer(timing.uniform(0.0, 0.012), kill, (admin, killed))
            timer.start()
            body = gql(client, token, PROPOSAL, {"run": f"kill{i}", "ref": ref})
            timer.join()
            kills += sum(killed)
            answers.append((ref, body))
            if i % 10 == 9:
                gql(client, token, "{ entityKinds { key } }")  # keep the token's cache entry fresh
    seen = [tuple(codes(body)) for _, body in answers]
    assert all(c in ((), ("UNAVAILABLE",)) for c in seen), [b for _, b in answers if codes(b) not in ([],
                                                                                                    ["UNAVAILABLE"])]
    assert kills > 0 and ("UNAVAILABLE",) in seen, (kills, seen)  # the kills did hit commits
    with psycopg.connect(test_db_url) as admin:
        entities = {r[0] for r in admin.execute("SELECT ref FROM entities WHERE owner_sub = %s", (owner,))}
        facts = {r[0] for r in admin.execute(
            "SELECT e.ref FROM facts f JOIN entities e ON e.id = f.subject_id WHERE f.owner_sub = %s", (owner,))}
    assert entities == facts  # whole proposals only
    for ref, body in answers:
        if not codes(body):
            assert ref in entities, ref  # an answered success is stored



def test_a_connection_left_mid_statement_is_closed_not_internal(db: Database, owner: str) -> None:
    """The moment the random kills above hit about once in 30, made exact: the block fails (the server ended
    the connection) while a statement's answer is still unread, so the connection comes back ACTIVE. Its
    hand-back must not replace the block's UNAVAILABLE with psycopg's "can't change 'autocommit' now"."""
    with pytest.raises(Unavailable), db.owner_tx(owner) as conn:
        conn.pgconn.send_query(b"SELECT pg_sleep(0.2)")  # libpq: sent, its answer never read
        assert conn.info.transaction_status == psycopg.pq.TransactionStatus.ACTIVE
        raise psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly")
    with db.owner_tx(owner) as again:  # the pool lends a live connection afterwards
        assert again.execute("SELECT 1 AS one").fetchone() == {"one": 1}
