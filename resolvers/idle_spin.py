"""After the last request in flight is answered, the event loop polls for up to a budget before it sleeps
(issue 11, `worldmem serve`: WORLDMEM_LOOP_IDLE_SPIN_US).

On the 2-core VM a core that went idle takes tens of microseconds to wake when a packet arrives, and longer
the longer it slept (bench/README.md, eleventh pass: `SELECT 1` 19-20 us back to back with the client
polling, 70-110 us with it asleep in recv, 170-470 us after 3-10 ms of quiet). A client that sends its next
request soon after the last answer (an agent's run of tool calls, the explorer's queries for one page) then
meets a loop that is still polling. The polling is a callback that schedules itself again while nothing is
in flight and the budget lasts, offering the core to anyone runnable each time (sched_yield): a loop with a
ready callback polls its sockets without sleeping, whichever loop it is (uvicorn picks uvloop; replacing the
loop to poll in its selector cost the mixed load 12-50 %, bench/README.md). A request that arrives ends
the polling at once, so a busy server never runs it.
"""

from __future__ import annotations

import asyncio
import os
import time


class IdleSpin:
    """Counts the HTTP requests in flight (`begin` / `end`) and polls for `budget_s` after the last one ends."""

    def __init__(self, budget_s: float) -> None:
        self.budget_s = budget_s
        self.in_flight = 0
        self.until = 0.0
        self.spinning = False
        self.polls = 0  # the callbacks run since the process started (read by the tests)

    def begin(self) -> None:
        self.in_flight += 1

    def end(self) -> None:
        self.in_flight -= 1
        if self.in_flight or self.budget_s <= 0:
            return
        self.until = time.perf_counter() + self.budget_s
        if not self.spinning:
            self.spinning = True
            asyncio.get_running_loop().call_soon(self._poll)

    def _poll(self) -> None:
        self.polls += 1
        if self.in_flight or time.perf_counter() >= self.until:
            self.spinning = False
            return
        os.sched_yield()
        asyncio.get_running_loop().call_soon(self._poll)
