"""Pinned reads on the event loop: Database.read_pinned's statements without a worker thread (issue 11).

A GraphQL point read used to hand its one statement to a worker thread and wait for the thread to hand the
rows back: two wake-ups across threads, which on the 2-core machine cost about as much CPU as the read
itself (bench/README.md, "Point reads on the event loop": in process, stateAt(T) 1.06-1.12 ms of CPU per
request with the thread, 0.87-0.89 without). Here the same statement goes out on an asyncio connection of
its own pool, opened by the app's lifespan on the app's loop; the loop serves other requests while the
server answers. What is the same as Database.read_pinned, because it is the same code: the owner check, the
connection's settings (db.connect_kwargs), the check before lending (db.quiet), the translated errors and
"database down" within about a second (Database.translating, Database.refuse_if_down). These connections
are in autocommit for good: a pinned statement is its own transaction.

While a statement is out, the loop first spins on the socket for up to `spin_us` microseconds (a zero-timeout
select, nothing slept; between two empty polls the core is offered to anyone runnable on it, sched_yield) and
only then waits in the loop's selector: such a read is sent only when its request is alone in flight
(resolvers.pinned), so the loop has nobody else to serve, and an idle core of this VM took about 55 us to
wake when the answer came (`SELECT 1`: 77-83 us sleeping, 23 us spinning). Served stateAt(T)
p50 0.97-0.98 -> 0.90-0.92 ms, p95 1.12-1.31 -> 1.07-1.21 ms for 0.08 ms more server CPU (bench/README.md,
tenth pass). A statement still out after the budget is awaited as before, so a slow read holds the loop for
at most the budget. Without the yield, the spin cost the mixed load 7 % of its throughput on a 2-core machine
(2 workers, 8 clients: 298 / 304 against 326 / 321 req/s), the other worker and the database waiting for
the core a spinning read held; with it, 372 / 344 / 362 against 368 / 382 / 360 (bench/README.md, tenth pass).
"""

from __future__ import annotations

import asyncio
import os
import select
import time
from collections.abc import Mapping
from selectors import EVENT_READ, EVENT_WRITE
from typing import TYPE_CHECKING, Any, LiteralString, TypeVar

import psycopg
from psycopg.abc import PQGen
from psycopg.waiting import Ready, Wait
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from graph.platform.db import FIRST_WAIT_S, POOL_TIMEOUT_S, check_owner, connect_kwargs, quiet

if TYPE_CHECKING:
    from graph.platform.db import Database

APPLICATION_NAME = "worldmem loop reads"  # how these connections show in pg_stat_activity
RV = TypeVar("RV")


def spun(gen: PQGen[RV], fileno: int, budget_s: float) -> PQGen[RV]:
    """Drives psycopg's generator `gen` while the socket `fileno` is ready, polling it without sleeping for up
    to `budget_s`; returns a generator that goes on from where this stopped (finished: it only returns)."""
    try:
        state = next(gen)
        end = time.perf_counter() + budget_s
        while True:
            readers = [fileno] if state & EVENT_READ else []
            writers = [fileno] if state & EVENT_WRITE else []
            readable, writable, _ = select.select(readers, writers, [], 0)
            if readable or writable:
                state = gen.send(Ready((EVENT_READ if readable else 0) | (EVENT_WRITE if writable else 0)))
            elif time.perf_counter() >= end:
                return _resumed(state, gen)
            else:
                os.sched_yield()
    except StopIteration as done:
        return _finished(done.value)
    except OSError as ex:  # as psycopg's own waits: the connection was closed
        raise psycopg.OperationalError("connection socket closed") from ex


def _resumed(state: Wait, gen: PQGen[RV]) -> PQGen[RV]:
    while True:
        ready = yield state
        try:
            state = gen.send(ready)
        except StopIteration as done:
            value: RV = done.value
            return value


def _finished(value: RV) -> PQGen[RV]:
    return value
    yield  # a generator that returns at once


class SpinningConnection(psycopg.AsyncConnection[dict[str, Any]]):
    """An asyncio connection that spins on its socket for `spin_s` before it waits in the loop (see above)."""

    spin_s: float = 0.0

    async def wait(self, gen: PQGen[RV], interval: float = 0.1, timeout: float | None = None) -> RV:
        if self.spin_s > 0:
            gen = spun(gen, self.pgconn.socket, self.spin_s)
        return await super().wait(gen, interval, timeout)


async def check_idle(conn: psycopg.AsyncConnection[Any]) -> None:
    """db.check_idle for the asyncio pool: a round trip only when the socket says something happened."""
    if not quiet(conn):
        await AsyncConnectionPool.check_connection(conn)


class LoopReads:
    """An asyncio pool for Database.read_pinned's statements, bound to the loop that opened it."""

    def __init__(self, db: Database, spin_us: int = 0) -> None:
        """As many connections at most as `db`'s pool, made the same way (in autocommit), each spinning for up to
        `spin_us` before it waits (SpinningConnection); call on the loop."""
        self._db = db
        self.spin_s = spin_us / 1_000_000
        self.loop = asyncio.get_running_loop()
        kwargs = connect_kwargs(db.statement_timeout_ms)
        kwargs.update(autocommit=True, application_name=APPLICATION_NAME)
        self._pool: AsyncConnectionPool[SpinningConnection] = AsyncConnectionPool(
            db.url, min_size=1, max_size=db.max_size, kwargs=kwargs, connection_class=SpinningConnection,
            configure=self._configure, check=check_idle, open=False, timeout=POOL_TIMEOUT_S)

    async def _configure(self, conn: SpinningConnection) -> None:
        conn.spin_s = self.spin_s

    async def open(self) -> None:
        await self._pool.open()

    async def close(self) -> None:
        await self._pool.close()

    async def __aenter__(self) -> LoopReads:
        await self.open()
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.close()

    async def read_pinned(self, owner: str, query: LiteralString, params: Mapping[str, Any]
                          ) -> list[dict[str, Any]]:
        """Database.read_pinned, awaited on the loop."""
        check_owner(owner)
        with self._db.translating():
            conn = await self._lent()
            try:
                cursor = await conn.execute(query, {**params, "owner": owner})
                return await cursor.fetchall()
            finally:
                await self._pool.putconn(conn)

    async def _lent(self) -> SpinningConnection:
        """A pooled connection (give it back with putconn); Unavailable after about a second when the server is
        down (Database._pooled). getconn / putconn rather than the pool's context manager: fewer awaits."""
        try:
            return await self._pool.getconn(timeout=FIRST_WAIT_S)
        except PoolTimeout:
            await asyncio.to_thread(self._db.refuse_if_down)  # the probe may take up to its connect timeout
            return await self._pool.getconn(timeout=POOL_TIMEOUT_S - FIRST_WAIT_S)
