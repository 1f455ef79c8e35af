"""Fair use: one owner's calls wait behind that owner's share only; budgets end in BUSY; a full pool is BUSY.

No timing assertions: blocked calls are held on events, and each test checks who got through.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

import pytest

from graph.errors import Unavailable
from graph.platform.db import Database
from resolvers.fairness import CURRENT, OwnerGates, offload, offload_spare, request_budget


def test_an_owner_at_its_share_does_not_hold_up_another_owner() -> None:
    gates = OwnerGates(share=2)
    release = threading.Event()
    order: list[str] = []

    def hold(name: str) -> str:
        order.append(f"start {name}")
        assert release.wait(10)
        return name

    def quick() -> str:
        order.append("start other")
        return "other"

    async def as_owner(owner: str, fn: object, *args: str) -> str:
        with request_budget(gates, owner, 30):
            return await offload(fn, *args)  # type: ignore[arg-type]

    async def scenario() -> None:
        greedy = [asyncio.create_task(as_owner("greedy", hold, f"g{i}")) for i in range(3)]
        await asyncio.sleep(0.05)
        assert sorted(order) == ["start g0", "start g1"]  # the third waits for the owner's own slot
        assert await asyncio.wait_for(as_owner("other", quick), 10) == "other"  # not behind the greedy one
        assert "start g2" not in order
        release.set()
        assert sorted(await asyncio.gather(*greedy)) == ["g0", "g1", "g2"]

    asyncio.run(scenario())
    assert gates.gates == {}  # idle owners leave no gate behind


def test_a_spent_budget_is_busy() -> None:
    async def scenario() -> None:
        with request_budget(OwnerGates(share=1), "o", 0):
            with pytest.raises(Unavailable) as err:
                await offload(lambda: 1)
            assert err.value.code == "BUSY"
        assert CURRENT.get() is None
        assert await offload(lambda: 2) == 2  # outside a request: no budget

    asyncio.run(scenario())


def test_waiting_past_the_budget_is_busy() -> None:
    release = threading.Event()

    async def scenario() -> None:
        gates = OwnerGates(share=1)

        async def slow() -> bool:
            with request_budget(gates, "o", 30):
                return await offload(release.wait, 10)

        first = asyncio.create_task(slow())
        await asyncio.sleep(0.05)
        with request_budget(gates, "o", 0.2):
            with pytest.raises(Unavailable) as err:
                await offload(lambda: 1)
            assert err.value.code == "BUSY"
        release.set()
        assert await first is True

    asyncio.run(scenario())


@pytest.fixture
def tiny(app_db_url: str) -> Iterator[Database]:
    database = Database(app_db_url, max_size=1)
    database._pool.timeout = 0.3  # the only knob of this test: how long a checkout may wait
    yield database
    database.close()


def test_a_full_pool_is_busy_not_unreachable(tiny: Database, owner: str) -> None:
    with tiny.owner_tx(owner, read_only=True):
        errors: list[Unavailable] = []

        def second() -> None:
            try:
                with tiny.owner_tx(owner, read_only=True):
                    pass
            except Unavailable as exc:
                errors.append(exc)

        thread = threading.Thread(target=second)
        thread.start()
        thread.join(20)
        with pytest.raises(Unavailable) as err, tiny.connection():
            pass
    assert [e.code for e in errors] == ["BUSY"]
    assert err.value.code == "BUSY" and "busy" in err.value.message
    with tiny.owner_tx(owner, read_only=True):  # and it recovers
        pass


def test_a_cancelled_call_keeps_its_slot_until_its_thread_ends_and_threads_see_the_context() -> None:
    release = threading.Event()
    marker: ContextVar[str] = ContextVar("marker", default="unset")

    async def scenario() -> None:
        gates = OwnerGates(share=1)

        async def hold() -> bool:
            with request_budget(gates, "o", 30):
                return await offload(release.wait, 10)

        first = asyncio.create_task(hold())
        await asyncio.sleep(0.05)
        first.cancel()
        await asyncio.sleep(0.05)
        assert not first.done()  # cancelled, but its thread still runs: the slot stays taken
        with request_budget(gates, "o", 0.2), pytest.raises(Unavailable):
            await offload(lambda: 1)
        release.set()
        with pytest.raises(asyncio.CancelledError):
            await first
        marker.set("request")
        with request_budget(gates, "o", 30):
            assert await offload(marker.get) == "request"  # the caller's context goes along
            assert await offload(lambda: CURRENT.get() is not None) is True

    asyncio.run(scenario())


def test_a_call_that_may_hold_a_second_connection_counts_it_in_the_owners_share() -> None:
    """offload_spare (hybrid search's meaning list beside its text lists): the second connection only with a
    second free slot, held meanwhile; never waited for, so two such calls can not block each other."""
    release = threading.Event()
    told: list[bool] = []

    def wide(spare: bool, name: str) -> str:
        told.append(spare)
        assert release.wait(10)
        return name

    async def scenario() -> None:
        gates = OwnerGates(share=2)

        async def as_owner(fn: Any, *args: Any) -> Any:
            with request_budget(gates, "o", 30):
                return await (offload_spare(fn, *args) if fn is wide else offload(fn, *args))

        first = asyncio.create_task(as_owner(wide, "w1"))
        await asyncio.sleep(0.05)
        assert told == [True] and gates.gates["o"].semaphore.locked()  # both of the owner's slots: one call
        plain = asyncio.create_task(as_owner(lambda: "plain"))
        await asyncio.sleep(0.05)
        assert not plain.done()  # the owner's share is used up by the one wide call
        release.set()
        assert await first == "w1" and await plain == "plain"
        release.clear()
        held = asyncio.create_task(as_owner(release.wait, 10))  # one slot taken by a plain call
        await asyncio.sleep(0.05)
        second = asyncio.create_task(as_owner(wide, "w2"))
        await asyncio.sleep(0.05)
        assert told == [True, False]  # its own slot, no second one free: one connection, no waiting for more
        release.set()
        assert await held is True and await second == "w2"
        both = [asyncio.create_task(as_owner(wide, f"c{i}")) for i in range(2)]
        assert sorted(await asyncio.wait_for(asyncio.gather(*both), 10)) == ["c0", "c1"]  # never each other's
        assert await offload_spare(lambda spare: spare) is True  # outside a request: no share to count

    asyncio.run(scenario())
    assert len(told) == 4  # w1, w2, c0, c1
