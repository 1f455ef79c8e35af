"""The finder's reconciler on Temporal: workflow `finder:reconcile` (one activity, the same
`reconciler.reconcile_owner` as the server's background thread and `worldmem finder reconcile`), for one
owner or every owner, started by the schedule `worldmem-finder` every `finder_sweep_s`. The curator's worker
(`worldmem worker`) registers both, builds the embedder once, and creates (or updates) the schedule when it
starts. An embedding failure is recorded on the rows (as inline) and never fails the workflow; an owner whose
reconcile raises is listed in `errors` and retried by the next run."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from temporalio import activity, workflow
from temporalio.client import Client, Schedule

with workflow.unsafe.imports_passed_through():
    from pydantic import BaseModel, Field

    from graph.finder import reconciler
    from graph.finder.embedders import Embedder
    from graph.platform import schedules
    from graph.platform.db import Database
    from graph.platform.heartbeat import heartbeating
    from graph.routing.router import Router
    from graph.settings import Settings

log = logging.getLogger("worldmem.finder")
WORKFLOW = "finder:reconcile"
ACTIVITY = "finder.reconcile"
SCHEDULE_ID = "worldmem-finder"


class ReconcileInput(BaseModel):
    owner: str | None = Field(default=None, description="Only this owner (default: every owner)")
    batch: int = Field(default=64, ge=1)
    activity_timeout_s: float = 3600.0
    # the activity heartbeats (graph.platform.heartbeat): a worker killed mid-run is noticed this soon and the
    # job is retried on another worker, instead of after activity_timeout_s
    heartbeat_timeout_s: float = 10.0


class ReconcileSummary(BaseModel):
    owners: int
    projected: int
    embedded: int
    failed: int  # rows whose embedding failed (recorded on the rows, retried next run)
    errors: list[str]  # owners whose reconcile raised (retried next run)


class FinderActivities:
    """`router` (owners on several clusters): the owners are listed in the directory (every owner with a token,
    wherever its data is) and each is reconciled on its cluster; None: everything on `db`."""

    def __init__(self, db: Database, embedder: Embedder | None, router: Router | None = None) -> None:
        self.db, self.embedder, self.router = db, embedder, router  # the embedder is built once per worker

    def _at(self, owner: str) -> Database:
        return self.db if self.router is None else self.router.place(owner).database

    def _reconcile(self, inp: ReconcileInput) -> ReconcileSummary:
        every = [inp.owner] if inp.owner is not None else reconciler.owners(self.db)
        out = ReconcileSummary(owners=len(every), projected=0, embedded=0, failed=0, errors=[])
        for owner in every:
            try:
                progress = reconciler.reconcile_owner(self._at(owner), owner, self.embedder, batch=inp.batch)
            except Exception as exc:  # best effort per owner, as the background thread
                log.exception("finder: reconciling an owner failed")
                out.errors.append(f"{owner}: {exc}")
                continue
            out.projected += progress.projected
            out.embedded += progress.embedded
            out.failed += progress.failed
        return out

    @activity.defn(name=ACTIVITY)
    async def reconcile(self, inp: ReconcileInput) -> ReconcileSummary:
        return await heartbeating(asyncio.to_thread(self._reconcile, inp))

    def all(self) -> list[Callable[..., Any]]:
        return [self.reconcile]


@workflow.defn(name=WORKFLOW)
class FinderReconcile:
    @workflow.run
    async def run(self, inp: ReconcileInput) -> ReconcileSummary:
        result: ReconcileSummary = await workflow.execute_activity(
            ACTIVITY, inp, result_type=ReconcileSummary,
            start_to_close_timeout=timedelta(seconds=inp.activity_timeout_s),
            heartbeat_timeout=timedelta(seconds=inp.heartbeat_timeout_s), retry_policy=schedules.JOB_RETRY)
        return result


def schedule(settings: Settings, owner: str | None = None) -> Schedule:
    every = timedelta(seconds=settings.finder_sweep_s if settings.finder_sweep_s > 0 else 300.0)
    return schedules.every(every, WORKFLOW, ReconcileInput(owner=owner, batch=settings.embedding_batch,
                                                          heartbeat_timeout_s=settings.temporal_heartbeat_timeout_s),
                           f"{SCHEDULE_ID}-run", settings.temporal_task_queue)


async def ensure_schedule(client: Client, settings: Settings, schedule_id: str = SCHEDULE_ID,
                          owner: str | None = None) -> None:
    """Create the schedule (every owner, or only `owner`), or bring an existing one up to the settings."""
    await schedules.ensure(client, schedule_id, schedule(settings, owner))
