"""Periodic jobs on Temporal (retention, the finder's reconciler): one way to describe a job's schedule and
one way to create it or bring an existing one up to the settings, and the retry policy their activities share."""

from __future__ import annotations

from datetime import timedelta

from temporalio.client import (
    Client,
    Schedule,
    ScheduleActionStartWorkflow,
    ScheduleAlreadyRunningError,
    ScheduleIntervalSpec,
    ScheduleOverlapPolicy,
    SchedulePolicy,
    ScheduleSpec,
    ScheduleUpdate,
    ScheduleUpdateInput,
)
from temporalio.common import RetryPolicy

JOB_RETRY = RetryPolicy(initial_interval=timedelta(seconds=10), backoff_coefficient=2.0, maximum_attempts=5)


def every(interval: timedelta, workflow: str, arg: object, run_id: str, task_queue: str) -> Schedule:
    """Start `workflow(arg)` every `interval`; a run still going when the next is due makes it skip."""
    return Schedule(
        action=ScheduleActionStartWorkflow(workflow, arg, id=run_id, task_queue=task_queue),
        spec=ScheduleSpec(intervals=[ScheduleIntervalSpec(every=interval)]),
        policy=SchedulePolicy(overlap=ScheduleOverlapPolicy.SKIP))


async def ensure(client: Client, schedule_id: str, wanted: Schedule) -> None:
    """Create the schedule, or bring an existing one (from an earlier worker start) up to `wanted`."""
    try:
        await client.create_schedule(schedule_id, wanted)
    except ScheduleAlreadyRunningError:
        def update(_: ScheduleUpdateInput) -> ScheduleUpdate:
            return ScheduleUpdate(schedule=wanted)
        await client.get_schedule_handle(schedule_id).update(update)
