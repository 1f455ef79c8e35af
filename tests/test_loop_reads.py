"""Point reads on the event loop: over GraphQL, stateAt / stateAsKnownAt / factHistory / getEntity
send their one statement on the app's loop pool (graph.platform.db_async.LoopReads), not through a worker
thread, when the request is alone in flight; the answer is the library's; the owner's share still counts the
read; a cancelled read leaves a healthy connection."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from graph.agent import recall
from graph.errors import Unavailable
from graph.ledger import proposal as p
from graph.ledger.committer import commit_proposal
from graph.ledger.tokens import owner_principal
from graph.platform.db import Database
from graph.platform.db_async import APPLICATION_NAME, LoopReads
from graph.reads import temporal
from graph.sql import load
from resolvers import pinned
from resolvers.fairness import OwnerGates, alone, on_loop, request_budget
from tests.gql import client, gql, make_token  # noqa: F401

EV = p.Evidence(kind="test", text="loop reads")
V0, V1 = datetime(2020, 1, 1, tzinfo=UTC), datetime(2022, 1, 1, tzinfo=UTC)
STATE = "query($r: String!, $t: DateTime) { stateAt(ref: $r, validTime: $t) { ref facts { predicate value } } }"
KNOWN = ("query($r: String!, $s: DateTime!) { stateAsKnownAt(ref: $r, systemTime: $s) "
         "{ ref facts { predicate value } } }")
HISTORY = "query($r: String!, $p: String!) { factHistory(ref: $r, predicate: $p) { id value } }"
ENTITY = "query($r: String!) { getEntity(ref: $r) { facts { subject fact { predicate value objectRef } } } }"


@pytest.fixture
def world(db: Database, owner: str) -> str:
    ops: list[Any] = [p.UpsertEntity(ref="pet:luna", kind="pet", canonical_name="Luna", aliases=["Lunchen"]),
                      p.UpsertEntity(ref="person:jo", kind="person", canonical_name="Jo"),
                      p.AssertFact(subject="pet:luna", predicate="status", value="im Urlaub", valid_from=V0,
                                   valid_to=V1, source="user", evidence=EV),
                      p.AssertFact(subject="pet:luna", predicate="description", value="graue Katze", valid_from=V0,
                                   source="user", evidence=EV),
                      p.AssertRelationship(subject="person:jo", predicate="owns", object="pet:luna", valid_from=V0,
                                           source="user", evidence=EV)]
    proposal = p.MemoryMutationProposal(run_id=uuid.uuid4().hex, operations=ops)
    assert commit_proposal(db, owner_principal(owner), proposal).rejected == []
    return owner


def _queries_since(admin_conn: psycopg.Connection, since: datetime) -> list[tuple[str, str]]:
    """(application_name, statement) of every other connection to the test database whose last statement
    started at `since` or later (the session's other pools may have run the same statements before)."""
    rows = admin_conn.execute("SELECT application_name, query FROM pg_stat_activity WHERE datname = "
                              "current_database() AND pid <> pg_backend_pid() AND query_start >= %s",
                              (since,)).fetchall()
    return [(r[0], r[1]) for r in rows]


def _head(name: str) -> str:
    """The statement file's own first words (its first line, up to the first placeholder, which the server
    shows as $1)."""
    return load(name).splitlines()[0].split("%")[0]


def test_point_reads_go_out_on_the_loop_pool(client: TestClient, make_token: Any, world: str,  # noqa: F811
                                             admin_conn: psycopg.Connection) -> None:
    token = make_token()
    for query, variables, statement in ((STATE, {"r": "pet:luna", "t": "2021-01-01T00:00:00Z"}, "reads_state_at"),
                                        (KNOWN, {"r": "pet:luna", "s": datetime.now(UTC).isoformat()},
                                         "reads_state_known_at"),
                                        (HISTORY, {"r": "pet:luna", "p": "status"}, "reads_fact_history"),
                                        (ENTITY, {"r": "pet:luna"}, "agent_get_entity")):
        since = admin_conn.execute("SELECT clock_timestamp()").fetchone()[0]  # type: ignore[index]
        body = gql(client, token, query, variables)
        assert "errors" not in body, body
        seen = _queries_since(admin_conn, since)
        on_loop_pool = [q for app, q in seen if app == APPLICATION_NAME]
        elsewhere = [q for app, q in seen if app != APPLICATION_NAME]
        assert any(q.startswith(_head(statement)) for q in on_loop_pool), (statement, seen)
        assert not any(q.startswith(_head(statement)) for q in elsewhere), (statement, seen)
    state = gql(client, token, STATE, {"r": "pet:luna", "t": "2021-06-01T00:00:00Z"})["data"]["stateAt"]
    facts = {f["predicate"]: f["value"] for f in state["facts"]}
    assert facts == {"status": "im Urlaub", "description": "graue Katze"}


def test_the_loop_answers_what_the_library_answers(loop_db: Database, world: str) -> None:
    """resolvers.pinned with a loop pool, and without one (a worker thread), against graph.reads / recall."""
    db, at = loop_db, datetime(2021, 6, 1, tzinfo=UTC)

    async def both() -> list[Any]:
        answers = [await pinned.state_at(db, world, "pet:luna", at), await pinned.get_entity(db, world, "Lunchen"),
                   await pinned.fact_history(db, world, "pet:luna", "status")]
        async with LoopReads(db) as db.loop_reads:
            return [*answers, await pinned.state_at(db, world, "pet:luna", at),
                    await pinned.get_entity(db, world, "Lunchen"),
                    await pinned.fact_history(db, world, "pet:luna", "status"),
                    await pinned.state_at(db, world, "pet:nobody", at)]

    thread_state, thread_entity, thread_history, loop_state, loop_entity, loop_history, nobody = asyncio.run(both())
    library_state = temporal.state_at(db, world, "pet:luna", at)
    assert library_state is not None and {f.predicate for f in library_state.facts} == {"status", "description"}
    assert thread_state == loop_state == library_state
    library_entity = recall.get_entity(db, world, "Lunchen")  # an alias: found by name, then read by ref
    assert library_entity.entity is not None and library_entity.entity.ref == "pet:luna"
    assert [s.fact.id for s in thread_entity.statements] == [s.fact.id for s in loop_entity.statements] == \
        [s.fact.id for s in library_entity.statements]
    library_history = temporal.fact_history(db, world, "pet:luna", "status")
    assert [f.value for f in library_history] == ["im Urlaub"]
    assert thread_history == loop_history == library_history
    assert nobody is None


def test_a_loop_read_takes_a_slot_of_its_owners_share() -> None:
    gates = OwnerGates(share=1)
    release = asyncio.Event()
    order: list[str] = []

    async def hold(name: str) -> str:
        order.append(f"start {name}")
        await release.wait()
        return name

    async def as_owner(owner: str, name: str) -> str:
        with request_budget(gates, owner, 30):
            return await on_loop(hold, name)

    async def scenario() -> None:
        first = asyncio.create_task(as_owner("greedy", "g1"))
        second = asyncio.create_task(as_owner("greedy", "g2"))
        other = asyncio.create_task(as_owner("other", "o1"))
        await asyncio.sleep(0.05)
        assert sorted(order) == ["start g1", "start o1"]  # g2 waits for greedy's one slot; other does not
        release.set()
        assert list(await asyncio.gather(first, second, other)) == ["g1", "g2", "o1"]

    asyncio.run(scenario())
    assert gates.gates == {}


@pytest.fixture
def loop_db(db: Database) -> Iterator[Database]:
    """The session's Database, for a test that sets its loop pool; unset again afterwards."""
    yield db
    db.loop_reads = None


def test_a_cancelled_loop_read_is_cancelled_on_the_server_and_its_connection_serves_again(
        db: Database, owner: str, admin_conn: psycopg.Connection) -> None:
    async def scenario() -> tuple[float, list[dict[str, Any]]]:
        async with LoopReads(db) as reads:
            sleeping = asyncio.create_task(reads.read_pinned(owner, "SELECT pg_sleep(30)::text AS slept, "
                                                                    "%(owner)s::text AS who", {}))
            await asyncio.sleep(0.5)
            started = time.monotonic()
            sleeping.cancel()
            with pytest.raises(asyncio.CancelledError):
                await sleeping
            took = time.monotonic() - started
            active = admin_conn.execute("SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND "
                                        "state = 'active'", (APPLICATION_NAME,)).fetchone()
            assert active is not None and active[0] == 0  # nothing still sleeping on the server
            return took, await reads.read_pinned(owner, "SELECT %(owner)s::text AS who", {})

    took, rows = asyncio.run(scenario())
    assert took < 5  # cancelled on the server, not waited out (30 s)
    assert rows == [{"who": owner}]


def test_with_another_request_in_flight_the_read_goes_to_a_worker_thread(loop_db: Database, world: str,
                                                                         admin_conn: psycopg.Connection) -> None:
    """fairness.alone: the loop only for a request alone in flight; else the thread pool's connections."""
    gates = OwnerGates(share=2)
    at = datetime(2021, 6, 1, tzinfo=UTC)

    def pools_since(since: datetime) -> set[str]:
        return {app for app, q in _queries_since(admin_conn, since) if q.startswith(_head("reads_state_at"))}

    async def scenario() -> tuple[set[str], set[str]]:
        async with LoopReads(loop_db) as reads:
            loop_db.loop_reads = reads
            other_done = asyncio.Event()

            async def another_request() -> None:
                with request_budget(gates, "someone-else", 30):
                    await other_done.wait()

            with request_budget(gates, world, 30):
                assert alone()
                since = admin_conn.execute("SELECT clock_timestamp()").fetchone()[0]  # type: ignore[index]
                assert await pinned.state_at(loop_db, world, "pet:luna", at) is not None
                alone_pools = pools_since(since)
                other = asyncio.create_task(another_request())
                await asyncio.sleep(0.01)
                assert not alone()
                since = admin_conn.execute("SELECT clock_timestamp()").fetchone()[0]  # type: ignore[index]
                assert await pinned.state_at(loop_db, world, "pet:luna", at) is not None
                busy_pools = pools_since(since)
                other_done.set()
                await other
            return alone_pools, busy_pools

    alone_pools, busy_pools = asyncio.run(scenario())
    assert alone_pools == {APPLICATION_NAME}
    assert busy_pools and APPLICATION_NAME not in busy_pools
    assert gates.in_flight == 0


def test_loop_connections_killed_while_idle_are_replaced(db: Database, owner: str,
                                                          test_db_url: str) -> None:
    async def scenario() -> tuple[int, int]:
        async with LoopReads(db) as reads:
            before = (await reads.read_pinned(owner, "SELECT pg_backend_pid() AS pid, %(owner)s::text AS who", {}))
            with psycopg.connect(test_db_url, autocommit=True) as admin:  # waits until each is gone (5 s at most)
                admin.execute("SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE "
                              "application_name = %s AND datname = current_database()", (APPLICATION_NAME,))
            after = (await reads.read_pinned(owner, "SELECT pg_backend_pid() AS pid, %(owner)s::text AS who", {}))
            return before[0]["pid"], after[0]["pid"]

    before, after = asyncio.run(scenario())
    assert before != after  # the first read after the "restart" succeeded on a new connection


def test_a_loop_read_past_the_statement_timeout_is_unavailable(app_db_url: str, owner: str) -> None:
    """The loop pool's connections carry the app's statement_timeout, and its cancellation is translated as
    the thread pool's is (Database.translating)."""
    quick = Database(app_db_url, max_size=1, statement_timeout_ms=200)

    async def scenario() -> float:
        async with LoopReads(quick) as reads:
            started = time.monotonic()
            with pytest.raises(Unavailable, match="took too long"):
                await reads.read_pinned(owner, "SELECT pg_sleep(5)::text AS slept, %(owner)s::text AS who", {})
            return time.monotonic() - started

    try:
        assert asyncio.run(scenario()) < 3
    finally:
        quick.close()


def test_a_slow_loop_read_leaves_the_loop_free(db: Database, owner: str) -> None:
    """A 0.3 s statement: the loop goes on ticking meanwhile, and the rows are the statement's."""
    async def scenario() -> tuple[int, list[dict[str, object]], list[dict[str, object]]]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        async with LoopReads(db) as reads:
            quick = await reads.read_pinned(owner, "SELECT %(owner)s::text AS who", {})
            ticking = asyncio.create_task(ticker())
            await asyncio.sleep(0)
            slow = await reads.read_pinned(owner, "SELECT pg_sleep(0.3)::text AS slept, %(owner)s::text AS who", {})
            ticking.cancel()
            return ticks, quick, slow

    ticks, quick, slow = asyncio.run(scenario())
    assert quick == [{"who": owner}]
    assert slow == [{"slept": "", "who": owner}]
    assert ticks >= 10
