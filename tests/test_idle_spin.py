"""Once no request is in flight, `worldmem serve`'s event loop polls for a budget before it sleeps
(resolvers.idle_spin; WORLDMEM_LOOP_IDLE_SPIN_US): it polls by a callback that offers the core each time,
stops when a request begins or the budget is spent, never with a request in flight or a 0 budget, and a
served app counts its HTTP requests."""

from __future__ import annotations

import asyncio

import pytest
from fastapi.testclient import TestClient

from graph.settings import Settings
from resolvers.app import create_app
from resolvers.idle_spin import IdleSpin


def _yields(monkeypatch: pytest.MonkeyPatch) -> list[None]:
    offered: list[None] = []
    monkeypatch.setattr("resolvers.idle_spin.os.sched_yield", lambda: offered.append(None))
    return offered


def test_after_the_last_request_the_loop_polls_then_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    offered = _yields(monkeypatch)
    spin = IdleSpin(0.003)

    async def run() -> tuple[int, bool]:
        spin.begin()
        spin.end()
        for _ in range(5):
            await asyncio.sleep(0)  # the loop goes round: each round runs the poll once
        busy = spin.polls
        await asyncio.sleep(0.05)  # well past the budget
        return busy, spin.spinning

    busy, spinning = asyncio.run(run())
    assert busy >= 5 and not spinning
    assert len(offered) == spin.polls - 1  # every poll but the last offered the core


def test_a_request_that_begins_ends_the_polling_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    offered = _yields(monkeypatch)
    spin = IdleSpin(10.0)

    async def run() -> None:
        spin.begin()
        spin.end()  # nothing in flight: the first poll is scheduled
        spin.begin()  # the next request arrived before it ran
        await asyncio.sleep(0.01)
        assert (spin.polls, spin.spinning) == (1, False)
        spin.begin()
        spin.end()  # one of two in flight ended: no polling while the other runs
        await asyncio.sleep(0.01)
        assert spin.polls == 1
        spin.end()  # the last one ended: polling
        spin.begin()
        spin.end()  # another came and went before the poll ran: a later deadline, no second chain of polls
        await asyncio.sleep(0)
        polled = spin.polls
        await asyncio.sleep(0)
        assert spin.polls == polled + 1
        spin.begin()
        await asyncio.sleep(0)

    asyncio.run(run())
    assert not spin.spinning and len(offered) == spin.polls - 2  # the two stopping polls offered nothing


def test_a_zero_budget_never_polls() -> None:
    spin = IdleSpin(0.0)

    async def run() -> None:
        spin.begin()
        spin.end()
        await asyncio.sleep(0.01)

    asyncio.run(run())
    assert (spin.polls, spin.spinning, spin.in_flight) == (0, False, 0)


def test_a_served_app_counts_its_requests_and_polls_after_them(app_db_url: str) -> None:
    app = create_app(Settings(finder_background=False), database_url=app_db_url)
    app.idle = IdleSpin(0.002)
    with TestClient(app, client=("127.0.0.1", 50000)) as client:
        assert client.post("/graphql", json={"query": "{ __typename }"}).status_code == 200
        assert client.get("/metrics").status_code == 200
    assert app.idle.in_flight == 0 and app.idle.polls >= 2
