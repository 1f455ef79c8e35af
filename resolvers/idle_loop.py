"""The served event loop: before it sleeps waiting for the next request, it polls for a while (issue 11).

On the 2-core VM a core that went idle takes tens of microseconds to wake when a packet arrives, and longer
the longer it slept (bench/README.md, eleventh pass: `SELECT 1` 19-20 us back to back with the client
polling, 70-110 us with the client asleep in recv, 170-470 us after 3-10 ms of quiet). A client that sends
its next request soon after the last answer (an agent's run of tool calls, the explorer's queries for one
page) meets a loop that is still polling: served stateAt(T) p50 -0.13 ms, p95 -0.1 to -0.17 ms, server CPU
per request unchanged. The selector polls with a zero timeout, offering the core to anyone runnable between
two polls (sched_yield), for at most the budget (never longer than the loop's own timeout), then waits as
asyncio always does; with a 0 budget it is asyncio's own selector.

Only with one server process: the workers of `worldmem serve --workers N` share one listening socket, and
a worker still polling took every new connection while the other slept (8 of 8 and 7 of 8 keep-alive
connections on one worker; the mixed load's 2 workers then served 150-160 req/s instead of ~300).
"""

from __future__ import annotations

import asyncio
import os
import selectors
import time

from graph.settings import Settings, get_settings

Ready = list[tuple[selectors.SelectorKey, int]]


class SpinningSelector(selectors.DefaultSelector):
    """The default selector, polling for up to `spin_s` before a blocking `select`."""

    def __init__(self, spin_s: float) -> None:
        super().__init__()
        self.spin_s = spin_s

    def select(self, timeout: float | None = None) -> Ready:
        if self.spin_s <= 0 or (timeout is not None and timeout <= 0):
            return self._select(timeout)
        budget = self.spin_s if timeout is None else min(self.spin_s, timeout)
        started = time.perf_counter()
        while True:
            ready = self._select(0)
            if ready:
                return ready
            spent = time.perf_counter() - started
            if spent >= budget:
                return self._select(None if timeout is None else max(0.0, timeout - spent))
            os.sched_yield()

    def _select(self, timeout: float | None) -> Ready:
        ready: Ready = super().select(timeout)
        return ready


def spin_budget_s(settings: Settings) -> float:
    """The idle loop's polling budget in seconds: loop_idle_spin_us with one server process, else none."""
    return settings.loop_idle_spin_us / 1_000_000 if settings.workers == 1 else 0.0


def new_loop() -> asyncio.AbstractEventLoop:
    """uvicorn's `loop` hook ("resolvers.idle_loop:new_loop", called once per server process): asyncio's
    selector loop with the spinning selector, its budget from the settings (spin_budget_s)."""
    return asyncio.SelectorEventLoop(SpinningSelector(spin_budget_s(get_settings())))
