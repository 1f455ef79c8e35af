"""The retention job on Temporal: workflow `retention:run` (one activity, the same job.run as the CLI's
inline run) started by the schedule `worldmem-retention` every `retention_every_hours`. The curator's
worker (`worldmem worker`) registers both and creates (or updates) the schedule when it starts."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from temporalio import activity, workflow
from temporalio.client import Client, Schedule

with workflow.unsafe.imports_passed_through():
    from pydantic import BaseModel, Field

    from graph.platform import schedules
    from graph.platform.db import Database
    from graph.platform.heartbeat import heartbeating
    from graph.retention import job, routed
    from graph.routing.router import Router
    from graph.settings import Settings

WORKFLOW = "retention:run"
ACTIVITY = "retention.run"
SCHEDULE_ID = "worldmem-retention"


class RunInput(BaseModel):
    window_days: int = Field(default=90, ge=1)
    owner: str | None = Field(default=None, description="Only this owner (default: every owner)")
    activity_timeout_s: float = 3600.0
    # the activity heartbeats (graph.platform.heartbeat): a worker killed mid-run is noticed this soon and the
    # job is retried on another worker, instead of after activity_timeout_s
    heartbeat_timeout_s: float = 10.0
    episode_days: int | None = Field(default=None, ge=1, description="Episode window (None: episodes are kept)")


class RunSummary(BaseModel):
    owners: int
    pruned: int
    dropped: dict[str, int]
    kept: dict[str, str]
    errors: list[str]


def summary(report: job.Report) -> RunSummary:
    errors = [f"{o.owner}: {s.error}" for o in report.owners for s in o.series if s.error]
    return RunSummary(owners=len(report.owners), pruned=sum(o.pruned for o in report.owners),
                      dropped=report.dropped, kept=report.kept, errors=errors)


class RetentionActivities:
    """`router` (owners on several clusters): the job runs on every cluster, for the owners routed there, and
    drops that cluster's old partitions (one owner: on its cluster only); None: on `db`."""

    def __init__(self, db: Database, router: Router | None = None) -> None:
        self.db, self.router = db, router

    def report(self, options: job.Options) -> job.Report:
        """The job's run on the owners' clusters (blocking)."""
        return routed.run_everywhere(self.db, self.router, options)

    @activity.defn(name=ACTIVITY)
    async def run(self, inp: RunInput) -> RunSummary:
        options = job.Options(window_days=inp.window_days, owner=inp.owner, episode_days=inp.episode_days)
        report = await heartbeating(asyncio.to_thread(self.report, options))
        return summary(report)

    def all(self) -> list[Callable[..., Any]]:
        return [self.run]


@workflow.defn(name=WORKFLOW)
class RetentionRun:
    @workflow.run
    async def run(self, inp: RunInput) -> RunSummary:
        result: RunSummary = await workflow.execute_activity(
            ACTIVITY, inp, result_type=RunSummary, start_to_close_timeout=timedelta(seconds=inp.activity_timeout_s),
            heartbeat_timeout=timedelta(seconds=inp.heartbeat_timeout_s),
            retry_policy=schedules.JOB_RETRY)
        return result


def schedule(settings: Settings, owner: str | None = None) -> Schedule:
    return schedules.every(timedelta(hours=settings.retention_every_hours), WORKFLOW,
                           RunInput(window_days=settings.retention_window_days, owner=owner,
                                    episode_days=settings.retention_episode_days,
                                    heartbeat_timeout_s=settings.temporal_heartbeat_timeout_s),
                           f"{SCHEDULE_ID}-run", settings.temporal_task_queue)


async def ensure_schedule(client: Client, settings: Settings, schedule_id: str = SCHEDULE_ID,
                          owner: str | None = None) -> None:
    """Create the schedule (every owner, or only `owner`), or bring an existing one up to the settings."""
    await schedules.ensure(client, schedule_id, schedule(settings, owner))
