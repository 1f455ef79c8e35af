"""The curator's activities: methods on a class holding the pipeline (its pool and model).

Each is the pipeline step of the inline runner, so both runtimes do the same. A failed LLM call is not an
activity failure (it comes back as a failed Analysis and is recorded); a database error is, and Temporal
retries it. The commit step is idempotent: same batch, same run id, so a repeat of a committed batch is the
committer's replay, and the watermark lock turns a concurrent one into a stale no-op.

Every activity heartbeats while it works (graph.platform.heartbeat): a worker killed in the middle of any
step is noticed after the heartbeat timeout (seconds), not the start-to-close timeout, and another worker
takes the batch over.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from temporalio import activity

from curator.batch import Analysis, Batch, BatchRequest, Routed, RunReport
from curator.durable.types import FinishInput, ValidateInput
from curator.pipeline import Curator
from graph.platform.heartbeat import heartbeating


class CuratorActivities:
    def __init__(self, curator: Curator) -> None:
        self.curator = curator

    @activity.defn(name="curator.load")
    async def load(self, req: BatchRequest) -> Batch | None:
        return await heartbeating(asyncio.to_thread(self.curator.load, req))

    @activity.defn(name="curator.analyse")
    async def analyse(self, batch: Batch) -> Analysis:
        return await heartbeating(self.curator.analyse(batch))

    @activity.defn(name="curator.validate")
    async def validate(self, inp: ValidateInput) -> Routed:
        return await heartbeating(asyncio.to_thread(self.curator.validate, inp.batch, inp.analysis))

    @activity.defn(name="curator.commit")
    async def commit(self, inp: FinishInput) -> RunReport:
        return await heartbeating(asyncio.to_thread(self.curator.finish, inp.batch, inp.analysis, inp.routed))

    def all(self) -> list[Callable[..., Any]]:
        return [self.load, self.analyse, self.validate, self.commit]
