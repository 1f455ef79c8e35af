"""The curator's activities: methods on a class holding the pipeline (its pool and model).

Each is the pipeline step of the inline runner, so both runtimes do the same. A failed LLM call is not an
activity failure (it comes back as a failed Analysis and is recorded); a database error is, and Temporal
retries it. The commit step is idempotent: same batch, same run id, and the watermark lock turns a repeat
into a stale no-op.

The model call can take minutes, so `analyse` heartbeats every HEARTBEAT_EVERY_S while it waits: a worker
killed in the middle is noticed after the workflow's heartbeat timeout (seconds), not its start-to-close
timeout (120 s), and another worker takes the batch over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from temporalio import activity

from curator.batch import Analysis, Batch, BatchRequest, Routed, RunReport
from curator.durable.types import FinishInput, ValidateInput
from curator.pipeline import Curator

T = TypeVar("T")
HEARTBEAT_EVERY_S = 2.0  # well inside ChatInput.heartbeat_timeout_s (the SDK also throttles what it sends)


async def heartbeating(work: Awaitable[T], every_s: float = HEARTBEAT_EVERY_S) -> T:
    """`work`'s result, heartbeating while it runs; cancelled with the activity (its worker is then alive)."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=every_s)
            if done:
                return task.result()
            activity.heartbeat()
    finally:
        task.cancel()


class CuratorActivities:
    def __init__(self, curator: Curator) -> None:
        self.curator = curator

    @activity.defn(name="curator.load")
    async def load(self, req: BatchRequest) -> Batch | None:
        return await asyncio.to_thread(self.curator.load, req)

    @activity.defn(name="curator.analyse")
    async def analyse(self, batch: Batch) -> Analysis:
        return await heartbeating(self.curator.analyse(batch))

    @activity.defn(name="curator.validate")
    async def validate(self, inp: ValidateInput) -> Routed:
        return await asyncio.to_thread(self.curator.validate, inp.batch, inp.analysis)

    @activity.defn(name="curator.commit")
    async def commit(self, inp: FinishInput) -> RunReport:
        return await asyncio.to_thread(self.curator.finish, inp.batch, inp.analysis, inp.routed)

    def all(self) -> list[Callable[..., Any]]:
        return [self.load, self.analyse, self.validate, self.commit]
