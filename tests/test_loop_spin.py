"""A point read on the event loop spins on its socket for a budget before the loop waits for it
(graph.platform.db_async: spun, SpinningConnection; WORLDMEM_LOOP_READ_SPIN_US): the generator psycopg hands
to its wait is driven while the socket is ready, handed back where it stopped when the budget is spent, the
answer is the same either way, and a statement slower than the budget does not hold the loop."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Generator
from selectors import EVENT_READ
from typing import Any

import psycopg
import pytest
from fastapi.testclient import TestClient

from graph.platform.db import Database
from graph.platform.db_async import LoopReads, SpinningConnection, spun
from graph.settings import Settings
from resolvers.app import create_app


def _reader(sock: socket.socket, want: int) -> Any:
    """psycopg's generator shape (PQGen): yields what it waits for, is sent what is ready, returns its result."""
    def gen() -> Generator[int, int, bytes]:
        got = b""
        while len(got) < want:
            ready = yield EVENT_READ
            assert ready & EVENT_READ
            got += sock.recv(want - len(got))
        return got
    return gen()


def _finish(gen: Generator[Any, Any, Any]) -> object:
    try:
        next(gen)
    except StopIteration as done:
        return done.value
    raise AssertionError("the generator wanted to wait")


def test_an_answer_already_there_finishes_while_spinning() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b"rows")
        rest = spun(_reader(ours, 4), ours.fileno(), 0.05)
        assert _finish(rest) == b"rows"  # nothing left to wait for


def test_while_nothing_is_ready_the_spin_gives_the_core_to_whoever_waits_for_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # under load the other worker and the database need the core the spin would hold (bench/README.md)
    yields: list[None] = []
    monkeypatch.setattr("graph.platform.db_async.os.sched_yield", lambda: yields.append(None))
    ours, theirs = socket.socketpair()
    with ours, theirs:
        rest = spun(_reader(ours, 4), ours.fileno(), 0.002)
        assert next(rest) == EVENT_READ
        assert yields  # the empty polls before the budget ran out yielded the core


def test_an_answer_after_the_budget_is_waited_for_where_the_spin_stopped() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs:
        theirs.sendall(b"ro")
        rest = spun(_reader(ours, 4), ours.fileno(), 0.001)
        assert next(rest) == EVENT_READ  # half the answer read while spinning, the rest still to come
        theirs.sendall(b"ws")
        with pytest.raises(StopIteration) as done:
            rest.send(EVENT_READ)
        assert done.value.value == b"rows"


def test_a_closed_socket_is_a_closed_connection() -> None:
    ours, theirs = socket.socketpair()
    fileno = ours.fileno()
    theirs.close()
    ours.close()
    with pytest.raises(psycopg.OperationalError, match="socket closed"):
        spun(_reader(ours, 4), fileno, 0.01)


def test_a_read_slower_than_the_budget_leaves_the_loop_free(db: Database, owner: str) -> None:
    """A 0.3 s statement with a 5 ms budget: the loop goes on ticking meanwhile (spinning through the whole
    statement would have let the ticker run at most once), and the rows are the statement's."""
    async def scenario() -> tuple[int, list[dict[str, object]], list[dict[str, object]]]:
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        async with LoopReads(db, spin_us=5000) as reads:
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


@pytest.mark.parametrize("spin_us", [2500, 0])
def test_the_app_spins_its_loop_reads_as_its_settings_say(settings: Settings, app_db_url: str, spin_us: int) -> None:
    app = create_app(settings.model_copy(update={"loop_read_spin_us": spin_us}), database_url=app_db_url)
    with TestClient(app) as client:
        reads = app.state.database.loop_reads
        assert isinstance(reads, LoopReads) and reads.spin_s == spin_us / 1_000_000

        async def one_connection() -> SpinningConnection:
            conn = await reads._lent()
            await reads._pool.putconn(conn)
            return conn

        conn = client.portal.call(one_connection)  # type: ignore[union-attr]
        assert isinstance(conn, SpinningConnection) and conn.spin_s == spin_us / 1_000_000
