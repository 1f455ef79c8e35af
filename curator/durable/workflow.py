"""`curator:chat:{chat_id}`: debounce a chat's turns, then curate them in batches; completes after the batch.

Started (or signalled) by signal-with-start for every stored turn. It waits until `debounce_turns` turns
arrived, a turn was explicit (rememberThis), or `debounce_s` passed without a turn; then it runs batches
(load → analyse → validate → commit) until the chat is curated. Turns signalled during the batch start
another round; otherwise the workflow completes, and the next turn starts a new run.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta

from temporalio import workflow
from temporalio.common import RetryPolicy

with workflow.unsafe.imports_passed_through():
    from curator.batch import Analysis, Batch, BatchRequest, Routed, RunReport
    from curator.durable.types import SIGNAL, WORKFLOW, ChatInput, FinishInput, ValidateInput
    from curator.pipeline import MAX_BATCHES, going_on

RETRY = RetryPolicy(initial_interval=timedelta(seconds=1), backoff_coefficient=2.0, maximum_attempts=10)


@workflow.defn(name=WORKFLOW)
class CuratorChat:
    def __init__(self) -> None:
        self.waiting = 0
        self.explicit = False
        self.signals = 0

    @workflow.signal(name=SIGNAL)
    def turn(self, explicit: bool) -> None:
        self.waiting += 1
        self.signals += 1
        self.explicit = self.explicit or explicit

    @workflow.run
    async def run(self, inp: ChatInput) -> list[RunReport]:
        reports: list[RunReport] = []
        while True:
            await self._debounce(inp)
            self.waiting, self.explicit = 0, False
            before = self.signals
            reports += await self._curate(inp)
            if self.signals == before:
                return reports

    async def _debounce(self, inp: ChatInput) -> None:
        while not self.explicit and self.waiting < inp.debounce_turns:
            try:
                await workflow.wait_condition(self._moved(self.signals), timeout=timedelta(seconds=inp.debounce_s))
            except TimeoutError:
                return  # quiet for debounce_s: curate what came

    def _moved(self, seen: int) -> Callable[[], bool]:
        return lambda: self.signals != seen or self.explicit

    async def _curate(self, inp: ChatInput) -> list[RunReport]:
        timeout = timedelta(seconds=inp.activity_timeout_s)
        beat = timedelta(seconds=inp.heartbeat_timeout_s)
        reports: list[RunReport] = []
        for _ in range(MAX_BATCHES):
            batch: Batch | None = await workflow.execute_activity(
                "curator.load", BatchRequest(owner=inp.owner, chat_id=inp.chat_id), result_type=Batch | None,  # type: ignore[arg-type]
                start_to_close_timeout=timeout, heartbeat_timeout=beat, retry_policy=RETRY)
            if batch is None:
                break
            analysis: Analysis | None = None
            routed: Routed | None = None
            if batch.trigger:
                analysis = await workflow.execute_activity(
                    "curator.analyse", batch, result_type=Analysis, start_to_close_timeout=timeout,
                    heartbeat_timeout=beat, retry_policy=RETRY)
                if analysis.error is None:
                    routed = await workflow.execute_activity(
                        "curator.validate", ValidateInput(batch=batch, analysis=analysis), result_type=Routed,
                        start_to_close_timeout=timeout, heartbeat_timeout=beat, retry_policy=RETRY)
            report: RunReport = await workflow.execute_activity(
                "curator.commit", FinishInput(batch=batch, analysis=analysis, routed=routed), result_type=RunReport,
                start_to_close_timeout=timeout, heartbeat_timeout=beat, retry_policy=RETRY)
            reports.append(report)
            if not going_on(report):
                break
        return reports
