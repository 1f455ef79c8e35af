"""The served event loop polls for a budget before it sleeps until the next request (resolvers.idle_loop;
WORLDMEM_LOOP_IDLE_SPIN_US): what arrives while it polls is returned from a poll, it never waits beyond the
loop's own timeout, it offers the core between polls, a 0 budget is asyncio's selector, only one server
process polls, and `worldmem serve` runs on it."""

from __future__ import annotations

import asyncio
import selectors
import socket
import threading

import pytest
from uvicorn.config import Config

from graph.settings import Settings, get_settings
from resolvers.idle_loop import SpinningSelector, new_loop, spin_budget_s
from resolvers.serving import APP_FACTORY, uvicorn_options


class Counting(SpinningSelector):
    """Records each underlying select's timeout."""

    def __init__(self, spin_s: float) -> None:
        super().__init__(spin_s)
        self.timeouts: list[float | None] = []

    def _select(self, timeout: float | None) -> list[tuple[selectors.SelectorKey, int]]:
        self.timeouts.append(timeout)
        return super()._select(timeout)


def test_what_arrives_while_polling_comes_from_a_poll_not_a_sleep(monkeypatch: pytest.MonkeyPatch) -> None:
    ours, theirs = socket.socketpair()
    sel = Counting(30.0)
    sent = threading.Event()

    def send_on_first_yield() -> None:
        if not sent.is_set():
            sent.set()
            theirs.sendall(b"request")

    monkeypatch.setattr("resolvers.idle_loop.os.sched_yield", send_on_first_yield)
    with ours, theirs, sel:
        sel.register(ours, selectors.EVENT_READ)
        ready = sel.select(None)
        assert [key.fileobj for key, _ in ready] == [ours]
        assert sel.timeouts == [0, 0]  # one empty poll, the core offered, the second poll found it


def test_the_budget_spent_it_sleeps_and_never_past_the_loops_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    yields: list[None] = []
    monkeypatch.setattr("resolvers.idle_loop.os.sched_yield", lambda: yields.append(None))
    ours, theirs = socket.socketpair()
    sel = Counting(0.002)
    with ours, theirs, sel:
        sel.register(ours, selectors.EVENT_READ)
        assert sel.select(0.05) == []  # nothing came within the loop's timeout
        polls, last = sel.timeouts[:-1], sel.timeouts[-1]
        assert polls and set(polls) == {0} and len(yields) == len(polls) - 1
        assert last is not None and 0 < last < 0.05  # the rest of the timeout, not all of it again
        sel.timeouts.clear()
        assert sel.select(0.0005) == []  # a timeout shorter than the budget bounds the polling
        assert sel.timeouts[-1] is not None and sel.timeouts[-1] <= 0.0005


def test_a_ready_loop_and_a_zero_budget_do_not_poll() -> None:
    ours, theirs = socket.socketpair()
    with ours, theirs, Counting(0.01) as spinning, Counting(0.0) as plain:
        for sel in (spinning, plain):
            sel.register(ours, selectors.EVENT_READ)
        assert spinning.select(0) == [] and spinning.timeouts == [0]  # callbacks waiting: asyncio asks with 0
        theirs.sendall(b"x")
        assert plain.select(None) and plain.timeouts == [None]  # asyncio's own select, as it was asked


def test_only_one_server_process_polls(monkeypatch: pytest.MonkeyPatch) -> None:
    assert spin_budget_s(Settings()) == 0.001  # the default, 1,000 us
    assert spin_budget_s(Settings(loop_idle_spin_us=0)) == 0.0
    # several workers share one listening socket: a polling one would take every new connection
    assert spin_budget_s(Settings(workers=2, loop_idle_spin_us=5000)) == 0.0
    monkeypatch.setenv("WORLDMEM_LOOP_IDLE_SPIN_US", "250")
    get_settings.cache_clear()
    loop = new_loop()
    try:
        assert isinstance(loop, asyncio.SelectorEventLoop)
        selector = loop._selector  # type: ignore[attr-defined]
        assert isinstance(selector, SpinningSelector) and selector.spin_s == 0.00025
    finally:
        loop.close()
        monkeypatch.delenv("WORLDMEM_LOOP_IDLE_SPIN_US")
        get_settings.cache_clear()


def test_worldmem_serve_runs_on_the_polling_loop() -> None:
    config = Config(APP_FACTORY, **uvicorn_options(Settings()))
    factory = config.get_loop_factory()
    assert factory is new_loop
    loop = factory()
    try:
        assert loop.run_until_complete(asyncio.sleep(0, "ran")) == "ran"
        assert isinstance(loop._selector, SpinningSelector)  # type: ignore[attr-defined]
    finally:
        loop.close()
