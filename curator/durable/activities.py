"""The curator's activities: methods on a class holding the pipeline (its pool and model).

Each is the pipeline step of the inline runner, so both runtimes do the same. A failed LLM call is not an
activity failure (it comes back as a failed Analysis and is recorded); a database error is, and Temporal
retries it. The commit step is idempotent: same batch, same run id, and the watermark lock turns a repeat
into a stale no-op.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from temporalio import activity

from curator.batch import Analysis, Batch, BatchRequest, Routed, RunReport
from curator.durable.types import FinishInput, ValidateInput
from curator.pipeline import Curator


class CuratorActivities:
    def __init__(self, curator: Curator) -> None:
        self.curator = curator

    @activity.defn(name="curator.load")
    async def load(self, req: BatchRequest) -> Batch | None:
        return await asyncio.to_thread(self.curator.load, req)

    @activity.defn(name="curator.analyse")
    async def analyse(self, batch: Batch) -> Analysis:
        return await self.curator.analyse(batch)

    @activity.defn(name="curator.validate")
    async def validate(self, inp: ValidateInput) -> Routed:
        return await asyncio.to_thread(self.curator.validate, inp.batch, inp.analysis)

    @activity.defn(name="curator.commit")
    async def commit(self, inp: FinishInput) -> RunReport:
        return await asyncio.to_thread(self.curator.finish, inp.batch, inp.analysis, inp.routed)

    def all(self) -> list[Callable[..., Any]]:
        return [self.load, self.analyse, self.validate, self.commit]
