"""Fair use of the database and of worker threads: a bounded share per owner, a time budget per request.

Every blocking call of a GraphQL request (database work, CPU-heavy parsing and validation) goes through
`offload`, and a pinned read that waits on the event loop instead goes through `on_loop`: each waits for a
slot of the request owner's gate (`owner_db_share` slots, so one owner never holds more than that many pool
connections or worker threads), and it is refused once the request has spent its budget
(`request_db_budget_s`, waiting included). Before, an alias bomb of one owner put 50 calls in front of the
pool and every other owner waited behind them (10-14 s, or a pool timeout reported as "database not
reachable"). Now such a request slows only its own owner and ends with BUSY errors.

A call that may hold a second connection of its own (hybrid search's meaning list, beside its text lists) goes
through `offload_spare`: it uses the second connection only when a second slot of the owner's share is free
once the call has its own, and holds that slot meanwhile.

Waiting happens on the event loop (an asyncio semaphore), never in a worker thread, so waiting calls hold
neither a connection nor a thread.

The worker threads are a plain ThreadPoolExecutor of anyio's default size (40) rather than
starlette's run_in_threadpool: the hand-off is one future, without anyio's capacity limiter and cancel scope
(a read over HTTP measured 0.1-0.15 ms faster at p50). As with anyio, a cancelled caller waits for
its thread to finish, so the owner's slot is never given back while the thread still works; the context
(safe_times' notes, the budget) goes along as anyio's does.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import time
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Concatenate, ParamSpec, TypeVar

from graph.errors import Unavailable

P = ParamSpec("P")
T = TypeVar("T")
BUSY = "BUSY"
THREADS = 40  # anyio's default limit of worker threads, which run_in_threadpool used before
_WORKERS = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="worldmem-worker")


@dataclass
class _Gate:
    semaphore: asyncio.Semaphore
    users: int = 0


@dataclass
class OwnerGates:
    """One semaphore per owner with requests in flight; dropped when the owner has none. `in_flight`: the
    requests of every owner in flight now."""

    share: int
    gates: dict[str, _Gate] = field(default_factory=dict)
    in_flight: int = 0

    @contextmanager
    def entered(self, owner: str) -> Iterator[asyncio.Semaphore]:
        gate = self.gates.get(owner)
        if gate is None:
            gate = self.gates[owner] = _Gate(asyncio.Semaphore(max(1, self.share)))
        gate.users += 1
        self.in_flight += 1
        try:
            yield gate.semaphore
        finally:
            self.in_flight -= 1
            gate.users -= 1
            if gate.users == 0 and self.gates.get(owner) is gate:
                del self.gates[owner]


@dataclass
class Budget:
    """What one request may still use: its owner's gate and a deadline (time.monotonic()); `gates` all owners'."""

    gate: asyncio.Semaphore
    deadline: float
    gates: OwnerGates

    @property
    def remaining(self) -> float:
        return self.deadline - time.monotonic()


CURRENT: ContextVar[Budget | None] = ContextVar("worldmem_request_budget", default=None)


@contextmanager
def request_budget(gates: OwnerGates, owner: str, seconds: float) -> Iterator[Budget]:
    """The budget of one request of `owner`, current for everything the request runs."""
    with gates.entered(owner) as gate:
        budget = Budget(gate, time.monotonic() + seconds, gates)
        token = CURRENT.set(budget)
        try:
            yield budget
        finally:
            CURRENT.reset(token)


def alone() -> bool:
    """Whether the current request is the only one in flight in this process (outside a request: True).

    resolvers.pinned awaits a point read on the event loop only then. With other requests in flight, the
    loop's own work (and the GIL it holds meanwhile) is what they wait for, and a worker thread does the read
    with more throughput: 8 clients of mixed load did 378-460 req/s with every point read on the loop against
    main's 496-514 with them in threads, and 493-524 with this rule against main's 503-545 in the same runs."""
    budget = CURRENT.get()
    return budget is None or budget.gates.in_flight <= 1


async def in_thread(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """`fn` in a worker thread, with the caller's context; a cancelled caller still waits for the thread."""
    call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
    running = asyncio.get_running_loop().run_in_executor(_WORKERS, call)
    try:
        return await asyncio.shield(running)
    except asyncio.CancelledError:
        with suppress(Exception):
            await running
        raise


def _spent() -> Unavailable:
    return Unavailable("this request used up its database time; ask for less at once or retry", code=BUSY)


async def offload(fn: Callable[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
    """Run blocking `fn` in a worker thread, within the current request's share and budget."""
    budget = await _entered()
    try:
        return await in_thread(fn, *args, **kwargs)
    finally:
        _left(budget)


async def on_loop(fn: Callable[P, Awaitable[T]], *args: P.args, **kwargs: P.kwargs) -> T:
    """Await `fn`, database work that waits on the event loop rather than in a worker thread (a pinned read,
    graph.platform.db_async), within the current request's share and budget as `offload`. A cancelled
    caller gives its slot back only after psycopg has cancelled the statement on the server and drained
    the connection (psycopg does that before it lets the cancellation through)."""
    budget = await _entered()
    try:
        return await fn(*args, **kwargs)
    finally:
        _left(budget)


async def _entered() -> Budget | None:
    """The current request's budget, once a slot of its owner's share is taken for the caller (None outside
    a GraphQL request: tests and tools have no owner to share with). Give it back with _left."""
    budget = CURRENT.get()
    if budget is not None:
        await _slot(budget)
    return budget


def _left(budget: Budget | None) -> None:
    if budget is not None:
        budget.gate.release()


async def offload_spare(fn: Callable[Concatenate[bool, P], T], *args: P.args, **kwargs: P.kwargs) -> T:
    """As `offload`, for a call that may hold a second connection meanwhile (hybrid search's meaning list):
    once the call has its slot, a second slot of the owner's share is taken too if one is free at that moment,
    and `fn` is told (its first argument) whether it may use a second connection. It never waits for the
    second slot, so two such calls can not hold one slot each and wait for each other; and the owner's share
    still counts every connection its calls hold at once."""
    budget = CURRENT.get()
    if budget is None:
        return await in_thread(fn, True, *args, **kwargs)
    await _slot(budget)
    spare = not budget.gate.locked()
    if spare:
        await budget.gate.acquire()  # free: taken at once
    try:
        return await in_thread(fn, spare, *args, **kwargs)
    finally:
        budget.gate.release()
        if spare:
            budget.gate.release()


async def _slot(budget: Budget) -> None:
    """A slot of the owner's gate, waited for within the request's budget (BUSY when it runs out)."""
    if budget.remaining <= 0:
        raise _spent()
    if budget.gate.locked():  # wait, within the budget (wait_for makes a task: only when there is a wait)
        try:
            await asyncio.wait_for(budget.gate.acquire(), budget.remaining)
        except TimeoutError:
            raise _spent() from None
    else:
        await budget.gate.acquire()  # a free slot: taken at once, no waiting
