"""Heartbeats for the activities of `worldmem worker` (curator, retention, finder).

Each activity runs its work (mostly database calls in a worker thread, or the model call) while its event loop
heartbeats. A heartbeat says only that the worker process lives; that is what the heartbeat timeout needs: a
worker killed mid-activity (SIGKILL, a lost machine) is noticed after the heartbeat timeout (seconds) instead
of the start-to-close timeout (minutes, or an hour for the periodic jobs), and the activity is retried on
another worker. Work that is merely slow keeps heartbeating, so it is not taken away.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import TypeVar

from temporalio import activity

T = TypeVar("T")
EVERY_S = 2.0  # the most time between two heartbeats (the SDK also throttles what it sends to the server)


def interval() -> float:
    """Heartbeat often enough for this activity's timeout: a few beats per timeout, at most every EVERY_S."""
    timeout = activity.info().heartbeat_timeout
    return EVERY_S if timeout is None else min(EVERY_S, max(0.05, timeout.total_seconds() / 4))


async def heartbeating(work: Awaitable[T]) -> T:
    """`work`'s result, heartbeating while it runs. Cancelled with the activity (its worker then lives on and
    the retry elsewhere is made safe by the work's own idempotency, not by this cancellation)."""
    task = asyncio.ensure_future(work)
    every = interval()
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=every)
            if done:
                return task.result()
            activity.heartbeat()
    finally:
        task.cancel()
